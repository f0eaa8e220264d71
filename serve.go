package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"

	"paiju/api"
	"paiju/audit"
	"paiju/eventstore"
	"paiju/games"
	"paiju/metrics"
	"paiju/natsbus"
	"paiju/projections"
	"paiju/service"
	"paiju/web"
)

// serve runs the server until ctx ends. If ready is not nil, it receives the
// listening address once the server accepts connections.
func serve(ctx context.Context, cfg serveConfig, stderr io.Writer, ready chan<- string) error {
	log, err := cfg.logger(stderr)
	if err != nil {
		return err
	}
	lock, err := lockDataDir(cfg.Data)
	if err != nil {
		return err
	}
	defer lock.Release()
	// Observability: metrics always, tracing with --otlp-endpoint.
	met := metrics.New()
	tracer, stopTracing, err := newTracer(ctx, cfg.OTLPEndpoint)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := stopTracing(sctx); err != nil {
			log.Warn("flush traces", "err", err)
		}
	}()
	store, err := openStore(ctx, cfg.commonConfig, log, met.Commit)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := checkStartup(ctx, store); err != nil {
		return err
	}

	natsURL, nc, js, stopNATS, err := startNATS(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stopNATS()

	var cl *cluster
	if cfg.NATS.URL != "" {
		err := whileStarting(ctx, log, "open the deployment's buckets on NATS", func() (err error) {
			cl, err = openCluster(ctx, cfg, js, log)
			return err
		})
		if err != nil {
			return err
		}
		err = whileStarting(ctx, log, "check the chain anchor", func() error {
			_, err := checkAnchor(ctx, store, cl.anchor)
			if errors.Is(err, errAnchorMissing) {
				return permanent{err}
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("refusing to serve: %w; %s", err, anchorHint)
		}
	}
	relayOpts := natsbus.RelayOptions{Namespace: cfg.NATS.NS}
	if cfg.Projector == "" {
		cfg.Projector = "in-process"
	}
	if cfg.TimeZone == "" {
		cfg.TimeZone = projections.DefaultLocation
	}
	if cfg.Projector != "in-process" && cfg.Projector != "external" {
		return fmt.Errorf("--projector %q: want in-process or external", cfg.Projector)
	}
	pdb, err := openProjections(ctx, cfg.commonConfig, cfg.TimeZone)
	if err != nil {
		return err
	}
	defer pdb.Close()
	var live api.Live = natsbus.NewLive(nc, cfg.NATS.NS)
	var pages *projections.PageFeed
	if cfg.NATS.URL == "" {
		// The embedded server has no publisher but this node's relay and
		// no reader but this process: the streams and the projections
		// take the events from the relay itself, not back from NATS.
		local := natsbus.NewLocalLive()
		live, relayOpts.Announce = local, local.Announce
		if cfg.Projector == "in-process" {
			pages = pageFeed(pdb, store, log)
			relayOpts.Announce = func(page []eventstore.Event) {
				local.Announce(page)
				pages.Announce(page)
			}
		}
	}
	relay := natsbus.NewRelay(store, js, store, log.With("component", "relay"), relayOpts)
	hs := healthSource{
		Head: func(ctx context.Context) (int64, error) {
			pos, _, err := store.Head(ctx)
			return pos, err
		},
		NATSConnected: nc.IsConnected,
		Relay:         relay.Stats,
		Relayed:       func(ctx context.Context) (int64, error) { return cfg.NATS.NS.Relayed(ctx, js) },
		Checkpoint:    pdb.Checkpoint,
		Projections:   projections.Names,
	}
	if cl != nil {
		hs.RelayHeld = func() bool { return cl.leases.Held(relayLease) }
		hs.Anchor = func(ctx context.Context) error {
			_, err := checkAnchor(ctx, store, cl.anchor)
			return err
		}
	}
	hl := newHealth(hs, cfg.ReadyMaxLag, cfg.ReadyLagGrace)
	registerLags(met, hl)
	svc := service.New(service.Config{
		Store:      store,
		Games:      games.All(),
		Logger:     log,
		Committed:  relay.Notify,
		ThinkDelay: cfg.BotDelay,
		Observer:   met,
		Tracer:     tracer,
		OpenSeats:  openSeats{pdb},
		// Other nodes append to a shared store: reads catch up from it.
		SharedStore: cfg.sharedStore(),
	})
	stopStreams := make(chan struct{})
	var tickets api.TicketStore // nil: this node's memory
	if cl != nil {
		tickets = cl.tickets
	}
	var app http.Handler
	if cfg.Web {
		if app, err = web.New(); err != nil {
			return err
		}
	}
	handler := api.NewServer(api.Deps{
		Tables:         svc,
		Players:        playerStore{store},
		TokenCacheFor:  tokenCacheFor(cfg.commonConfig),
		Rooms:          roomStore{store},
		AuditorToken:   cfg.AuditorToken,
		RateLimit:      cfg.RateLimit,
		Quotas:         cfg.Quotas,
		NewPlayerID:    func() string { return ulid.Make().String() },
		Ready:          hl.checks,
		Logger:         log,
		Live:           live,
		Revocations:    natsbus.Revocations{Conn: nc, Namespace: cfg.NATS.NS},
		Tickets:        tickets,
		Stop:           stopStreams,
		Projections:    pdb.Reader(store),
		Directory:      pdb.Reader(store),
		Exporter:       audit.Exporter{},
		Observer:       met,
		Tracer:         tracer,
		Metrics:        apiMetrics(cfg.MetricsAddr, met),
		TrustedProxies: cfg.TrustedProxies,
		CORSOrigins:    cfg.CORSOrigins,
		Web:            app,
	})
	if cfg.MetricsAddr != "" {
		stopMetrics, err := serveMetrics(cfg.MetricsAddr, met.Handler(), log)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}

	if cfg.DebugAddr != "" {
		stopDebug, err := serveDebug(cfg.DebugAddr, log)
		if err != nil {
			return err
		}
		defer stopDebug()
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	srv := newHTTPServer(handler, cfg.httpTimeouts)
	// Shutdown waits for responses to finish, and an event stream never
	// does: end the streams as soon as shutdown begins.
	srv.RegisterOnShutdown(func() { close(stopStreams) })

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { runRelay(runCtx, cl, relay, store, cfg.AnchorEvery, log) })
	wg.Go(func() {
		if err := svc.Run(runCtx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("turn clocks and bots stopped", "err", err)
		}
	})
	switch {
	case pages != nil:
		wg.Go(func() {
			dropProjectionConsumers(runCtx, js, cfg.NATS.NS, log)
			if err := pages.Run(runCtx); err != nil {
				log.Error("projections stopped", "err", err)
			}
		})
	case cfg.Projector == "in-process":
		feed := projectionFeed(pdb, js, cfg.NATS.NS, store, log)
		switch {
		case cl != nil && pdb.Shared:
			// The projections are the deployment's (the PostgreSQL
			// store's database): one worker per projection in the
			// deployment, under its lease, the others standing by.
			feed.Leases = cl.leases
		case cl != nil:
			// The projections are this node's (a database in its data
			// directory): its own consumers feed them every event.
			feed.Node = cl.node
		}
		wg.Go(func() { runProjections(runCtx, feed, log) })
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	hl.started.Store(true)
	log.Info("paiju serving", "addr", ln.Addr().String(), "data", cfg.Data, "nats", natsURL, "cluster", cfg.NATS.NS.Cluster())
	if ready != nil {
		ready <- ln.Addr().String()
	}

	select {
	case err = <-errc:
		err = fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
		err = drain(hl, cfg.Drain, errc, log)
	}
	shutdownCtx, done := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer done()
	if serr := srv.Shutdown(shutdownCtx); serr != nil {
		log.Warn("http shutdown", "err", serr)
	}
	cancel()
	wg.Wait()
	log.Info("paiju stopped")
	return err
}

// startRetryFor is how long a node starting with a NATS cluster retries
// what the cluster does not answer yet.
const startRetryFor = 30 * time.Second

// permanent marks an error that no retry can change.
type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }

// whileStarting runs f until it succeeds, fails with a permanent error, or
// startRetryFor has passed. A NATS cluster that has just formed, or is
// electing a leader after losing a server, answers "no responders" for
// some seconds; nodes started together with it (a compose file, a rolling
// restart) wait for it rather than exit.
func whileStarting(ctx context.Context, log *slog.Logger, what string, f func() error) error {
	deadline := time.Now().Add(startRetryFor)
	for {
		err := f()
		var p permanent
		if errors.As(err, &p) {
			return p.error
		}
		if err == nil || time.Now().After(deadline) {
			return err
		}
		log.Warn("starting: "+what+" failed; retrying", "err", err)
		if !sleepCtx(ctx, time.Second) {
			return err
		}
	}
}

// newHTTPServer is the API's http.Server: reads are bounded (httpTimeouts),
// writes are not, so that event streams last as long as their clients
// listen; the stream handler lifts the read deadline for its connection.
func newHTTPServer(h http.Handler, t httpTimeouts) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, IdleTimeout: 2 * time.Minute}
}

// drain fails readiness at once and keeps serving for d, so that load
// balancers stop sending requests before the listener closes.
func drain(hl *health, d time.Duration, errc <-chan error, log *slog.Logger) error {
	hl.draining.Store(true)
	log.Info("draining: readiness fails, still serving", "for", d)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case err := <-errc:
		return fmt.Errorf("http server: %w", err)
	}
}

// apiMetrics is the /metrics handler of the API's router: none when
// metrics have their own address.
func apiMetrics(metricsAddr string, m *metrics.Metrics) http.Handler {
	if metricsAddr != "" {
		return nil
	}
	return m.Handler()
}

// playerStore adapts the event store's players to the API's player store.
type playerStore struct{ s logStore }

func (p playerStore) CreatePlayer(ctx context.Context, r api.PlayerRecord, first api.TokenRecord) error {
	return p.s.CreatePlayer(ctx, eventstore.Player(r), eventstore.Token(first))
}

func (p playerStore) PlayerByID(ctx context.Context, id string) (api.PlayerRecord, error) {
	r, err := p.s.PlayerByID(ctx, id)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.PlayerRecord{}, api.ErrNoPlayer
	}
	return api.PlayerRecord(r), err
}

func (p playerStore) RenamePlayer(ctx context.Context, id, name string) error {
	err := p.s.RenamePlayer(ctx, id, name)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.ErrNoPlayer
	}
	return err
}

func (p playerStore) CreateToken(ctx context.Context, t api.TokenRecord) error {
	return p.s.CreateToken(ctx, eventstore.Token(t))
}

func (p playerStore) TokenByHash(ctx context.Context, hash string) (api.PlayerRecord, api.TokenRecord, error) {
	r, t, err := p.s.TokenByHash(ctx, hash)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.PlayerRecord{}, api.TokenRecord{}, api.ErrNoPlayer
	}
	return api.PlayerRecord(r), api.TokenRecord(t), err
}

func (p playerStore) TokenByID(ctx context.Context, id string) (api.TokenRecord, error) {
	t, err := p.s.TokenByID(ctx, id)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.TokenRecord{}, api.ErrNoToken
	}
	return api.TokenRecord(t), err
}

func (p playerStore) Tokens(ctx context.Context, playerID string) ([]api.TokenRecord, error) {
	ts, err := p.s.Tokens(ctx, playerID)
	out := make([]api.TokenRecord, len(ts))
	for i, t := range ts {
		out[i] = api.TokenRecord(t)
	}
	return out, err
}

func (p playerStore) RevokeToken(ctx context.Context, playerID, id string, at time.Time) (api.TokenRecord, error) {
	t, err := p.s.RevokeToken(ctx, playerID, id, at)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.TokenRecord{}, api.ErrNoToken
	}
	return api.TokenRecord(t), err
}

func (p playerStore) TouchToken(ctx context.Context, id string, at time.Time) error {
	return p.s.TouchToken(ctx, id, at)
}

// roomStore adapts the store's room codes to the API's.
type roomStore struct{ s logStore }

func (r roomStore) CreateRoom(ctx context.Context, code, tableID string, at time.Time) error {
	err := r.s.CreateRoom(ctx, code, tableID, at)
	if errors.Is(err, eventstore.ErrExists) {
		return api.ErrRoomTaken
	}
	return err
}

func (r roomStore) TakeOverRoom(ctx context.Context, code, oldTable, newTable string, at time.Time) error {
	err := r.s.TakeOverRoom(ctx, code, oldTable, newTable, at)
	switch {
	case errors.Is(err, eventstore.ErrNotFound):
		return api.ErrNoRoom
	case errors.Is(err, eventstore.ErrExists):
		return api.ErrRoomTaken
	}
	return err
}

func (r roomStore) ReleaseRoom(ctx context.Context, code, tableID string) error {
	return r.s.ReleaseRoom(ctx, code, tableID)
}

func (r roomStore) RoomByCode(ctx context.Context, code string) (api.RoomRecord, error) {
	room, err := r.s.RoomByCode(ctx, code)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.RoomRecord{}, api.ErrNoRoom
	}
	return api.RoomRecord(room), err
}

func (r roomStore) RoomOfTable(ctx context.Context, tableID string) (api.RoomRecord, error) {
	room, err := r.s.RoomOfTable(ctx, tableID)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.RoomRecord{}, api.ErrNoRoom
	}
	return api.RoomRecord(room), err
}

// serveDebug serves the profiler on its own listener, never on the API's.
func serveDebug(addr string, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("debug listener on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("profiler serving", "addr", ln.Addr().String())
	return func() { _ = srv.Close() }, nil
}

// soleNodeTokenCacheFor is how long a node whose players no other node
// reads trusts a token it has verified.
const soleNodeTokenCacheFor = time.Minute

// tokenCacheFor is api.Deps.TokenCacheFor for cfg. A SQLite store is one
// process's alone (its lock file): every revocation and rename goes
// through this node, which forgets the token at once, so the bound on a
// missed notice can be long, and a seat's requests spare a read of the
// player store a second (2.4% of a loaded server's CPU). Nodes sharing a
// PostgreSQL store keep the API's default.
func tokenCacheFor(cfg commonConfig) time.Duration {
	if cfg.sharedStore() {
		return 0
	}
	return soleNodeTokenCacheFor
}
