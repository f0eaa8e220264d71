package app

import (
	"log/slog"
	"net/netip"
	"path/filepath"
	"time"

	"go.opentelemetry.io/otel/trace"

	"paiju/api"
	"paiju/domain/table"
	"paiju/natsbus"
	"paiju/service"
)

// Common is what every command needs.
type Common struct {
	Data string
	// Store is the event store's URL: empty for the SQLite database in the
	// data directory, postgres://… for a PostgreSQL database shared by
	// every node of a cluster.
	Store     string
	LogLevel  string
	LogFormat string // text or json
	Sync      string
}

// The defaults of paiju serve: its flags start from them, and so does the
// tests' server (apptest), so that a test runs what an operator gets
// unless it says otherwise.
const (
	DefaultReadHeader    = 10 * time.Second       // HTTPTimeouts.ReadHeader
	DefaultRead          = 30 * time.Second       // HTTPTimeouts.Read
	DefaultRequest       = 10 * time.Second       // HTTPTimeouts.Request
	DefaultReadyMaxLag   = 1000                   // Observe.ReadyMaxLag
	DefaultReadyLagGrace = 30 * time.Second       // Observe.ReadyLagGrace
	DefaultDrain         = 5 * time.Second        // Observe.Drain
	DefaultBotDelay      = 300 * time.Millisecond // Config.BotDelay
	DefaultRateLimit     = 100                    // Config.RateLimit
)

// Config configures paiju serve.
type Config struct {
	Common
	Addr         string
	NATS         NATSConfig
	AuditorToken string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed for the client's address.
	TrustedProxies []netip.Prefix
	RateLimit      int
	DebugAddr      string
	TimeZone       string // leaderboard periods; "" is projections.DefaultLocation
	Projector      string // "" or "in-process", or "external" (paiju project)
	// AnchorEvery is how often the relay's node records the chain anchor
	// (with --nats-url).
	AnchorEvery time.Duration
	// LeaseTTL is how long a dead node keeps the relay's lease (with
	// --nats-url), when this node creates the leases bucket.
	LeaseTTL time.Duration
	BotDelay time.Duration
	Quotas   api.Quotas
	// CORSOrigins are the browser origins allowed to call the API.
	CORSOrigins []string
	// Web serves the embedded web app at / (--web, on by default).
	Web bool
	// OpenAPI is the contract served at /openapi.yaml; nil serves none.
	OpenAPI []byte
	Observe
	HTTPTimeouts
	// Logger receives the server's logs; nil discards them.
	Logger *slog.Logger
	// Inputs replace the server's sources of time, randomness and
	// identifiers; the zero value is the real ones.
	Inputs Inputs
}

// Inputs are what a server takes from outside besides requests: its clock,
// its deal seeds and its identifiers (DESIGN.md, "Time, randomness and bots
// are inputs"). Tests fix them to make a run reproducible.
type Inputs struct {
	// Clock stamps commands and the store's recorded times; nil is the
	// system clock.
	Clock service.Clock
	// Seeds are the deal seeds; nil draws them from crypto/rand.
	Seeds table.SeedSource
	// TableIDs names new tables and tournaments; nil makes ULIDs.
	TableIDs service.IDs
	// PlayerIDs names new players; nil makes ULIDs.
	PlayerIDs func() string
	// ManualClock leaves the turn clocks and bots to whoever holds the
	// Service (Service().RunDue): Run does not start them.
	ManualClock bool
	// API, if set, adjusts the HTTP API's dependencies before the handler
	// is built.
	API func(*api.Deps)
}

// now is the store's clock: Clock's, or nil for the system's.
func (in Inputs) now() func() time.Time {
	if in.Clock == nil {
		return nil
	}
	return in.Clock.Now
}

// httpTimeouts bound how long a client may take to send a request, so that
// a body trickled a byte at a time cannot hold a connection (and a file
// descriptor) open. Only reads are bounded: a write timeout would cut the
// event streams (/stream), which write for as long as the client listens.
type HTTPTimeouts struct {
	ReadHeader time.Duration // the request line and headers
	Read       time.Duration // the whole request, body included
	// Request bounds how long the server works on one request (live
	// streams excepted) before it answers 503 request_timeout; 0: no bound.
	Request time.Duration
}

// Observe is metrics, tracing, readiness and drain (docs/OPERATIONS.md).
type Observe struct {
	MetricsAddr   string // "" serves /metrics on the API's address
	OTLPEndpoint  string // "" turns tracing off
	ReadyMaxLag   int64
	ReadyLagGrace time.Duration
	Drain         time.Duration
	// Tracer, if set, receives the spans instead of an exporter to
	// OTLPEndpoint (a test keeps them in memory).
	Tracer trace.Tracer
}

func (c Common) DBPath() string   { return filepath.Join(c.Data, "paiju.db") }
func (c Common) HeadPath() string { return filepath.Join(c.Data, "chain-head") }
func (c Common) NATSDir() string  { return filepath.Join(c.Data, "nats") }

// natsConfig is how a command reaches NATS, and for serve the limits of the
// stream it configures.
type NATSConfig struct {
	URL    string
	Auth   natsbus.Auth
	Limits natsbus.StreamLimits
	// Cluster names the deployment on NATS (--cluster); NS is its names.
	Cluster string
	NS      natsbus.Namespace
}
