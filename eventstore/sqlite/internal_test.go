package sqlite

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"paiju/eventstore"
	"paiju/eventstore/internal/groupcommit"
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

func req(ctx context.Context, stream string, expected int, key *eventstore.IdempotencyKey, types ...string) *groupcommit.Request {
	var events []eventstore.NewEvent
	for _, typ := range types {
		events = append(events, eventstore.NewEvent{Type: typ, Data: []byte(`{}`)})
	}
	return groupcommit.NewRequest(ctx, stream, expected, events, key)
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
	batch := []*groupcommit.Request{
		req(ctx, "table-a", 0, nil, "A1", "A2"), // lands at 1, 2
		req(ctx, "table-b", 3, nil, "B1"),       // conflict: table-b is new
		req(ctx, "table-a", 2, nil, "A3"),       // sees the first append of the batch
		req(ctx, "table-c", 0, key, "C1"),       // lands with its key
		req(ctx, "table-d", 0, key, "D1"),       // same key, same batch: duplicate
		req(ctx, "table-a", 0, nil, "A1'"),      // conflict against the batch's own appends
		req(cancelled, "table-e", 0, nil, "E1"), // gave up before the transaction
	}
	s.commit(batch)
	resps := make([]groupcommit.Response, len(batch))
	for i, r := range batch {
		resps[i] = r.Wait()
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
			if !errors.Is(got.Err, w.err) {
				t.Errorf("batch[%d] (%s): err %v, want %v", i, batch[i].Stream, got.Err, w.err)
			}
			continue
		}
		if got.Err != nil || got.Result.Version != w.version || len(got.Result.Positions) != len(w.positions) {
			t.Errorf("batch[%d] (%s): %+v %v, want version %d positions %v", i, batch[i].Stream, got.Result, got.Err, w.version, w.positions)
			continue
		}
		for j := range w.positions {
			if got.Result.Positions[j] != w.positions[j] {
				t.Errorf("batch[%d] (%s): positions %v, want %v", i, batch[i].Stream, got.Result.Positions, w.positions)
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
	batch := []*groupcommit.Request{req(t.Context(), "table-a", 1, nil, "A"), req(t.Context(), "table-b", 2, nil, "B")}
	s.commit(batch)
	for i, r := range batch {
		if resp := r.Wait(); !errors.Is(resp.Err, eventstore.ErrConflict) {
			t.Errorf("batch[%d]: %v, want a conflict", i, resp.Err)
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

// TestGroupedBatchFallsBackPerAppend: a batch is first run grouped (all
// events in multi-row inserts, no savepoints); when one append fails in a
// way its checks did not foresee, the batch runs again one append at a
// time, and only that append fails: the others land, its key is not
// recorded, and the log and the kept recent events stay one chain.
func TestGroupedBatchFallsBackPerAppend(t *testing.T) {
	s := openTest(t, Options{})
	ctx := t.Context()
	// A trigger on the write connection refuses one event type at insert,
	// after the append's checks have passed and its key is recorded.
	if _, err := s.wdb.ExecContext(ctx, `CREATE TEMP TRIGGER poison BEFORE INSERT ON events WHEN NEW.type = 'Poison'
		BEGIN SELECT RAISE(ABORT, 'poisoned event'); END`); err != nil {
		t.Fatal(err)
	}
	key := func(k string) *eventstore.IdempotencyKey {
		return &eventstore.IdempotencyKey{Scope: "p1", Key: k, RequestHash: "h"}
	}
	batch := []*groupcommit.Request{
		req(ctx, "table-a", 0, key("a"), "A1", "A2"),
		req(ctx, "table-b", 0, key("b"), "B1", "Poison"),
		req(ctx, "table-c", 0, key("c"), "C1"),
		req(ctx, "table-a", 2, nil, "A3"),
	}
	s.commit(batch)
	var got []groupcommit.Response
	for _, r := range batch {
		got = append(got, r.Wait())
	}
	if got[1].Err == nil || !strings.Contains(got[1].Err.Error(), "poisoned event") {
		t.Errorf("the poisoned append: %v, want the trigger's refusal", got[1].Err)
	}
	for i, want := range map[int][]int64{0: {1, 2}, 2: {3}, 3: {4}} {
		if got[i].Err != nil || fmt.Sprint(got[i].Result.Positions) != fmt.Sprint(want) {
			t.Errorf("batch[%d]: %+v %v, want positions %v", i, got[i].Result, got[i].Err, want)
		}
	}
	if st := s.Stats(); st.Commits != 1 || st.Appends != 3 {
		t.Errorf("Stats = %+v, want one commit of three appends", st)
	}
	for k, want := range map[string]bool{"a": true, "b": false, "c": true} {
		if _, found, err := s.LookupIdempotency(ctx, "p1", k); err != nil || found != want {
			t.Errorf("key %s recorded: %v %v, want %v", k, found, err, want)
		}
	}
	if err := eventstore.VerifyChain(ctx, s, 0, ""); err != nil {
		t.Errorf("VerifyChain: %v", err)
	}
	checkRecent(t, s)
}

// TestLargeAppendSpansInserts: an append of more events than one INSERT
// holds lands whole, in order, on consecutive positions.
func TestLargeAppendSpansInserts(t *testing.T) {
	s := openTest(t, Options{})
	ctx := t.Context()
	for _, n := range []int{1, 3, maxInsertRows, maxInsertRows + 1, 2*maxInsertRows + 37} {
		stream := fmt.Sprintf("table-%d", n)
		evs := make([]eventstore.NewEvent, n)
		for i := range evs {
			evs[i] = eventstore.NewEvent{Type: "E", Data: fmt.Appendf(nil, `{"i":%d}`, i)}
		}
		res, err := s.Append(ctx, stream, 0, evs)
		if err != nil {
			t.Fatalf("append %d events: %v", n, err)
		}
		loaded, err := s.Load(ctx, stream, 0)
		if err != nil || len(loaded) != n {
			t.Fatalf("load %s: %d events, %v", stream, len(loaded), err)
		}
		for i, e := range loaded {
			if e.Version != i+1 || e.Position != res.Positions[i] || string(e.Data) != string(evs[i].Data) ||
				(i > 0 && e.Position != loaded[i-1].Position+1) {
				t.Fatalf("append of %d events: event %d is %+v (positions %v)", n, i, e, res.Positions)
			}
		}
	}
	if err := eventstore.VerifyChain(ctx, s, 0, ""); err != nil {
		t.Errorf("VerifyChain: %v", err)
	}
	checkRecent(t, s)
}

// checkRecent holds ReadCommitted to ReadAll from every position it
// answers for, and checks that it answers for the log's last events.
func checkRecent(t *testing.T, s *Store) {
	t.Helper()
	ctx := t.Context()
	head, _, err := s.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.ReadCommitted(head, 10); !ok && s.opts.RecentEvents > 0 {
		t.Errorf("ReadCommitted(%d) (the head) not answered", head)
	}
	if _, ok := s.ReadCommitted(head+1, 10); ok {
		t.Errorf("ReadCommitted(%d) (past the head) answered", head+1)
	}
	answered := 0
	for from := int64(0); from <= head; from++ {
		for _, limit := range []int{1, 3, 1000} {
			kept, ok := s.ReadCommitted(from, limit)
			if !ok {
				continue
			}
			answered++
			read, err := s.ReadAll(ctx, from, limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(kept) != len(read) {
				t.Fatalf("ReadCommitted(%d, %d): %d events, ReadAll %d", from, limit, len(kept), len(read))
			}
			for i := range read {
				a, b := kept[i], read[i]
				if a.Position != b.Position || a.Stream != b.Stream || a.Version != b.Version || a.Type != b.Type ||
					string(a.Data) != string(b.Data) || !a.RecordedAt.Equal(b.RecordedAt) || a.RecordedAt.Location() != b.RecordedAt.Location() ||
					a.PrevHash != b.PrevHash || a.Hash != b.Hash {
					t.Fatalf("ReadCommitted(%d, %d)[%d] = %+v, ReadAll %+v", from, limit, i, a, b)
				}
			}
		}
	}
	if s.opts.RecentEvents > 0 && answered == 0 {
		t.Error("ReadCommitted answered for no position")
	}
}

// TestReadCommitted: concurrent appends, some refused, with a small ring:
// what ReadCommitted answers is what ReadAll reads; it answers for the last
// RecentEvents events at most, and for nothing before the store was
// opened; a store keeping none answers for nothing.
func TestReadCommitted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "paiju.db")
	s, err := Open(t.Context(), path, Options{RecentEvents: 50})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			stream := fmt.Sprintf("table-%d", w%4) // two appenders a stream: conflicts
			for range 30 {
				v := 0
				if evs, err := s.Load(ctx, stream, 0); err == nil {
					v = len(evs)
				}
				evs := []eventstore.NewEvent{{Type: "E", Data: fmt.Appendf(nil, `{"w":%d,"v":%d}`, w, v)}}
				if v%3 == 0 {
					evs = append(evs, eventstore.NewEvent{Type: "F", Data: []byte(`{}`)})
				}
				if _, err := s.Append(ctx, stream, v, evs); err != nil && !errors.Is(err, eventstore.ErrConflict) {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	head, _, _ := s.Head(ctx)
	if head <= 50 {
		t.Fatalf("only %d events appended, want more than the ring holds", head)
	}
	if _, ok := s.ReadCommitted(head-51, 10); ok {
		t.Errorf("ReadCommitted(%d) answered, %d events behind the head with 50 kept", head-51, 51)
	}
	if _, ok := s.ReadCommitted(head-50, 10); !ok {
		t.Errorf("ReadCommitted(%d) not answered, 50 events behind the head with 50 kept", head-50)
	}
	checkRecent(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if page, ok := s.ReadCommitted(head, 10); !ok || len(page) != 0 {
		t.Errorf("reopened: ReadCommitted at the head = %d events, %v; want none, answered", len(page), ok)
	}
	if _, ok := s.ReadCommitted(head-1, 10); ok {
		t.Error("reopened: ReadCommitted answered for an event committed before Open")
	}
	if _, err := s.Append(ctx, "table-new", 0, []eventstore.NewEvent{{Type: "E", Data: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	checkRecent(t, s)

	none := openTest(t, Options{RecentEvents: -1})
	if _, err := none.Append(ctx, "table-a", 0, []eventstore.NewEvent{{Type: "E", Data: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := none.ReadCommitted(0, 10); ok {
		t.Error("a store keeping no recent events answered ReadCommitted")
	}
}

// TestWriterWALAutocheckpoint: the writer's connection, the only one that
// commits, checkpoints at walAutocheckpoint pages rather than SQLite's
// default.
func TestWriterWALAutocheckpoint(t *testing.T) {
	s := openTest(t, Options{})
	var n int
	if err := s.wdb.QueryRowContext(t.Context(), `PRAGMA wal_autocheckpoint`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != walAutocheckpoint {
		t.Fatalf("the writer's wal_autocheckpoint is %d, want %d", n, walAutocheckpoint)
	}
}
