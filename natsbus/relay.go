package natsbus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/domain/table"
	"paiju/eventstore"
)

// Source is the part of the event store the relay reads.
// ReadAll must never make a lower position visible after a higher one (true
// of a store with a single writer, such as SQLite): the relay's checkpoint
// would otherwise pass over it.
type Source interface {
	ReadAll(ctx context.Context, fromPosition int64, limit int) ([]eventstore.Event, error)
	Load(ctx context.Context, stream string, fromVersion int) ([]eventstore.Event, error)
}

// Checkpoints persists how far the relay got. Checkpoint returns 0 for a
// name never set.
type Checkpoints interface {
	Checkpoint(ctx context.Context, name string) (int64, error)
	SetCheckpoint(ctx context.Context, name string, pos int64) error
}

// JetStream is the part of JetStream the relay uses; a jetstream.JetStream
// is one.
type JetStream interface {
	PublishMsgAsync(msg *nats.Msg, opts ...jetstream.PublishOpt) (jetstream.PubAckFuture, error)
	Stream(ctx context.Context, name string) (jetstream.Stream, error)
}

// committedReader is a Source that keeps the events it committed last in
// memory (sqlite.Store.ReadCommitted): ok false sends the relay to ReadAll.
type committedReader interface {
	ReadCommitted(fromPosition int64, limit int) (events []eventstore.Event, ok bool)
}

var (
	_ Source      = eventstore.Log(nil)
	_ Checkpoints = eventstore.Checkpoints(nil)
	_ JetStream   = jetstream.JetStream(nil)
)

// RelayOptions tunes a Relay; zero fields take the defaults shown.
type RelayOptions struct {
	// Name is the checkpoint name ("nats-relay").
	Name string
	// PageSize is how many events one ReadAll asks for (512).
	PageSize int
	// Window is how many publishes may await their ack at once (256). It must
	// not exceed the JetStream context's async max pending (4000 by default).
	Window int
	// PollInterval is how often an idle relay looks for new events when
	// nobody calls Notify (50ms).
	PollInterval time.Duration
	// MinBackoff and MaxBackoff bound the wait after a failure (50ms, 5s);
	// it doubles on each failure in a row.
	MinBackoff, MaxBackoff time.Duration
	// AckTimeout is how long to wait for an ack before starting over (10s).
	AckTimeout time.Duration
	// CheckpointEvery is the least time between two checkpoint saves while
	// running (1s); the checkpoint is saved on stop too. The relay resumes
	// from JetStream's last event, so the checkpoint only reports progress,
	// and saving it after every page cost a durable transaction competing
	// with the appends it relays.
	CheckpointEvery time.Duration
	// GameCacheSize bounds how many tables' games are remembered (4096);
	// up to twice as many are held while the older half ages out.
	GameCacheSize int
	// Namespace names the stream and subjects relayed to (the zero
	// Namespace's PAIJU_EVENTS and paiju.events.>).
	Namespace Namespace
	// Announce, if set, is given each page of events the relay reads from
	// the store, before it publishes them (LocalLive.Announce). It runs on
	// the relay's goroutine, so it must return at once; a page is given
	// again when it is read again after a failure.
	Announce func(page []eventstore.Event)
}

func (o RelayOptions) withDefaults() RelayOptions {
	if o.Name == "" {
		o.Name = "nats-relay"
	}
	if o.PageSize <= 0 {
		o.PageSize = 512
	}
	if o.Window <= 0 {
		o.Window = 256
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 50 * time.Millisecond
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 50 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(5*time.Second, o.MinBackoff)
	}
	if o.AckTimeout <= 0 {
		o.AckTimeout = publishTimeout
	}
	if o.GameCacheSize <= 0 {
		o.GameCacheSize = 4096
	}
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = time.Second
	}
	return o
}

// Relay publishes every event of the store, in global order, to the
// JetStream stream PAIJU_EVENTS.
//
// Each message but the first carries Nats-Expected-Last-Sequence naming the
// stream sequence of the event before it in global order (the first
// expects an empty stream), so JetStream stores an event only right after
// its predecessor. The sequence, not Nats-Expected-Last-Msg-Id: a
// clustered stream's leader checks the sequence once, when it accepts the
// message, while nats-server 2.15 checks the expected message id again on
// every replica as it applies the message; a replica that a crash left
// behind then refuses its leader's messages ("last msgid mismatch") and
// stops for good (seen in the cluster test when a NATS server was killed). The stream is
// therefore always a prefix of the store, in the store's order, whatever
// publishes fail, time out or are lost with a connection; and publishes can
// be pipelined (up to Window) without reordering a table's events.
//
// The relay anchors on the stream's last message when it starts and after
// any failure: it resumes after that event rather than after its own
// checkpoint. This re-publishes what JetStream acknowledged but lost before
// its disk flush, and skips what was published but not yet checkpointed
// before a crash even after the duplicate window has passed. An anchor
// event that the store does not hold (the store was restored from an older
// copy, or the stream was fed by another store) stops the relay with logged
// errors until an operator purges the stream: it never publishes over a
// history that disagrees with the store.
type Relay struct {
	src    Source
	js     JetStream
	cp     Checkpoints
	log    *slog.Logger
	opts   RelayOptions
	games  gameCache
	wake   chan struct{}
	pos    atomic.Int64
	active atomic.Bool
	// diverged is set while the last failure was errDiverged: only an
	// operator can clear it, so readiness reports it.
	diverged atomic.Bool
}

// NewRelay returns a relay reading src, keeping the checkpoint opts.Name in
// cp, and publishing with js (normally the jetstream.JetStream of Connect).
// The stream must exist (EnsureStream); until it does the relay retries.
//
// A nil js makes a relay that publishes nowhere: it gives each page to
// opts.Announce and moves on, resuming from its checkpoint. It is for a
// node whose NATS no other process can reach (the embedded server), whose
// streams and projections take their pages from Announce: a JetStream
// copy there would be a second durable log that nothing reads.
func NewRelay(src Source, js JetStream, cp Checkpoints, logger *slog.Logger, opts RelayOptions) *Relay {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	opts = opts.withDefaults()
	return &Relay{
		src:   src,
		js:    js,
		cp:    cp,
		log:   logger.With("component", "nats-relay"),
		opts:  opts,
		games: newGameCache(opts.GameCacheSize),
		wake:  make(chan struct{}, 1),
	}
}

// Notify wakes an idle relay at once; the command path calls it after a
// commit. It never blocks.
func (r *Relay) Notify() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Position is the global position up to which JetStream holds every event,
// as far as the relay knows (without JetStream: up to which it announced
// them): the store's head minus Position is the relay's lag. It moves back
// only when JetStream is found to have lost events.
func (r *Relay) Position() int64 { return r.pos.Load() }

// RelayStats is what a health check or a metrics scrape reads of a relay.
type RelayStats struct {
	// Running is true while Run is active.
	Running bool
	// Position is Position(): the store's head minus it is the lag.
	Position int64
	// Diverged is true while JetStream holds events the store does not and
	// the relay refuses to publish over them.
	Diverged bool
}

// Stats returns the relay's current state; it is safe to call from any
// goroutine and costs three atomic loads.
func (r *Relay) Stats() RelayStats {
	return RelayStats{Running: r.active.Load(), Position: r.pos.Load(), Diverged: r.diverged.Load()}
}

var (
	// errRunning reports a second concurrent Run of the same relay.
	errRunning = errors.New("natsbus: relay is already running")
	// errDiverged reports a JetStream stream that holds events the store
	// does not.
	errDiverged = errors.New("JetStream stream diverged from the event store")
)

// chain is what the next publish expects JetStream's last message to be.
type chain struct {
	lastSeq uint64 // the stream sequence of the stream's last message (0: empty)
	known   bool   // false: the last message is not the relay's, expect nothing
}

// expectation is the Nats-Expected-Last-Sequence value for c, "" (no
// header) for an unknown chain.
func (c chain) expectation() string {
	if !c.known {
		return ""
	}
	return strconv.FormatUint(c.lastSeq, 10)
}

// Run relays until ctx is done, then writes the checkpoint one last time and
// returns nil. Store and NATS failures are logged and retried with backoff;
// Run never gives up on an event. Only one Run may be active at a time.
func (r *Relay) Run(ctx context.Context) error {
	if !r.active.CompareAndSwap(false, true) {
		return errRunning
	}
	defer r.active.Store(false)

	var (
		pos, saved       int64
		loaded, anchored bool
		next             chain
		failures         int
		// fresh: nothing published since the last anchor. unchain: the
		// stream refused the chain an anchor gave (its idea of the last
		// message differs from what reading it says), so the next anchor
		// publishes one event without expectation to start a new chain.
		fresh, unchain bool
	)
	// fail logs err and waits out the backoff; false means ctx is done.
	fail := func(msg string, err error) bool {
		if ctx.Err() != nil {
			return false
		}
		failures++
		d := r.backoff(failures)
		level := slog.LevelWarn
		diverged := errors.Is(err, errDiverged)
		r.diverged.Store(diverged)
		if diverged {
			level = slog.LevelError // only an operator can fix it
		}
		r.log.Log(ctx, level, msg, "err", err, "position", pos, "retry_in", d)
		return sleep(ctx, d)
	}
	defer func() {
		if !loaded || saved == pos {
			return
		}
		// Save what was acknowledged before stopping, so a restart has less
		// to check; the caller's ctx is already done.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := r.cp.SetCheckpoint(wctx, r.opts.Name, pos); err != nil {
			r.log.Warn("save checkpoint on stop", "err", err, "position", pos)
		}
	}()

	var savedAt time.Time
	for ctx.Err() == nil {
		if !loaded {
			p, err := r.cp.Checkpoint(ctx, r.opts.Name)
			if err != nil {
				if !fail("read checkpoint", err) {
					break
				}
				continue
			}
			pos, saved, loaded = p, p, true
		}
		if !anchored && r.js == nil {
			// Nothing to chain to: the pages after the checkpoint are
			// announced again, which their readers take as repeats.
			anchored = true
			r.pos.Store(pos)
		}
		if !anchored {
			p, c, err := r.anchor(ctx, pos)
			if err != nil {
				if !fail("anchor on JetStream's last event", err) {
					break
				}
				continue
			}
			if unchain {
				r.log.Warn("JetStream refused to chain to its last event; publishing the next one without expectation",
					"stream", r.opts.Namespace.Stream(), "position", p, "expected", c)
				c, unchain = chain{}, false
			}
			pos, next, anchored, fresh = p, c, true, true
			r.pos.Store(p)
			r.diverged.Store(false)
		}
		if saved != pos && time.Since(savedAt) >= r.opts.CheckpointEvery {
			savedAt = time.Now()
			if err := r.cp.SetCheckpoint(ctx, r.opts.Name, pos); err != nil {
				if !fail("save checkpoint", err) {
					break
				}
				continue
			}
			saved = pos
		}
		page, err := r.read(ctx, pos)
		if err != nil {
			if !fail("read events", err) {
				break
			}
			continue
		}
		if len(page) == 0 {
			failures = 0
			r.idle(ctx)
			continue
		}
		if r.opts.Announce != nil {
			r.opts.Announce(page)
		}
		if r.js == nil {
			pos = page[len(page)-1].Position
			r.pos.Store(pos)
			failures = 0
			continue
		}
		acked, lastSeq, err := r.publish(ctx, pos, next, page)
		if n := len(acked); n > 0 {
			last := acked[n-1]
			pos, next, fresh = last.Position, chain{lastSeq: lastSeq, known: true}, false
			r.pos.Store(pos)
		}
		if err != nil {
			unchain = fresh && chainRefused(err)
			anchored = false
			if !fail("publish events", err) {
				break
			}
			continue
		}
		failures = 0
	}
	return nil
}

// read returns the events after pos: from the store's memory of its last
// commits when it has one that reaches back to pos (the relay follows the
// log's end, so it nearly always does), from ReadAll otherwise.
func (r *Relay) read(ctx context.Context, pos int64) ([]eventstore.Event, error) {
	if cr, ok := r.src.(committedReader); ok {
		if page, ok := cr.ReadCommitted(pos, r.opts.PageSize); ok {
			return page, nil
		}
	}
	return r.src.ReadAll(ctx, pos, r.opts.PageSize)
}

// anchor finds where JetStream's copy ends: the position to resume after
// and what the next publish must expect. checkpoint is used only when the
// stream's last message is not a relayed event.
func (r *Relay) anchor(ctx context.Context, checkpoint int64) (int64, chain, error) {
	name := r.opts.Namespace.Stream()
	s, err := r.js.Stream(ctx, name)
	if err != nil {
		return 0, chain{}, fmt.Errorf("stream %s: %w", name, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return 0, chain{}, fmt.Errorf("stream %s: %w", name, err)
	}
	st := info.State
	if st.LastSeq == 0 {
		if checkpoint > 0 {
			r.log.Warn("JetStream stream is empty; republishing the store from the start", "stream", r.opts.Namespace.Stream(), "checkpoint", checkpoint)
		}
		return 0, chain{known: true}, nil
	}
	var m *jetstream.RawStreamMsg
	if st.Msgs > 0 {
		m, err = s.GetLastMsgForSubject(ctx, r.opts.Namespace.SubjectAll())
		if err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			return 0, chain{}, fmt.Errorf("stream %s: last message: %w", name, err)
		}
	}
	var e eventstore.Event
	if m != nil {
		e, err = DecodeEvent(m.Header, m.Data)
	}
	if m == nil || err != nil {
		// Purged, aged out, or written by someone else: nothing to chain to.
		r.log.Warn("JetStream stream's last message is not a relayed event; resuming from the checkpoint",
			"stream", r.opts.Namespace.Stream(), "last_seq", st.LastSeq, "checkpoint", checkpoint, "err", err)
		return checkpoint, chain{}, nil
	}
	stored, err := r.src.ReadAll(ctx, e.Position-1, 1)
	if err != nil {
		return 0, chain{}, fmt.Errorf("read the store at JetStream's last position %d: %w", e.Position, err)
	}
	if len(stored) == 0 || stored[0].Position != e.Position || stored[0].Stream != e.Stream ||
		stored[0].Version != e.Version || stored[0].Hash != e.Hash {
		return 0, chain{}, fmt.Errorf("%w: its last event %s (position %d, hash %s) is not in the store; purge stream %s to republish it from the store",
			errDiverged, MsgID(e.Stream, e.Version), e.Position, e.Hash, name)
	}
	if e.Position < checkpoint {
		r.log.Warn("JetStream lost events it had acknowledged; republishing them",
			"stream", r.opts.Namespace.Stream(), "jetstream_position", e.Position, "checkpoint", checkpoint)
	}
	return e.Position, chain{lastSeq: m.Sequence, known: true}, nil
}

// errCodeWrongLastMsgID is JetStream's code for a failed
// Nats-Expected-Last-Msg-Id, which the client library does not name.
const errCodeWrongLastMsgID jetstream.ErrorCode = 10070

// chainRefused tells whether err is JetStream refusing a publish because
// its last message is not the one the publish expected.
func chainRefused(err error) bool {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.ErrorCode {
	case errCodeWrongLastMsgID, jetstream.JSErrCodeStreamWrongLastSequence, jetstream.JSErrCodeStreamWrongLastSequenceConstant:
		return true
	}
	return false
}

// flight is one publish awaiting or holding its outcome.
type flight struct {
	ev  *eventstore.Event
	fut jetstream.PubAckFuture
	seq uint64 // the stream sequence JetStream acknowledged
	err error
}

var errAckTimeout = errors.New("natsbus: no publish ack in time")

// publish sends page (the events after position from, the first chained to
// c) and waits for the acks. It returns the leading events JetStream
// acknowledged, the stream sequence of the last of them, and the first
// failure if it did not acknowledge them all.
func (r *Relay) publish(ctx context.Context, from int64, c chain, page []eventstore.Event) ([]eventstore.Event, uint64, error) {
	flights := make([]flight, 0, len(page))
	resolved := 0 // flights[:resolved] are done
	var failed error
	// One timer for the page, reset at each wait, rather than one made and
	// stopped for every event.
	t := time.NewTimer(r.opts.AckTimeout)
	defer t.Stop()
	// resolveNext waits for the oldest pending ack. Acks come back in
	// publish order, so waiting in order costs nothing.
	resolveNext := func(deadline time.Time) {
		f := &flights[resolved]
		resolved++
		t.Reset(time.Until(deadline))
		select {
		case ack := <-f.fut.Ok():
			f.seq = ack.Sequence
		case err := <-f.fut.Err():
			f.err = fmt.Errorf("publish %s: %w", MsgID(f.ev.Stream, f.ev.Version), err)
		case <-t.C:
			f.err = fmt.Errorf("publish %s: %w", MsgID(f.ev.Stream, f.ev.Version), errAckTimeout)
		case <-ctx.Done():
			f.err = ctx.Err()
		}
		if failed == nil {
			failed = f.err
		}
	}

	prev := from
	for i := range page {
		ev := &page[i]
		if ev.Position <= prev {
			failed = fmt.Errorf("event %s at position %d does not follow position %d", MsgID(ev.Stream, ev.Version), ev.Position, prev)
			break
		}
		prev = ev.Position
		for len(flights)-resolved >= r.opts.Window && failed == nil {
			resolveNext(time.Now().Add(r.opts.AckTimeout))
		}
		// After a failure every later publish would be refused for
		// expecting a message JetStream does not have.
		if failed != nil || ctx.Err() != nil {
			break
		}
		subject, err := r.subject(ctx, ev)
		if err != nil {
			failed = err
			break
		}
		m := newMsg(subject, ev, c.expectation())
		fut, err := r.js.PublishMsgAsync(m)
		if err != nil {
			failed = fmt.Errorf("publish %s: %w", MsgID(ev.Stream, ev.Version), err)
			break
		}
		flights = append(flights, flight{ev: ev, fut: fut})
		if !c.known {
			// An unchained first message: its sequence, which the
			// next one expects, is known once it is acknowledged.
			resolveNext(time.Now().Add(r.opts.AckTimeout))
			if failed != nil {
				break
			}
			c = chain{lastSeq: flights[len(flights)-1].seq, known: true}
			continue
		}
		c = chain{lastSeq: c.lastSeq + 1, known: true}
	}

	// Wait for everything sent, even after a failure, so that the next
	// attempt starts from what JetStream really holds.
	deadline := time.Now().Add(r.opts.AckTimeout)
	for resolved < len(flights) {
		resolveNext(deadline)
	}
	n := 0
	for n < len(flights) && flights[n].err == nil {
		n++
	}
	var lastSeq uint64
	if n > 0 {
		lastSeq = flights[n-1].seq
	}
	return page[:n], lastSeq, failed
}

// subject is where ev goes: paiju.events.<game>.<tableID> for a table
// stream, whose game its first event (TableOpened) names; otherwise
// paiju.events.other.<stream>.
func (r *Relay) subject(ctx context.Context, ev *eventstore.Event) (string, error) {
	tableID, ok := strings.CutPrefix(ev.Stream, "table-")
	if !ok || tableID == "" {
		return r.opts.Namespace.otherSubject(ev.Stream), nil
	}
	game, ok := r.games.get(ev.Stream)
	if !ok {
		first := ev
		if ev.Version != 1 {
			evs, err := r.src.Load(ctx, ev.Stream, 0)
			if err != nil {
				return "", fmt.Errorf("load %s for its game: %w", ev.Stream, err)
			}
			if len(evs) == 0 {
				return "", fmt.Errorf("load %s for its game: stream is empty", ev.Stream)
			}
			first = &evs[0]
		}
		game = gameOf(first)
		if game == "" {
			r.log.Warn("table stream does not open with a TableOpened naming a game; relaying it as other",
				"stream", ev.Stream, "first_type", first.Type)
		}
		r.games.put(ev.Stream, game)
	}
	if game == "" {
		return r.opts.Namespace.otherSubject(ev.Stream), nil
	}
	return r.opts.Namespace.Subject(game, tableID), nil
}

// gameOf reads the game a TableOpened names, "" if first is not one.
func gameOf(first *eventstore.Event) string {
	if first.Version != 1 || first.Type != (table.TableOpened{}).EventType() {
		return ""
	}
	var opened struct {
		Game string `json:"game"`
	}
	if err := json.Unmarshal(first.Data, &opened); err != nil {
		return ""
	}
	return opened.Game
}

func (r *Relay) idle(ctx context.Context) {
	t := time.NewTimer(r.opts.PollInterval)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-r.wake:
	case <-t.C:
	}
}

func (r *Relay) backoff(failures int) time.Duration {
	d := r.opts.MinBackoff
	for i := 1; i < failures && d < r.opts.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, r.opts.MaxBackoff)
}

// sleep waits d; false means ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// gameCache remembers each table's game in two generations: lookups promote
// from the old one, and when the new one fills up the old one is dropped.
// This bounds memory without bookkeeping per lookup.
type gameCache struct {
	size     int
	cur, old map[string]string
}

func newGameCache(size int) gameCache {
	return gameCache{size: size, cur: make(map[string]string)}
}

func (c *gameCache) get(stream string) (string, bool) {
	if g, ok := c.cur[stream]; ok {
		return g, true
	}
	g, ok := c.old[stream]
	if ok {
		c.put(stream, g)
	}
	return g, ok
}

func (c *gameCache) put(stream, game string) {
	if len(c.cur) >= c.size {
		c.old, c.cur = c.cur, make(map[string]string, c.size)
	}
	c.cur[stream] = game
}
