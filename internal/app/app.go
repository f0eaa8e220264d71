package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
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

// App is one paiju server: its stores, NATS, the relay, the projections'
// feed, the table service and the HTTP handler, wired from a Config. New
// opens everything, Run serves until its context ends, Close releases what
// New opened.
type App struct {
	cfg   Config
	log   *slog.Logger
	store logStore
	pdb   openedProjections
	// js is nil on an embedded node that projects in process: its relay
	// publishes nowhere (Config.usesJetStream).
	js    jetstream.JetStream
	cl    *cluster
	relay *natsbus.Relay
	svc   *service.Service
	hl    *health
	pages *projections.PageFeed
	// natsURL is the NATS server's URL for the log line ("" when embedded
	// without a listener).
	natsURL     string
	handler     http.Handler
	stopStreams chan struct{}
	// closers release what New opened, last opened first.
	closers []func()
}

// New opens the data directory (locked for this process), the stores, NATS
// and the cluster's buckets, and builds the handler. On error, whatever it
// had opened is released.
func New(ctx context.Context, cfg Config) (_ *App, err error) {
	a := &App{cfg: cfg, log: cfg.Logger, stopStreams: make(chan struct{})}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	log := a.log
	lock, err := lockDataDir(cfg.Data)
	if err != nil {
		return nil, err
	}
	a.onClose(lock.Release)
	// Observability: metrics always, tracing with --otlp-endpoint.
	met := metrics.New()
	tracer := cfg.Tracer
	if tracer == nil {
		t, stopTracing, err := newTracer(ctx, cfg.OTLPEndpoint)
		if err != nil {
			return nil, err
		}
		tracer = t
		a.onClose(func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := stopTracing(sctx); err != nil {
				log.Warn("flush traces", "err", err)
			}
		})
	}
	store, err := openStore(ctx, cfg.Common, log, met.Commit, cfg.Inputs.now())
	if err != nil {
		return nil, err
	}
	a.store = store
	a.onClose(func() { store.Close() })
	// The rest of checkStartup, SQLite's quick check and the whole hash
	// chain, reads the whole log: Run does it beside the serving
	// (verifyLog), so that a restart is not as slow as the log is long.

	natsURL, nc, js, stopNATS, err := startNATS(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	a.natsURL, a.js = natsURL, js
	a.onClose(stopNATS)

	if cfg.NATS.URL != "" {
		err := whileStarting(ctx, log, "open the deployment's buckets on NATS", func() (err error) {
			a.cl, err = openCluster(ctx, cfg, js, log)
			return err
		})
		if err != nil {
			return nil, err
		}
		err = whileStarting(ctx, log, "check the chain anchor", func() error {
			_, err := checkAnchor(ctx, store, a.cl.anchor)
			if errors.Is(err, errAnchorMissing) {
				return permanent{err}
			}
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("refusing to serve: %w; %s", err, anchorHint)
		}
	}
	cl := a.cl
	relayOpts := natsbus.RelayOptions{Namespace: cfg.NATS.NS}
	if cfg.Projector == "" {
		cfg.Projector = "in-process"
	}
	if cfg.TimeZone == "" {
		cfg.TimeZone = projections.DefaultLocation
	}
	if cfg.Projector != "in-process" && cfg.Projector != "external" {
		return nil, fmt.Errorf("--projector %q: want in-process or external", cfg.Projector)
	}
	a.cfg = cfg
	pdb, err := openProjections(ctx, cfg.Common, cfg.TimeZone)
	if err != nil {
		return nil, err
	}
	a.pdb = pdb
	a.onClose(func() { pdb.Close() })
	var live api.Live = natsbus.NewLive(nc, cfg.NATS.NS)
	if cfg.NATS.URL == "" {
		// The embedded server has no publisher but this node's relay and
		// no reader but this process: the streams and the projections
		// take the events from the relay itself, not back from NATS.
		local := natsbus.NewLocalLive()
		live, relayOpts.Announce = local, local.Announce
		if cfg.Projector == "in-process" {
			// Without JetStream (startNATS) these pages are all the
			// relay does.
			pages := pageFeed(pdb, store, log)
			a.pages = pages
			relayOpts.Announce = func(page []eventstore.Event) {
				local.Announce(page)
				pages.Announce(page)
			}
		}
	}
	relay := natsbus.NewRelay(store, js, store, log.With("component", "relay"), relayOpts)
	a.relay = relay
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
	a.hl = hl
	registerLags(met, hl)
	a.svc = service.New(service.Config{
		Store:      store,
		Games:      games.All(),
		Seeds:      cfg.Inputs.Seeds,
		Clock:      cfg.Inputs.Clock,
		IDs:        cfg.Inputs.TableIDs,
		Logger:     log,
		Committed:  relay.Notify,
		ThinkDelay: cfg.BotDelay,
		Observer:   met,
		Tracer:     tracer,
		OpenSeats:  openSeats{pdb},
		// Other nodes append to a shared store: reads catch up from it.
		SharedStore: cfg.sharedStore(),
	})
	var tickets api.TicketStore // nil: this node's memory
	if cl != nil {
		tickets = cl.tickets
	}
	var webApp http.Handler
	if cfg.Web {
		if webApp, err = web.New(); err != nil {
			return nil, err
		}
	}
	newPlayerID := cfg.Inputs.PlayerIDs
	if newPlayerID == nil {
		newPlayerID = func() string { return ulid.Make().String() }
	}
	deps := api.Deps{
		Tables:         a.svc,
		Players:        playerStore{store},
		TokenCacheFor:  tokenCacheFor(cfg.Common),
		Rooms:          roomStore{store},
		AuditorToken:   cfg.AuditorToken,
		RateLimit:      cfg.RateLimit,
		Quotas:         cfg.Quotas,
		NewPlayerID:    newPlayerID,
		Ready:          hl.checks,
		Logger:         log,
		Live:           live,
		Revocations:    natsbus.Revocations{Conn: nc, Namespace: cfg.NATS.NS},
		Tickets:        tickets,
		Stop:           a.stopStreams,
		Projections:    pdb.Reader(store),
		Ratings:        pdb.Reader(store),
		Directory:      pdb.Reader(store),
		Exporter:       audit.Exporter{},
		Observer:       met,
		Tracer:         tracer,
		Metrics:        apiMetrics(cfg.MetricsAddr, met),
		TrustedProxies: cfg.TrustedProxies,
		CORSOrigins:    cfg.CORSOrigins,
		Web:            webApp,
		RequestTimeout: cfg.Request,
		OpenAPI:        cfg.OpenAPI,
	}
	if cfg.Inputs.API != nil {
		cfg.Inputs.API(&deps)
	}
	a.handler = api.NewServer(deps)
	if cfg.MetricsAddr != "" {
		stopMetrics, err := serveMetrics(cfg.MetricsAddr, met.Handler(), log)
		if err != nil {
			return nil, err
		}
		a.onClose(stopMetrics)
	}
	if cfg.DebugAddr != "" {
		stopDebug, err := serveDebug(cfg.DebugAddr, log)
		if err != nil {
			return nil, err
		}
		a.onClose(stopDebug)
	}
	return a, nil
}

// onClose adds f to what Close releases.
func (a *App) onClose(f func()) { a.closers = append(a.closers, f) }

// Close releases what New opened, last opened first. Call it once, after
// Run has returned (or instead of Run).
func (a *App) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// Handler is the HTTP API (and the web app with --web).
func (a *App) Handler() http.Handler { return a.handler }

// Service is the table service behind the handler.
func (a *App) Service() *service.Service { return a.svc }

// Store is the event store: its log and its accounts.
func (a *App) Store() eventstore.Store { return a.store }

// JetStream is the NATS JetStream the relay publishes the log to, for a
// projector run beside the server (Projector "external"); nil for an
// embedded node that projects in process, which publishes nowhere.
func (a *App) JetStream() jetstream.JetStream { return a.js }

// Run serves the handler on ln, with the relay, the turn clocks and bots
// and the projections' feed beside it, until ctx ends; then it drains
// (Observe.Drain) and shuts the listener down. If ready is not nil, it
// receives the listening address once the server accepts connections.
func (a *App) Run(ctx context.Context, ln net.Listener, ready chan<- string) error {
	cfg, log, cl, pdb := a.cfg, a.log, a.cl, a.pdb
	srv := newHTTPServer(a.handler, cfg.HTTPTimeouts)
	// Shutdown waits for responses to finish, and an event stream never
	// does: end the streams as soon as shutdown begins.
	srv.RegisterOnShutdown(func() { close(a.stopStreams) })

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { runRelay(runCtx, cl, a.relay, a.store, cfg.AnchorEvery, log) })
	if !cfg.Inputs.ManualClock {
		wg.Go(func() {
			if err := a.svc.Run(runCtx); err != nil && !errors.Is(err, context.Canceled) {
				log.Error("turn clocks and bots stopped", "err", err)
			}
		})
	}
	switch {
	case a.pages != nil:
		wg.Go(func() {
			if err := a.pages.Run(runCtx); err != nil {
				log.Error("projections stopped", "err", err)
			}
		})
	case cfg.Projector == "in-process":
		feed := projectionFeed(pdb, a.js, cfg.NATS.NS, a.store, log)
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
	broken := make(chan error, 1)
	wg.Go(func() { verifyLog(runCtx, a.store, a.hl, broken, log) })
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if cl == nil {
		// A single node's relay runs from the start, and readiness says
		// so: ready is not signalled before its Run has begun (it begins
		// at once; the bound only keeps a start from hanging on it).
		for deadline := time.Now().Add(5 * time.Second); !a.relay.Stats().Running && time.Now().Before(deadline) && runCtx.Err() == nil; {
			time.Sleep(time.Millisecond)
		}
	}
	a.hl.started.Store(true)
	log.Info("paiju serving", "addr", ln.Addr().String(), "data", cfg.Data, "nats", a.natsURL, "cluster", cfg.NATS.NS.Cluster())
	if ready != nil {
		ready <- ln.Addr().String()
	}

	var err error
	select {
	case err = <-errc:
		err = fmt.Errorf("http server: %w", err)
	case err = <-broken:
		// Refused as a start would have refused it: no drain, the
		// server must not go on serving this log.
	case <-ctx.Done():
		err = drain(a.hl, cfg.Drain, errc, log)
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

// verifyLog runs checkStartup while the server serves, and reports a fault
// on broken (the server stops with it, as a start refused to serve). The
// store's Open checked the head before the server listened: events past
// the head file must chain onto it and the head event carry its hash, so
// the log a restart serves is the log the last run left, unless an older
// event changed behind its back; this finds that, and a damaged page.
func verifyLog(ctx context.Context, store eventstore.Log, hl *health, broken chan<- error, log *slog.Logger) {
	start := time.Now()
	for wait := time.Second; ; wait = min(2*wait, time.Minute) {
		err := checkStartup(ctx, store)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil && !isLogFault(err):
			// A read that failed (the database went away for a moment)
			// says nothing of the log, and must not stop a node that
			// serves: the verification starts again.
			log.Warn("the log's verification could not read the store: trying again", "err", err, "in", wait)
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			continue
		case err != nil:
			msg := err.Error()
			hl.logFault.Store(&msg)
			log.Error("the log failed its verification: stopping", "err", err)
			broken <- err
		default:
			hl.logVerified.Store(true)
			log.Info("log verified: the file and the whole hash chain", "took", time.Since(start).Round(time.Millisecond))
		}
		return
	}
}

// Serve runs paiju serve: New, then Run on cfg.Addr until ctx ends, then
// Close.
func Serve(ctx context.Context, cfg Config) error {
	a, err := New(ctx, cfg)
	if err != nil {
		return err
	}
	defer a.Close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	return a.Run(ctx, ln, nil)
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
func newHTTPServer(h http.Handler, t HTTPTimeouts) *http.Server {
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
type playerStore struct{ s eventstore.Players }

func (p playerStore) CreatePlayer(ctx context.Context, r api.PlayerRecord, first api.TokenRecord) error {
	err := p.s.CreatePlayer(ctx, eventstore.Player(r), eventstore.Token(first))
	if errors.Is(err, eventstore.ErrNameTaken) {
		return fmt.Errorf("%w: %w", api.ErrNameTaken, err)
	}
	return err
}

func (p playerStore) PlayerByID(ctx context.Context, id string) (api.PlayerRecord, error) {
	r, err := p.s.PlayerByID(ctx, id)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.PlayerRecord{}, api.ErrNoPlayer
	}
	return api.PlayerRecord(r), err
}

func (p playerStore) RenamePlayer(ctx context.Context, id, name, nameKey string) error {
	err := p.s.RenamePlayer(ctx, id, name, nameKey)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.ErrNoPlayer
	}
	if errors.Is(err, eventstore.ErrNameTaken) {
		return fmt.Errorf("%w: %w", api.ErrNameTaken, err)
	}
	return err
}

func (p playerStore) CreateToken(ctx context.Context, t api.TokenRecord, maxLive int) error {
	err := p.s.CreateToken(ctx, eventstore.Token(t), maxLive)
	if errors.Is(err, eventstore.ErrLimit) {
		return api.ErrTooManyTokens
	}
	return err
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
type roomStore struct{ s eventstore.Rooms }

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
func tokenCacheFor(cfg Common) time.Duration {
	if cfg.sharedStore() {
		return 0
	}
	return soleNodeTokenCacheFor
}

// sleepCtx waits d, or less if ctx ends first; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
