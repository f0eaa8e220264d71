package projections

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"paiju/eventstore"
)

// lockedStore is memStore for a feed running on its own goroutine: gate,
// when set, holds each ApplyBatch until it is closed (after entered is
// signalled), fail fails the next ApplyBatch once, and batches counts the
// ApplyBatch calls that applied events.
type lockedStore struct {
	mu      sync.Mutex
	m       memStore
	gate    chan struct{}
	entered chan struct{}
	fail    bool
	batches int
}

func (s *lockedStore) Checkpoint(ctx context.Context, name string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m.Checkpoint(ctx, name)
}

func (s *lockedStore) Anchor(ctx context.Context, name string) (int64, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m.Anchor(ctx, name)
}

func (s *lockedStore) ApplyBatch(ctx context.Context, name string, evs []eventstore.Event) (int, error) {
	s.mu.Lock()
	gate, entered := s.gate, s.entered
	s.gate, s.entered = nil, nil
	s.mu.Unlock()
	if gate != nil {
		close(entered)
		<-gate
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		s.fail = false
		return 0, errors.New("disk full")
	}
	n, err := s.m.ApplyBatch(ctx, name, evs)
	if n > 0 {
		s.batches++
	}
	return n, err
}

func (s *lockedStore) Reset(ctx context.Context, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m.Reset(ctx, name)
}

func (s *lockedStore) applied() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.m.applied)
}

// growingLog is a log of events at positions 1..n, n growing; ends counts
// the reads that found nothing past their position (a catch-up's last).
type growingLog struct {
	mu   sync.Mutex
	n    int64
	ends int
}

func (l *growingLog) ReadAll(_ context.Context, from int64, limit int) ([]eventstore.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var evs []eventstore.Event
	for p := from + 1; p <= l.n && len(evs) < limit; p++ {
		evs = append(evs, eventstore.Event{Position: p})
	}
	if len(evs) == 0 {
		l.ends++
	}
	return evs, nil
}

func (l *growingLog) Head(context.Context) (int64, string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n, "", nil
}

// commit appends events up to position n and returns them as the relay's
// page.
func (l *growingLog) commit(n int64) []eventstore.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var page []eventstore.Event
	for p := l.n + 1; p <= n; p++ {
		page = append(page, eventstore.Event{Position: p})
	}
	l.n = n
	return page
}

// newPageFeedTest returns a log of n events, a store and a feed of one
// projection from them.
func newPageFeedTest(n int64) (*growingLog, *lockedStore, *PageFeed) {
	log, st := &growingLog{n: n}, &lockedStore{}
	return log, st, NewPageFeed(Feed{Store: st, Log: log}, []string{Hands}, nil)
}

// runPageFeed runs f until the test ends, and returns once its catch-up
// on start has read log to the end: from then on only the pages announced
// bring it events.
func runPageFeed(t *testing.T, f *PageFeed, log *growingLog) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		log.mu.Lock()
		ends := log.ends
		log.mu.Unlock()
		if ends > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the feed did not read the log on start")
		}
		time.Sleep(time.Millisecond)
	}
}

// waitApplied waits until st has applied exactly positions 1..n, each once
// and in order.
func waitApplied(t *testing.T, st *lockedStore, n int64) {
	t.Helper()
	want := make([]int64, n)
	for i := range want {
		want[i] = int64(i + 1)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		got := st.applied()
		if slices.Equal(got, want) {
			return
		}
		if len(got) > int(n) || time.Now().After(deadline) {
			t.Fatalf("applied %d positions %v…, want 1..%d once each", len(got), got[:min(len(got), 20)], n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPageFeedFollowsTheLogThenThePages: the feed applies what the log
// holds on start, then the pages it is handed; a page given twice (the
// relay reads it again after a failure to publish) changes nothing.
func TestPageFeedFollowsTheLogThenThePages(t *testing.T) {
	log, st, f := newPageFeedTest(10)
	runPageFeed(t, f, log)
	waitApplied(t, st, 10)
	page := log.commit(15)
	f.Announce(page)
	waitApplied(t, st, 15)
	f.Announce(page)
	f.Announce(log.commit(16))
	waitApplied(t, st, 16)
}

// TestPageFeedReadsTheLogForPagesItCouldNotTake: pages announced while
// the feed is busy beyond its queue are dropped, and the feed reads the
// log for them, the last ones included (no later page shows their gap).
func TestPageFeedReadsTheLogForPagesItCouldNotTake(t *testing.T) {
	log, st, f := newPageFeedTest(0)
	// A batch waits until it is full, or for a missed page; it fits the
	// queue, so that announcing it cannot overflow the queue.
	f.batch, f.linger = pageFeedQueue/2, time.Hour
	runPageFeed(t, f, log)
	gate, entered := make(chan struct{}), make(chan struct{})
	st.mu.Lock()
	st.gate, st.entered = gate, entered
	st.mu.Unlock()
	for range f.batch {
		f.Announce(log.commit(log.n + 1))
	}
	<-entered // the feed holds a batch and waits in ApplyBatch
	for range pageFeedQueue + 40 {
		f.Announce(log.commit(log.n + 1))
	}
	missed := f.missed.Load()
	close(gate)
	if !missed {
		t.Fatal("the feed took more pages than its queue holds")
	}
	waitApplied(t, st, int64(f.batch+pageFeedQueue+40))
}

// TestPageFeedBatches: pages that come together are applied in one
// transaction, not one each.
func TestPageFeedBatches(t *testing.T) {
	log, st, f := newPageFeedTest(0)
	f.batch, f.linger = pageFeedQueue/2, time.Hour
	runPageFeed(t, f, log)
	for range f.batch {
		f.Announce(log.commit(log.n + 1))
	}
	waitApplied(t, st, int64(f.batch))
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.batches != 1 {
		t.Fatalf("%d pages took %d transactions, want one", f.batch, st.batches)
	}
}

// TestPageFeedRetriesAFailedBatch: a batch the store refuses is applied
// later from the log, though no page comes after it.
func TestPageFeedRetriesAFailedBatch(t *testing.T) {
	log, st, f := newPageFeedTest(3)
	f.linger = time.Millisecond
	runPageFeed(t, f, log)
	waitApplied(t, st, 3)
	st.mu.Lock()
	st.fail = true
	st.mu.Unlock()
	f.Announce(log.commit(5))
	waitApplied(t, st, 5)
}
