package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"paiju/api"
	"paiju/natsbus"
)

// healthSource is what readiness and the lag gauges read. Each field is one
// outside part, so that a test can stop a real relay under it.
type healthSource struct {
	// Head returns the store's last global position.
	Head func(ctx context.Context) (int64, error)
	// NATSConnected reports the client connection.
	NATSConnected func() bool
	// Relay reports the outbox relay (natsbus.Relay.Stats).
	Relay func() natsbus.RelayStats
	// Checkpoint returns how far a projection has applied the log.
	Checkpoint func(ctx context.Context, name string) (int64, error)
	// Projections names the projections to check.
	Projections []string
}

// health decides /readyz: ready once started, until draining, while the
// store answers, NATS is connected, the relay runs and agrees with the
// store, and no projection has lagged more than maxLag events for longer
// than grace.
type health struct {
	src    healthSource
	maxLag int64
	grace  time.Duration
	now    func() time.Time

	started  atomic.Bool
	draining atomic.Bool

	mu sync.Mutex
	// lagSince is when each projection was first seen beyond maxLag; lag
	// is sampled when readiness is asked (a probe every few seconds), so
	// the grace counts from the first probe that saw it.
	lagSince map[string]time.Time
}

func newHealth(src healthSource, maxLag int64, grace time.Duration) *health {
	return &health{src: src, maxLag: maxLag, grace: grace, now: time.Now, lagSince: map[string]time.Time{}}
}

// checks runs every check; the server is ready when all are OK.
func (h *health) checks(ctx context.Context) []api.Check {
	cs := []api.Check{
		{Name: "started", OK: h.started.Load()},
		{Name: "draining", OK: !h.draining.Load()},
	}
	if !cs[0].OK {
		cs[0].Detail = "starting up"
	}
	if !cs[1].OK {
		cs[1].Detail = "shutting down: finishing requests in flight"
	}
	head, err := h.src.Head(ctx)
	store := api.Check{Name: "store", OK: err == nil}
	if err != nil {
		store.Detail = err.Error()
	}
	cs = append(cs, store)
	nc := api.Check{Name: "nats", OK: h.src.NATSConnected()}
	if !nc.OK {
		nc.Detail = "not connected"
	}
	cs = append(cs, nc)
	rs := h.src.Relay()
	relay := api.Check{Name: "relay", OK: rs.Running && !rs.Diverged}
	switch {
	case rs.Diverged:
		relay.Detail = "JetStream holds events the store does not: the relay refuses to publish (see docs/OPERATIONS.md)"
	case !rs.Running:
		relay.Detail = "the relay is not running"
	case err == nil:
		relay.Detail = fmt.Sprintf("%d events behind", max(head-rs.Position, 0))
	}
	cs = append(cs, relay)
	if err != nil {
		return cs // projection lag is measured against the head
	}
	for _, name := range h.src.Projections {
		cs = append(cs, h.projection(ctx, name, head))
	}
	return cs
}

func (h *health) projection(ctx context.Context, name string, head int64) api.Check {
	c := api.Check{Name: "projection:" + name}
	cp, err := h.src.Checkpoint(ctx, name)
	if err != nil {
		c.Detail = err.Error()
		return c
	}
	if cp > head {
		c.Detail = fmt.Sprintf("checkpoint %d is past the store's head %d: the projection is wrong until it rebuilds", cp, head)
		return c
	}
	lag := head - cp
	c.Detail = fmt.Sprintf("%d events behind", lag)
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if lag <= h.maxLag {
		delete(h.lagSince, name)
		c.OK = true
		return c
	}
	since, ok := h.lagSince[name]
	if !ok {
		since = now
		h.lagSince[name] = now
	}
	if d := now.Sub(since); d <= h.grace {
		c.OK = true
		c.Detail += fmt.Sprintf(" (over %d for %s, grace %s)", h.maxLag, d.Round(time.Millisecond), h.grace)
		return c
	}
	c.Detail += fmt.Sprintf(" (over %d for longer than %s)", h.maxLag, h.grace)
	return c
}

// projectionLags reads every projection's lag, for the metrics scrape.
func (h *health) projectionLags(ctx context.Context) (map[string]float64, error) {
	head, err := h.src.Head(ctx)
	if err != nil {
		return nil, err
	}
	lags := make(map[string]float64, len(h.src.Projections))
	for _, name := range h.src.Projections {
		cp, err := h.src.Checkpoint(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("projection %s: %w", name, err)
		}
		lags[name] = float64(head - cp)
	}
	return lags, nil
}

// relayLag is how many committed events JetStream does not hold yet.
func (h *health) relayLag(ctx context.Context) (int64, error) {
	head, err := h.src.Head(ctx)
	if err != nil {
		return 0, err
	}
	return max(head-h.src.Relay().Position, 0), nil
}
