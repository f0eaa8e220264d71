package sqlite

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"paiju/eventstore"
)

func openTest(t *testing.T, opts Options) *Store {
	t.Helper()
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "paiju.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestPragmas(t *testing.T) {
	tests := []struct {
		synchronous string
		want        int // SQLite's numeric value
	}{
		{"", 2}, // FULL by default (store.go, Durability)
		{"FULL", 2},
		{"normal", 1},
	}
	for _, tt := range tests {
		s := openTest(t, Options{Synchronous: tt.synchronous})
		ctx := t.Context()
		var mode string
		var sync, fk int
		if err := s.wdb.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q %v, want wal (DESIGN.md, Event store)", mode, err)
		}
		if err := s.wdb.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil || sync != tt.want {
			t.Errorf("Synchronous %q: PRAGMA synchronous = %d %v, want %d", tt.synchronous, sync, err, tt.want)
		}
		if err := s.wdb.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
			t.Errorf("foreign_keys = %d %v, want 1", fk, err)
		}
		if _, err := s.rdb.ExecContext(ctx, "DELETE FROM events"); err == nil {
			t.Error("the read pool accepted a write, want it query-only")
		}
	}
}

func req(ctx context.Context, stream string, expected int, key *eventstore.IdempotencyKey, types ...string) *appendRequest {
	r := &appendRequest{ctx: ctx, stream: stream, expected: expected, key: key, done: make(chan appendResponse, 1)}
	for _, typ := range types {
		r.events = append(r.events, eventstore.NewEvent{Type: typ, Data: []byte(`{}`)})
	}
	return r
}

// TestGroupCommitKeepsAppendsApart runs one batch as the writer would after
// gathering it: each append keeps its own expected-version check, key check
// and result (store.go, Writers and readers), and the batch is one commit.
func TestGroupCommitKeepsAppendsApart(t *testing.T) {
	s := openTest(t, Options{})
	ctx := t.Context()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	key := &eventstore.IdempotencyKey{Scope: "p1", Key: "k", RequestHash: "h"}
	batch := []*appendRequest{
		req(ctx, "table-a", 0, nil, "A1", "A2"), // lands at 1, 2
		req(ctx, "table-b", 3, nil, "B1"),       // conflict: table-b is new
		req(ctx, "table-a", 2, nil, "A3"),       // sees the first append of the batch
		req(ctx, "table-c", 0, key, "C1"),       // lands with its key
		req(ctx, "table-d", 0, key, "D1"),       // same key, same batch: duplicate
		req(ctx, "table-a", 0, nil, "A1'"),      // conflict against the batch's own appends
		req(cancelled, "table-e", 0, nil, "E1"), // gave up before the transaction
	}
	s.commit(batch)
	resps := make([]appendResponse, len(batch))
	for i, r := range batch {
		resps[i] = <-r.done
	}

	type want struct {
		positions []int64
		version   int
		err       error
	}
	wants := []want{
		{[]int64{1, 2}, 2, nil},
		{nil, 0, eventstore.ErrConflict},
		{[]int64{3}, 3, nil},
		{[]int64{4}, 1, nil},
		{nil, 0, eventstore.ErrDuplicateKey},
		{nil, 0, eventstore.ErrConflict},
		{nil, 0, context.Canceled},
	}
	for i, w := range wants {
		got := resps[i]
		if w.err != nil {
			if !errors.Is(got.err, w.err) {
				t.Errorf("batch[%d] (%s): err %v, want %v", i, batch[i].stream, got.err, w.err)
			}
			continue
		}
		if got.err != nil || got.res.Version != w.version || len(got.res.Positions) != len(w.positions) {
			t.Errorf("batch[%d] (%s): %+v %v, want version %d positions %v", i, batch[i].stream, got.res, got.err, w.version, w.positions)
			continue
		}
		for j := range w.positions {
			if got.res.Positions[j] != w.positions[j] {
				t.Errorf("batch[%d] (%s): positions %v, want %v", i, batch[i].stream, got.res.Positions, w.positions)
			}
		}
	}
	if st := s.Stats(); st.Commits != 1 || st.Appends != 3 {
		t.Errorf("Stats = %+v, want one commit holding three appends", st)
	}
	if err := eventstore.VerifyChain(ctx, s, 0, ""); err != nil {
		t.Errorf("VerifyChain after a mixed batch: %v", err)
	}
	if _, found, _ := s.LookupIdempotency(ctx, "p1", "k"); !found {
		t.Error("the key of the landed append is not recorded")
	}
}

// TestGroupCommitAllFailed: a batch where nothing lands commits nothing.
func TestGroupCommitAllFailed(t *testing.T) {
	s := openTest(t, Options{})
	batch := []*appendRequest{req(t.Context(), "table-a", 1, nil, "A"), req(t.Context(), "table-b", 2, nil, "B")}
	s.commit(batch)
	for i, r := range batch {
		if resp := <-r.done; !errors.Is(resp.err, eventstore.ErrConflict) {
			t.Errorf("batch[%d]: %v, want a conflict", i, resp.err)
		}
	}
	if st := s.Stats(); st.Commits != 0 {
		t.Errorf("Stats = %+v, want no commit", st)
	}
}

// TestOnCommitReportsGroupCommits: the observer hears every commit that
// stored events, and the events and appends it reports add up to what was
// appended.
func TestOnCommitReportsGroupCommits(t *testing.T) {
	var mu sync.Mutex
	var commits, events, appends int
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), Options{
		Logger: slog.New(slog.DiscardHandler),
		OnCommit: func(ev, ap int, took time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			commits++
			events += ev
			appends += ap
			if took < 0 {
				t.Errorf("a commit reported taking %v", took)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const streams, perAppend = 20, 3
	var wg sync.WaitGroup
	for i := range streams {
		wg.Go(func() {
			evs := make([]eventstore.NewEvent, perAppend)
			for j := range evs {
				evs[j] = eventstore.NewEvent{Type: "Tested", Data: []byte(`{}`)}
			}
			if _, err := s.Append(context.Background(), fmt.Sprintf("s-%d", i), 0, evs); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// A conflict stores nothing and must not count.
	if _, err := s.Append(context.Background(), "s-0", 0, []eventstore.NewEvent{{Type: "Tested", Data: []byte(`{}`)}}); err == nil {
		t.Fatal("an append at a stale version succeeded")
	}
	mu.Lock()
	defer mu.Unlock()
	if appends != streams || events != streams*perAppend || commits < 1 || commits > streams {
		t.Errorf("OnCommit heard %d commits of %d appends and %d events; want 1..%d commits of %d appends and %d events",
			commits, appends, events, streams, streams, streams*perAppend)
	}
}
