package natsbus_test

import (
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
