package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"paiju/eventstore"

	"paiju/eventstore/eventstoretest"
	"paiju/eventstore/postgres"
	"paiju/internal/pgtest"
)

func open(t testing.TB, url string, opts postgres.Options) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), url, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	t.Parallel()
	t.Run("default", func(t *testing.T) {
		eventstoretest.Run(t, func(t *testing.T) *postgres.Store {
			return open(t, pgtest.NewDatabase(t), postgres.Options{})
		})
	})
	// Small batches that wait for company: exercises the batch bound and the
	// timer path of group commit.
	t.Run("small batches", func(t *testing.T) {
		eventstoretest.Run(t, func(t *testing.T) *postgres.Store {
			return open(t, pgtest.NewDatabase(t), postgres.Options{MaxBatch: 3, MaxBatchWait: time.Millisecond})
		})
	})
}

func ev(typ, data string) eventstore.NewEvent {
	return eventstore.NewEvent{Type: typ, Data: []byte(data)}
}

func mustAppend(t *testing.T, s *postgres.Store, stream string, expected int, events ...eventstore.NewEvent) eventstore.AppendResult {
	t.Helper()
	res, err := s.Append(t.Context(), stream, expected, events)
	if err != nil {
		t.Fatalf("Append(%s, %d): %v", stream, expected, err)
	}
	return res
}

func exec(t *testing.T, url string, stmts ...string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, q := range stmts {
		if _, err := conn.Exec(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestOpenRefusesLogThatLostItsTail: the head row and the log's last event
// are written together; a log that disagrees with its head (events deleted
// from the end, or the head row rewritten) is refused, not extended.
func TestOpenRefusesLogThatLostItsTail(t *testing.T) {
	t.Parallel()
	for _, tamper := range []string{
		`DELETE FROM events WHERE position = (SELECT max(position) FROM events)`,
		`UPDATE chain_head SET hash = repeat('0', 64)`,
		`UPDATE chain_head SET position = position + 1`,
	} {
		url := pgtest.NewDatabase(t)
		s := open(t, url, postgres.Options{})
		mustAppend(t, s, "table-a", 0, ev("E", `{}`), ev("E", `{}`))
		s.Close()
		exec(t, url, tamper)
		if s, err := postgres.Open(t.Context(), url, postgres.Options{}); !errors.Is(err, eventstore.ErrChainBroken) {
			if err == nil {
				s.Close()
			}
			t.Errorf("Open after %q: %v, want a chain error", tamper, err)
		}
		// Verify still opens it, to say where.
		s, err := postgres.Open(t.Context(), url, postgres.Options{NoHeadCheck: true})
		if err != nil {
			t.Fatalf("Open with NoHeadCheck: %v", err)
		}
		if err := s.CheckHead(t.Context()); !errors.Is(err, eventstore.ErrChainBroken) {
			t.Errorf("CheckHead after %q: %v, want a chain error", tamper, err)
		}
		s.Close()
	}
}

// TestMigrateBesideAnotherSchema: the store's migrations keep to their own
// table, so another schema migrated with golang-migrate's default table
// (or its own) in the same database is left alone, and Migrate is
// idempotent.
func TestMigrateBesideAnotherSchema(t *testing.T) {
	t.Parallel()
	url := pgtest.NewDatabase(t)
	exec(t, url,
		`CREATE TABLE schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL)`,
		`INSERT INTO schema_migrations VALUES (7, false)`)
	for range 2 {
		if err := postgres.Migrate(t.Context(), url); err != nil {
			t.Fatalf("Migrate: %v, want nil also when up to date", err)
		}
	}
	m, err := postgres.Migrator(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	v, dirty, err := m.Version()
	latest := m.Latest()
	m.Close()
	if err != nil || v != latest || dirty {
		t.Errorf("store schema version = %d dirty %v %v, want %d clean", v, dirty, err, latest)
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var other int
	if err := conn.QueryRow(t.Context(), `SELECT version FROM schema_migrations`).Scan(&other); err != nil || other != 7 {
		t.Errorf("the other schema's version = %d %v, want 7 untouched", other, err)
	}
	s := open(t, url, postgres.Options{})
	defer s.Close()
	mustAppend(t, s, "table-a", 0, ev("E", `{}`))
}

// TestRejectsDataPostgreSQLCannotHold: text that is not UTF-8 is refused
// before the transaction, and a batch it might have shared is unharmed.
func TestRejectsDataPostgreSQLCannotHold(t *testing.T) {
	t.Parallel()
	s := open(t, pgtest.NewDatabase(t), postgres.Options{})
	defer s.Close()
	if _, err := s.Append(t.Context(), "table-a", 0, []eventstore.NewEvent{ev("E", "{\"s\":\"\xff\"}")}); err == nil {
		t.Error("Append of data that is not UTF-8: nil error, want a validation error")
	}
	if _, err := s.Append(t.Context(), "table-\xff", 0, []eventstore.NewEvent{ev("E", `{}`)}); err == nil {
		t.Error("Append to a stream id that is not UTF-8: nil error, want a validation error")
	}
	mustAppend(t, s, "table-a", 0, ev("E", `{}`))
}

// TestCloseDuringAppends: an append racing Close either returns nil and its
// event survives, or returns an error and nothing of it is stored.
func TestCloseDuringAppends(t *testing.T) {
	t.Parallel()
	url := pgtest.NewDatabase(t)
	s := open(t, url, postgres.Options{})
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

	s = open(t, url, postgres.Options{})
	defer s.Close()
	for i, es := range errs {
		events, err := s.Load(t.Context(), fmt.Sprintf("table-%d", i), 0)
		if err != nil {
			t.Fatal(err)
		}
		if last := es[len(es)-1]; !errors.Is(last, eventstore.ErrClosed) {
			t.Errorf("writer %d: append after Close: %v, want ErrClosed", i, last)
		}
		if ok := len(es) - 1; len(events) != ok {
			t.Errorf("writer %d: %d appends returned nil, %d events stored: acknowledged means stored, failed means not", i, ok, len(events))
		}
	}
	if err := eventstore.VerifyChain(t.Context(), s, 0, ""); err != nil {
		t.Errorf("VerifyChain after Close during appends: %v", err)
	}
}
