package natsbus_test

import (
	"slices"
	"sync"
	"testing"

	"paiju/eventstore"
	"paiju/natsbus"
)

// TestLocalLiveHearsTheRelay: with the embedded server, the streams hear
// each table's events from the relay as it reads them (RelayOptions.
// Announce), not back from NATS: every version of the watched table in
// order, nothing of another table or of a stream that is no table, nothing
// after stop, and a table watched again after its last watcher stopped is
// heard again. The watchers make no subscription on the connection.
func TestLocalLiveHearsTheRelay(t *testing.T) {
	e := newEnv(t)
	live := natsbus.NewLocalLive()
	r := e.relay(natsbus.RelayOptions{Announce: live.Announce})
	stop := runRelay(e.ctx, r)
	defer stop()

	e.openTable("01A", "doudizhu")
	e.openTable("01B", "doudizhu")
	waitPosition(t, r, e.head())

	watch := func(id string) *liveWatcher { return watchTable(t, live, id) }

	subs := e.nc.NumSubscriptions() // the relay's own
	a, b := watch("01A"), watch("01A")
	other := watch("01B")
	if n := e.nc.NumSubscriptions(); n != subs {
		t.Fatalf("%d subscriptions on the connection once watched, want %d as before", n, subs)
	}
	e.play("table-01A", 1, 4)
	e.append("players", 0, eventstore.NewEvent{Type: "PlayerCreated", Data: []byte(`{"id":"p1"}`)})
	waitPosition(t, r, e.head())
	a.hears("a", 2, 3, 4, 5)
	b.hears("b", 2, 3, 4, 5)
	other.silent("the other table's watcher")

	b.stop()
	b.stop() // twice is once
	e.play("table-01A", 5, 1)
	e.play("table-01B", 1, 1)
	waitPosition(t, r, e.head())
	a.hears("a", 6)
	other.hears("the other table's watcher", 2)
	b.silent("b after its stop")

	a.stop()
	other.stop()
	c := watch("01A")
	e.play("table-01A", 6, 1)
	waitPosition(t, r, e.head())
	c.hears("a watcher of a table whose watchers had all stopped", 7)
	a.silent("a after its stop")
	other.silent("the other table's watcher after its stop")
	c.stop()
}

// TestRelayWithoutJetStream: a relay given no JetStream (an embedded node
// projecting in process) hands every event to Announce once, in global
// order, in pages; its position reaches the head, it saves its checkpoint
// when it stops, and a relay started again resumes after that checkpoint.
// Nothing reaches the JetStream stream.
func TestRelayWithoutJetStream(t *testing.T) {
	e := newEnv(t)
	e.seed()
	var (
		mu        sync.Mutex
		announced []int64
	)
	opts := natsbus.RelayOptions{PageSize: 7, Announce: func(page []eventstore.Event) {
		mu.Lock()
		defer mu.Unlock()
		for _, ev := range page {
			announced = append(announced, ev.Position)
		}
	}}
	positions := func() []int64 {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(announced)
	}
	run := func() {
		t.Helper()
		r := natsbus.NewRelay(e.st, nil, e.st, e.logs.logger(), opts)
		stop := runRelay(e.ctx, r)
		waitPosition(t, r, e.head())
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if s := r.Stats(); s.Running || s.Diverged || s.Position != e.head() {
			t.Fatalf("stats after stop = %+v, want stopped at the head %d", s, e.head())
		}
	}
	run()
	first := e.head()
	want := make([]int64, 0, first)
	for p := int64(1); p <= first; p++ {
		want = append(want, p)
	}
	if got := positions(); !slices.Equal(got, want) {
		t.Fatalf("announced positions %v, want 1 to %d once each in order", got, first)
	}
	if cp, err := e.st.Checkpoint(e.ctx, "nats-relay"); err != nil || cp != first {
		t.Fatalf("checkpoint after stop = %d (%v), want the head %d", cp, err, first)
	}

	e.play("table-01A", 13, 3)
	run()
	for p := first + 1; p <= e.head(); p++ {
		want = append(want, p)
	}
	if got := positions(); !slices.Equal(got, want) {
		t.Fatalf("announced positions after a restart %v, want %v: the second relay resumes after the checkpoint", got, want)
	}
	if msgs := e.streamMsgs(); len(msgs) != 0 {
		t.Fatalf("the JetStream stream holds %d messages, want none", len(msgs))
	}
}
