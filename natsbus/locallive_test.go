package natsbus_test

import (
	"testing"
	"time"

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

	type watcher struct {
		seen chan int
		stop func()
	}
	watch := func(id string) *watcher {
		t.Helper()
		w := &watcher{seen: make(chan int, 64)}
		var err error
		if w.stop, err = live.Watch(id, func(v int) { w.seen <- v }); err != nil {
			t.Fatal(err)
		}
		return w
	}
	hears := func(who string, w *watcher, want ...int) {
		t.Helper()
		for _, v := range want {
			select {
			case got := <-w.seen:
				if got != v {
					t.Fatalf("%s heard version %d, want %d", who, got, v)
				}
			case <-time.After(waitLimit):
				t.Fatalf("%s did not hear version %d", who, v)
			}
		}
	}
	silent := func(who string, w *watcher) {
		t.Helper()
		select {
		case got := <-w.seen:
			t.Fatalf("%s heard version %d", who, got)
		default:
		}
	}

	subs := e.nc.NumSubscriptions() // the relay's own
	a, b := watch("01A"), watch("01A")
	other := watch("01B")
	if n := e.nc.NumSubscriptions(); n != subs {
		t.Fatalf("%d subscriptions on the connection once watched, want %d as before", n, subs)
	}
	e.play("table-01A", 1, 4)
	e.append("players", 0, eventstore.NewEvent{Type: "PlayerCreated", Data: []byte(`{"id":"p1"}`)})
	waitPosition(t, r, e.head())
	hears("a", a, 2, 3, 4, 5)
	hears("b", b, 2, 3, 4, 5)
	silent("the other table's watcher", other)

	b.stop()
	b.stop() // twice is once
	e.play("table-01A", 5, 1)
	e.play("table-01B", 1, 1)
	waitPosition(t, r, e.head())
	hears("a", a, 6)
	hears("the other table's watcher", other, 2)
	silent("b after its stop", b)

	a.stop()
	other.stop()
	c := watch("01A")
	e.play("table-01A", 6, 1)
	waitPosition(t, r, e.head())
	hears("a watcher of a table whose watchers had all stopped", c, 7)
	silent("a after its stop", a)
	silent("the other table's watcher after its stop", other)
	c.stop()
}
