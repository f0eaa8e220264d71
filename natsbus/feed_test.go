package natsbus_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"paiju/eventstore"
	"paiju/natsbus"
)

// checkpoints applies as a projection store does, by position: each
// projection skips what is at or before its checkpoint and refuses a gap.
// It counts how often each projection applied each position.
type checkpoints struct {
	mu      sync.Mutex
	cp      map[string]int64
	applied map[string]map[int64]int
}

func newCheckpoints() *checkpoints {
	return &checkpoints{cp: map[string]int64{}, applied: map[string]map[int64]int{}}
}

func (c *checkpoints) CatchUp(context.Context, string) error { return nil }

func (c *checkpoints) Apply(_ context.Context, name string, evs []eventstore.Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.applied[name] == nil {
		c.applied[name] = map[int64]int{}
	}
	for _, ev := range evs {
		if ev.Position <= c.cp[name] {
			continue
		}
		if ev.Position != c.cp[name]+1 {
			return &gapError{}
		}
		c.cp[name] = ev.Position
		c.applied[name][ev.Position]++
	}
	return nil
}

type gapError struct{}

func (*gapError) Error() string { return "gap" }

func (c *checkpoints) at(name string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cp[name]
}

// checkOnce fails t unless every projection of names applied every
// position after from up to head exactly once.
func (c *checkpoints) checkOnce(t *testing.T, names []string, from, head int64) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range names {
		for pos := from + 1; pos <= head; pos++ {
			if got := c.applied[n][pos]; got != 1 {
				t.Errorf("projection %s applied event %d %d times, want once", n, pos, got)
			}
		}
	}
}

// consumerNames lists the stream's durable consumers, sorted.
func (e *env) consumerNames() []string {
	e.t.Helper()
	s, err := e.js.Stream(e.ctx, e.ns.Stream())
	if err != nil {
		e.t.Fatal(err)
	}
	var names []string
	lister := s.ConsumerNames(e.ctx)
	for n := range lister.Name() {
		names = append(names, n)
	}
	if err := lister.Err(); err != nil {
		e.t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

// formerConsumer creates the durable consumer an earlier version fed one
// projection by, with the stream's first acks messages acknowledged and a
// few more delivered and unacknowledged, as a server stopped mid-batch
// would leave it.
func (e *env) formerConsumer(name string, acks int) {
	e.t.Helper()
	s, err := e.js.Stream(e.ctx, e.ns.Stream())
	if err != nil {
		e.t.Fatal(err)
	}
	c, err := s.CreateOrUpdateConsumer(e.ctx, jetstream.ConsumerConfig{
		Durable:       name,
		Description:   "paiju projection",
		FilterSubject: e.ns.SubjectAll(),
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       30 * time.Second,
		MaxAckPending: 1024,
	})
	if err != nil {
		e.t.Fatal(err)
	}
	b, err := c.Fetch(acks + 3)
	if err != nil {
		e.t.Fatal(err)
	}
	acked := 0
	for m := range b.Messages() {
		if acked < acks {
			if err := m.DoubleAck(e.ctx); err != nil {
				e.t.Fatal(err)
			}
			acked++
		}
	}
}

// Without leases one consumer feeds every projection, and it replaces the
// per-projection consumers of earlier versions: it starts after what all of
// them had acknowledged, and they are deleted when it starts, so they keep
// no state and no pending messages on JetStream. The consumers of other
// nodes, and any other consumer, stay.
func TestProjectionFeedSharedConsumerReplacesFormer(t *testing.T) {
	names := []string{"hands", "leaderboards", "directory"}
	for _, tc := range []struct {
		node           string
		former, others []string
		shared         string
	}{
		{
			node:   "",
			former: []string{"paiju-projection-hands", "paiju-projection-leaderboards", "paiju-projection-directory"},
			others: []string{"audit-reader"},
			shared: "paiju-projections",
		},
		{
			node:   "n1",
			former: []string{"paiju-projection-hands-n1", "paiju-projection-leaderboards-n1", "paiju-projection-directory-n1"},
			others: []string{"paiju-projection-hands-n2", "paiju-projections-n2"},
			shared: "paiju-projections-n1",
		},
	} {
		t.Run("node="+tc.node, func(t *testing.T) {
			e := newEnv(t)
			e.seed()
			e.relayToHead(natsbus.RelayOptions{})
			head := e.head()
			// The former consumers acknowledged 4, 3 and 2 messages; the
			// projections hold at least what theirs acknowledged.
			for i, c := range tc.former {
				e.formerConsumer(c, 4-i)
			}
			for _, c := range tc.others {
				e.formerConsumer(c, 0)
			}
			const lowestAck = 2
			p := newCheckpoints()
			for _, n := range names {
				p.cp[n] = 4
			}
			f := &natsbus.ProjectionFeed{Projector: p, JS: e.js, Names: names, Node: tc.node, FetchWait: 50 * time.Millisecond, Logger: e.logs.logger()}
			if got := f.Consumers(); !slices.Equal(got, []string{tc.shared}) {
				t.Fatalf("feed without leases reads %v, want the one shared consumer %s", got, tc.shared)
			}
			stop := runFeed(t, f)
			for _, n := range names {
				waitFor(t, func() bool { return p.at(n) == head }, "projection "+n+" applies the whole stream")
			}

			want := append([]string{tc.shared}, tc.others...)
			slices.Sort(want)
			if got := e.consumerNames(); !slices.Equal(got, want) {
				t.Errorf("consumers %v, want %v: the former per-projection consumers %v removed, the others kept", got, want, tc.former)
			}
			s, err := e.js.Stream(e.ctx, e.ns.Stream())
			if err != nil {
				t.Fatal(err)
			}
			c, err := s.Consumer(e.ctx, tc.shared)
			if err != nil {
				t.Fatal(err)
			}
			var info *jetstream.ConsumerInfo
			waitFor(t, func() bool {
				info, err = c.Info(e.ctx)
				return err == nil && info.NumPending == 0 && info.NumAckPending == 0
			}, "the shared consumer has every message acknowledged")
			if info.Config.DeliverPolicy != jetstream.DeliverByStartSequencePolicy || info.Config.OptStartSeq != lowestAck+1 {
				t.Errorf("shared consumer delivers from %v %d, want from %d: after what every former consumer acknowledged", info.Config.DeliverPolicy, info.Config.OptStartSeq, lowestAck+1)
			}
			if got := info.Delivered.Consumer; got != uint64(head)-lowestAck {
				t.Errorf("shared consumer delivered %d messages, want the %d after the lowest former ack", got, uint64(head)-lowestAck)
			}
			if info.Config.AckPolicy != jetstream.AckAllPolicy {
				t.Errorf("shared consumer acknowledges with %v, want AckAll: one ack a batch", info.Config.AckPolicy)
			}
			if idle := info.Config.InactiveThreshold; (tc.node != "") != (idle == natsbus.NodeConsumerIdle) {
				t.Errorf("node %q: consumer idle threshold %v; a node's own consumer is deleted after %v idle, a process's sole one never", tc.node, idle, natsbus.NodeConsumerIdle)
			}
			p.checkOnce(t, names, 4, head)

			// Started again, the shared consumer keeps its start (an
			// update cannot change it) and goes on where it stood.
			stop()
			e.play("table-01A", 13, 5)
			e.relayToHead(natsbus.RelayOptions{})
			head2 := e.head()
			runFeed(t, f)
			for _, n := range names {
				waitFor(t, func() bool { return p.at(n) == head2 }, "projection "+n+" applies what was relayed after a restart")
			}
			p.checkOnce(t, names, 4, head2)
		})
	}
}

// runFeed runs f until the returned stop is called or the test ends.
func runFeed(t *testing.T, f *natsbus.ProjectionFeed) (stop func()) {
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	stop = sync.OnceFunc(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("feed: %v", err)
		}
	})
	t.Cleanup(stop)
	return stop
}

// failOnce fails the first batch projection name is given, before applying
// any of it.
type failOnce struct {
	natsbus.Projector
	name   string
	mu     sync.Mutex
	failed bool
}

func (f *failOnce) Apply(ctx context.Context, name string, evs []eventstore.Event) error {
	f.mu.Lock()
	fail := name == f.name && !f.failed && len(evs) > 0
	f.failed = f.failed || fail
	f.mu.Unlock()
	if fail {
		return context.DeadlineExceeded
	}
	return f.Projector.Apply(ctx, name, evs)
}

// A batch that one projection fails is not acknowledged: it is delivered
// again, and every projection ends with each event applied once (the ones
// that had applied it skip it). Nothing reads the log here, so the failed
// projection can only get the batch again from JetStream.
func TestProjectionFeedRedeliversFailedBatch(t *testing.T) {
	e := newEnv(t)
	e.seed()
	e.relayToHead(natsbus.RelayOptions{})
	head := e.head()
	names := []string{"hands", "leaderboards", "directory", "tournaments"}
	p := newCheckpoints()
	fp := &failOnce{Projector: p, name: "leaderboards"}
	f := &natsbus.ProjectionFeed{Projector: fp, JS: e.js, Names: names, FetchWait: 50 * time.Millisecond, Logger: e.logs.logger()}
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	defer func() { cancel(); <-done }()
	for _, n := range names {
		waitFor(t, func() bool { return p.at(n) == head }, "projection "+n+" applies the whole stream")
	}
	e.logs.waitLogged("projection consumer failed; restarting")
	fp.mu.Lock()
	failed := fp.failed
	fp.mu.Unlock()
	if !failed {
		t.Fatal("no batch failed: the test tests nothing")
	}
	p.checkOnce(t, names, 0, head)
}

// batches is a checkpoints projector that also applies a batch to several
// projections at once, and counts the calls of each kind.
type batches struct {
	*checkpoints
	mu          sync.Mutex
	all, single int
	names       []string
}

func (b *batches) Apply(ctx context.Context, name string, evs []eventstore.Event) error {
	b.mu.Lock()
	b.single++
	b.mu.Unlock()
	return b.checkpoints.Apply(ctx, name, evs)
}

func (b *batches) ApplyAll(ctx context.Context, names []string, evs []eventstore.Event) error {
	b.mu.Lock()
	b.all++
	b.names = slices.Clone(names)
	b.mu.Unlock()
	for _, n := range names {
		if err := b.checkpoints.Apply(ctx, n, evs); err != nil {
			return err
		}
	}
	return nil
}

// A projector that applies a batch to every projection at once
// (projections.Feed over the SQLite store, in one transaction) is given
// each batch once, for all the feed's projections, and never one
// projection at a time.
func TestProjectionFeedAppliesAllAtOnce(t *testing.T) {
	e := newEnv(t)
	e.seed()
	e.relayToHead(natsbus.RelayOptions{})
	head := e.head()
	names := []string{"hands", "leaderboards", "directory", "tournaments"}
	b := &batches{checkpoints: newCheckpoints()}
	f := &natsbus.ProjectionFeed{Projector: b, JS: e.js, Names: names, FetchWait: 50 * time.Millisecond, Logger: e.logs.logger()}
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	defer func() { cancel(); <-done }()
	for _, n := range names {
		waitFor(t, func() bool { return b.at(n) == head }, "projection "+n+" applies the whole stream")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.all == 0 || b.single != 0 || !slices.Equal(b.names, names) {
		t.Fatalf("ApplyAll called %d times (for %v), Apply %d times: want every batch through ApplyAll, for %v", b.all, b.names, b.single, names)
	}
	b.checkpoints.checkOnce(t, names, 0, head)
}

// TestProjectionFeedStopsWithItsContext: a worker returns once its context
// ends, not when its fetch would have: a worker whose lease is lost must
// stop within the lease's margin, a quarter of its TTL. Here a fetch waits
// an hour for messages that never come.
func TestProjectionFeedStopsWithItsContext(t *testing.T) {
	e := newEnv(t)
	e.seed()
	e.relayToHead(natsbus.RelayOptions{})
	f := &natsbus.ProjectionFeed{Projector: newCheckpoints(), JS: e.js, Names: []string{"hands"}, FetchWait: time.Hour, Logger: e.logs.logger()}
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	// A fetch of 256 ends when it holds 256 messages or its wait is over:
	// with fewer in the stream, it is open until cancelled.
	stream, err := e.js.Stream(e.ctx, e.ns.Stream())
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		c, err := stream.Consumer(e.ctx, f.SharedConsumer())
		return err == nil && c.CachedInfo().NumWaiting > 0 && c.CachedInfo().NumPending == 0
	}, "the worker waits in a fetch, the stream delivered")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v, want nil once its context ended", err)
		}
	case <-time.After(waitLimit):
		t.Fatalf("Run still fetching %s after its context ended", waitLimit)
	}
}
