// Package api is paiju's HTTP API v1: a chi router whose routes mirror
// openapi.yaml, bearer-token authentication, problem+json errors, If-Match and
// Idempotency-Key handling, and per-seat redaction of every table response.
package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"
	"go.opentelemetry.io/otel/trace"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

// Tables is what the API needs of the table service.
type Tables interface {
	Open(ctx context.Context, p service.Player, req service.OpenRequest, cond service.Cond) (*service.Result, error)
	Join(ctx context.Context, p service.Player, tableID string, seat int, cond service.Cond) (*service.Result, error)
	Act(ctx context.Context, p service.Player, tableID string, a table.Action, cond service.Cond) (*service.Result, error)
	// DryAct answers what Act would and stores nothing.
	DryAct(ctx context.Context, p service.Player, tableID string, a table.Action, cond service.Cond) (*service.Result, error)
	Load(ctx context.Context, tableID string) (*service.Loaded, error)
	LoadAtLeast(ctx context.Context, tableID string, version int) (*service.Loaded, error)
	LoadRaw(ctx context.Context, tableID string) (*service.Raw, error)
	// LegalPage lists what seat may do now, by the service's clock,
	// narrowed to the selected cards within b.
	LegalPage(st *table.State, seat int, selected []cards.Card, b service.Bounds) (service.LegalPage, error)
	// Hint is the game's bot's choice for seat now, from what the seat may
	// see; false when there is none (no bot, the seat not awaited).
	Hint(st *table.State, seat int) (table.Action, bool)
	// GameNames lists the games tables can be opened for.
	GameNames() []string
	// Quick seats the caller at an open table of a kind, or opens one;
	// opened says which.
	Quick(ctx context.Context, p service.Player, req service.QuickRequest, cond service.Cond) (res *service.Result, opened bool, err error)
	// JoinRoom is Join at a private table, for a caller whose room code
	// was checked.
	JoinRoom(ctx context.Context, p service.Player, tableID string, seat int, cond service.Cond) (*service.Result, error)
	// AddWatcher lets watcherID watch the caller's seat; RemoveWatcher
	// takes it back.
	AddWatcher(ctx context.Context, p service.Player, tableID, watcherID string, cond service.Cond) (*service.Result, error)
	RemoveWatcher(ctx context.Context, p service.Player, tableID, watcherID string, cond service.Cond) (*service.Result, error)
	// CheckKind returns the error opening a table of game and variant would
	// meet (unknown_game, unknown_variant); an empty variant checks the game.
	CheckKind(game, variant string) error
	// ShownOptions is a table's recorded options with the defaults filled in.
	ShownOptions(game, variant, version string, recorded json.RawMessage) json.RawMessage
}

var _ Tables = (*service.Service)(nil)

// PlayerRecord is a registered player as the player store keeps it.
type PlayerRecord struct {
	ID   string
	Name string
	// NameKey is the name's comparison key (playerName): the store keeps
	// keys unique. Empty for a player registered before keys were kept.
	NameKey   string
	CreatedAt time.Time
}

// TokenRecord is one bearer token of a player as the player store keeps it:
// the token only as its SHA-256 (Hash). Zero times mean never.
type TokenRecord struct {
	ID         string
	PlayerID   string
	Label      string
	Hash       string
	CreatedAt  time.Time
	LastUsedAt time.Time
	ExpiresAt  time.Time
	RevokedAt  time.Time
}

// live reports whether t authenticates at now.
func (t TokenRecord) live(now time.Time) bool {
	return t.RevokedAt.IsZero() && (t.ExpiresAt.IsZero() || now.Before(t.ExpiresAt))
}

// Players stores players and their tokens. Every node reads the same store;
// a node keeps a token it has verified for Deps.TokenCacheFor at most, and
// forgets it at once when it is revoked on this node or the revocation
// notice arrives (Deps.Revocations), or when its player is renamed here.
type Players interface {
	// CreatePlayer stores p with its first token; ErrNameTaken when
	// another player holds p.NameKey.
	CreatePlayer(ctx context.Context, p PlayerRecord, first TokenRecord) error
	// PlayerByID returns ErrNoPlayer when no player has the id.
	PlayerByID(ctx context.Context, id string) (PlayerRecord, error)
	// RenamePlayer sets the name and its key; ErrNoPlayer when no player
	// has the id, ErrNameTaken when another player holds the key.
	RenamePlayer(ctx context.Context, id, name, nameKey string) error
	// CreateToken stores a further token of t.PlayerID, or returns
	// ErrTooManyTokens when the player holds maxLive tokens live at
	// t.CreatedAt. The store counts and inserts in one transaction that
	// excludes the player's other CreateTokens, on every node, so the cap
	// holds under concurrent requests.
	CreateToken(ctx context.Context, t TokenRecord, maxLive int) error
	// TokenByHash returns the token with the hash, revoked and expired ones
	// included, and its player; ErrNoPlayer when no token has the hash.
	TokenByHash(ctx context.Context, tokenHash string) (PlayerRecord, TokenRecord, error)
	// TokenByID returns ErrNoToken when no token has the id.
	TokenByID(ctx context.Context, id string) (TokenRecord, error)
	// Tokens lists a player's tokens, oldest first.
	Tokens(ctx context.Context, playerID string) ([]TokenRecord, error)
	// RevokeToken revokes playerID's token id at at (keeping an earlier
	// revocation); ErrNoToken when playerID has no such token.
	RevokeToken(ctx context.Context, playerID, id string, at time.Time) (TokenRecord, error)
	// TouchToken records a use of token id at at, if later than the last.
	TouchToken(ctx context.Context, id string, at time.Time) error
}

// Deps are the server's dependencies.
type Deps struct {
	Tables  Tables
	Players Players
	// AuditorToken, when set, is a bearer token that reads every table in full.
	AuditorToken string
	// NewPlayerID returns a fresh player id.
	NewPlayerID func() string
	// Ready reports readiness check by check (store, NATS, relay,
	// projections, drain); the server is ready when every check is OK.
	// Without it the server is always ready.
	Ready  func(ctx context.Context) []Check
	Logger *slog.Logger
	Now    func() time.Time
	// RateLimit bounds the requests one caller may make per RateWindow (a
	// player or the auditor by token; registration by IP address); 0 means no
	// limit.
	RateLimit  int
	RateWindow time.Duration
	// Quotas bound tables opened, registrations, failed authentications,
	// streams, /events pages and costly reads (zero fields: DefaultQuotas).
	Quotas Quotas
	// Live feeds /stream; without it /stream answers 503.
	Live Live
	// Tickets keeps stream tickets from issue to redemption; nil keeps them
	// in this process's memory (NewMemoryTickets), so that only this node
	// redeems them.
	Tickets TicketStore
	// Revocations spreads token revocations between the nodes of a
	// deployment, so that every node ends a revoked token's streams at
	// once; nil: other nodes end them at their next heartbeat.
	Revocations Revocations
	// TokenCacheFor is how long a verified token is trusted without
	// reading Players again: the longest a revocation takes to reach a
	// node that misses its notice (0: DefaultTokenCacheFor; negative:
	// every request reads Players).
	TokenCacheFor time.Duration
	// Heartbeat is how often an idle /stream sends a comment line (15s).
	Heartbeat time.Duration
	// Stop, when closed, ends every /stream response: http.Server.Shutdown
	// waits for streaming responses instead of closing them, so the caller
	// closes Stop when shutdown begins (http.Server.RegisterOnShutdown).
	Stop <-chan struct{}
	// Projections serves hand history, leaderboards and player totals;
	// without it those routes answer 503.
	Projections Projections
	// Ratings serves the rating leaderboards, players' ratings and the
	// ratings in table views; without it those answer 503 (table views:
	// null ratings).
	Ratings Ratings
	// Rooms keeps the room codes of private tables; without it opening a
	// private table and /v1/rooms answer 503.
	Rooms Rooms
	// Directory serves the lobby and a player's tables; without it those
	// routes answer 503.
	Directory TableDirectory
	// Exporter writes /export; without it /export answers 503.
	Exporter Exporter
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed, for the registration rate limit and the logged client
	// address; without them the peer address is the client's.
	TrustedProxies []netip.Prefix
	// Observer is told of every request and live stream (for metrics); nil
	// observes nothing.
	Observer Observer
	// Tracer, if set, starts a span per request; nil traces nothing, at no
	// cost.
	Tracer trace.Tracer
	// Metrics, if set, is served at GET /metrics (Prometheus' text format).
	Metrics http.Handler
	// CORSOrigins are the origins (https://play.example.com, or with one *
	// wildcard, or * for any) whose web apps may call the API from a
	// browser; none: no CORS headers at all.
	CORSOrigins []string
	// Web, if set, serves every path outside /v1 that no API route
	// answers (the embedded web app); nil: those paths answer 404.
	Web http.Handler
	// RequestTimeout bounds the work on one /v1 request, live streams
	// excepted: past it the request's context ends and the answer is 503
	// request_timeout, so that a node whose store does not answer tells its
	// clients so instead of holding them; 0: no bound.
	RequestTimeout time.Duration
	// OpenAPI, if set, is the contract (openapi.yaml, as built into the
	// binary), served at GET /openapi.yaml for client developers; nil:
	// that path is the web app's, or 404.
	OpenAPI []byte
}

// Check is one readiness check as /readyz reports it.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

type server struct {
	Deps
	log       *slog.Logger
	heartbeat time.Duration
	stopped   <-chan struct{}
	client    clientAddr
	// tokenStreams are the live streams open on this node, by token, so
	// that revoking a token ends them at once (tokens.go).
	tokenStreams *tokenStreams
	// tokens are the tokens verified lately (tokencache.go).
	tokens *tokenCache
	// authFails, streams and costly enforce Quotas (ratelimit.go).
	authFails *authFailures
	// roomGuard budgets failed room code attempts by player and by node
	// (roomguard.go).
	roomGuard *roomGuard
	streams   *inFlight
	costly    *inFlight
	// tickets are the stream tickets issued and not yet redeemed (ticket.go).
	tickets streamTickets
	// routeContexts recycles chi's routing contexts, as chi's own Mux
	// does for the requests it starts (middleware.go).
	routeContexts sync.Pool
	// buffers recycles the buffers answers are written from (*[]byte).
	buffers sync.Pool
}

// NewServer returns the HTTP handler of API v1.
func NewServer(d Deps) http.Handler {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.RateWindow <= 0 {
		d.RateWindow = time.Second
	}
	if d.Ready == nil {
		d.Ready = func(context.Context) []Check { return nil }
	}
	if d.Observer == nil {
		d.Observer = noObserver{}
	}
	if d.Tickets == nil {
		d.Tickets = NewMemoryTickets()
	}
	d.Quotas = d.Quotas.withDefaults()
	s := &server{Deps: d, authFails: newAuthFailures(d.Quotas.AuthFailuresPerMinute), roomGuard: newRoomGuard(d.Quotas.RoomFailuresPerMinute, d.Quotas.RoomFailuresPerNodePerMinute),
		streams: newInFlight(d.Quotas.StreamsPerPlayer), costly: newInFlight(d.Quotas.CostlyReads), log: d.Logger, heartbeat: d.Heartbeat, stopped: stopSignal(d.Stop), tokenStreams: newTokenStreams(),
		client: clientAddr{trusted: d.TrustedProxies}, tickets: streamTickets{store: d.Tickets}}
	s.routeContexts.New = func() any { return chi.NewRouteContext() }
	s.buffers.New = newBuffer
	if s.heartbeat <= 0 {
		s.heartbeat = defaultHeartbeat
	}
	if d.TokenCacheFor == 0 {
		d.TokenCacheFor = DefaultTokenCacheFor
	}
	s.tokens = newTokenCache(d.TokenCacheFor)
	if d.Revocations != nil {
		if stop, err := d.Revocations.Listen(s.revoked); err != nil {
			s.log.Warn("token revocations from other nodes: their streams end at the next heartbeat", "err", err)
		} else {
			go func() { <-s.stopped; stop() }()
		}
	}

	r := chi.NewRouter()
	if d.Tracer != nil {
		r.Use(s.traceRequests(d.Tracer))
	}
	r.Use(middleware.Recoverer)
	r.Use(corsPolicy(d.CORSOrigins))
	gz, err := compress()
	if err != nil {
		panic(fmt.Sprintf("api: %v", err)) // fixed options: a programming error
	}
	r.Use(gz)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		if d.Web != nil && r.URL.Path != "/v1" && !strings.HasPrefix(r.URL.Path, "/v1/") {
			d.Web.ServeHTTP(w, r)
			return
		}
		s.writeError(w, r, problem(http.StatusNotFound, "not_found", "no such resource"))
	})
	root := r
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		// RFC 9110, 15.5.6: a 405 names the methods the resource has.
		allowed := allowedMethods(root, r)
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		s.writeError(w, r, problem(http.StatusMethodNotAllowed, "method_not_allowed",
			fmt.Sprintf("%s is not allowed here; allowed: %s", r.Method, strings.Join(allowed, ", "))))
	})

	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	if d.Metrics != nil {
		r.Method(http.MethodGet, "/metrics", d.Metrics)
	}
	if d.OpenAPI != nil {
		spec := specHandler(d.OpenAPI)
		r.Method(http.MethodGet, "/openapi.yaml", spec)
		r.Method(http.MethodHead, "/openapi.yaml", spec)
	}
	r.Route("/v1", func(r chi.Router) {
		r.Use(s.singleValuedQuery)
		r.Use(s.requestDeadline)
		r.With(s.limitBy(s.keyByClient), s.quota("registrations", d.Quotas.RegistrationsPerMinute, time.Minute, "registrations from this address", s.keyByClient)).
			Post("/players", s.createPlayer)
		r.Group(func(r chi.Router) {
			r.Use(s.authenticate)
			r.Use(s.limitBy(keyByCaller))
			openQuota := s.quota("tables", d.Quotas.TablesPerHour, time.Hour, "tables opened or quick plays by this caller", keyByCaller)
			r.With(openQuota).Post("/tables", s.openTable)
			s.lobbyRoutes(r, openQuota)
			s.tokenRoutes(r)
			r.Get("/rooms/{code}", s.getRoom)
			r.Get("/tables/{id}", s.getTable)
			r.Post("/tables/{id}/join", s.joinTable)
			r.Post("/tables/{id}/watchers", s.addWatcher)
			r.Delete("/tables/{id}/watchers/{playerID}", s.removeWatcher)
			r.With(s.limitInFlight(s.costly, "/legal or /export requests")).Get("/tables/{id}/legal", s.legalActions)
			r.Post("/tables/{id}/actions", s.postAction)
			r.Get("/tables/{id}/events", s.listEvents)
			r.With(s.limitInFlight(s.costly, "/legal or /export requests")).Get("/tables/{id}/export", s.exportTable)
			r.Get("/tables/{id}/state", s.tableAt)
			r.Post("/tables/{id}/stream-tickets", s.issueStreamTicket)
			s.projectionRoutes(r)
			s.ratingRoutes(r)
			s.tournamentRoutes(r, openQuota)
		})
		// A browser's EventSource sends no Authorization: /stream also
		// takes a stream ticket in its URL (ticket.go).
		r.Group(func(r chi.Router) {
			r.Use(s.authenticateStream)
			r.Use(s.limitBy(keyByCaller))
			r.Get("/tables/{id}/stream", s.streamEvents)
		})
	})
	return s.front(r)
}

// allowedMethods lists the methods routes answers at r's path. chi knows
// them when it calls the 405 handler but hands them only to its own default
// handler, so they are asked of the router again.
func allowedMethods(routes chi.Routes, r *http.Request) []string {
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions} {
		if routes.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
		}
	}
	return out
}

// limitBy limits requests per key to RateLimit per RateWindow (the
// "requests" policy of the RateLimit header fields, ratelimit.go).
func (s *server) limitBy(key httprate.KeyFunc) func(http.Handler) http.Handler {
	if s.RateLimit <= 0 {
		return func(next http.Handler) http.Handler { return next }
	}
	return s.policy("requests", s.RateLimit, s.RateWindow, key,
		fmt.Sprintf("more than %d requests in %s from this caller; retry after the time in Retry-After", s.RateLimit, s.RateWindow))
}

// keyByClient keys registration by the client's address: the peer's, or
// behind a trusted reverse proxy the one it forwarded (TrustedProxies).
func (s *server) keyByClient(r *http.Request) (string, error) {
	return "peer:" + httprate.CanonicalizeIP(s.client.of(r)), nil
}

// keyByCaller keys the rate limit by the authenticated player (or the
// auditor), so that one token's burst does not slow the others.
func keyByCaller(r *http.Request) (string, error) {
	// The key is made once a request: the rate limit and the in-flight
	// limits each ask for it.
	st := stateOf(r.Context())
	if st != nil && st.callerKey != "" {
		return st.callerKey, nil
	}
	c := callerOf(r.Context())
	key := "auditor"
	if !c.auditor {
		key = "player:" + c.playerID
	}
	if st != nil {
		st.callerKey = key
	}
	return key, nil
}

func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readiness is the body of /readyz, ready or not.
type readiness struct {
	Status string  `json:"status"`
	Checks []Check `json:"checks"`
}

func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	checks := s.Ready(r.Context())
	if checks == nil {
		checks = []Check{}
	}
	for _, c := range checks {
		if !c.OK {
			s.log.WarnContext(r.Context(), "not ready", slog.String("check", c.Name), slog.String("detail", c.Detail))
			writeJSON(w, http.StatusServiceUnavailable, readiness{Status: "not_ready", Checks: checks})
			return
		}
	}
	writeJSON(w, http.StatusOK, readiness{Status: "ready", Checks: checks})
}
