package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"paiju/eventstore"
	"paiju/eventstore/eventstoretest"
	"paiju/eventstore/sqlite"
)

type paths struct{ db, head string }

func newPaths(t *testing.T) paths {
	dir := t.TempDir()
	return paths{db: filepath.Join(dir, "paiju.db"), head: filepath.Join(dir, "head")}
}

func open(t *testing.T, p paths, opts sqlite.Options) *sqlite.Store {
	t.Helper()
	opts.HeadFile = p.head
	s, err := sqlite.Open(t.Context(), p.db, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", p.db, err)
	}
	return s
}

func openClosed(t *testing.T, p paths) *sqlite.Store {
	t.Helper()
	s := open(t, p, sqlite.Options{})
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	t.Parallel()
	t.Run("default", func(t *testing.T) {
		eventstoretest.Run(t, func(t *testing.T) eventstore.Store {
			return open(t, newPaths(t), sqlite.Options{})
		})
	})
	// Small batches that wait for company: exercises the batch bound and the
	// timer path of group commit. NORMAL keeps it quick.
	t.Run("small batches", func(t *testing.T) {
		eventstoretest.Run(t, func(t *testing.T) eventstore.Store {
			return open(t, newPaths(t), sqlite.Options{Synchronous: "NORMAL", MaxBatch: 3, MaxBatchWait: time.Millisecond})
		})
	})
}

func ev(typ, data string) eventstore.NewEvent {
	return eventstore.NewEvent{Type: typ, Data: []byte(data)}
}

func mustAppend(t *testing.T, s *sqlite.Store, stream string, expected int, events ...eventstore.NewEvent) eventstore.AppendResult {
	t.Helper()
	res, err := s.Append(t.Context(), stream, expected, events)
	if err != nil {
		t.Fatalf("Append(%s, %d): %v", stream, expected, err)
	}
	return res
}

// seed appends six events over two streams: positions 1..6.
func seed(t *testing.T, s *sqlite.Store) {
	t.Helper()
	mustAppend(t, s, "table-a", 0, ev("TableOpened", `{"game":"doudizhu"}`), ev("PlayerSeated", `{"seat":0}`))
	mustAppend(t, s, "table-b", 0, ev("TableOpened", `{"game":"shengji"}`))
	mustAppend(t, s, "table-a", 2, ev("PlayerSeated", `{"seat":1}`))
	mustAppend(t, s, "table-b", 1, ev("PlayerSeated", `{"seat":0}`), ev("PlayerSeated", `{"seat":1}`))
}

func TestHeadFileFollowsCommits(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := open(t, p, sqlite.Options{})
	if _, _, err := sqlite.ReadHeadFile(p.head); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadHeadFile before any append: %v, want fs.ErrNotExist", err)
	}
	seed(t, s)
	pos, hash, err := s.Head(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// While open the file may trail the log; it never runs ahead of it.
	if fpos, _, err := sqlite.ReadHeadFile(p.head); err == nil && fpos > pos {
		t.Errorf("head file at %d ahead of the log at %d (store.go, Chain head)", fpos, pos)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fpos, fhash, err := sqlite.ReadHeadFile(p.head)
	if err != nil || fpos != pos || fhash != hash {
		t.Fatalf("head file after Close = %d %s %v, want the store's head %d %s (store.go, Chain head)", fpos, fhash, err, pos, hash)
	}
	raw, _ := os.ReadFile(p.head)
	if want := fmt.Sprintf("%d %s\n", pos, hash); string(raw) != want {
		t.Errorf("head file holds %q, want %q", raw, want)
	}
	leftovers, _ := filepath.Glob(p.head + ".tmp*")
	if len(leftovers) != 0 {
		t.Errorf("temporary head files left behind: %v", leftovers)
	}
}

func TestReadHeadFileRejectsGarbage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := strings.Repeat("ab", 32)
	for _, content := range []string{
		"", "\n", "3\n", "3 " + good, "x " + good + "\n", "0 " + good + "\n",
		"3 " + good[:62] + "\n", "3 " + strings.ToUpper(good) + "\n", "3  " + good + "\n",
	} {
		path := filepath.Join(dir, "head")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if pos, hash, err := sqlite.ReadHeadFile(path); err == nil {
			t.Errorf("ReadHeadFile(%q) = %d %s, want an error", content, pos, hash)
		}
	}
}

func TestReopenLosesNothing(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := open(t, p, sqlite.Options{})
	seed(t, s)
	before, err := s.ReadAll(t.Context(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := s.Append(t.Context(), "table-c", 0, []eventstore.NewEvent{ev("E", `{}`)}); !errors.Is(err, eventstore.ErrClosed) {
		t.Errorf("Append after Close: %v, want ErrClosed", err)
	}

	s = openClosed(t, p)
	after, err := s.ReadAll(t.Context(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("after reopening the log is\n%v\nwant\n%v", after, before)
	}
	hpos, hhash, err := sqlite.ReadHeadFile(p.head)
	if err != nil {
		t.Fatal(err)
	}
	pos, hash, err := s.Head(t.Context())
	if err != nil || pos != hpos || hash != hhash {
		t.Fatalf("after reopening Head = %d %s %v, want the head file's %d %s", pos, hash, err, hpos, hhash)
	}
	if err := eventstore.VerifyChain(t.Context(), s, hpos, hhash); err != nil {
		t.Fatalf("VerifyChain after reopening: %v", err)
	}
	// The chain continues from the stored head.
	res := mustAppend(t, s, "table-a", 3, ev("E", `{}`))
	if res.Positions[0] != 7 {
		t.Errorf("first append after reopening at position %d, want 7", res.Positions[0])
	}
	if err := eventstore.VerifyChain(t.Context(), s, 0, ""); err != nil {
		t.Fatalf("VerifyChain after appending to a reopened store: %v", err)
	}
}

// tamper edits the database behind the store's back, as someone with the
// file and the sqlite3 shell could.
func tamper(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("tamper %q: %v", q, err)
		}
	}
}

// rehash recomputes every hash from position from on, as a forger who knows
// the hash function would after editing an event.
func rehash(t *testing.T, path string, from int64) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := t.Context()
	var prev string
	if err := db.QueryRowContext(ctx, `SELECT hash FROM events WHERE position = ?`, from-1).Scan(&prev); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, `SELECT position, stream, version, type, data FROM events WHERE position >= ? ORDER BY position`, from)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		pos        int64
		prev, hash string
	}
	var updates []row
	for rows.Next() {
		var (
			pos         int64
			stream, typ string
			version     int
			data        []byte
		)
		if err := rows.Scan(&pos, &stream, &version, &typ, &data); err != nil {
			t.Fatal(err)
		}
		h := eventstore.Hash(prev, stream, version, typ, data)
		updates = append(updates, row{pos, prev, h})
		prev = h
	}
	rows.Close()
	for _, u := range updates {
		if _, err := db.ExecContext(ctx, `UPDATE events SET prev_hash = ?, hash = ? WHERE position = ?`, u.prev, u.hash, u.pos); err != nil {
			t.Fatal(err)
		}
	}
}

func TestVerifyChainDetectsTampering(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(t *testing.T, db string)
		// first bad position VerifyChain must name, with and without the
		// head file; 0 means the edit is not detectable that way.
		withHead, withoutHead int64
	}{
		{"flipped byte in data", func(t *testing.T, db string) {
			tamper(t, db, `UPDATE events SET data = replace(data, 'shengji', 'shengjI') WHERE position = 3`)
		}, 3, 3},
		{"changed type", func(t *testing.T, db string) {
			tamper(t, db, `UPDATE events SET type = 'PlayerLeft' WHERE position = 2`)
		}, 2, 2},
		{"changed version", func(t *testing.T, db string) {
			tamper(t, db, `UPDATE events SET version = 9 WHERE position = 6`)
		}, 6, 6},
		{"deleted row in the middle", func(t *testing.T, db string) {
			tamper(t, db, `DELETE FROM events WHERE position = 4`)
		}, 4, 4},
		{"deleted row at the tail", func(t *testing.T, db string) {
			tamper(t, db, `DELETE FROM events WHERE position = 6`)
		}, 6, 0}, // only the head kept outside the database sees it
		{"swapped rows", func(t *testing.T, db string) {
			tamper(t, db,
				`UPDATE events SET position = 100 WHERE position = 2`,
				`UPDATE events SET position = 2 WHERE position = 3`,
				`UPDATE events SET position = 3 WHERE position = 100`)
		}, 2, 2},
		{"edited and rehashed", func(t *testing.T, db string) {
			tamper(t, db, `UPDATE events SET data = '{"seat":3}' WHERE position = 2`)
			rehash(t, db, 2)
		}, 6, 0}, // a consistent forgery: only the head's hash differs
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPaths(t)
			s := open(t, p, sqlite.Options{})
			seed(t, s)
			if err := eventstore.VerifyChain(t.Context(), s, 0, ""); err != nil {
				t.Fatalf("VerifyChain before tampering: %v", err)
			}
			if err := s.Close(); err != nil { // brings the head file up to date
				t.Fatal(err)
			}
			tt.edit(t, p.db)
			hpos, hhash, err := sqlite.ReadHeadFile(p.head)
			if err != nil {
				t.Fatal(err)
			}
			// Opened as `paiju verify` would: reading, without a head file
			// of its own (Open would refuse some of these databases).
			s, err = sqlite.Open(t.Context(), p.db, sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			for _, c := range []struct {
				desc    string
				pos     int64
				hash    string
				wantPos int64
			}{
				{"with the head file", hpos, hhash, tt.withHead},
				{"without a head", 0, "", tt.withoutHead},
			} {
				err := eventstore.VerifyChain(t.Context(), s, c.pos, c.hash)
				var ce *eventstore.ChainError
				if c.wantPos == 0 {
					if err != nil {
						t.Errorf("%s: VerifyChain: %v, want nil (this edit leaves a consistent chain)", c.desc, err)
					}
					continue
				}
				if !errors.As(err, &ce) || ce.Position != c.wantPos || !errors.Is(err, eventstore.ErrChainBroken) {
					t.Errorf("%s: VerifyChain: %v, want a *ChainError at position %d (verify.go, VerifyChain; DESIGN.md, Event store)", c.desc, err, c.wantPos)
				}
			}
		})
	}
}

func TestOpenRefusesDatabaseThatLostItsHead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit string
	}{
		{"tail removed", `DELETE FROM events WHERE position = 6`},
		{"head event rewritten", `UPDATE events SET hash = replace(hash, substr(hash, 1, 1), 'x') WHERE position = 6`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPaths(t)
			s := open(t, p, sqlite.Options{})
			seed(t, s)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			tamper(t, p.db, tt.edit)
			s, err := sqlite.Open(t.Context(), p.db, sqlite.Options{HeadFile: p.head})
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded on a database that does not hold the head file's event, want a *ChainError (store.go, Chain head)")
			}
			if !errors.Is(err, eventstore.ErrChainBroken) {
				t.Errorf("Open: %v, want an error matching ErrChainBroken", err)
			}
		})
	}
}

func TestAppendRefusesToExtendTruncatedLog(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := openClosed(t, p)
	seed(t, s)
	tamper(t, p.db, `DELETE FROM events WHERE position = 6`)
	_, err := s.Append(t.Context(), "table-c", 0, []eventstore.NewEvent{ev("E", `{}`)})
	if !errors.Is(err, eventstore.ErrChainBroken) {
		t.Fatalf("Append after the tail was removed: %v, want ErrChainBroken: positions are gap-free (eventstore.go, Event.Position)", err)
	}
	if pos, _, _ := s.Head(t.Context()); pos != 5 {
		t.Errorf("Head = %d after a refused append, want 5", pos)
	}
}

// TestDataKeptByteForByte: data comes back exactly as appended, whatever its
// bytes (eventstore.go, Event.Data), or the chain hash could not be
// recomputed from it.
func TestDataKeptByteForByte(t *testing.T) {
	t.Parallel()
	s := openClosed(t, newPaths(t))
	datas := []string{
		"{\"s\":\"\xff\xfe\"}", // not UTF-8
		"{\"s\":\"\\u0000 牌局\"}",
		" [1, 2.50, 1e3] ",
		"\"\"",
		"null",
	}
	for i, d := range datas {
		mustAppend(t, s, "table-a", i, ev("E", d))
	}
	events, err := s.Load(t.Context(), "table-a", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range events {
		if string(e.Data) != datas[i] {
			t.Errorf("version %d data = %q, want %q", e.Version, e.Data, datas[i])
		}
	}
	if err := eventstore.VerifyChain(t.Context(), s, 0, ""); err != nil {
		t.Error(err)
	}
}

func TestAppendRejectsInvalidInput(t *testing.T) {
	t.Parallel()
	s := openClosed(t, newPaths(t))
	tests := []struct {
		name     string
		stream   string
		expected int
		events   []eventstore.NewEvent
	}{
		{"empty stream id", "", 0, []eventstore.NewEvent{ev("E", `{}`)}},
		{"negative expected version", "table-a", -1, []eventstore.NewEvent{ev("E", `{}`)}},
		{"no events", "table-a", 0, nil},
		{"empty type", "table-a", 0, []eventstore.NewEvent{ev("", `{}`)}},
		{"data not JSON", "table-a", 0, []eventstore.NewEvent{ev("E", `{"a":`)}},
		{"nil data", "table-a", 0, []eventstore.NewEvent{{Type: "E"}}},
	}
	for _, tt := range tests {
		if _, err := s.Append(t.Context(), tt.stream, tt.expected, tt.events); err == nil || errors.Is(err, eventstore.ErrConflict) {
			t.Errorf("%s: Append: %v, want a validation error", tt.name, err)
		}
	}
	if pos, _, _ := s.Head(t.Context()); pos != 0 {
		t.Errorf("invalid appends stored events: head at %d", pos)
	}
	if _, err := s.ReadAll(t.Context(), 0, 0); err == nil {
		t.Error("ReadAll with limit 0: nil error, want one")
	}
}

func TestAppendIdempotent(t *testing.T) {
	t.Parallel()
	s := openClosed(t, newPaths(t))
	ctx := t.Context()
	key := eventstore.IdempotencyKey{Scope: "player-1", Key: "k-1", RequestHash: "req-a"}

	mustAppend(t, s, "table-a", 0, ev("TableOpened", `{}`))
	res, err := s.AppendIdempotent(ctx, "table-a", 1, []eventstore.NewEvent{ev("Bid", `{"n":1}`), ev("Bid", `{"n":2}`)}, key)
	if err != nil || res.Version != 3 {
		t.Fatalf("AppendIdempotent: %+v %v, want version 3", res, err)
	}
	rec, found, err := s.LookupIdempotency(ctx, "player-1", "k-1")
	if err != nil || !found {
		t.Fatalf("LookupIdempotency after the append: %+v %v %v, want found", rec, found, err)
	}
	if rec.Stream != "table-a" || rec.FirstVersion != 2 || rec.LastVersion != 3 || rec.RequestHash != "req-a" || rec.CreatedAt.IsZero() {
		t.Errorf("idempotency record = %+v, want table-a versions 2..3 with request hash req-a", rec)
	}

	// A retry (at the old expected version) and a reuse of the key for another
	// request both store nothing and report the first use.
	for _, retry := range []struct {
		stream   string
		expected int
		hash     string
	}{
		{"table-a", 1, "req-a"},
		{"table-a", 3, "req-b"},
		{"table-z", 0, "req-c"},
	} {
		k := key
		k.RequestHash = retry.hash
		_, err := s.AppendIdempotent(ctx, retry.stream, retry.expected, []eventstore.NewEvent{ev("Bid", `{"n":9}`)}, k)
		var de *eventstore.DuplicateKeyError
		if !errors.As(err, &de) || !errors.Is(err, eventstore.ErrDuplicateKey) {
			t.Fatalf("AppendIdempotent with a used key on %s: %v, want *DuplicateKeyError (idempotency.go)", retry.stream, err)
		}
		if de.Record != rec {
			t.Errorf("DuplicateKeyError.Record = %+v, want the first use %+v", de.Record, rec)
		}
	}
	if pos, _, _ := s.Head(ctx); pos != 3 {
		t.Errorf("head at %d after duplicate keys, want 3: a duplicate key stores nothing", pos)
	}

	// The same key of another player is another key.
	other := eventstore.IdempotencyKey{Scope: "player-2", Key: "k-1", RequestHash: "req-a"}
	if _, err := s.AppendIdempotent(ctx, "table-a", 3, []eventstore.NewEvent{ev("Bid", `{}`)}, other); err != nil {
		t.Errorf("AppendIdempotent with player-2's k-1: %v, want success: keys are scoped by player", err)
	}

	// A conflicting append records no key: the retry must be able to land.
	k2 := eventstore.IdempotencyKey{Scope: "player-1", Key: "k-2", RequestHash: "req-d"}
	if _, err := s.AppendIdempotent(ctx, "table-a", 1, []eventstore.NewEvent{ev("Bid", `{}`)}, k2); !errors.Is(err, eventstore.ErrConflict) {
		t.Fatalf("AppendIdempotent at a stale version: %v, want a conflict", err)
	}
	if _, found, err := s.LookupIdempotency(ctx, "player-1", "k-2"); found || err != nil {
		t.Errorf("LookupIdempotency after a conflicting append: found %v, %v; want not found: the key is stored only with its events", found, err)
	}
	if _, err := s.AppendIdempotent(ctx, "table-a", 4, []eventstore.NewEvent{ev("Bid", `{}`)}, k2); err != nil {
		t.Errorf("AppendIdempotent retried at the right version: %v", err)
	}
	if _, err := s.AppendIdempotent(ctx, "table-a", 5, []eventstore.NewEvent{ev("Bid", `{}`)}, eventstore.IdempotencyKey{Scope: "player-1"}); err == nil {
		t.Error("AppendIdempotent with an empty key: nil error, want one")
	}
}

func TestPlayers(t *testing.T) {
	t.Parallel()
	s := openClosed(t, newPaths(t))
	ctx := t.Context()
	at := time.Date(2025, 1, 2, 3, 4, 5, 6, time.FixedZone("CST", 8*3600))
	alice := sqlite.Player{ID: "p-alice", Name: "阿丽", TokenHash: "th-alice", CreatedAt: at}
	if err := s.CreatePlayer(ctx, alice); err != nil {
		t.Fatalf("CreatePlayer: %v", err)
	}
	if err := s.CreatePlayer(ctx, sqlite.Player{ID: "p-bob", Name: "Bob", TokenHash: "th-bob"}); err != nil {
		t.Fatalf("CreatePlayer: %v", err)
	}
	want := alice
	want.CreatedAt = at.UTC()
	for _, lookup := range []struct {
		name string
		get  func() (sqlite.Player, error)
	}{
		{"by id", func() (sqlite.Player, error) { return s.PlayerByID(ctx, "p-alice") }},
		{"by token hash", func() (sqlite.Player, error) { return s.PlayerByTokenHash(ctx, "th-alice") }},
	} {
		got, err := lookup.get()
		if err != nil || got != want {
			t.Errorf("player %s = %+v, %v; want %+v", lookup.name, got, err, want)
		}
	}
	bob, err := s.PlayerByID(ctx, "p-bob")
	if err != nil || bob.CreatedAt.IsZero() || bob.CreatedAt.Location() != time.UTC {
		t.Errorf("player created without a time: %+v %v, want CreatedAt set to now in UTC", bob, err)
	}

	if _, err := s.PlayerByID(ctx, "p-nobody"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("PlayerByID of an unknown id: %v, want ErrNotFound", err)
	}
	if _, err := s.PlayerByTokenHash(ctx, "th-nobody"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("PlayerByTokenHash of an unknown hash: %v, want ErrNotFound", err)
	}
	for _, dup := range []sqlite.Player{
		{ID: "p-alice", Name: "x", TokenHash: "th-new"},
		{ID: "p-new", Name: "x", TokenHash: "th-bob"},
	} {
		if err := s.CreatePlayer(ctx, dup); !errors.Is(err, eventstore.ErrExists) {
			t.Errorf("CreatePlayer(%+v) reusing an id or token hash: %v, want ErrExists", dup, err)
		}
	}
}

func TestCheckpoints(t *testing.T) {
	t.Parallel()
	s := openClosed(t, newPaths(t))
	ctx := t.Context()
	if pos, err := s.Checkpoint(ctx, "nats-relay"); err != nil || pos != 0 {
		t.Fatalf("Checkpoint never set = %d %v, want 0", pos, err)
	}
	for _, pos := range []int64{5, 42, 0} {
		if err := s.SetCheckpoint(ctx, "nats-relay", pos); err != nil {
			t.Fatalf("SetCheckpoint(%d): %v", pos, err)
		}
		if got, err := s.Checkpoint(ctx, "nats-relay"); err != nil || got != pos {
			t.Errorf("Checkpoint after SetCheckpoint(%d) = %d %v", pos, got, err)
		}
	}
	if err := s.SetCheckpoint(ctx, "hand-history", 7); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Checkpoint(ctx, "nats-relay"); got != 0 {
		t.Errorf("checkpoints of different names share a value: nats-relay = %d, want 0", got)
	}
	if err := s.SetCheckpoint(ctx, "x", -1); err == nil {
		t.Error("SetCheckpoint(-1): nil error, want one")
	}
}

func TestStreams(t *testing.T) {
	t.Parallel()
	s := openClosed(t, newPaths(t))
	got, err := s.Streams(t.Context())
	if err != nil || len(got) != 0 {
		t.Fatalf("Streams of an empty store = %v %v", got, err)
	}
	seed(t, s)
	mustAppend(t, s, "table-0", 0, ev("E", `{}`))
	got, err = s.Streams(t.Context())
	if err != nil || fmt.Sprint(got) != "[table-0 table-a table-b]" {
		t.Errorf("Streams = %v %v, want [table-0 table-a table-b], each once", got, err)
	}
}

func TestMigrate(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	for range 2 {
		if err := sqlite.Migrate(t.Context(), p.db); err != nil {
			t.Fatalf("Migrate: %v, want nil also when up to date", err)
		}
	}
	s := openClosed(t, p)
	mustAppend(t, s, "table-a", 0, ev("E", `{}`))
	for _, bad := range []string{"", ":memory:", "file:x.db", filepath.Join(t.TempDir(), "a?b.db")} {
		if err := sqlite.Migrate(t.Context(), bad); err == nil {
			t.Errorf("Migrate(%q): nil error, want one", bad)
		}
	}
	if _, err := sqlite.Open(t.Context(), p.db, sqlite.Options{Synchronous: "OFF"}); err == nil {
		t.Error("Open with synchronous OFF: nil error, want one (only FULL and NORMAL are offered)")
	}
}

// TestCloseDuringAppends: an append racing Close either returns nil and its
// event survives, or returns an error and nothing of it is stored.
func TestCloseDuringAppends(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := open(t, p, sqlite.Options{})
	const writers = 8
	errs := make([][]error, writers)
	var (
		wg     sync.WaitGroup
		landed atomic.Int64
		enough = make(chan struct{})
	)
	for i := range writers {
		wg.Go(func() {
			for n := 0; ; n++ {
				_, err := s.Append(context.Background(), fmt.Sprintf("table-%d", i), n, []eventstore.NewEvent{ev("E", `{}`)})
				errs[i] = append(errs[i], err)
				if err != nil {
					return
				}
				// Close once some appends have landed: a count, not a time.
				if landed.Add(1) == 20 {
					close(enough)
				}
			}
		})
	}
	stopped := make(chan struct{})
	go func() { wg.Wait(); close(stopped) }()
	select {
	case <-enough:
	case <-stopped:
		t.Fatalf("every writer stopped before 20 appends landed: %v", errs)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	wg.Wait()

	s = openClosed(t, p)
	for i, es := range errs {
		events, err := s.Load(t.Context(), fmt.Sprintf("table-%d", i), 0)
		if err != nil {
			t.Fatal(err)
		}
		ok := len(es) - 1
		if last := es[len(es)-1]; !errors.Is(last, eventstore.ErrClosed) {
			t.Errorf("writer %d: append after Close: %v, want ErrClosed", i, last)
		}
		if len(events) != ok {
			t.Errorf("writer %d: %d appends returned nil, %d events stored: acknowledged means stored, failed means not", i, ok, len(events))
		}
	}
	if err := eventstore.VerifyChain(t.Context(), s, 0, ""); err != nil {
		t.Errorf("VerifyChain after Close during appends: %v", err)
	}
}
