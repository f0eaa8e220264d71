package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/eventstore/sqlite"
	"paiju/natsbus"
)

// failing returns the names of the checks that failed.
func failing(cs []api.Check) []string {
	var out []string
	for _, c := range cs {
		if !c.OK {
			out = append(out, c.Name)
		}
	}
	return out
}

// TestReadinessFollowsRelay runs a real relay between a SQLite store and
// embedded NATS: ready while it runs, 503 naming the relay once it stopped
// (docs/OPERATIONS.md, Health).
func TestReadinessFollowsRelay(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	log := slog.New(slog.DiscardHandler)
	store, err := sqlite.Open(ctx, filepath.Join(dir, "paiju.db"), sqlite.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	emb, err := natsbus.StartEmbedded(ctx, filepath.Join(dir, "nats"), log)
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	nc, js, err := emb.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if _, err := natsbus.EnsureStream(ctx, js, natsbus.StreamLimits{}); err != nil {
		t.Fatal(err)
	}
	relay := natsbus.NewRelay(store, js, store, log, natsbus.RelayOptions{})
	hl := newHealth(healthSource{
		Head: func(ctx context.Context) (int64, error) {
			pos, _, err := store.Head(ctx)
			return pos, err
		},
		NATSConnected: nc.IsConnected,
		Relay:         relay.Stats,
	}, 1000, time.Minute)
	srv := httptest.NewServer(api.NewServer(api.Deps{Ready: hl.checks}))
	defer srv.Close()
	c := apitest.New(t, srv.URL)

	if r := c.Do(apitest.Request{Method: "GET", Path: "/readyz"}); r.Status != http.StatusServiceUnavailable {
		t.Errorf("readyz before start: %d %s, want 503 (starting)", r.Status, r.Body)
	}
	hl.started.Store(true)
	runCtx, stopRelay := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- relay.Run(runCtx) }()
	c.WaitReady() // the relay needs a moment to start

	stopRelay()
	if err := <-done; err != nil {
		t.Fatalf("relay: %v", err)
	}
	r := c.Do(apitest.Request{Method: "GET", Path: "/readyz"})
	if r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Body), `"name":"relay","ok":false`) {
		t.Errorf("readyz with the relay stopped: %d %s, want 503 naming the relay", r.Status, r.Body)
	}
}

// TestReadinessProjectionLag: a projection may lag beyond the limit for the
// grace period; longer, or a checkpoint past the store's head, fails
// readiness (docs/OPERATIONS.md, Health).
func TestReadinessProjectionLag(t *testing.T) {
	const maxLag, grace = 10, time.Minute
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	steps := []struct {
		name       string
		head, cp   int64
		at         time.Duration // since start
		ok         bool
		detailHave string
	}{
		{"within the limit", 100, 95, 0, true, "5 events behind"},
		{"beyond it, grace starts", 100, 50, time.Second, true, "50 events behind"},
		{"beyond it within grace", 120, 60, grace, true, "60 events behind"},
		{"beyond it past grace", 130, 60, grace + 2*time.Second, false, "longer than 1m0s"},
		{"caught up", 130, 125, grace + 3*time.Second, true, "5 events behind"},
		{"beyond again: a new grace", 200, 125, grace + 4*time.Second, true, "75 events behind"},
		{"checkpoint past the head", 100, 130, grace + 5*time.Second, false, "past the store's head"},
		{"store failing", -1, 0, grace + 6*time.Second, false, ""},
	}
	var head, cp int64
	hl := newHealth(healthSource{
		Head: func(context.Context) (int64, error) {
			if head < 0 {
				return 0, errors.New("disk on fire")
			}
			return head, nil
		},
		NATSConnected: func() bool { return true },
		Relay:         func() natsbus.RelayStats { return natsbus.RelayStats{Running: true, Position: head} },
		Checkpoint:    func(context.Context, string) (int64, error) { return cp, nil },
		Projections:   []string{"hands"},
	}, maxLag, grace)
	hl.started.Store(true)
	var now time.Time
	hl.now = func() time.Time { return now }
	for _, s := range steps {
		head, cp, now = s.head, s.cp, start.Add(s.at)
		cs := hl.checks(context.Background())
		ok := len(failing(cs)) == 0
		var detail string
		for _, c := range cs {
			if c.Name == "projection:hands" {
				detail = c.Detail
			}
		}
		if ok != s.ok || !strings.Contains(detail, s.detailHave) {
			t.Errorf("%s (head %d, checkpoint %d): ready %v (failing %v, detail %q), want ready %v with %q",
				s.name, s.head, s.cp, ok, failing(cs), detail, s.ok, s.detailHave)
		}
	}
}

// A node that stands by while another relays is ready however long it runs
// no relay of its own; it fails when the deployment's relay (JetStream
// against the store) lags past the limit and the grace, when JetStream
// cannot be read, or when the store lost the chain anchor; and the checks
// say which.
func TestReadinessStandbyNode(t *testing.T) {
	const maxLag, grace = 10, time.Minute
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var (
		head, relayed int64
		held          bool
		relayedErr    error
		anchorErr     error
		now           time.Time
	)
	hl := newHealth(healthSource{
		Head:          func(context.Context) (int64, error) { return head, nil },
		NATSConnected: func() bool { return true },
		Relay:         func() natsbus.RelayStats { return natsbus.RelayStats{Running: held, Position: relayed} },
		RelayHeld:     func() bool { return held },
		Relayed:       func(context.Context) (int64, error) { return relayed, relayedErr },
		Anchor:        func(context.Context) error { return anchorErr },
		Checkpoint:    func(context.Context, string) (int64, error) { return head, nil },
		Projections:   []string{"hands"},
	}, maxLag, grace)
	hl.started.Store(true)
	hl.now = func() time.Time { return now }
	steps := []struct {
		name          string
		head, relayed int64
		held          bool
		relayedErr    error
		anchorErr     error
		at            time.Duration
		failing       string // "" when ready
		detailHave    string // in the relay check's detail
	}{
		{"standby, JetStream current", 100, 100, false, nil, nil, 0, "", "standby"},
		{"standby, JetStream behind within grace", 200, 100, false, nil, nil, time.Second, "", "100 events behind"},
		{"standby, JetStream behind past grace", 200, 100, false, nil, nil, grace + 2*time.Second, "relay", "longer than"},
		{"standby, JetStream unreadable", 200, 200, false, errors.New("no responders"), nil, grace + 3*time.Second, "relay", "no responders"},
		{"holding the lease, relay running", 200, 200, true, nil, nil, grace + 4*time.Second, "", "0 events behind"},
		{"store lost the anchor", 200, 200, true, nil, errors.New("the event store does not contain the chain anchor"), grace + 5*time.Second, "anchor", ""},
	}
	for _, s := range steps {
		head, relayed, held, relayedErr, anchorErr, now = s.head, s.relayed, s.held, s.relayedErr, s.anchorErr, start.Add(s.at)
		cs := hl.checks(context.Background())
		var detail string
		for _, c := range cs {
			if c.Name == "relay" {
				detail = c.Detail
			}
		}
		if got := strings.Join(failing(cs), ","); got != s.failing || !strings.Contains(detail, s.detailHave) {
			t.Errorf("%s: failing %q (relay: %q), want failing %q with %q in the relay's detail", s.name, got, detail, s.failing, s.detailHave)
		}
	}
}

// silent is a dependency behind a partition that drops its packets: a call
// returns only when its context ends, as a query on a connection whose
// peer never answers does.
func silent(ctx context.Context) error {
	<-ctx.Done()
	return fmt.Errorf("read: %w", ctx.Err())
}

// A store or NATS that does not answer at all makes /readyz answer 503
// naming it, rather than hold the probe as long as the prober waits (the
// fault test's partitions found probes answered by nothing at all). The
// probe's own context has no deadline here, as a prober's need not.
func TestReadinessAnswersWhenADependencyDoesNot(t *testing.T) {
	for _, c := range []struct {
		name, failing string
		src           healthSource
	}{
		{"store", "store", healthSource{
			Head:          func(ctx context.Context) (int64, error) { return 0, silent(ctx) },
			NATSConnected: func() bool { return true },
			Relay:         func() natsbus.RelayStats { return natsbus.RelayStats{Running: true} },
		}},
		{"NATS, on a standby node", "relay,anchor", healthSource{
			Head:          func(context.Context) (int64, error) { return 10, nil },
			NATSConnected: func() bool { return true }, // the client has not noticed yet
			RelayHeld:     func() bool { return false },
			Relayed:       func(ctx context.Context) (int64, error) { return 0, silent(ctx) },
			Anchor:        silent,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			hl := newHealth(c.src, 10, time.Minute)
			hl.started.Store(true)
			srv := httptest.NewServer(api.NewServer(api.Deps{Ready: hl.checks}))
			defer srv.Close()
			r := apitest.New(t, srv.URL).Do(apitest.Request{Method: "GET", Path: "/readyz"})
			var body struct {
				Checks []api.Check `json:"checks"`
			}
			r.Decode(t, &body)
			if got := strings.Join(failing(body.Checks), ","); r.Status != http.StatusServiceUnavailable || got != c.failing {
				t.Fatalf("/readyz: %d failing %q, want 503 failing %q: %s", r.Status, got, c.failing, r.Body)
			}
			for _, ch := range body.Checks {
				if !ch.OK && !strings.Contains(ch.Detail, "no answer within") {
					t.Errorf("check %s: %q, want it to say the dependency did not answer", ch.Name, ch.Detail)
				}
			}
		})
	}
}
