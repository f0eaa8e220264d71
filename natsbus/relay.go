package natsbus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
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

// Publisher is the part of JetStream the relay publishes with; a
// jetstream.JetStream is one.
type Publisher interface {
	PublishMsgAsync(msg *nats.Msg, opts ...jetstream.PublishOpt) (jetstream.PubAckFuture, error)
}

var (
	_ Source    = eventstore.Store(nil)
	_ Publisher = jetstream.JetStream(nil)
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
	// AckTimeout is how long to wait for one ack before retrying (10s).
	AckTimeout time.Duration
	// GameCacheSize bounds how many tables' games are remembered (4096);
	// up to twice as many are held while the older half ages out.
	GameCacheSize int
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
	return o
}

// Relay publishes every event of the store, in global order, to JetStream.
//
// Guarantees: an event is published before the checkpoint passes it, so none
// is ever skipped; within one table stream, an event is published only after
// the previous one was acknowledged, so JetStream holds each stream in
// version order even when publishes fail and are retried. Events of
// different streams are pipelined up to Window.
type Relay struct {
	src    Source
	pub    Publisher
	cp     Checkpoints
	log    *slog.Logger
	opts   RelayOptions
	games  gameCache
	wake   chan struct{}
	pos    atomic.Int64
	active atomic.Bool
}

// NewRelay returns a relay reading src from the checkpoint opts.Name in cp
// and publishing to pub (normally the jetstream.JetStream of Connect).
func NewRelay(src Source, pub Publisher, cp Checkpoints, logger *slog.Logger, opts RelayOptions) *Relay {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	opts = opts.withDefaults()
	return &Relay{
		src:   src,
		pub:   pub,
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

// Position is the global position up to which every event has been
// acknowledged by JetStream (the checkpoint, or just ahead of it). The
// store's head minus Position is the relay's lag.
func (r *Relay) Position() int64 { return r.pos.Load() }

// errRunning reports a second concurrent Run of the same relay.
var errRunning = errors.New("natsbus: relay is already running")

// Run relays until ctx is done, then writes the checkpoint one last time and
// returns nil. Store and NATS failures are logged and retried with backoff;
// Run never gives up on an event. Only one Run may be active at a time.
func (r *Relay) Run(ctx context.Context) error {
	if !r.active.CompareAndSwap(false, true) {
		return errRunning
	}
	defer r.active.Store(false)

	var (
		pos, saved int64
		loaded     bool
		failures   int
	)
	// fail logs err and waits out the backoff; false means ctx is done.
	fail := func(msg string, err error) bool {
		if ctx.Err() != nil {
			return false
		}
		failures++
		d := r.backoff(failures)
		r.log.Warn(msg, "err", err, "position", pos, "retry_in", d)
		return sleep(ctx, d)
	}
	defer func() {
		if !loaded || saved >= pos {
			return
		}
		// Save what was acknowledged before stopping, so a restart
		// re-publishes less; the caller's ctx is already done.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := r.cp.SetCheckpoint(wctx, r.opts.Name, pos); err != nil {
			r.log.Warn("save checkpoint on stop", "err", err, "position", pos)
		}
	}()

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
			r.pos.Store(p)
		}
		if saved < pos {
			if err := r.cp.SetCheckpoint(ctx, r.opts.Name, pos); err != nil {
				if !fail("save checkpoint", err) {
					break
				}
				continue
			}
			saved = pos
		}
		page, err := r.src.ReadAll(ctx, pos, r.opts.PageSize)
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
		acked, err := r.publish(ctx, pos, page)
		if acked > pos {
			pos = acked
			r.pos.Store(acked)
		}
		if err != nil {
			if !fail("publish events", err) {
				break
			}
			continue
		}
		failures = 0
	}
	return nil
}

// flight is one publish awaiting or holding its outcome.
type flight struct {
	ev   *eventstore.Event
	fut  jetstream.PubAckFuture
	done bool
	err  error
}

var errAckTimeout = errors.New("natsbus: no publish ack in time")

// publish sends page (events after position from) and waits for every ack.
// It returns the highest position up to which every event was acknowledged
// (from when none was) and the first failure.
func (r *Relay) publish(ctx context.Context, from int64, page []eventstore.Event) (int64, error) {
	flights := make([]*flight, 0, len(page))
	last := make(map[string]*flight) // the latest publish of each stream
	oldest, pending := 0, 0          // first flight not yet done; flights not yet done

	var failed error // the first failure seen, for the log
	resolve := func(f *flight, deadline time.Time) {
		if f.done {
			return
		}
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		select {
		case <-f.fut.Ok():
		case err := <-f.fut.Err():
			f.err = fmt.Errorf("publish %s: %w", MsgID(f.ev.Stream, f.ev.Version), err)
		case <-t.C:
			f.err = fmt.Errorf("publish %s: %w", MsgID(f.ev.Stream, f.ev.Version), errAckTimeout)
		case <-ctx.Done():
			f.err = ctx.Err()
		}
		f.done = true
		pending--
		if failed == nil {
			failed = f.err
		}
	}

	prev := from
	for i := range page {
		if failed != nil || ctx.Err() != nil {
			break
		}
		ev := &page[i]
		if ev.Position <= prev {
			failed = fmt.Errorf("event %s at position %d does not follow position %d", MsgID(ev.Stream, ev.Version), ev.Position, prev)
			break
		}
		prev = ev.Position
		// Per-stream order: never two unacknowledged events of one stream.
		if f := last[ev.Stream]; f != nil {
			resolve(f, time.Now().Add(r.opts.AckTimeout))
		}
		for pending >= r.opts.Window && failed == nil {
			for flights[oldest].done {
				oldest++
			}
			resolve(flights[oldest], time.Now().Add(r.opts.AckTimeout))
		}
		if failed != nil {
			break
		}
		subject, err := r.subject(ctx, ev)
		if err != nil {
			failed = err
			break
		}
		fut, err := r.pub.PublishMsgAsync(NewMsg(subject, *ev))
		if err != nil {
			failed = fmt.Errorf("publish %s: %w", MsgID(ev.Stream, ev.Version), err)
			break
		}
		f := &flight{ev: ev, fut: fut}
		flights = append(flights, f)
		last[ev.Stream] = f
		pending++
	}

	// Wait for everything sent, even after a failure, so that a retry never
	// races an older publish of the same stream.
	deadline := time.Now().Add(r.opts.AckTimeout)
	for _, f := range flights[oldest:] {
		resolve(f, deadline)
	}
	acked := from
	for _, f := range flights {
		if f.err != nil {
			break
		}
		acked = f.ev.Position
	}
	return acked, failed
}

// subject is where ev goes: paiju.events.<game>.<tableID> for a table
// stream, whose game its first event (TableOpened) names; otherwise
// paiju.events.other.<stream>.
func (r *Relay) subject(ctx context.Context, ev *eventstore.Event) (string, error) {
	tableID, ok := strings.CutPrefix(ev.Stream, "table-")
	if !ok || tableID == "" {
		return otherSubject(ev.Stream), nil
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
		return otherSubject(ev.Stream), nil
	}
	return Subject(game, tableID), nil
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
