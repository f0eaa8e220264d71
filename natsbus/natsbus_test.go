package natsbus_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/natsbus"
)

// waitLimit only stops a broken test from hanging; no assertion depends on it.
const waitLimit = 30 * time.Second

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func startServer(t *testing.T, ctx context.Context, dir string) *natsbus.Embedded {
	t.Helper()
	srv, err := natsbus.StartEmbedded(ctx, dir, testLogger(t))
	if err != nil {
		t.Fatalf("start embedded server: %v", err)
	}
	t.Cleanup(srv.Shutdown)
	return srv
}

func connect(t *testing.T, ctx context.Context, srv *natsbus.Embedded) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, js, err := natsbus.Connect(ctx, srv.ClientURL())
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(nc.Close)
	return nc, js
}

func openStore(t *testing.T, ctx context.Context) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"), sqlite.Options{Synchronous: "NORMAL", Logger: testLogger(t)})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestEmbeddedRestartKeepsStream(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "nats")

	srv := startServer(t, ctx, dir)
	u, err := url.Parse(srv.ClientURL())
	if err != nil {
		t.Fatalf("client URL %q: %v", srv.ClientURL(), err)
	}
	if u.Hostname() != "127.0.0.1" || u.Port() == "4222" || u.Port() == "0" {
		t.Fatalf("client URL %s: want 127.0.0.1 on a random port, never 4222", srv.ClientURL())
	}
	nc, js := connect(t, ctx, srv)
	if _, err := natsbus.EnsureStream(ctx, js); err != nil {
		t.Fatal(err)
	}
	msg := nats.NewMsg(natsbus.Subject("doudizhu", "t1"))
	msg.Data = []byte(`{"x":1}`)
	msg.Header.Set(jetstream.MsgIDHeader, "table-t1:1")
	if _, err := js.PublishMsg(ctx, msg); err != nil {
		t.Fatalf("publish: %v", err)
	}
	nc.Close()
	srv.Shutdown()

	srv = startServer(t, ctx, dir)
	_, js = connect(t, ctx, srv)
	// EnsureStream on a restart must update in place, not reset the stream.
	s, err := natsbus.EnsureStream(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 1 {
		t.Fatalf("after restart on the same dir the stream holds %d messages, want 1 (DESIGN.md, NATS: the embedded server keeps its stream)", info.State.Msgs)
	}
	if info.Config.Duplicates != natsbus.DuplicateWindow || info.Config.Storage != jetstream.FileStorage {
		t.Fatalf("stream config: duplicates %v storage %v, want %v on file storage", info.Config.Duplicates, info.Config.Storage, natsbus.DuplicateWindow)
	}
	// The duplicate window survives the restart too.
	ack, err := js.PublishMsg(ctx, msg)
	if err != nil {
		t.Fatalf("publish again: %v", err)
	}
	if !ack.Duplicate {
		t.Fatalf("re-publish of Nats-Msg-Id table-t1:1 after restart was stored, want dropped as duplicate (DESIGN.md, NATS)")
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

// fixture writes tables and other streams to a store.
type fixture struct {
	t     *testing.T
	st    *sqlite.Store
	games map[string]string // stream → game, "" for streams relayed as other
}

func (f *fixture) openTable(ctx context.Context, id, game string) {
	f.t.Helper()
	data, err := json.Marshal(table.TableOpened{TableID: id, Game: game, Seats: 3})
	if err != nil {
		f.t.Fatal(err)
	}
	f.append(ctx, "table-"+id, 0, eventstore.NewEvent{Type: "TableOpened", Data: data})
	f.games["table-"+id] = game
}

func (f *fixture) append(ctx context.Context, stream string, expected int, evs ...eventstore.NewEvent) {
	f.t.Helper()
	if _, err := f.st.Append(ctx, stream, expected, evs); err != nil {
		f.t.Fatalf("append to %s: %v", stream, err)
	}
	if _, ok := f.games[stream]; !ok {
		f.games[stream] = ""
	}
}

// play appends n events to stream, which is at version v, one or two per
// call so that streams interleave in global order.
func (f *fixture) play(ctx context.Context, stream string, v, n int) {
	f.t.Helper()
	for i := 0; i < n; {
		batch := []eventstore.NewEvent{{Type: "PlayerSeated", Data: fmt.Appendf(nil, `{"seat":%d}`, v+i)}}
		if i+1 < n && i%3 == 0 {
			batch = append(batch, eventstore.NewEvent{Type: "CardsPlayed", Data: fmt.Appendf(nil, `{"n":%d}`, v+i+1)})
		}
		f.append(ctx, stream, v+i, batch...)
		i += len(batch)
	}
}

// runRelay runs r until the returned stop is called; stop returns Run's error.
func runRelay(ctx context.Context, r *natsbus.Relay) (stop func() error) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	return func() error {
		cancel()
		return <-done
	}
}

// waitPosition waits until r has relayed up to pos.
func waitPosition(t *testing.T, r *natsbus.Relay, pos int64) {
	t.Helper()
	limit := time.Now().Add(waitLimit)
	for r.Position() < pos {
		if time.Now().After(limit) {
			t.Fatalf("relay stuck at position %d, want %d", r.Position(), pos)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// checkJetStream reads the whole stream and checks it against the store:
// every event exactly once, each table's events in version order on its
// subject, body and headers as stored.
func checkJetStream(t *testing.T, ctx context.Context, js jetstream.JetStream, f *fixture) {
	t.Helper()
	want, err := f.st.ReadAll(ctx, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s, err := js.Stream(ctx, natsbus.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != uint64(len(want)) {
		t.Errorf("JetStream holds %d messages for %d stored events, want each event exactly once (DESIGN.md, NATS: duplicates are dropped)", info.State.Msgs, len(want))
	}
	byID := make(map[string]eventstore.Event, len(want))
	for _, e := range want {
		byID[natsbus.MsgID(e.Stream, e.Version)] = e
	}
	seen := make(map[string]bool)
	lastVersion := make(map[string]int)
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && seq > 0; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if err != nil {
			t.Fatalf("get message %d: %v", seq, err)
		}
		got, err := natsbus.DecodeEvent(m.Header, m.Data)
		if err != nil {
			t.Fatalf("message %d: %v", seq, err)
		}
		id := natsbus.MsgID(got.Stream, got.Version)
		if m.Header.Get(jetstream.MsgIDHeader) != id {
			t.Errorf("message %d: Nats-Msg-Id %q, want %q (DESIGN.md, NATS: Nats-Msg-Id = <stream>:<version>)", seq, m.Header.Get(jetstream.MsgIDHeader), id)
		}
		if seen[id] {
			t.Errorf("event %s stored twice in JetStream (DESIGN.md, NATS: duplicates are dropped)", id)
		}
		seen[id] = true
		if got.Version != lastVersion[got.Stream]+1 {
			t.Errorf("stream %s: version %d follows %d in JetStream, want versions in order without gaps", got.Stream, got.Version, lastVersion[got.Stream])
		}
		lastVersion[got.Stream] = got.Version
		stored, ok := byID[id]
		if !ok {
			t.Errorf("JetStream holds %s, which the store does not", id)
			continue
		}
		if got.Position != stored.Position || got.Type != stored.Type || !got.RecordedAt.Equal(stored.RecordedAt) ||
			got.Hash != stored.Hash || got.PrevHash != stored.PrevHash || string(got.Data) != string(stored.Data) {
			t.Errorf("event %s relayed as %+v, stored as %+v", id, got, stored)
		}
		wantSubject := "paiju.events.other." + got.Stream
		if g := f.games[got.Stream]; g != "" {
			wantSubject = natsbus.Subject(g, strings.TrimPrefix(got.Stream, "table-"))
		}
		if m.Subject != wantSubject {
			t.Errorf("event %s on subject %s, want %s (DESIGN.md, NATS: paiju.events.<game>.<tableID>)", id, m.Subject, wantSubject)
		}
	}
	for id := range byID {
		if !seen[id] {
			t.Errorf("stored event %s never reached JetStream (DESIGN.md, NATS: every committed event is published)", id)
		}
	}
}

// stopAfterPages hands the real store to the relay and cancels the relay's
// context when it asks for page n+1, so a run stops at a known position.
type stopAfterPages struct {
	*sqlite.Store
	n      int
	cancel context.CancelFunc
}

func (s *stopAfterPages) ReadAll(ctx context.Context, from int64, limit int) ([]eventstore.Event, error) {
	if s.n == 0 {
		s.cancel()
		return nil, ctx.Err()
	}
	s.n--
	return s.Store.ReadAll(ctx, from, limit)
}

func TestRelayExactlyOnce(t *testing.T) {
	ctx := t.Context()
	st := openStore(t, ctx)
	srv := startServer(t, ctx, filepath.Join(t.TempDir(), "nats"))
	_, js := connect(t, ctx, srv)
	if _, err := natsbus.EnsureStream(ctx, js); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, st: st, games: map[string]string{}}
	opts := natsbus.RelayOptions{PageSize: 7, Window: 4, PollInterval: 5 * time.Millisecond}

	// Tables interleaved in global order, a stream that is no table, and a
	// table stream that does not open with TableOpened.
	tables := []struct{ id, game string }{{"01A", "doudizhu"}, {"01B", "shengji"}, {"01C", "doudizhu"}}
	for _, tb := range tables {
		f.openTable(ctx, tb.id, tb.game)
	}
	for _, tb := range tables {
		f.play(ctx, "table-"+tb.id, 1, 12)
	}
	f.append(ctx, "players", 0, eventstore.NewEvent{Type: "PlayerCreated", Data: []byte(`{"id":"p1"}`)})
	f.append(ctx, "table-stray", 0, eventstore.NewEvent{Type: "PlayerSeated", Data: []byte(`{"seat":0}`)})

	// First run: stopped by cancellation after three pages.
	const pages = 3
	runCtx, cancel := context.WithCancel(ctx)
	src := &stopAfterPages{Store: st, n: pages, cancel: cancel}
	r := natsbus.NewRelay(src, js, st, testLogger(t), opts)
	if err := r.Run(runCtx); err != nil {
		t.Fatalf("Run stopped by cancellation returned %v, want nil", err)
	}
	if got, want := r.Position(), int64(pages*opts.PageSize); got != want {
		t.Fatalf("relay stopped after %d pages of %d at position %d, want %d", pages, opts.PageSize, got, want)
	}
	if cp, err := st.Checkpoint(ctx, "nats-relay"); err != nil || cp != r.Position() {
		t.Fatalf("checkpoint after stop = %d (%v), want %d: the relay saves what was acknowledged before it stops", cp, err, r.Position())
	}

	// More events while the relay is down, to old tables and a new one.
	f.play(ctx, "table-01B", 13, 5)
	f.openTable(ctx, "01D", "shengji")
	f.play(ctx, "table-01D", 1, 4)
	f.play(ctx, "table-01A", 13, 3)

	// Second run, with a fresh relay (cold game cache), to the head.
	r = natsbus.NewRelay(st, js, st, testLogger(t), opts)
	stop := runRelay(ctx, r)
	head, _, err := st.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waitPosition(t, r, head)
	// Appends after it caught up are relayed while it runs.
	f.play(ctx, "table-01C", 13, 4)
	r.Notify()
	head, _, err = st.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waitPosition(t, r, head)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	checkJetStream(t, ctx, js, f)

	// A crash after publishing but before saving the checkpoint: the next
	// run starts from an older checkpoint and re-publishes; JetStream drops
	// every copy.
	for _, back := range []int64{0, 10, head - 1} {
		if err := st.SetCheckpoint(ctx, "nats-relay", back); err != nil {
			t.Fatal(err)
		}
		r = natsbus.NewRelay(st, js, st, testLogger(t), opts)
		stop = runRelay(ctx, r)
		waitPosition(t, r, head)
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("republish from %d", back), func(t *testing.T) {
			checkJetStream(t, ctx, js, f)
		})
	}
}

// TestRelayRetriesUntilStreamExists: while JetStream refuses the publishes
// (here: no stream captures the subjects yet), the relay keeps its place and
// delivers everything once the stream is there.
func TestRelayRetriesUntilStreamExists(t *testing.T) {
	ctx := t.Context()
	st := openStore(t, ctx)
	srv := startServer(t, ctx, filepath.Join(t.TempDir(), "nats"))
	nc, js := connect(t, ctx, srv)
	f := &fixture{t: t, st: st, games: map[string]string{}}
	f.openTable(ctx, "01A", "doudizhu")
	f.play(ctx, "table-01A", 1, 5)

	// Count publish attempts so the test knows the relay failed at least
	// once before the stream exists; it listens on the core subject.
	attempts := make(chan struct{}, 1)
	sub, err := nc.Subscribe(natsbus.SubjectAll, func(*nats.Msg) {
		select {
		case attempts <- struct{}{}:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()

	r := natsbus.NewRelay(st, js, st, testLogger(t), natsbus.RelayOptions{
		MinBackoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond, AckTimeout: time.Second,
	})
	stop := runRelay(ctx, r)
	select {
	case <-attempts:
	case <-time.After(waitLimit):
		t.Fatal("relay never tried to publish")
	}
	if r.Position() != 0 {
		t.Fatalf("relay at position %d with no stream to take its events, want 0: it never skips an event (DESIGN.md, NATS)", r.Position())
	}
	if _, err := natsbus.EnsureStream(ctx, js); err != nil {
		t.Fatal(err)
	}
	head, _, err := st.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waitPosition(t, r, head)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	checkJetStream(t, ctx, js, f)
}

// TestNotifyWakesRelay: with a poll interval longer than the test's limit,
// only Notify can make the relay see a new event.
func TestNotifyWakesRelay(t *testing.T) {
	ctx := t.Context()
	st := openStore(t, ctx)
	srv := startServer(t, ctx, filepath.Join(t.TempDir(), "nats"))
	_, js := connect(t, ctx, srv)
	if _, err := natsbus.EnsureStream(ctx, js); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, st: st, games: map[string]string{}}
	r := natsbus.NewRelay(st, js, st, testLogger(t), natsbus.RelayOptions{PollInterval: time.Hour})
	stop := runRelay(ctx, r)
	defer stop()
	for i, id := range []string{"01A", "01B", "01C"} {
		f.openTable(ctx, id, "doudizhu")
		r.Notify()
		waitPosition(t, r, int64(i+1))
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	checkJetStream(t, ctx, js, f)
}

func TestRelayRunsOnce(t *testing.T) {
	ctx := t.Context()
	st := openStore(t, ctx)
	srv := startServer(t, ctx, filepath.Join(t.TempDir(), "nats"))
	_, js := connect(t, ctx, srv)
	r := natsbus.NewRelay(st, js, st, testLogger(t), natsbus.RelayOptions{})
	stop := runRelay(ctx, r)
	// The first Run may not have started yet; retry until the second
	// one is refused.
	limit := time.Now().Add(waitLimit)
	for {
		runCtx, cancel := context.WithCancel(ctx)
		cancel()
		if err := r.Run(runCtx); err != nil {
			break
		}
		if time.Now().After(limit) {
			t.Fatal("a second concurrent Run was accepted, want an error")
		}
		time.Sleep(time.Millisecond)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

var _ = errors.New
var _ = slices.Sort[[]int]
