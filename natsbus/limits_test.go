package natsbus_test

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"paiju/natsbus"
)

// EnsureStream applies the configured limits, changes them in place (the
// messages stay), and refuses limits JetStream would not take.
func TestEnsureStreamLimits(t *testing.T) {
	e := newEnv(t)
	e.openTable("01A", "doudizhu")
	e.relayToHead(smallOpts)
	for _, l := range []natsbus.StreamLimits{
		{MaxAge: 72 * time.Hour, MaxBytes: 1 << 30},
		{MaxAge: 24 * time.Hour, MaxBytes: 1 << 20},
		{}, // no limits again
	} {
		s, err := natsbus.EnsureStream(e.ctx, e.js, l)
		if err != nil {
			t.Fatalf("EnsureStream(%+v): %v", l, err)
		}
		info, err := s.Info(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantBytes := l.MaxBytes
		if wantBytes == 0 {
			wantBytes = -1
		}
		if info.Config.MaxAge != l.MaxAge || info.Config.MaxBytes != wantBytes || info.Config.Discard != jetstream.DiscardOld {
			t.Errorf("after EnsureStream(%+v): max age %v, max bytes %d, discard %v; want %v, %d, old messages discarded",
				l, info.Config.MaxAge, info.Config.MaxBytes, info.Config.Discard, l.MaxAge, wantBytes)
		}
		if info.State.Msgs != 1 {
			t.Errorf("after EnsureStream(%+v) the stream holds %d messages, want its 1: limits change in place", l, info.State.Msgs)
		}
	}
	for _, bad := range []natsbus.StreamLimits{{MaxAge: time.Minute}, {MaxAge: -time.Hour}, {MaxBytes: -2}} {
		if _, err := natsbus.EnsureStream(e.ctx, e.js, bad); err == nil {
			t.Errorf("EnsureStream(%+v) accepted limits shorter than the duplicate window or negative", bad)
		}
	}
}

// The store is the record and JetStream a feed: once MaxBytes discards the
// oldest messages the relay keeps publishing, and a restarted relay anchors
// on what is left, so the stream stays an exact, ordered suffix of the store
// (DESIGN.md, NATS; the unbounded stream).
func TestRelayCopesWithDiscardedMessages(t *testing.T) {
	e := newEnv(t)
	const maxBytes = 8 << 10
	if _, err := natsbus.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{MaxBytes: maxBytes}); err != nil {
		t.Fatal(err)
	}
	e.seed()
	e.relayToHead(smallOpts)
	first := e.checkSuffix()
	if first <= 1 {
		t.Fatalf("the stream still holds the store's first event under a %d-byte limit; the test discarded nothing", maxBytes)
	}
	// A new relay starts from a stream whose start is gone.
	e.play("table-01A", 13, 30)
	e.openTable("01D", "niuniu")
	e.relayToHead(smallOpts)
	if later := e.checkSuffix(); later <= first {
		t.Errorf("the stream's oldest event is at position %d after more events, was %d: old messages are not discarded", later, first)
	}
	if e.logs.seen("diverged") || e.logs.seen("republishing") {
		t.Errorf("the relay took a stream trimmed by its limits for a lost or diverged one")
	}
}

// checkSuffix checks that the stream holds the store's events from some
// position to the head, each once, in order, and returns that position.
func (e *env) checkSuffix() int64 {
	t := e.t
	t.Helper()
	all, err := e.st.ReadAll(e.ctx, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	msgs := e.streamMsgs()
	if len(msgs) == 0 {
		t.Fatal("the stream is empty")
	}
	tail := all[len(all)-min(len(msgs), len(all)):]
	if len(msgs) != len(tail) {
		t.Fatalf("JetStream holds %d messages for a store of %d events", len(msgs), len(all))
	}
	for i, m := range msgs {
		got, err := natsbus.DecodeEvent(m.Header, m.Data)
		if err != nil {
			t.Fatalf("message %d: %v", m.Sequence, err)
		}
		if want := tail[i]; got.Position != want.Position || got.Hash != want.Hash {
			t.Fatalf("message %d is event %d (%s), want %d (%s): the stream must be the store's suffix, in order",
				m.Sequence, got.Position, got.Hash, want.Position, want.Hash)
		}
	}
	return tail[0].Position
}
