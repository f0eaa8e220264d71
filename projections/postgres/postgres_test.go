package postgres

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/internal/pgtest"
	"paiju/migrations/postgres/store"
	"paiju/migrations/schema"
	"paiju/projections"
	"paiju/projections/projectionstest"
	psqlite "paiju/projections/sqlite"
)

func shanghai(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(projections.DefaultLocation)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// openSuite opens a database of its own for t; again opens another pool on
// it, as another node would.
func openSuite(t testing.TB, now func() time.Time) (projectionstest.DB, func() projectionstest.DB) {
	t.Helper()
	url := pgtest.NewDatabase(t)
	open := func() projectionstest.DB {
		t.Helper()
		db, err := Open(context.Background(), url, Options{Location: shanghai(t), Now: now, Rater: projectionstest.Rater()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	return open(), open
}

func TestConformance(t *testing.T) { projectionstest.Run(t, openSuite) }

// TestSameAnswersAsSQLite feeds the same random logs to both stores and
// compares every read the API makes.
func TestSameAnswersAsSQLite(t *testing.T) {
	ctx := context.Background()
	for _, seed := range []uint64{1, 2, 3, 4} {
		l := projectionstest.RandomLog(seed, 14, projectionstest.Events(900))
		if seed == 4 {
			l = projectionstest.LongHandsLog(seed, 14, projectionstest.Events(2000))
		}
		pg, _ := openSuite(t, l.Now)
		lite, err := psqlite.Open(ctx, filepath.Join(t.TempDir(), "projections.db"), psqlite.Options{Location: shanghai(t), Now: l.Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { lite.Close() })
		for _, n := range projections.Names {
			for _, db := range []projections.Store{pg, lite} {
				if err := projections.CatchUp(ctx, db, n, l); err != nil {
					t.Fatal(err)
				}
			}
		}
		got, want := projectionstest.Snapshot(t, pg, l), projectionstest.Snapshot(t, lite, l)
		if got != want {
			t.Fatalf("seed %d: PostgreSQL answers otherwise than SQLite:\n%s", seed, projectionstest.Diff(got, want))
		}
	}
}

// TestSameTournamentsAsSQLite: the tournaments projection answers the same
// in both stores, applied in batches of different sizes.
func TestSameTournamentsAsSQLite(t *testing.T) {
	ctx := context.Background()
	tl := projectionstest.NewTournamentLog(5)
	pg, _ := openSuite(t, tl.Now)
	lite, err := psqlite.Open(ctx, filepath.Join(t.TempDir(), "projections.db"), psqlite.Options{Location: shanghai(t), Now: tl.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	if err := projections.CatchUp(ctx, pg, projections.Tournaments, tl); err != nil {
		t.Fatal(err)
	}
	for _, ev := range tl.Events {
		if _, err := lite.ApplyBatch(ctx, projections.Tournaments, []eventstore.Event{ev}); err != nil {
			t.Fatal(err)
		}
	}
	got, want := projectionstest.TournamentSnapshot(t, pg, tl), projectionstest.TournamentSnapshot(t, lite, tl)
	if got != want {
		t.Fatalf("PostgreSQL answers otherwise than SQLite:\n%s", projectionstest.Diff(got, want))
	}
}

// TestLease: one holder of a projection's lease at a time; released on
// Release and on Close.
func TestLease(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	a, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	la, ok, err := a.TryLease(ctx, projections.Hands)
	if err != nil || !ok {
		t.Fatalf("first lease of hands: %v %v", ok, err)
	}
	if err := la.Held(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := b.TryLease(ctx, projections.Hands); err != nil || ok {
		t.Fatalf("second lease of hands while the first is held: %v %v, want refused", ok, err)
	}
	lb, ok, err := b.TryLease(ctx, projections.Directory)
	if err != nil || !ok {
		t.Fatalf("lease of another projection: %v %v", ok, err)
	}
	if err := la.Release(); err != nil {
		t.Fatal(err)
	}
	if err := la.Held(ctx); err == nil {
		t.Fatal("a released lease says it is held")
	}
	lb2, ok, err := b.TryLease(ctx, projections.Hands)
	if err != nil || !ok {
		t.Fatalf("lease of hands after its release: %v %v", ok, err)
	}
	if err := lb.Held(ctx); err != nil {
		t.Fatal(err)
	}
	_ = lb2 // released by b.Close
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := a.TryLease(ctx, projections.Hands); err != nil || !ok {
		t.Fatalf("lease of hands after its holder closed: %v %v", ok, err)
	}
	if _, _, err := a.TryLease(ctx, "nope"); !errors.Is(err, projections.ErrUnknown) {
		t.Fatalf("lease of an unknown projection: %v", err)
	}
}

// TestMigrationsShareTheDatabase: the projections keep their schema
// version in a table of their own, beside the event store's in the same
// database, and opening again migrates nothing.
func TestMigrationsShareTheDatabase(t *testing.T) {
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	if err := schema.UpPostgres(ctx, url, store.FS, store.MigrationsTable); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		db, err := Open(ctx, url, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var v int
		var dirty bool
		if err := db.pool.QueryRow(ctx, `SELECT version, dirty FROM projections_schema_migrations`).Scan(&v, &dirty); err != nil || v != 14 || dirty {
			t.Fatalf("projections_schema_migrations: %d %v %v", v, dirty, err)
		}
		var storeVersion int
		if err := db.pool.QueryRow(ctx, `SELECT version FROM `+store.MigrationsTable).Scan(&storeVersion); err != nil || storeVersion < 1 {
			t.Fatalf("the event store's schema beside the projections': version %d, %v", storeVersion, err)
		}
		var other bool
		if err := db.pool.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&other); err != nil || other {
			t.Fatalf("golang-migrate's default table exists (%v, %v): every schema names its own", other, err)
		}
		db.Close()
	}
}

// BenchmarkSuiteApplyBatch measures batched apply on the conformance
// suite's random log of 50 tables (projections/sqlite reports the same).
func BenchmarkSuiteApplyBatch(b *testing.B) { projectionstest.BenchApplyBatch(b, openSuite) }

func BenchmarkSuiteApplyTournaments(b *testing.B) {
	projectionstest.BenchApplyTournaments(b, openSuite)
}

// BenchmarkSuiteApplyBatchByProjection measures each projection alone.
func BenchmarkSuiteApplyBatchByProjection(b *testing.B) {
	projectionstest.BenchApplyBatchByProjection(b, openSuite)
}

// BenchmarkSuiteApplyBatchOneTable measures batched apply on one table of
// short hands.
func BenchmarkSuiteApplyBatchOneTable(b *testing.B) {
	projectionstest.BenchApplyBatchOneTable(b, openSuite)
}

// BenchmarkSuiteApplyBatchLongHands measures batched apply on hands as long
// as the games'.
func BenchmarkSuiteApplyBatchLongHands(b *testing.B) {
	projectionstest.BenchApplyBatchLongHands(b, openSuite)
}

// TestCheckpointRowsDeleted: a checkpoint row deleted by hand is created
// again by the next batch, which then applies from position 0.
func TestCheckpointRowsDeleted(t *testing.T) {
	ctx := context.Background()
	l := projectionstest.RandomLog(4, 3, 120)
	db, err := Open(ctx, pgtest.NewDatabase(t), Options{Now: l.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.pool.Exec(ctx, `DELETE FROM projection_checkpoints`); err != nil {
		t.Fatal(err)
	}
	for _, n := range projections.Names {
		if cp, err := db.Checkpoint(ctx, n); err != nil || cp != 0 {
			t.Fatalf("%s without a row: %d, %v", n, cp, err)
		}
		if err := projections.CatchUp(ctx, db, n, l); err != nil {
			t.Fatal(err)
		}
		if cp, err := db.Checkpoint(ctx, n); err != nil || cp != int64(len(l.Events)) {
			t.Fatalf("%s after catching up: %d, %v; want %d", n, cp, err, len(l.Events))
		}
	}
	fresh, _ := openSuite(t, l.Now)
	for _, n := range projections.Names {
		if err := projections.CatchUp(ctx, fresh, n, l); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := projectionstest.Snapshot(t, db, l), projectionstest.Snapshot(t, fresh, l); got != want {
		t.Fatalf("rows after the checkpoint rows were recreated:\n%s", projectionstest.Diff(got, want))
	}
}

// TestServerRefusedWrite: a write PostgreSQL refuses (a NUL in a name, which
// its text cannot hold) fails the batch, which applies nothing, and leaves
// no transaction open on the pool's connections.
func TestServerRefusedWrite(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, pgtest.NewDatabase(t), Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	l := projectionstest.NewLog(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	l.Add("table-T1", time.Second, table.TableOpened{TableID: "T1", Game: "g", Variant: "v", Seats: 3, Stake: 1})
	l.Add("table-T1", time.Second, table.PlayerSeated{Seat: 0, PlayerID: "A", Name: "a\x00b"})
	l.Events[1].Data = []byte(`{"seat":0,"player_id":"A","name":"a\u0000b"}`)
	for range 5 {
		if _, err := db.ApplyBatch(ctx, projections.Leaderboards, l.Events); err == nil {
			t.Fatal("a name with a NUL applied")
		}
	}
	if cp, err := db.Checkpoint(ctx, projections.Leaderboards); err != nil || cp != 0 {
		t.Fatalf("checkpoint %d, %v after refused batches; want 0", cp, err)
	}
	if n, err := db.ApplyBatch(ctx, projections.Leaderboards, l.Events[:1]); err != nil || n != 1 {
		t.Fatalf("the event before the refused one: %d, %v", n, err)
	}
	var open int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`).Scan(&open); err != nil || open != 0 {
		t.Fatalf("%d connections idle in a transaction (%v), want none", open, err)
	}
}

// BenchmarkSuiteApplyBatchConcurrent measures batched apply with the three
// projections applied at once, as the feed applies them.
func BenchmarkSuiteApplyBatchConcurrent(b *testing.B) {
	projectionstest.BenchApplyBatchConcurrent(b, openSuite)
}

// TestHandDealtAgainAsSQLite: a hand number dealt again after its
// settlement gives the same answers in both stores, whatever the batches.
func TestHandDealtAgainAsSQLite(t *testing.T) {
	ctx := context.Background()
	l := projectionstest.RedealtLog()
	lite, err := psqlite.Open(ctx, filepath.Join(t.TempDir(), "projections.db"), psqlite.Options{Location: shanghai(t), Now: l.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	for _, ev := range l.Events {
		for _, n := range projections.Names {
			if _, err := lite.ApplyBatch(ctx, n, []eventstore.Event{ev}); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := projectionstest.Snapshot(t, lite, l)
	for _, split := range []int{0, 5, 7, 9, len(l.Events)} {
		pg, _ := openSuite(t, l.Now)
		for _, n := range projections.Names {
			for _, b := range [][]eventstore.Event{l.Events[:split], l.Events[split:]} {
				if len(b) == 0 {
					continue
				}
				if _, err := pg.ApplyBatch(ctx, n, b); err != nil {
					t.Fatal(err)
				}
			}
		}
		if got := projectionstest.Snapshot(t, pg, l); got != want {
			t.Fatalf("split at %d: PostgreSQL answers otherwise than SQLite:\n%s", split, projectionstest.Diff(got, want))
		}
	}
}
