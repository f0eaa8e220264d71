package app

import (
	"context"
	"errors"
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
	// Relay reports this node's outbox relay (natsbus.Relay.Stats).
	Relay func() natsbus.RelayStats
	// RelayHeld tells whether this node holds the deployment's relay
	// lease; nil means always (the embedded NATS: this node is the
	// deployment).
	RelayHeld func() bool
	// Relayed returns the position up to which JetStream holds the store,
	// whichever node relays; read when this node does not relay.
	Relayed func(ctx context.Context) (int64, error)
	// Anchor checks the store against the deployment's chain anchor; nil
	// when there is none (the embedded NATS).
	Anchor func(ctx context.Context) error
	// Checkpoint returns how far a projection has applied the log.
	Checkpoint func(ctx context.Context, name string) (int64, error)
	// Projections names the projections to check.
	Projections []string
}

// health decides /readyz: ready once started, until draining, while the
// store answers, NATS is connected, the relay runs and agrees with the
// store, and no projection has lagged more than maxLag events for longer
// than grace. In a cluster a node reports its own state: one that does not
// hold the relay's lease is not unready for running no relay, only when
// the deployment's relay (read from JetStream against the store) lags
// like a projection would; and the store must contain the chain anchor.
type health struct {
	src    healthSource
	maxLag int64
	grace  time.Duration
	now    func() time.Time
	// timeout bounds the checks together (readyTimeout).
	timeout time.Duration

	started  atomic.Bool
	draining atomic.Bool
	// The log's verification (verifyLog), which runs beside the serving:
	// logVerified once it passed, logFault once it found the log damaged
	// or broken (the server then stops).
	logVerified atomic.Bool
	logFault    atomic.Pointer[string]

	mu sync.Mutex
	// lagSince is when each projection was first seen beyond maxLag; lag
	// is sampled when readiness is asked (a probe every few seconds), so
	// the grace counts from the first probe that saw it.
	lagSince map[string]time.Time
}

func newHealth(src healthSource, maxLag int64, grace time.Duration) *health {
	return &health{src: src, maxLag: maxLag, grace: grace, now: time.Now, timeout: readyTimeout, lagSince: map[string]time.Time{}}
}

// readyTimeout is how long the checks of one probe may take together. A
// store or NATS server behind a partition that drops packets (rather than
// refusing connections) does not answer at all: without a deadline a
// probe waited as long as its prober did, and a prober that gives up
// counts a timeout its own way or not at all, so the node was never
// reported unready. Probers wait 2s (deploy/Caddyfile) or 1s
// (Kubernetes' default), so the node answers 503 within one.
const readyTimeout = time.Second

// failed is a check's detail for err: a dependency that did not answer
// before the checks' deadline says so.
func (h *health) failed(ctx context.Context, err error) string {
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		return fmt.Sprintf("no answer within %s: %v", h.timeout, err)
	}
	return err.Error()
}

// checks runs every check; the server is ready when all are OK.
func (h *health) checks(ctx context.Context) []api.Check {
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
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
	cs = append(cs, h.logCheck())
	head, err := h.src.Head(ctx)
	store := api.Check{Name: "store", OK: err == nil}
	if err != nil {
		store.Detail = h.failed(ctx, err)
	}
	cs = append(cs, store)
	nc := api.Check{Name: "nats", OK: h.src.NATSConnected()}
	if !nc.OK {
		nc.Detail = "not connected"
	}
	cs = append(cs, nc)
	var relay api.Check
	if h.relaying() {
		rs := h.src.Relay()
		relay = api.Check{Name: "relay", OK: rs.Running && !rs.Diverged}
		switch {
		case rs.Diverged:
			relay.Detail = "JetStream holds events the store does not: the relay refuses to publish (see docs/OPERATIONS.md)"
		case !rs.Running:
			relay.Detail = "the relay is not running"
		case err == nil:
			relay.Detail = fmt.Sprintf("%d events behind", max(head-rs.Position, 0))
		}
	} else {
		relay = h.standbyRelay(ctx, head, err)
	}
	cs = append(cs, relay)
	if h.src.Anchor != nil {
		a := api.Check{Name: "anchor", OK: true}
		if aerr := h.src.Anchor(ctx); aerr != nil {
			a.OK, a.Detail = false, h.failed(ctx, aerr)
		}
		cs = append(cs, a)
	}
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
		c.Detail = h.failed(ctx, err)
		return c
	}
	if cp > head {
		c.Detail = fmt.Sprintf("checkpoint %d is past the store's head %d: the projection is wrong until it rebuilds", cp, head)
		return c
	}
	lag := head - cp
	c.OK, c.Detail = h.withinLag("projection:"+name, lag)
	return c
}

// logCheck reports the verification of the log that runs beside the
// serving: ready while it runs, since the head was checked before the
// server listened (the store's Open), so that what it may still find is an
// older event changed, or a damaged page, behind the store's back; failed
// once it found one, which stops the server.
func (h *health) logCheck() api.Check {
	c := api.Check{Name: "log", OK: true}
	switch f := h.logFault.Load(); {
	case f != nil:
		c.OK, c.Detail = false, *f
	case h.logVerified.Load():
		c.Detail = "verified"
	default:
		c.Detail = "verifying the file and the whole hash chain (the head was checked at start)"
	}
	return c
}

// relaying tells whether this node runs the deployment's relay.
func (h *health) relaying() bool { return h.src.RelayHeld == nil || h.src.RelayHeld() }

// standbyRelay checks the deployment's relay from a node that does not run
// it: JetStream's copy must keep up with the store like a projection.
func (h *health) standbyRelay(ctx context.Context, head int64, headErr error) api.Check {
	c := api.Check{Name: "relay"}
	if headErr != nil {
		c.Detail = "standby: another node relays"
		return c
	}
	relayed, err := h.src.Relayed(ctx)
	if err != nil {
		c.Detail = "standby: reading how far JetStream holds the store: " + h.failed(ctx, err)
		return c
	}
	ok, detail := h.withinLag("relay", max(head-relayed, 0))
	c.OK, c.Detail = ok, "standby, another node relays: JetStream is "+detail
	return c
}

// withinLag judges a lag of what (a projection, the relay): fine up to
// maxLag, and beyond it for grace since the first probe that saw it so.
func (h *health) withinLag(what string, lag int64) (bool, string) {
	detail := fmt.Sprintf("%d events behind", lag)
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if lag <= h.maxLag {
		delete(h.lagSince, what)
		return true, detail
	}
	since, ok := h.lagSince[what]
	if !ok {
		since = now
		h.lagSince[what] = now
	}
	if d := now.Sub(since); d <= h.grace {
		return true, detail + fmt.Sprintf(" (over %d for %s, grace %s)", h.maxLag, d.Round(time.Millisecond), h.grace)
	}
	return false, detail + fmt.Sprintf(" (over %d for longer than %s)", h.maxLag, h.grace)
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
	if !h.relaying() {
		relayed, err := h.src.Relayed(ctx)
		if err != nil {
			return 0, err
		}
		return max(head-relayed, 0), nil
	}
	return max(head-h.src.Relay().Position, 0), nil
}
