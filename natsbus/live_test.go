package natsbus_test

import (
	"strconv"
	"testing"

	"github.com/nats-io/nats.go"

	"paiju/natsbus"
)

// TestLiveSharesSubscription: the streams of a table on a node share one
// subscription (NewLive); each hears every version until its own stop, the
// table's subscription ends with its last watcher and starts again with
// the next, and other tables are not heard.
func TestLiveSharesSubscription(t *testing.T) {
	url := startNATSServer(t)
	nc, _ := dial(t, url)
	pub, _ := dial(t, url)
	live := natsbus.NewLive(nc, natsbus.Namespace{})
	publish := func(id string, v int) {
		t.Helper()
		m := nats.NewMsg(natsbus.SubjectPrefix + "doudizhu." + id)
		m.Header.Set(natsbus.HeaderVersion, strconv.Itoa(v))
		if err := pub.PublishMsg(m); err != nil {
			t.Fatal(err)
		}
		if err := pub.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	watch := func(id string) *liveWatcher { return watchTable(t, live, id) }
	subs := func(want int) {
		t.Helper()
		if got := nc.NumSubscriptions(); got != want {
			t.Fatalf("%d subscriptions on the connection, want %d", got, want)
		}
	}

	a, b, c := watch("01L"), watch("01L"), watch("01L")
	other := watch("02L")
	subs(2)
	publish("01L", 1)
	a.hears("a", 1)
	b.hears("b", 1)
	c.hears("c", 1)
	b.stop()
	b.stop() // twice is once
	publish("01L", 2)
	a.hears("a", 2)
	c.hears("c", 2)
	publish("02L", 7)
	other.hears("the other table's watcher", 7)
	b.silent("b after its stop")
	a.silent("a")
	a.stop()
	c.stop()
	subs(1)
	d := watch("01L")
	subs(2)
	publish("01L", 3)
	d.hears("a watcher after the table's subscription ended and began again", 3)
	a.silent("a after its stop")
	c.silent("c after its stop")
	d.stop()
	other.stop()
	subs(0)
}
