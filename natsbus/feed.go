package natsbus

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
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

// ProjectionConsumer is the durable JetStream consumer of projection name
// in the zero Namespace.
func ProjectionConsumer(name string) string { return Namespace{}.ProjectionConsumer(name) }

// ProjectionFeed keeps projections current from the PAIJU_EVENTS stream:
// one durable pull consumer per projection, each fetched batch applied in
// one call and acknowledged once applied.
type ProjectionFeed struct {
	Projector Projector
	JS        jetstream.JetStream
	Logger    *slog.Logger
	// Names are the projections to run, each with its own consumer.
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
	// Node, if set, makes the consumers this node's own
	// (<consumer>-<Node>), for projections kept in a database of this
	// node's: every node then applies every event to its own copy.
	// JetStream deletes such a consumer after NodeConsumerIdle without a
	// pull, so that nodes that are gone leave nothing behind.
	Node string
}

// NodeConsumerIdle is how long a node's own projection consumer outlives
// its last pull.
const NodeConsumerIdle = 24 * time.Hour

// Consumer is the durable consumer projection name is fed by.
func (r *ProjectionFeed) Consumer(name string) string {
	c := r.Namespace.ProjectionConsumer(name)
	if r.Node != "" {
		c += "-" + token(r.Node)
	}
	return c
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
	errc := make(chan error, len(names))
	for _, n := range names {
		go func() { errc <- r.runOne(ctx, n) }()
	}
	var errs []error
	for range names {
		if err := <-errc; err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// runOne consumes for one projection, under its lease if there are leases.
func (r *ProjectionFeed) runOne(ctx context.Context, name string) error {
	if r.Leases == nil {
		return r.consumeLoop(ctx, name)
	}
	_ = r.Leases.Run(ctx, LeaseKey(name), func(ctx context.Context) { _ = r.consumeLoop(ctx, name) })
	return ctx.Err()
}

// consumeLoop consumes for one projection, starting over after failures.
func (r *ProjectionFeed) consumeLoop(ctx context.Context, name string) error {
	log := r.Logger.With("projection", name)
	for failures := 0; ; failures++ {
		err := r.consume(ctx, name, log)
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

func (r *ProjectionFeed) consume(ctx context.Context, name string, log *slog.Logger) error {
	if err := r.Projector.CatchUp(ctx, name); err != nil {
		return err
	}
	// Look the stream up, never configure it: the server owns its limits.
	// Until the server has created it, this fails and runOne retries.
	stream, err := r.JS.Stream(ctx, r.Namespace.Stream())
	if err != nil {
		return fmt.Errorf("projection %s: stream %s: %w", name, r.Namespace.Stream(), err)
	}
	var idle time.Duration
	if r.Node != "" {
		idle = NodeConsumerIdle
	}
	cons, err := stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:           r.Consumer(name),
		InactiveThreshold: idle,
		Description:       "paiju projection " + name,
		FilterSubject:     r.Namespace.SubjectAll(),
		DeliverPolicy:     jetstream.DeliverAllPolicy,
		AckPolicy:         jetstream.AckExplicitPolicy,
		AckWait:           30 * time.Second,
		MaxAckPending:     1024,
	})
	if err != nil {
		return fmt.Errorf("projection %s: consumer: %w", name, err)
	}
	for {
		batch, err := cons.Fetch(256, jetstream.FetchMaxWait(r.FetchWait))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("projection %s: fetch: %w", name, err)
		}
		var msgs []jetstream.Msg
		for m := range batch.Messages() {
			msgs = append(msgs, m)
		}
		if err := r.handle(ctx, name, msgs); err != nil {
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

// handle applies a fetched batch in one transaction and acknowledges it;
// messages already applied are acknowledged and change nothing.
func (r *ProjectionFeed) handle(ctx context.Context, name string, msgs []jetstream.Msg) error {
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
	if err := r.Projector.Apply(ctx, name, evs); err != nil {
		return err
	}
	for _, m := range msgs {
		_ = m.Ack()
	}
	return nil
}
