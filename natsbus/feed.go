package natsbus

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"paiju/eventstore"
)

// Projector is what the projection feed drives: read models that apply
// events idempotently by global position (projections.Feed is one).
type Projector interface {
	// CatchUp applies whatever the log holds past projection name's
	// checkpoint, if the projector reads the log; it is called before
	// consuming.
	CatchUp(ctx context.Context, name string) error
	// Apply applies a delivered batch, sorted by position, to projection
	// name: all of it or an error. Events already applied change nothing.
	Apply(ctx context.Context, name string, events []eventstore.Event) error
}

// batchProjector is a Projector that applies a batch to several
// projections at once (projections.Feed is one: in one transaction when
// its store can), with Apply's guarantees for each.
type batchProjector interface {
	ApplyAll(ctx context.Context, names []string, events []eventstore.Event) error
}

// ProjectionConsumer is the durable JetStream consumer of projection name
// in the zero Namespace, when a feed with Leases runs one per projection.
func ProjectionConsumer(name string) string { return Namespace{}.ProjectionConsumer(name) }

// ProjectionsConsumer is the durable JetStream consumer every projection
// shares in the zero Namespace, when a feed runs without Leases.
func ProjectionsConsumer() string { return Namespace{}.ProjectionsConsumer() }

// ProjectionFeed keeps projections current from the PAIJU_EVENTS stream.
//
// Without Leases this process applies every projection itself, and one
// durable pull consumer feeds them all: each fetched batch is decoded once,
// applied to each projection in turn (one transaction each, with its
// checkpoint) and acknowledged with one ack (AckAllPolicy) once every
// projection has applied it. With Leases each projection has its own
// consumer, consumed only under the projection's lease, and every message
// is acknowledged (AckExplicitPolicy).
type ProjectionFeed struct {
	Projector Projector
	JS        jetstream.JetStream
	Logger    *slog.Logger
	// Names are the projections to run.
	Names []string
	// FetchWait bounds one pull of the consumer. Default 1s.
	FetchWait time.Duration
	// Namespace names the stream read and the durable consumers.
	Namespace Namespace
	// Leases, if set, makes each projection's worker one per deployment:
	// this process consumes projection name only while it holds the lease
	// "projection-<name>". Set it when the projections are shared by every
	// node (a database they all write); leave it nil for the embedded
	// NATS, where this process is the only one.
	Leases *Leases
	// Node, if set, makes the consumer this node's own (<consumer>-<Node>),
	// for projections kept in a database of this node's: every node then
	// applies every event to its own copy. JetStream deletes such a
	// consumer after NodeConsumerIdle without a pull, so that nodes that
	// are gone leave nothing behind.
	Node string
}

// NodeConsumerIdle is how long a node's own projection consumer outlives
// its last pull.
const NodeConsumerIdle = 24 * time.Hour

// Consumer is the durable consumer projection name has of its own: the one
// it is fed by with Leases, and the one earlier versions fed it by without.
func (r *ProjectionFeed) Consumer(name string) string {
	return r.nodeOwn(r.Namespace.ProjectionConsumer(name))
}

// SharedConsumer is the durable consumer that feeds every projection
// without Leases.
func (r *ProjectionFeed) SharedConsumer() string {
	return r.nodeOwn(r.Namespace.ProjectionsConsumer())
}

// Consumers are the durable consumers the feed reads.
func (r *ProjectionFeed) Consumers() []string {
	if r.Leases == nil {
		return []string{r.SharedConsumer()}
	}
	cs := make([]string, len(r.Names))
	for i, n := range r.Names {
		cs[i] = r.Consumer(n)
	}
	return cs
}

func (r *ProjectionFeed) nodeOwn(consumer string) string {
	if r.Node != "" {
		consumer += "-" + token(r.Node)
	}
	return consumer
}

// LeaseKey is the lease a projection's worker holds in a deployment.
func LeaseKey(projection string) string { return "projection-" + projection }

// Run runs every projection until ctx ends.
func (r *ProjectionFeed) Run(ctx context.Context) error {
	if r.Logger == nil {
		r.Logger = slog.New(slog.DiscardHandler)
	}
	if r.FetchWait <= 0 {
		r.FetchWait = time.Second
	}
	names := r.Names
	if len(names) == 0 {
		return errors.New("natsbus: projection feed without projections")
	}
	if r.Leases == nil {
		err := r.consumeLoop(ctx, names, r.Logger.With("consumer", r.SharedConsumer()))
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	errc := make(chan error, len(names))
	for _, n := range names {
		go func() { errc <- r.runLeased(ctx, n) }()
	}
	var errs []error
	for range names {
		if err := <-errc; err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// runLeased consumes for one projection while this process holds its
// lease.
func (r *ProjectionFeed) runLeased(ctx context.Context, name string) error {
	log := r.Logger.With("projection", name)
	_ = r.Leases.Run(ctx, LeaseKey(name), func(ctx context.Context) { _ = r.consumeLoop(ctx, []string{name}, log) })
	return ctx.Err()
}

// consumeLoop consumes for names, starting over after failures.
func (r *ProjectionFeed) consumeLoop(ctx context.Context, names []string, log *slog.Logger) error {
	for failures := 0; ; failures++ {
		err := r.consume(ctx, names, log)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		log.Warn("projection consumer failed; restarting", "err", err)
		d := min(time.Duration(failures+1)*100*time.Millisecond, 5*time.Second)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

// consumerConfig is the durable consumer that feeds names: the shared one
// without Leases, names[0]'s own with them.
func (r *ProjectionFeed) consumerConfig(names []string) jetstream.ConsumerConfig {
	c := jetstream.ConsumerConfig{
		FilterSubject: r.Namespace.SubjectAll(),
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckWait:       30 * time.Second,
		MaxAckPending: 1024,
	}
	if r.Node != "" {
		c.InactiveThreshold = NodeConsumerIdle
	}
	if r.Leases == nil {
		c.Durable = r.SharedConsumer()
		c.Description = "paiju projections " + strings.Join(names, ", ")
		c.AckPolicy = jetstream.AckAllPolicy
	} else {
		c.Durable = r.Consumer(names[0])
		c.Description = "paiju projection " + names[0]
		c.AckPolicy = jetstream.AckExplicitPolicy
	}
	return c
}

func (r *ProjectionFeed) consume(ctx context.Context, names []string, log *slog.Logger) error {
	for _, n := range names {
		if err := r.Projector.CatchUp(ctx, n); err != nil {
			return err
		}
	}
	// Look the stream up, never configure it: the server owns its limits.
	// Until the server has created it, this fails and consumeLoop retries.
	stream, err := r.JS.Stream(ctx, r.Namespace.Stream())
	if err != nil {
		return fmt.Errorf("projections: stream %s: %w", r.Namespace.Stream(), err)
	}
	cfg := r.consumerConfig(names)
	if r.Leases == nil {
		if err := r.startWhereFormerStood(ctx, stream, names, &cfg); err != nil {
			return err
		}
	}
	cons, err := stream.CreateOrUpdateConsumer(ctx, cfg)
	if err != nil {
		return fmt.Errorf("projections: consumer %s: %w", cfg.Durable, err)
	}
	if r.Leases == nil {
		if err := r.removeOwnConsumers(ctx, stream, names, log); err != nil {
			return err
		}
	}
	for {
		batch, err := cons.Fetch(256, jetstream.FetchMaxWait(r.FetchWait))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("projections: consumer %s: fetch: %w", cfg.Durable, err)
		}
		msgs, err := receive(ctx, batch)
		if err != nil {
			return err
		}
		if err := r.handle(ctx, names, msgs, cfg.AckPolicy); err != nil {
			// Delivered again at once, to the next consume: every
			// projection skips what it has applied.
			for _, m := range msgs {
				_ = m.Nak()
			}
			return err
		}
		if err := batch.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, context.DeadlineExceeded) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			log.Debug("fetch ended", "err", err)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// receive collects the messages of batch until the fetch ends or ctx does.
// The fetch ends only when the server ends the pull, after FetchWait, or a
// second later when the server is cut off; a worker whose lease is lost
// must stop sooner, within the lease's margin (a quarter of its TTL).
//
// Once ctx has ended, what the fetch received and still receives is given
// back (Nak) so that the next worker gets it at once rather than after
// AckWait; the giving back goes on in a goroutine that ends with the fetch.
// (A fetch with a context of its own, jetstream.FetchContext, would end
// sooner but drop what arrives after the context's deadline, and its
// deadline also sets the pull's expiry, leaving a tenth of it for the
// messages to arrive.)
func receive(ctx context.Context, batch jetstream.MessageBatch) ([]jetstream.Msg, error) {
	var msgs []jetstream.Msg
	for {
		select {
		case m, ok := <-batch.Messages():
			if !ok {
				return msgs, nil
			}
			msgs = append(msgs, m)
		case <-ctx.Done():
			for _, m := range msgs {
				_ = m.Nak()
			}
			go func() {
				for m := range batch.Messages() {
					_ = m.Nak()
				}
			}()
			return nil, ctx.Err()
		}
	}
}

// apply applies evs to every projection of names, at once when the
// projector can.
func (r *ProjectionFeed) apply(ctx context.Context, names []string, evs []eventstore.Event) error {
	if bp, ok := r.Projector.(batchProjector); ok && len(names) > 1 {
		return bp.ApplyAll(ctx, names, evs)
	}
	var errs []error
	for _, n := range names {
		if err := r.Projector.Apply(ctx, n, evs); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// startWhereFormerStood makes a new shared consumer start after the
// messages that every per-projection consumer of an earlier version had
// acknowledged (so applied), rather than at the stream's first message: a
// stream kept without limits can hold the whole history, which the
// projections would otherwise skip through before reaching new events. A
// shared consumer that exists keeps where it was created to start, which
// JetStream does not let an update change.
func (r *ProjectionFeed) startWhereFormerStood(ctx context.Context, stream jetstream.Stream, names []string, cfg *jetstream.ConsumerConfig) error {
	c, err := stream.Consumer(ctx, cfg.Durable)
	if err == nil {
		was := c.CachedInfo().Config
		cfg.DeliverPolicy, cfg.OptStartSeq = was.DeliverPolicy, was.OptStartSeq
		return nil
	}
	if !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return fmt.Errorf("projections: consumer %s: %w", cfg.Durable, err)
	}
	var floor uint64
	found := false
	for _, n := range names {
		c, err := stream.Consumer(ctx, r.Consumer(n))
		if errors.Is(err, jetstream.ErrConsumerNotFound) {
			// A projection without a former consumer (new, or never
			// consumed) takes everything the stream holds.
			return nil
		}
		if err != nil {
			return fmt.Errorf("projections: former consumer %s: %w", r.Consumer(n), err)
		}
		if f := c.CachedInfo().AckFloor.Stream; !found || f < floor {
			floor, found = f, true
		}
	}
	if found && floor > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, floor+1
	}
	return nil
}

// removeOwnConsumers deletes the per-projection consumers that earlier
// versions fed names by, which the shared consumer replaces: left alone,
// they would keep their state, and a growing count of pending messages, on
// JetStream for good. Their projections lose nothing: each was caught up
// from its checkpoint before consuming.
func (r *ProjectionFeed) removeOwnConsumers(ctx context.Context, stream jetstream.Stream, names []string, log *slog.Logger) error {
	for _, n := range names {
		c := r.Consumer(n)
		err := stream.DeleteConsumer(ctx, c)
		if errors.Is(err, jetstream.ErrConsumerNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("projections: remove the former consumer %s: %w", c, err)
		}
		log.Info("removed the former consumer of one projection: the shared consumer feeds it", "removed", c, "projection", n)
	}
	return nil
}

// handle applies a fetched batch to each of names, in one transaction
// each, and acknowledges it once all of them have applied it; messages
// already applied change nothing and are acknowledged too.
//
// Under AckAllPolicy one ack of the message with the highest stream
// sequence acknowledges every message up to it. That is sound because each
// Apply that returned nil left its projection's checkpoint at or past every
// event of the batch with none missing before it (the store refuses gaps,
// and fills them from the log), and the relay keeps the stream in the
// log's order: whatever the ack covers, every projection holds.
func (r *ProjectionFeed) handle(ctx context.Context, names []string, msgs []jetstream.Msg, ack jetstream.AckPolicy) error {
	if len(msgs) == 0 {
		return nil
	}
	evs := make([]eventstore.Event, 0, len(msgs))
	for _, m := range msgs {
		ev, err := DecodeEvent(m.Headers(), m.Data())
		if err != nil {
			continue // not an event, and never will be: acknowledged below
		}
		evs = append(evs, ev)
	}
	// Redelivered and duplicated messages may come out of order.
	slices.SortStableFunc(evs, func(a, b eventstore.Event) int { return cmp.Compare(a.Position, b.Position) })
	// A projection that fails does not hold the others back from this
	// batch; the batch is delivered again for it, and the others skip it.
	if err := r.apply(ctx, names, evs); err != nil {
		return err
	}
	if ack != jetstream.AckAllPolicy {
		for _, m := range msgs {
			_ = m.Ack()
		}
		return nil
	}
	last, lastSeq := msgs[len(msgs)-1], uint64(0)
	for _, m := range msgs {
		if md, err := m.Metadata(); err == nil && md.Sequence.Stream > lastSeq {
			last, lastSeq = m, md.Sequence.Stream
		}
	}
	_ = last.Ack()
	return nil
}
