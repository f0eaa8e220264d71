package natsbus_test

import (
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/natsbus"
)

func TestEmbeddedRestartKeepsStream(t *testing.T) {
	e := newEnv(t)
	msg := nats.NewMsg(natsbus.Subject("doudizhu", "t1"))
	msg.Data = []byte(`{"x":1}`)
	msg.Header.Set(jetstream.MsgIDHeader, "table-t1:1")
	if _, err := e.js.PublishMsg(e.ctx, msg); err != nil {
		t.Fatalf("publish: %v", err)
	}

	e.restartServer()
	// EnsureStream on a restart must update in place, not reset the stream.
	s, err := natsbus.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 1 {
		t.Fatalf("after a restart on the same dir the stream holds %d messages, want 1 (DESIGN.md, NATS: the embedded server keeps its stream)", info.State.Msgs)
	}
	if info.Config.Duplicates != natsbus.DuplicateWindow || info.Config.Storage != jetstream.FileStorage {
		t.Fatalf("stream config: duplicates %v storage %v, want %v on file storage", info.Config.Duplicates, info.Config.Storage, natsbus.DuplicateWindow)
	}
	// The duplicate window survives the restart too.
	ack, err := e.js.PublishMsg(e.ctx, msg)
	if err != nil {
		t.Fatalf("publish again: %v", err)
	}
	if !ack.Duplicate {
		t.Fatalf("re-publish of Nats-Msg-Id table-t1:1 after a restart was stored, want it dropped as a duplicate (DESIGN.md, NATS)")
	}
}

func TestSubject(t *testing.T) {
	tests := []struct{ game, table, want string }{
		{"doudizhu", "01J9ABC", "paiju.events.doudizhu.01J9ABC"},
		{"shengji", "a.b", "paiju.events.shengji.a_b"},
		{"", "x", "paiju.events._.x"},
		{"dou*", "x y>", "paiju.events.dou_.x_y_"},
	}
	for _, tc := range tests {
		if got := natsbus.Subject(tc.game, tc.table); got != tc.want {
			t.Errorf("Subject(%q, %q) = %q, want %q: one token each for game and table (DESIGN.md, NATS)", tc.game, tc.table, got, tc.want)
		}
	}
}

// EnsureStream puts back a stream whose configuration drifted, and leaves a
// stream that is as configured untouched (an update racing a consumer's
// creation is a data race in nats-server).
func TestEnsureStreamRestoresConfig(t *testing.T) {
	e := newEnv(t)
	if _, err := natsbus.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{}); err != nil {
		t.Fatal(err)
	}
	drifted := natsbus.StreamConfig(natsbus.StreamLimits{})
	drifted.Description = "changed by hand"
	if _, err := e.js.UpdateStream(e.ctx, drifted); err != nil {
		t.Fatal(err)
	}
	s, err := natsbus.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.CachedInfo().Config.Description; got != natsbus.StreamConfig(natsbus.StreamLimits{}).Description {
		t.Fatalf("description after EnsureStream: %q, want the configured one", got)
	}
	before := s.CachedInfo().Created
	again, err := natsbus.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{})
	if err != nil || !again.CachedInfo().Created.Equal(before) {
		t.Fatalf("a second EnsureStream: %v, created %v (was %v)", err, again.CachedInfo().Created, before)
	}
}
