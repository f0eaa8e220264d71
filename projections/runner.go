package projections

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
	"paiju/natsbus"
)

// Source is the event log, read directly: to rebuild a projection, to fill
// a gap in what NATS delivered, and to measure lag.
type Source interface {
	ReadAll(ctx context.Context, fromPosition int64, limit int) ([]eventstore.Event, error)
	Head(ctx context.Context) (position int64, hash string, err error)
}

// readPage is how many events a read of the log returns at most.
const readPage = 512

// Replay rebuilds projection name from position 0 by reading src directly.
func (d *DB) Replay(ctx context.Context, name string, src Source) error {
	if err := d.Reset(ctx, name); err != nil {
		return err
	}
	return d.CatchUp(ctx, name, src)
}

// CatchUp applies every event of src after the projection's checkpoint.
func (d *DB) CatchUp(ctx context.Context, name string, src Source) error {
	for {
		cp, err := d.Checkpoint(ctx, name)
		if err != nil {
			return err
		}
		page, err := src.ReadAll(ctx, cp, readPage)
		if err != nil {
			return fmt.Errorf("projection %s: read log after %d: %w", name, cp, err)
		}
		if len(page) == 0 {
			return nil
		}
		if _, err := d.ApplyBatch(ctx, name, page); err != nil {
			return err
		}
	}
}

// ConsumerName is the durable JetStream consumer of projection name.
func ConsumerName(name string) string { return "paiju-projection-" + name }

// Runner keeps projections current from the PAIJU_EVENTS stream.
type Runner struct {
	DB *DB
	JS jetstream.JetStream
	// Source, if set, fills gaps in what the consumer delivers (a consumer
	// created after events were relayed and expired, a projection reset
	// while its consumer had moved on) and is read first on start.
	Source Source
	Logger *slog.Logger
	// Names are the projections to run; default all.
	Names []string
	// FetchWait bounds one pull of the consumer. Default 1s.
	FetchWait time.Duration
}

// Run runs every projection until ctx ends.
func (r *Runner) Run(ctx context.Context) error {
	if r.Logger == nil {
		r.Logger = slog.New(slog.DiscardHandler)
	}
	if r.FetchWait <= 0 {
		r.FetchWait = time.Second
	}
	names := r.Names
	if len(names) == 0 {
		names = Names
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

// runOne consumes for one projection, starting over after failures.
func (r *Runner) runOne(ctx context.Context, name string) error {
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

func (r *Runner) consume(ctx context.Context, name string, log *slog.Logger) error {
	if r.Source != nil {
		if err := r.DB.CatchUp(ctx, name, r.Source); err != nil {
			return err
		}
	}
	stream, err := natsbus.EnsureStream(ctx, r.JS)
	if err != nil {
		return err
	}
	cons, err := stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:       ConsumerName(name),
		Description:   "paiju projection " + name,
		FilterSubject: natsbus.SubjectAll,
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       30 * time.Second,
		MaxAckPending: 1024,
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
func (r *Runner) handle(ctx context.Context, name string, msgs []jetstream.Msg) error {
	if len(msgs) == 0 {
		return nil
	}
	evs := make([]eventstore.Event, 0, len(msgs))
	for _, m := range msgs {
		ev, err := natsbus.DecodeEvent(m.Headers(), m.Data())
		if err != nil {
			continue // not an event, and never will be: acknowledged below
		}
		evs = append(evs, ev)
	}
	// Redelivered and duplicated messages may come out of order.
	slices.SortStableFunc(evs, func(a, b eventstore.Event) int { return cmp.Compare(a.Position, b.Position) })
	_, err := r.DB.ApplyBatch(ctx, name, evs)
	var gap *GapError
	if errors.As(err, &gap) && r.Source != nil {
		if err := r.DB.CatchUp(ctx, name, r.Source); err != nil {
			return err
		}
		_, err = r.DB.ApplyBatch(ctx, name, evs)
	}
	if err != nil {
		return err
	}
	for _, m := range msgs {
		_ = m.Ack()
	}
	return nil
}
