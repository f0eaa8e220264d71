package natsbus_test

import (
	"strconv"
	"testing"
	"time"

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
	type watcher struct {
		seen chan int
		stop func()
	}
	watch := func(id string) *watcher {
		t.Helper()
		w := &watcher{seen: make(chan int, 16)}
		var err error
		if w.stop, err = live.Watch(id, func(v int) { w.seen <- v }); err != nil {
			t.Fatal(err)
		}
		return w
	}
	hears := func(who string, w *watcher, v int) {
		t.Helper()
		select {
		case got := <-w.seen:
			if got != v {
				t.Fatalf("%s heard version %d, want %d", who, got, v)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not hear version %d", who, v)
		}
	}
	// Anything a watcher was told beyond what it was expected to hear shows
	// up once a later notice has reached every watcher of the table.
	silent := func(who string, w *watcher) {
		t.Helper()
		select {
		case got := <-w.seen:
			t.Fatalf("%s heard version %d", who, got)
		default:
		}
	}
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
	hears("a", a, 1)
	hears("b", b, 1)
	hears("c", c, 1)
	b.stop()
	b.stop() // twice is once
	publish("01L", 2)
	hears("a", a, 2)
	hears("c", c, 2)
	publish("02L", 7)
	hears("the other table's watcher", other, 7)
	silent("b after its stop", b)
	silent("a", a)
	a.stop()
	c.stop()
	subs(1)
	d := watch("01L")
	subs(2)
	publish("01L", 3)
	hears("a watcher after the table's subscription ended and began again", d, 3)
	silent("a after its stop", a)
	silent("c after its stop", c)
	d.stop()
	other.stop()
	subs(0)
}
