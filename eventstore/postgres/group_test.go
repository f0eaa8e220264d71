package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"paiju/eventstore"
	"paiju/eventstore/internal/groupcommit"
	"paiju/internal/pgtest"
)

func openTest(t *testing.T, opts Options) *Store {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s, err := Open(t.Context(), pgtest.NewDatabase(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func req(ctx context.Context, stream string, expected int, key *eventstore.IdempotencyKey, types ...string) *groupcommit.Request {
	var events []eventstore.NewEvent
	for _, typ := range types {
		events = append(events, eventstore.NewEvent{Type: typ, Data: []byte(`{}`)})
	}
	return groupcommit.NewRequest(ctx, stream, expected, events, key)
}

type want struct {
	positions []int64
	version   int
	err       error
}

// checkResponses receives the answer of each request of batch and compares
// it with wants.
func checkResponses(t *testing.T, batch []*groupcommit.Request, wants []want) {
	t.Helper()
	for i, w := range wants {
		got := batch[i].Wait()
		name := batch[i].Stream
		if len(name) > 20 {
			name = name[:20] + "…"
		}
		if w.err != nil {
			if !errors.Is(got.Err, w.err) {
				t.Errorf("batch[%d] (%s): err %v, want %v", i, name, got.Err, w.err)
			}
			continue
		}
		if got.Err != nil || got.Result.Version != w.version || fmt.Sprint(got.Result.Positions) != fmt.Sprint(w.positions) {
			t.Errorf("batch[%d] (%s): %+v %v, want version %d positions %v", i, name, got.Result, got.Err, w.version, w.positions)
		}
	}
}

// TestGroupCommitKeepsAppendsApart runs one batch as the writer would after
// gathering it: each append keeps its own expected-version check, key check
// and result, and the batch is one commit.
func TestGroupCommitKeepsAppendsApart(t *testing.T) {
	t.Parallel()
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
	checkResponses(t, batch, []want{
		{[]int64{1, 2}, 2, nil},
		{nil, 0, eventstore.ErrConflict},
		{[]int64{3}, 3, nil},
		{[]int64{4}, 1, nil},
		{nil, 0, eventstore.ErrDuplicateKey},
		{nil, 0, eventstore.ErrConflict},
		{nil, 0, context.Canceled},
	})
	if st := s.Stats(); st.Commits != 1 || st.Appends != 3 {
		t.Errorf("Stats = %+v, want one commit holding three appends", st)
	}
	if err := eventstore.VerifyChain(ctx, s, 0, ""); err != nil {
		t.Errorf("VerifyChain after a mixed batch: %v", err)
	}
	if rec, found, _ := s.LookupIdempotency(ctx, "p1", "k"); !found || rec.Stream != "table-c" {
		t.Errorf("key of the landed append = %+v %v, want table-c's", rec, found)
	}
}

// TestGroupCommitAllFailed: a batch where nothing lands commits nothing.
func TestGroupCommitAllFailed(t *testing.T) {
	t.Parallel()
	s := openTest(t, Options{})
	batch := []*groupcommit.Request{req(t.Context(), "table-a", 1, nil, "A"), req(t.Context(), "table-b", 2, nil, "B")}
	s.commit(batch)
	checkResponses(t, batch, []want{{err: eventstore.ErrConflict}, {err: eventstore.ErrConflict}})
	if st := s.Stats(); st.Commits != 0 {
		t.Errorf("Stats = %+v, want no commit", st)
	}
}

// TestGroupCommitRefusedWrite: PostgreSQL refuses a write of one append of
// a batch (a stream id too long for the (stream, version) index), which
// rolls the whole transaction back; the others are committed again one by
// one, and only the one at fault fails.
func TestGroupCommitRefusedWrite(t *testing.T) {
	t.Parallel()
	s := openTest(t, Options{})
	ctx := t.Context()
	// Random, so that compression cannot bring it under the index's limit
	// (a third of a page).
	b := make([]byte, 8000)
	rand.Read(b)
	huge := "table-" + hex.EncodeToString(b)
	batch := []*groupcommit.Request{
		req(ctx, "table-a", 0, nil, "A1"),
		req(ctx, huge, 0, &eventstore.IdempotencyKey{Scope: "p1", Key: "k1", RequestHash: "h"}, "H1"),
		req(ctx, "table-b", 0, &eventstore.IdempotencyKey{Scope: "p1", Key: "k2", RequestHash: "h"}, "B1", "B2"),
	}
	s.commit(batch)
	got := make([]groupcommit.Response, len(batch))
	for i, r := range batch {
		got[i] = r.Wait()
	}
	if got[1].Err == nil || errors.Is(got[1].Err, eventstore.ErrConflict) {
		t.Fatalf("the append PostgreSQL refuses: %v, want the database's error", got[1].Err)
	}
	if got[0].Err != nil || got[2].Err != nil {
		t.Fatalf("the appends beside the refused one: %v, %v; want both stored", got[0].Err, got[2].Err)
	}
	if fmt.Sprint(got[0].Result.Positions, got[2].Result.Positions) != "[1] [2 3]" {
		t.Errorf("positions %v %v, want [1] [2 3]: the refused append takes none", got[0].Result.Positions, got[2].Result.Positions)
	}
	if _, found, _ := s.LookupIdempotency(ctx, "p1", "k1"); found {
		t.Error("the refused append's key is recorded")
	}
	if _, found, _ := s.LookupIdempotency(ctx, "p1", "k2"); !found {
		t.Error("the stored append's key is not recorded")
	}
	pos, hash, err := s.Head(ctx)
	if err != nil || pos != 3 {
		t.Fatalf("head %d %v, want 3", pos, err)
	}
	if err := eventstore.VerifyChain(ctx, s, pos, hash); err != nil {
		t.Error(err)
	}
	if !strings.Contains(got[1].Err.Error(), huge[:20]) {
		t.Errorf("the refusal %q does not name its stream", got[1].Err)
	}
}

// TestOnCommitReportsGroupCommits: the observer hears every commit that
// stored events, and the events and appends it reports add up to what was
// appended.
func TestOnCommitReportsGroupCommits(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var commits, events, appends int
	s := openTest(t, Options{
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
