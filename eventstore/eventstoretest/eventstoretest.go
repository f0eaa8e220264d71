// Package eventstoretest holds the conformance suites every event store
// runs, one per contract of paiju/eventstore, checked through the contract
// alone: RunLog (ordering, atomic expected-version appends, idempotency keys,
// the hash chain), RunAccounts (players, tokens, rooms) and RunCheckpoints;
// Run runs the three against a store that keeps them all.
//
// Each suite takes open, which must return a new, empty store for each call;
// the suite closes it when the subtest ends. Subtests run in parallel, each
// on its own store, so open is called from several goroutines. The type of
// the store open returns is the suite's compile-time proof that it keeps
// the contract.
package eventstoretest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"paiju/eventstore"
)

// FullStore is a store that keeps every contract: the log, the accounts
// and the relay's checkpoints. Both stores are one.
type FullStore interface {
	eventstore.Store
	eventstore.Accounts
	eventstore.Checkpoints
}

// Run runs RunLog, RunAccounts and RunCheckpoints.
func Run[S FullStore](t *testing.T, open func(t *testing.T) S) {
	RunLog(t, open)
	RunAccounts(t, open)
	RunCheckpoints(t, open)
}

// RunLog runs the suite of eventstore.Log.
func RunLog[S eventstore.Store](t *testing.T, open func(t *testing.T) S) {
	run(t, func(t *testing.T) eventstore.Store { return open(t) }, []test[eventstore.Store]{
		{"EmptyStore", testEmptyStore},
		{"AppendLoadReadAll", testAppendLoadReadAll},
		{"LoadFromVersion", testLoadFromVersion},
		{"ReadAllPages", testReadAllPages},
		{"Conflict", testConflict},
		{"ConcurrentOneStream", testConcurrentOneStream},
		{"ConcurrentRetry", testConcurrentRetry},
		{"ConcurrentStreams", testConcurrentStreams},
		{"VerifyChainHead", testVerifyChainHead},
		{"DataKeptByteForByte", testDataKeptByteForByte},
		{"AppendRejectsInvalidInput", testAppendRejectsInvalidInput},
		{"AppendIdempotent", testAppendIdempotent},
		{"ConcurrentSameKey", testConcurrentSameKey},
		{"Streams", testStreams},
	})
}

// accountsStore is a store of accounts that its opener closes.
type accountsStore interface {
	eventstore.Accounts
	io.Closer
}

// RunAccounts runs the suite of eventstore.Accounts.
func RunAccounts[S interface {
	eventstore.Accounts
	io.Closer
}](t *testing.T, open func(t *testing.T) S) {
	run(t, func(t *testing.T) accountsStore { return open(t) }, []test[accountsStore]{
		{"Players", testPlayers},
		{"NameKeys", testNameKeys},
		{"Tokens", testTokens},
		{"TokenCap", testTokenCap},
		{"Rooms", testRooms},
	})
}

// checkpointStore is a store of checkpoints that its opener closes.
type checkpointStore interface {
	eventstore.Checkpoints
	io.Closer
}

// RunCheckpoints runs the suite of eventstore.Checkpoints.
func RunCheckpoints[S interface {
	eventstore.Checkpoints
	io.Closer
}](t *testing.T, open func(t *testing.T) S) {
	run(t, func(t *testing.T) checkpointStore { return open(t) }, []test[checkpointStore]{
		{"Checkpoints", testCheckpoints},
	})
}

// test is one subtest of a suite.
type test[S any] struct {
	name string
	fn   func(t *testing.T, s S)
}

// run runs tests in parallel, each on a store of its own that it closes
// when the subtest ends.
func run[S io.Closer](t *testing.T, open func(t *testing.T) S, tests []test[S]) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tt.fn(t, s)
		})
	}
}

func ev(typ, data string) eventstore.NewEvent {
	return eventstore.NewEvent{Type: typ, Data: []byte(data)}
}

func mustAppend(t *testing.T, s eventstore.Store, stream string, expected int, events ...eventstore.NewEvent) eventstore.AppendResult {
	t.Helper()
	res, err := s.Append(t.Context(), stream, expected, events)
	if err != nil {
		t.Fatalf("Append(%s, expected %d, %d events): %v", stream, expected, len(events), err)
	}
	return res
}

func mustLoad(t *testing.T, s eventstore.Store, stream string, from int) []eventstore.Event {
	t.Helper()
	events, err := s.Load(t.Context(), stream, from)
	if err != nil {
		t.Fatalf("Load(%s, %d): %v", stream, from, err)
	}
	return events
}

// readAll reads the whole log in pages of n.
func readAll(t *testing.T, s eventstore.Store, n int) []eventstore.Event {
	t.Helper()
	var all []eventstore.Event
	var from int64
	for {
		page, err := s.ReadAll(t.Context(), from, n)
		if err != nil {
			t.Fatalf("ReadAll(%d, %d): %v", from, n, err)
		}
		all = append(all, page...)
		if len(page) < n {
			return all
		}
		from = page[len(page)-1].Position
	}
}

func mustVerify(t *testing.T, s eventstore.Store) {
	t.Helper()
	pos, hash, err := s.Head(t.Context())
	if err != nil {
		t.Fatalf("Head: %v", err)
	}
	if err := eventstore.VerifyChain(t.Context(), s, pos, hash); err != nil {
		t.Fatalf("VerifyChain at head %d: %v, want a valid chain (eventstore.go, Store; hash.go, Hash)", pos, err)
	}
}

func testEmptyStore(t *testing.T, s eventstore.Store) {
	ctx := t.Context()
	pos, hash, err := s.Head(ctx)
	if err != nil || pos != 0 || hash != "" {
		t.Errorf("Head of an empty store = %d, %q, %v; want 0, \"\", nil (eventstore.go, Store.Head)", pos, hash, err)
	}
	events, err := s.ReadAll(ctx, 0, 10)
	if err != nil || len(events) != 0 {
		t.Errorf("ReadAll of an empty store = %d events, %v; want none (eventstore.go, Store.ReadAll)", len(events), err)
	}
	events, err = s.Load(ctx, "table-none", 0)
	if err != nil || events == nil || len(events) != 0 {
		t.Errorf("Load of an unknown stream = %v, %v; want an empty slice and no error (eventstore.go, Store.Load)", events, err)
	}
	if err := eventstore.VerifyChain(ctx, s, 0, ""); err != nil {
		t.Errorf("VerifyChain of an empty store: %v, want nil", err)
	}
}

func testAppendLoadReadAll(t *testing.T, s eventstore.Store) {
	// Odd spacing and key order: data must come back byte for byte.
	a1 := ev("TableOpened", `{"game":"doudizhu", "stake":  10}`)
	a2 := ev("PlayerSeated", `{"seat":0,"player":"p1"}`)
	b1 := ev("TableOpened", `{"z":1,"a":[1,2,3]}`)
	a3 := ev("PlayerSeated", "{\n  \"seat\": 1\n}")

	results := []struct {
		got        eventstore.AppendResult
		version    int
		positions  []int64
		stream     string
		appendDesc string
	}{
		{mustAppend(t, s, "table-a", 0, a1, a2), 2, []int64{1, 2}, "table-a", "2 events to a new stream"},
		{mustAppend(t, s, "table-b", 0, b1), 1, []int64{3}, "table-b", "1 event to another new stream"},
		{mustAppend(t, s, "table-a", 2, a3), 3, []int64{4}, "table-a", "1 event to table-a at version 2"},
	}
	for _, r := range results {
		if r.got.Version != r.version || fmt.Sprint(r.got.Positions) != fmt.Sprint(r.positions) {
			t.Errorf("append %s: got version %d positions %v, want %d %v (eventstore.go, AppendResult)",
				r.appendDesc, r.got.Version, r.got.Positions, r.version, r.positions)
		}
	}

	want := []struct {
		pos     int64
		stream  string
		version int
		ev      eventstore.NewEvent
	}{
		{1, "table-a", 1, a1},
		{2, "table-a", 2, a2},
		{3, "table-b", 1, b1},
		{4, "table-a", 3, a3},
	}
	all := readAll(t, s, 100)
	if len(all) != len(want) {
		t.Fatalf("ReadAll: %d events, want %d", len(all), len(want))
	}
	prev := ""
	for i, w := range want {
		e := all[i]
		if e.Position != w.pos || e.Stream != w.stream || e.Version != w.version || e.Type != w.ev.Type || !bytes.Equal(e.Data, w.ev.Data) {
			t.Errorf("ReadAll[%d] = %d %s v%d %s %s, want %d %s v%d %s %s (eventstore.go, Event: data exactly as appended, global order)",
				i, e.Position, e.Stream, e.Version, e.Type, e.Data, w.pos, w.stream, w.version, w.ev.Type, w.ev.Data)
		}
		if e.RecordedAt.IsZero() || e.RecordedAt.Location() != time.UTC {
			t.Errorf("event %d RecordedAt = %v, want a UTC time (eventstore.go, Event.RecordedAt)", e.Position, e.RecordedAt)
		}
		if e.PrevHash != prev {
			t.Errorf("event %d PrevHash = %q, want %q, the previous event's hash (eventstore.go, Event.PrevHash)", e.Position, e.PrevHash, prev)
		}
		if h := eventstore.Hash(prev, e.Stream, e.Version, e.Type, e.Data); e.Hash != h {
			t.Errorf("event %d Hash = %s, want %s (hash.go, Hash)", e.Position, e.Hash, h)
		}
		prev = e.Hash
	}

	loaded := mustLoad(t, s, "table-a", 0)
	wantLoaded := []eventstore.Event{all[0], all[1], all[3]}
	if len(loaded) != len(wantLoaded) {
		t.Fatalf("Load(table-a, 0): %d events, want 3 (eventstore.go, Store.Load)", len(loaded))
	}
	for i := range loaded {
		if !sameEvent(loaded[i], wantLoaded[i]) {
			t.Errorf("Load(table-a, 0)[%d] = %+v, want %+v, as ReadAll returns it (eventstore.go, Store.Load)", i, loaded[i], wantLoaded[i])
		}
	}

	pos, hash, err := s.Head(t.Context())
	if err != nil || pos != 4 || hash != all[3].Hash {
		t.Errorf("Head = %d %s %v, want 4 %s (eventstore.go, Store.Head)", pos, hash, err, all[3].Hash)
	}
	mustVerify(t, s)
}

func sameEvent(a, b eventstore.Event) bool {
	return a.Position == b.Position && a.Stream == b.Stream && a.Version == b.Version && a.Type == b.Type &&
		bytes.Equal(a.Data, b.Data) && a.RecordedAt.Equal(b.RecordedAt) && a.PrevHash == b.PrevHash && a.Hash == b.Hash
}

func testLoadFromVersion(t *testing.T, s eventstore.Store) {
	for v := range 5 {
		mustAppend(t, s, "table-a", v, ev("E", fmt.Sprintf(`{"n":%d}`, v+1)))
		mustAppend(t, s, "table-b", v, ev("E", `{}`))
	}
	tests := []struct {
		from int
		want []int // versions
	}{
		{0, []int{1, 2, 3, 4, 5}},
		{2, []int{3, 4, 5}},
		{4, []int{5}},
		{5, nil},
		{9, nil},
	}
	for _, tt := range tests {
		events := mustLoad(t, s, "table-a", tt.from)
		var got []int
		for _, e := range events {
			got = append(got, e.Version)
			if e.Stream != "table-a" {
				t.Errorf("Load(table-a, %d) returned an event of %s", tt.from, e.Stream)
			}
			if want := fmt.Sprintf(`{"n":%d}`, e.Version); string(e.Data) != want {
				t.Errorf("Load(table-a, %d): version %d holds %s, want %s", tt.from, e.Version, e.Data, want)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("Load(table-a, %d) versions = %v, want %v: the events with version > fromVersion, in order (eventstore.go, Store.Load)", tt.from, got, tt.want)
		}
	}
}

func testReadAllPages(t *testing.T, s eventstore.Store) {
	for v := range 7 {
		mustAppend(t, s, "table-a", v, ev("E", `{}`))
	}
	tests := []struct {
		from  int64
		limit int
		want  []int64
	}{
		{0, 3, []int64{1, 2, 3}},
		{3, 3, []int64{4, 5, 6}},
		{6, 3, []int64{7}},
		{7, 3, nil},
		{2, 100, []int64{3, 4, 5, 6, 7}},
	}
	for _, tt := range tests {
		events, err := s.ReadAll(t.Context(), tt.from, tt.limit)
		if err != nil {
			t.Fatalf("ReadAll(%d, %d): %v", tt.from, tt.limit, err)
		}
		var got []int64
		for _, e := range events {
			got = append(got, e.Position)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("ReadAll(%d, %d) positions = %v, want %v: up to limit events after fromPosition (eventstore.go, Store.ReadAll)", tt.from, tt.limit, got, tt.want)
		}
	}
}

func testConflict(t *testing.T, s eventstore.Store) {
	mustAppend(t, s, "table-a", 0, ev("E", `{"n":1}`), ev("E", `{"n":2}`))
	tests := []struct {
		stream   string
		expected int
		actual   int
	}{
		{"table-a", 0, 2}, // creating a stream that exists
		{"table-a", 1, 2}, // stale
		{"table-a", 3, 2}, // ahead
		{"table-new", 1, 0},
	}
	for _, tt := range tests {
		headBefore, _, _ := s.Head(t.Context())
		_, err := s.Append(t.Context(), tt.stream, tt.expected, []eventstore.NewEvent{ev("X", `{}`), ev("Y", `{}`)})
		var ce *eventstore.ConflictError
		if !errors.As(err, &ce) || !errors.Is(err, eventstore.ErrConflict) {
			t.Fatalf("Append(%s, expected %d) on a stream at %d: err %v, want a *ConflictError matching ErrConflict (eventstore.go, Store.Append)",
				tt.stream, tt.expected, tt.actual, err)
		}
		if ce.Stream != tt.stream || ce.Expected != tt.expected || ce.Actual != tt.actual {
			t.Errorf("ConflictError = %+v, want stream %s expected %d actual %d", *ce, tt.stream, tt.expected, tt.actual)
		}
		headAfter, _, _ := s.Head(t.Context())
		if headAfter != headBefore {
			t.Errorf("a conflicting append moved the head from %d to %d: it must store nothing (eventstore.go, Store.Append)", headBefore, headAfter)
		}
		if n := len(mustLoad(t, s, tt.stream, 0)); n != tt.actual {
			t.Errorf("after a conflicting append %s holds %d events, want %d: it must store nothing (eventstore.go, Store.Append)", tt.stream, n, tt.actual)
		}
	}
	mustVerify(t, s)
}

// start runs n goroutines that all call f once a shared gate opens, so they
// contend as much as the scheduler allows, and waits for them.
func start(n int, f func(i int)) {
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-gate
			f(i)
		})
	}
	close(gate)
	wg.Wait()
}

func testConcurrentOneStream(t *testing.T, s eventstore.Store) {
	const rounds, writers = 8, 8
	for round := range rounds {
		errs := make([]error, writers)
		start(writers, func(i int) {
			_, errs[i] = s.Append(context.Background(), "table-a", round,
				[]eventstore.NewEvent{ev("Played", fmt.Sprintf(`{"writer":%d}`, i))})
		})
		winner := -1
		for i, err := range errs {
			var ce *eventstore.ConflictError
			switch {
			case err == nil:
				if winner >= 0 {
					t.Fatalf("round %d: writers %d and %d both appended at expected version %d: exactly one may win (eventstore.go, Store.Append)", round, winner, i, round)
				}
				winner = i
			case errors.As(err, &ce):
				if ce.Actual != round+1 {
					t.Errorf("round %d: loser saw actual version %d, want %d", round, ce.Actual, round+1)
				}
			default:
				t.Fatalf("round %d writer %d: %v, want success or a *ConflictError", round, i, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no writer appended at expected version %d: exactly one must win (eventstore.go, Store.Append)", round, round)
		}
		events := mustLoad(t, s, "table-a", round)
		if len(events) != 1 || string(events[0].Data) != fmt.Sprintf(`{"writer":%d}`, winner) {
			t.Fatalf("round %d: stream holds %v after version %d, want only the winner %d's event", round, events, round, winner)
		}
	}
	if n := len(mustLoad(t, s, "table-a", 0)); n != rounds {
		t.Errorf("stream holds %d events after %d contended rounds, want %d", n, rounds, rounds)
	}
	mustVerify(t, s)
}

// testConcurrentRetry is the command loop of the design (DESIGN.md, The
// aggregate): load, append at the loaded version, retry on conflict. Every
// writer's events must land, each once, with versions gap-free.
func testConcurrentRetry(t *testing.T, s eventstore.Store) {
	const writers, each = 6, 5
	errs := make([]error, writers)
	start(writers, func(i int) {
		for n := range each {
			for {
				events, err := s.Load(context.Background(), "table-a", 0)
				if err != nil {
					errs[i] = err
					return
				}
				_, err = s.Append(context.Background(), "table-a", len(events),
					[]eventstore.NewEvent{ev("Played", fmt.Sprintf(`{"writer":%d,"n":%d}`, i, n))})
				if errors.Is(err, eventstore.ErrConflict) {
					continue
				}
				if err != nil {
					errs[i] = err
					return
				}
				break
			}
		}
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	events := mustLoad(t, s, "table-a", 0)
	seen := map[string]bool{}
	for i, e := range events {
		if e.Version != i+1 {
			t.Errorf("event %d has version %d, want %d: versions run from 1 without gaps (eventstore.go, Event.Version)", i, e.Version, i+1)
		}
		if seen[string(e.Data)] {
			t.Errorf("event %s stored twice", e.Data)
		}
		seen[string(e.Data)] = true
	}
	if len(seen) != writers*each {
		t.Errorf("stream holds %d distinct events, want %d: every retried append lands once", len(seen), writers*each)
	}
	mustVerify(t, s)
}

func testConcurrentStreams(t *testing.T, s eventstore.Store) {
	const writers, each = 8, 15
	results := make([][]eventstore.AppendResult, writers)
	errs := make([]error, writers)
	start(writers, func(i int) {
		stream := fmt.Sprintf("table-%d", i)
		for n := range each {
			res, err := s.Append(context.Background(), stream, 2*n,
				[]eventstore.NewEvent{ev("A", fmt.Sprintf(`{"n":%d}`, n)), ev("B", fmt.Sprintf(`{"n":%d}`, n))})
			if err != nil {
				errs[i] = err
				return
			}
			results[i] = append(results[i], res)
		}
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v, want every append to its own stream to land", i, err)
		}
	}
	for i, rs := range results {
		for n, r := range rs {
			if r.Version != 2*n+2 || len(r.Positions) != 2 || r.Positions[1] != r.Positions[0]+1 {
				t.Errorf("writer %d append %d: %+v, want version %d and two consecutive positions (eventstore.go, Store: consecutive global positions)", i, n, r, 2*n+2)
			}
		}
		events := mustLoad(t, s, fmt.Sprintf("table-%d", i), 0)
		if len(events) != 2*each {
			t.Errorf("table-%d holds %d events, want %d", i, len(events), 2*each)
		}
	}
	all := readAll(t, s, 37)
	if len(all) != writers*each*2 {
		t.Fatalf("log holds %d events, want %d", len(all), writers*each*2)
	}
	for i, e := range all {
		if e.Position != int64(i+1) {
			t.Fatalf("log position %d at index %d: positions are gap-free from 1 (eventstore.go, Event.Position)", e.Position, i)
		}
	}
	mustVerify(t, s)
}

func testVerifyChainHead(t *testing.T, s eventstore.Store) {
	for v := range 4 {
		mustAppend(t, s, "table-a", v, ev("E", `{}`))
	}
	all := readAll(t, s, 10)
	tests := []struct {
		name    string
		pos     int64
		hash    string
		wantErr int64 // position named by the *ChainError, 0 for none
	}{
		{"no recorded head", 0, "", 0},
		{"head at the tail", 4, all[3].Hash, 0},
		{"head behind the tail (file written before the last commits)", 2, all[1].Hash, 0},
		{"head hash differs (log rewritten)", 3, all[0].Hash, 3},
		{"head beyond the tail (tail removed)", 6, all[3].Hash, 5},
	}
	for _, tt := range tests {
		err := eventstore.VerifyChain(t.Context(), s, tt.pos, tt.hash)
		var ce *eventstore.ChainError
		switch {
		case tt.wantErr == 0 && err != nil:
			t.Errorf("%s: VerifyChain: %v, want nil", tt.name, err)
		case tt.wantErr != 0 && (!errors.As(err, &ce) || ce.Position != tt.wantErr):
			t.Errorf("%s: VerifyChain: %v, want a *ChainError at position %d (verify.go, VerifyChain)", tt.name, err, tt.wantErr)
		}
	}
}
