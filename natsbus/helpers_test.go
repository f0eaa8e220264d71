package natsbus_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
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

// logs keeps the warnings a test's components log, and echoes them to t.Log.
type logs struct {
	t    testing.TB
	mu   sync.Mutex
	msgs []string
}

func newLogs(t testing.TB) *logs { return &logs{t: t} }

func (l *logs) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

func (l *logs) Write(p []byte) (int, error) {
	line := strings.TrimSpace(string(p))
	l.mu.Lock()
	l.msgs = append(l.msgs, line)
	l.mu.Unlock()
	l.t.Log(line)
	return len(p), nil
}

// seen tells whether a logged line contains s.
func (l *logs) seen(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.msgs {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// waitLogged waits until a logged line contains s.
func (l *logs) waitLogged(s string) {
	l.t.Helper()
	limit := time.Now().Add(waitLimit)
	for !l.seen(s) {
		if time.Now().After(limit) {
			l.t.Fatalf("nothing logged containing %q", s)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// env is a store and an embedded server with the stream, for one test.
type env struct {
	t       testing.TB
	ctx     context.Context
	logs    *logs
	st      *sqlite.Store
	stPath  string // the store's file, for reopenStore
	natsDir string
	srv     *natsbus.Embedded
	nc      *nats.Conn
	js      jetstream.JetStream
	games   map[string]string // stream → game, "" for streams relayed as other
	ns      natsbus.Namespace // the deployment checkJetStream reads
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{t: t, ctx: t.Context(), logs: newLogs(t), natsDir: filepath.Join(t.TempDir(), "nats"), games: map[string]string{}}
	e.stPath = filepath.Join(t.TempDir(), "events.db")
	e.reopenStore(sqlite.Options{})
	e.startServer()
	if _, err := natsbus.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{}); err != nil {
		t.Fatal(err)
	}
	return e
}

// reopenStore closes the store, if open, and opens it again with opts
// (synchronous NORMAL and the test's logger added).
func (e *env) reopenStore(opts sqlite.Options) {
	e.t.Helper()
	if e.st != nil {
		if err := e.st.Close(); err != nil {
			e.t.Fatal(err)
		}
	}
	opts.Synchronous, opts.Logger = "NORMAL", e.logs.logger()
	st, err := sqlite.Open(e.ctx, e.stPath, opts)
	if err != nil {
		e.t.Fatalf("open store: %v", err)
	}
	e.t.Cleanup(func() { st.Close() })
	e.st = st
}

// startServer starts the embedded server on e.natsDir and connects to it.
func (e *env) startServer() {
	e.t.Helper()
	srv, err := natsbus.StartEmbedded(e.ctx, e.natsDir, e.logs.logger())
	if err != nil {
		e.t.Fatalf("start embedded server: %v", err)
	}
	e.t.Cleanup(srv.Shutdown)
	nc, js, err := srv.Connect(e.ctx)
	if err != nil {
		e.t.Fatalf("connect: %v", err)
	}
	e.t.Cleanup(nc.Close)
	e.srv, e.nc, e.js = srv, nc, js
}

// restartServer stops the server and starts a new one on the same dir.
func (e *env) restartServer() {
	e.t.Helper()
	e.nc.Close()
	e.srv.Shutdown()
	e.startServer()
}

func (e *env) relay(opts natsbus.RelayOptions) *natsbus.Relay {
	return natsbus.NewRelay(e.st, e.js, e.st, e.logs.logger(), opts)
}

func (e *env) head() int64 {
	e.t.Helper()
	pos, _, err := e.st.Head(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return pos
}

func (e *env) openTable(id, game string) {
	e.t.Helper()
	data, err := json.Marshal(table.TableOpened{TableID: id, Game: game, Seats: 3})
	if err != nil {
		e.t.Fatal(err)
	}
	e.append("table-"+id, 0, eventstore.NewEvent{Type: "TableOpened", Data: data})
	e.games["table-"+id] = game
}

func (e *env) append(stream string, expected int, evs ...eventstore.NewEvent) {
	e.t.Helper()
	if _, err := e.st.Append(e.ctx, stream, expected, evs); err != nil {
		e.t.Fatalf("append to %s: %v", stream, err)
	}
	if _, ok := e.games[stream]; !ok {
		e.games[stream] = ""
	}
}

// play appends n events to stream, which is at version v, one or two per
// append so that streams interleave in global order.
func (e *env) play(stream string, v, n int) {
	e.t.Helper()
	for i := 0; i < n; {
		batch := []eventstore.NewEvent{{Type: "PlayerSeated", Data: fmt.Appendf(nil, `{"seat":%d}`, v+i)}}
		if i+1 < n && i%3 == 0 {
			batch = append(batch, eventstore.NewEvent{Type: "CardsPlayed", Data: fmt.Appendf(nil, `{"n":%d}`, v+i+1)})
		}
		e.append(stream, v+i, batch...)
		i += len(batch)
	}
}

// seed writes three interleaved tables of 13 events, a stream that is no
// table, and a table stream that does not open with TableOpened.
func (e *env) seed() {
	e.t.Helper()
	tables := []struct{ id, game string }{{"01A", "doudizhu"}, {"01B", "shengji"}, {"01C", "doudizhu"}}
	for _, tb := range tables {
		e.openTable(tb.id, tb.game)
	}
	for _, tb := range tables {
		e.play("table-"+tb.id, 1, 12)
	}
	e.append("players", 0, eventstore.NewEvent{Type: "PlayerCreated", Data: []byte(`{"id":"p1"}`)})
	e.append("table-stray", 0, eventstore.NewEvent{Type: "PlayerSeated", Data: []byte(`{"seat":0}`)})
}

// runRelay runs r until the returned stop is called; stop returns Run's
// error, and may be called again.
func runRelay(ctx context.Context, r *natsbus.Relay) (stop func() error) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	return sync.OnceValue(func() error {
		cancel()
		return <-done
	})
}

// waitPosition waits until r has relayed up to pos.
func waitPosition(t testing.TB, r *natsbus.Relay, pos int64) {
	t.Helper()
	limit := time.Now().Add(waitLimit)
	for r.Position() < pos {
		if time.Now().After(limit) {
			t.Fatalf("relay stuck at position %d, want %d", r.Position(), pos)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// relayToHead runs a fresh relay until it has relayed the store's head.
func (e *env) relayToHead(opts natsbus.RelayOptions) {
	e.t.Helper()
	r := e.relay(opts)
	stop := runRelay(e.ctx, r)
	defer stop()
	waitPosition(e.t, r, e.head())
	if err := stop(); err != nil {
		e.t.Fatal(err)
	}
}

// streamMsgs returns every message of the JetStream stream, in order.
func (e *env) streamMsgs() []*jetstream.RawStreamMsg {
	e.t.Helper()
	s, err := e.js.Stream(e.ctx, e.ns.Stream())
	if err != nil {
		e.t.Fatal(err)
	}
	info, err := s.Info(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	var msgs []*jetstream.RawStreamMsg
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && seq > 0; seq++ {
		m, err := s.GetMsg(e.ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue // deleted
		}
		if err != nil {
			e.t.Fatalf("get message %d: %v", seq, err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// checkJetStream reads the whole stream and checks it against the store:
// every event exactly once, in the store's global order (so each table's
// events in version order), on its subject, with body and headers as stored.
func (e *env) checkJetStream() {
	t := e.t
	t.Helper()
	want, err := e.st.ReadAll(e.ctx, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	msgs := e.streamMsgs()
	if len(msgs) != len(want) {
		t.Errorf("JetStream holds %d messages for %d stored events, want each event exactly once (DESIGN.md, NATS: duplicates are dropped)", len(msgs), len(want))
	}
	for i, m := range msgs {
		got, err := natsbus.DecodeEvent(m.Header, m.Data)
		if err != nil {
			t.Fatalf("message %d: %v", m.Sequence, err)
		}
		id := natsbus.MsgID(got.Stream, got.Version)
		if i >= len(want) {
			t.Errorf("message %d: extra event %s beyond the store's %d", m.Sequence, id, len(want))
			continue
		}
		stored := want[i]
		if got.Position != stored.Position || got.Stream != stored.Stream || got.Version != stored.Version ||
			got.Type != stored.Type || !got.RecordedAt.Equal(stored.RecordedAt) ||
			got.Hash != stored.Hash || got.PrevHash != stored.PrevHash || string(got.Data) != string(stored.Data) {
			t.Errorf("message %d is %+v, want the store's event %d %+v, once and in global order (DESIGN.md, NATS: every committed event is published)", m.Sequence, got, i+1, stored)
		}
		if m.Header.Get(jetstream.MsgIDHeader) != id {
			t.Errorf("message %d: Nats-Msg-Id %q, want %q (DESIGN.md, NATS: Nats-Msg-Id = <stream>:<version>)", m.Sequence, m.Header.Get(jetstream.MsgIDHeader), id)
		}
		wantSubject := e.ns.SubjectPrefix() + "other." + got.Stream
		if g := e.games[got.Stream]; g != "" {
			wantSubject = e.ns.Subject(g, strings.TrimPrefix(got.Stream, "table-"))
		}
		if m.Subject != wantSubject {
			t.Errorf("event %s on subject %s, want %s (DESIGN.md, NATS: paiju.events.<game>.<tableID>)", id, m.Subject, wantSubject)
		}
	}
}

// stopAfterPages hands the real store to the relay and cancels the relay's
// context when it asks for page n+1, so that a run stops at a known position.
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

// ReadCommitted counts a page the store's memory answers as ReadAll counts
// one it reads.
func (s *stopAfterPages) ReadCommitted(from int64, limit int) ([]eventstore.Event, bool) {
	page, ok := s.Store.ReadCommitted(from, limit)
	if !ok {
		return nil, false // the relay asks ReadAll, which counts it
	}
	if s.n == 0 {
		s.cancel()
		return nil, true
	}
	s.n--
	return page, true
}

// relayPages runs a fresh relay for the given number of pages and returns
// the position it stopped at.
func (e *env) relayPages(pages int, opts natsbus.RelayOptions) int64 {
	e.t.Helper()
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	src := &stopAfterPages{Store: e.st, n: pages, cancel: cancel}
	r := natsbus.NewRelay(src, e.js, e.st, e.logs.logger(), opts)
	if err := r.Run(ctx); err != nil {
		e.t.Fatalf("Run stopped by cancellation returned %v, want nil", err)
	}
	return r.Position()
}

// liveWatcher is one watch of a table on a Live or a LocalLive, with the
// versions it heard.
type liveWatcher struct {
	t    testing.TB
	seen chan int
	stop func()
}

// watchTable watches table id on l.
func watchTable(t testing.TB, l interface {
	Watch(string, func(int)) (func(), error)
}, id string) *liveWatcher {
	t.Helper()
	w := &liveWatcher{t: t, seen: make(chan int, 64)}
	var err error
	if w.stop, err = l.Watch(id, func(v int) { w.seen <- v }); err != nil {
		t.Fatal(err)
	}
	return w
}

// hears checks that w, called who, hears the versions want next, in order.
func (w *liveWatcher) hears(who string, want ...int) {
	w.t.Helper()
	for _, v := range want {
		select {
		case got := <-w.seen:
			if got != v {
				w.t.Fatalf("%s heard version %d, want %d", who, got, v)
			}
		case <-time.After(waitLimit):
			w.t.Fatalf("%s did not hear version %d", who, v)
		}
	}
}

// silent checks that w, called who, has heard nothing more. Anything a
// watcher was told beyond what it was expected to hear shows up once a
// later notice has reached every watcher of the table.
func (w *liveWatcher) silent(who string) {
	w.t.Helper()
	select {
	case got := <-w.seen:
		w.t.Fatalf("%s heard version %d", who, got)
	default:
	}
}
