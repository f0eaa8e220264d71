package natsbus_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/natsbus"
)

// small pages and window so that a few dozen events take many of each.
var smallOpts = natsbus.RelayOptions{PageSize: 7, Window: 4, PollInterval: 5 * time.Millisecond, MinBackoff: time.Millisecond}

func TestRelayExactlyOnce(t *testing.T) {
	e := newEnv(t)
	e.seed()

	// First run: stopped by cancellation after three pages.
	const pages = 3
	if got, want := e.relayPages(pages, smallOpts), int64(pages*smallOpts.PageSize); got != want {
		t.Fatalf("relay stopped after %d pages of %d at position %d, want %d", pages, smallOpts.PageSize, got, want)
	}
	if cp, err := e.st.Checkpoint(e.ctx, "nats-relay"); err != nil || cp != pages*int64(smallOpts.PageSize) {
		t.Fatalf("checkpoint after stop = %d (%v), want %d: the relay saves what was acknowledged before it stops", cp, err, pages*smallOpts.PageSize)
	}

	// More events while the relay is down, to old tables and a new one.
	e.play("table-01B", 13, 5)
	e.openTable("01D", "shengji")
	e.play("table-01D", 1, 4)
	e.play("table-01A", 13, 3)

	// Second run, with a fresh relay (cold game cache), to the head, then
	// appends while it runs.
	r := e.relay(smallOpts)
	stop := runRelay(e.ctx, r)
	defer stop()
	waitPosition(t, r, e.head())
	e.play("table-01C", 13, 4)
	r.Notify()
	waitPosition(t, r, e.head())
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	e.checkJetStream()
	if cp, err := e.st.Checkpoint(e.ctx, "nats-relay"); err != nil || cp != e.head() {
		t.Fatalf("checkpoint after relaying everything = %d (%v), want the head %d", cp, err, e.head())
	}

	// A crash after publishing but before saving the checkpoint: the next
	// run starts from an older checkpoint and must not store anything twice.
	for _, back := range []int64{0, 10, e.head() - 1} {
		t.Run(fmt.Sprintf("checkpoint back to %d", back), func(t *testing.T) {
			if err := e.st.SetCheckpoint(e.ctx, "nats-relay", back); err != nil {
				t.Fatal(err)
			}
			e.relayToHead(smallOpts)
			e.checkJetStream()
		})
	}

	// JetStream's duplicate window drops any re-publish of an event as the
	// relay builds it.
	t.Run("duplicate window", func(t *testing.T) {
		before := len(e.streamMsgs())
		for _, m := range e.streamMsgs() {
			ev, err := natsbus.DecodeEvent(m.Header, m.Data)
			if err != nil {
				t.Fatal(err)
			}
			ack, err := e.js.PublishMsg(e.ctx, natsbus.NewMsg(m.Subject, ev))
			if err != nil {
				t.Fatalf("re-publish %s: %v", natsbus.MsgID(ev.Stream, ev.Version), err)
			}
			if !ack.Duplicate {
				t.Errorf("re-publish of %s was stored again, want it dropped by Nats-Msg-Id (DESIGN.md, NATS: duplicates are dropped)", natsbus.MsgID(ev.Stream, ev.Version))
			}
		}
		if after := len(e.streamMsgs()); after != before {
			t.Errorf("JetStream holds %d messages after re-publishing, %d before: want duplicates dropped", after, before)
		}
	})
}

// TestRelayRepublishesWhatJetStreamLost: SQLite is the record and JetStream
// acknowledges before its disk flush (DESIGN.md, Event store), so whenever
// JetStream holds less than the checkpoint says, the relay fills it in.
func TestRelayRepublishesWhatJetStreamLost(t *testing.T) {
	tests := []struct {
		name string
		lose func(e *env)
		warn string
	}{
		{
			name: "lost tail",
			lose: func(e *env) {
				// JetStream got three pages; the checkpoint claims it all.
				e.relayPages(3, smallOpts)
				if err := e.st.SetCheckpoint(e.ctx, "nats-relay", e.head()); err != nil {
					e.t.Fatal(err)
				}
			},
			warn: "JetStream lost events",
		},
		{
			name: "stream recreated empty",
			lose: func(e *env) {
				e.relayToHead(smallOpts)
				if err := e.js.DeleteStream(e.ctx, natsbus.StreamName); err != nil {
					e.t.Fatal(err)
				}
				if _, err := natsbus.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{}); err != nil {
					e.t.Fatal(err)
				}
			},
			warn: "JetStream stream is empty",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.seed()
			tc.lose(e)
			e.relayToHead(smallOpts)
			e.checkJetStream()
			if !e.logs.seen(tc.warn) {
				t.Errorf("the relay filled in what JetStream lost without logging %q", tc.warn)
			}
		})
	}
}

// TestRelayRefusesDivergedStream: when JetStream's last event is not the
// store's (the store was restored from an older copy), the relay publishes
// nothing over it and says why.
func TestRelayRefusesDivergedStream(t *testing.T) {
	e := newEnv(t)
	e.seed()
	e.relayToHead(smallOpts)
	before := len(e.streamMsgs())

	// A second store with different history, relaying to the same stream.
	other := newEnv(t)
	other.openTable("01A", "shengji")
	other.play("table-01A", 1, 3)
	r := natsbus.NewRelay(other.st, e.js, other.st, other.logs.logger(), smallOpts)
	stop := runRelay(e.ctx, r)
	defer stop()
	other.logs.waitLogged("is not in the store")
	if st := r.Stats(); !st.Running || !st.Diverged {
		t.Errorf("stats of a relay refusing a diverged stream: %+v, want running and diverged (readiness reads it)", st)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.Running {
		t.Errorf("stats after Run returned: %+v, want not running", st)
	}
	if r.Position() != 0 {
		t.Errorf("relay of a diverged store at position %d, want 0: it must not publish over another history", r.Position())
	}
	if after := len(e.streamMsgs()); after != before {
		t.Errorf("JetStream holds %d messages after a diverged store's relay ran, %d before: want none added", after, before)
	}
}

// TestRelayRechainsAfterDeletedTail: after the stream's last message was
// deleted and the server restarted, JetStream's idea of the last message id
// is gone; the relay starts a new chain instead of retrying forever.
func TestRelayRechainsAfterDeletedTail(t *testing.T) {
	e := newEnv(t)
	e.seed()
	e.relayToHead(smallOpts)
	s, err := e.js.Stream(e.ctx, natsbus.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMsg(e.ctx, info.State.LastSeq); err != nil {
		t.Fatal(err)
	}
	e.restartServer()
	e.relayToHead(smallOpts)
	e.checkJetStream()
	if !e.logs.seen("refused to chain") {
		t.Errorf("relay recovered without logging that JetStream refused its chain; the re-chain path was not taken")
	}
}

// TestRelayRetriesUntilStreamExists: while there is no stream to take the
// events, the relay keeps its place and delivers everything once there is.
func TestRelayRetriesUntilStreamExists(t *testing.T) {
	e := newEnv(t)
	if err := e.js.DeleteStream(e.ctx, natsbus.StreamName); err != nil {
		t.Fatal(err)
	}
	e.openTable("01A", "doudizhu")
	e.play("table-01A", 1, 5)

	r := e.relay(natsbus.RelayOptions{MinBackoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	stop := runRelay(e.ctx, r)
	defer stop()
	e.logs.waitLogged("stream not found")
	if r.Position() != 0 {
		t.Fatalf("relay at position %d with no stream to take its events, want 0: it never skips an event (DESIGN.md, NATS)", r.Position())
	}
	if _, err := natsbus.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{}); err != nil {
		t.Fatal(err)
	}
	waitPosition(t, r, e.head())
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	e.checkJetStream()
}

// TestNotifyWakesRelay: with a poll interval longer than the test's limit,
// only Notify can make the relay see a new event.
func TestNotifyWakesRelay(t *testing.T) {
	e := newEnv(t)
	r := e.relay(natsbus.RelayOptions{PollInterval: time.Hour})
	stop := runRelay(e.ctx, r)
	defer stop()
	for i, id := range []string{"01A", "01B", "01C"} {
		e.openTable(id, "doudizhu")
		r.Notify()
		waitPosition(t, r, int64(i+1))
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	e.checkJetStream()
}

func TestRelayRunsOnce(t *testing.T) {
	e := newEnv(t)
	r := e.relay(natsbus.RelayOptions{})
	stop := runRelay(e.ctx, r)
	defer stop()
	// Once the first Run has started: a second Run begun before it would
	// be the first, and the first refused.
	waitFor(t, func() bool { return r.Stats().Running }, "the first Run starts")
	ctx, cancel := context.WithCancel(e.ctx)
	cancel()
	if err := r.Run(ctx); err == nil {
		t.Fatal("a second concurrent Run was accepted, want an error")
	}
	if !r.Stats().Running {
		t.Fatal("the refused Run stopped the first")
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// countReads is the store as a relay's Source, counting the pages it reads
// from the database; with memory false it hides ReadCommitted, as a store
// without one (PostgreSQL) does.
type countReads struct {
	st       *sqlite.Store
	memory   bool
	readAlls atomic.Int64
	kept     atomic.Int64
}

func (c *countReads) ReadAll(ctx context.Context, from int64, limit int) ([]eventstore.Event, error) {
	c.readAlls.Add(1)
	return c.st.ReadAll(ctx, from, limit)
}

func (c *countReads) Load(ctx context.Context, stream string, from int) ([]eventstore.Event, error) {
	return c.st.Load(ctx, stream, from)
}

type countReadsKept struct{ *countReads }

func (c countReadsKept) ReadCommitted(from int64, limit int) ([]eventstore.Event, bool) {
	page, ok := c.st.ReadCommitted(from, limit)
	if ok {
		c.kept.Add(1)
	}
	return page, ok
}

// TestRelayReadsCommittedEvents: the relay takes the events the store keeps
// from its last commits instead of reading them back, reads the database
// for what is older (a store reopened, a ring too small), and relays the
// same stream either way; a Source without that memory is read as before.
func TestRelayReadsCommittedEvents(t *testing.T) {
	for _, tc := range []struct {
		name         string
		memory       bool
		reopen       bool // reopen the store before the run, with a ring of 5
		wantReadAlls bool
	}{
		{name: "kept", memory: true},
		{name: "reopened, small ring", memory: true, reopen: true, wantReadAlls: true},
		{name: "no memory", memory: false, wantReadAlls: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			if tc.reopen {
				e.seed()
				e.reopenStore(sqlite.Options{RecentEvents: 5})
			}
			cr := &countReads{st: e.st, memory: tc.memory}
			var src natsbus.Source = cr
			if tc.memory {
				src = countReadsKept{cr}
			}
			r := natsbus.NewRelay(src, e.js, e.st, e.logs.logger(), smallOpts)
			stop := runRelay(e.ctx, r)
			defer stop()
			if !tc.reopen {
				e.seed()
			}
			// Appends while it runs, two tables at a time so that pages mix
			// them, more than the small ring holds between two reads.
			e.play("table-01A", 13, 20)
			e.play("table-01B", 13, 3)
			r.Notify()
			waitPosition(t, r, e.head())
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			e.checkJetStream()
			if got := cr.readAlls.Load(); (got > 0) != tc.wantReadAlls {
				t.Errorf("the relay read %d pages from the database; want some: %v", got, tc.wantReadAlls)
			}
			if got := cr.kept.Load(); (got > 0) != tc.memory {
				t.Errorf("the relay took %d pages from the store's memory; want some: %v", got, tc.memory)
			}
		})
	}
}

// TestNewMsgHeaders: the relay's messages carry the headers DecodeEvent
// reads, and the expectation of the stream's last sequence only when the
// chain is known.
func TestNewMsgHeaders(t *testing.T) {
	ev := eventstore.Event{Position: 12, Stream: "table-01A", Version: 3, Type: "CardsPlayed", Data: []byte(`{"seat":1}`),
		RecordedAt: time.Date(2026, 12, 1, 10, 0, 0, 5, time.UTC), PrevHash: "ab", Hash: "cd"}
	first := ev
	first.PrevHash = ""
	for _, tc := range []struct {
		ev     eventstore.Event
		expect string
		want   map[string]string
	}{
		{ev, "41", map[string]string{"Nats-Msg-Id": "table-01A:3", "Paiju-Position": "12", "Paiju-Stream": "table-01A", "Paiju-Version": "3",
			"Paiju-Type": "CardsPlayed", "Paiju-Recorded-At": "2026-12-01T10:00:00.000000005Z", "Paiju-Hash": "cd", "Paiju-Prev-Hash": "ab",
			"Nats-Expected-Last-Sequence": "41"}},
		{first, "", map[string]string{"Nats-Msg-Id": "table-01A:3", "Paiju-Position": "12", "Paiju-Stream": "table-01A", "Paiju-Version": "3",
			"Paiju-Type": "CardsPlayed", "Paiju-Recorded-At": "2026-12-01T10:00:00.000000005Z", "Paiju-Hash": "cd"}},
	} {
		m := natsbus.NewMsgExpecting("paiju.events.doudizhu.01A", tc.ev, tc.expect)
		if len(m.Header) != len(tc.want) {
			t.Errorf("headers %v, want %v", m.Header, tc.want)
		}
		for k, v := range tc.want {
			if got := m.Header.Values(k); len(got) != 1 || got[0] != v {
				t.Errorf("header %s = %q, want [%q]", k, got, v)
			}
		}
		if m.Subject != "paiju.events.doudizhu.01A" || string(m.Data) != `{"seat":1}` {
			t.Errorf("message on %s with %s", m.Subject, m.Data)
		}
		got, err := natsbus.DecodeEvent(m.Header, m.Data)
		if err != nil || got.Position != tc.ev.Position || got.Stream != tc.ev.Stream || got.Version != tc.ev.Version ||
			got.Type != tc.ev.Type || !got.RecordedAt.Equal(tc.ev.RecordedAt) || got.Hash != tc.ev.Hash || got.PrevHash != tc.ev.PrevHash {
			t.Errorf("DecodeEvent = %+v %v, want %+v", got, err, tc.ev)
		}
		// A header added later must not write into another's value.
		for k := range tc.want {
			m.Header.Add(k, "x")
			for k2, v := range tc.want {
				if k2 != k && m.Header.Get(k2) != v {
					t.Errorf("adding a value to %s changed %s: %v", k, k2, m.Header)
				}
			}
			m.Header.Set(k, tc.want[k])
		}
	}
}
