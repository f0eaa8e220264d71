package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"paiju/api"
	"paiju/internal/app"
	"paiju/natsbus"

	"github.com/dustin/go-humanize"
)

// addHTTPTimeouts adds the flags of app.HTTPTimeouts; parse finishes them after
// fs.Parse.
func addHTTPTimeouts(fs *flag.FlagSet, getenv func(string) string, c *app.HTTPTimeouts) (parse func() error) {
	header, whole, request := app.DefaultReadHeader.String(), app.DefaultRead.String(), app.DefaultRequest.String()
	str(fs, getenv, &header, "read-header-timeout", header, "how long a client may take to send a request's line and headers")
	str(fs, getenv, &whole, "read-timeout", whole, "how long a client may take to send a whole request, body included (event streams are exempt once open)")
	str(fs, getenv, &request, "request-timeout", request, "how long the server works on a request (event streams excepted) before it answers 503 request_timeout, e.g. while its store does not answer; 0 waits as long as the client does")
	return func() error {
		v, err := time.ParseDuration(request)
		if err != nil || v < 0 || v > time.Hour {
			return fmt.Errorf("serve: --request-timeout %q: want a duration from 0 up to 1h", request)
		}
		c.Request = v
		for _, d := range []struct {
			name, val string
			to        *time.Duration
		}{{"read-header-timeout", header, &c.ReadHeader}, {"read-timeout", whole, &c.Read}} {
			v, err := time.ParseDuration(d.val)
			if err != nil || v <= 0 || v > time.Hour {
				return fmt.Errorf("serve: --%s %q: want a duration above 0 and up to 1h", d.name, d.val)
			}
			*d.to = v
		}
		if c.ReadHeader > c.Read {
			return fmt.Errorf("serve: --read-header-timeout %s is longer than --read-timeout %s", c.ReadHeader, c.Read)
		}
		return nil
	}
}

// addObserve adds the flags of app.Observe; parse finishes them after
// fs.Parse.
func addObserve(fs *flag.FlagSet, getenv func(string) string, c *app.Observe) (parse func() error) {
	str(fs, getenv, &c.MetricsAddr, "metrics-addr", "", "if set, serve /metrics on this address instead of the API's")
	str(fs, getenv, &c.OTLPEndpoint, "otlp-endpoint", "", "OTLP/HTTP collector URL for traces (e.g. http://localhost:4318); empty turns tracing off")
	maxLag, grace, drain := strconv.Itoa(app.DefaultReadyMaxLag), app.DefaultReadyLagGrace.String(), app.DefaultDrain.String()
	str(fs, getenv, &maxLag, "ready-max-lag", maxLag, "events a projection may lag behind the store before /readyz fails (after --ready-lag-grace)")
	str(fs, getenv, &grace, "ready-lag-grace", grace, "how long a projection may lag beyond --ready-max-lag before /readyz fails")
	str(fs, getenv, &drain, "drain", drain, "on SIGTERM, how long /readyz answers 503 while requests are still served, before the listener closes")
	return func() error {
		n, err := strconv.ParseInt(maxLag, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("serve: --ready-max-lag %q: want an integer ≥ 0", maxLag)
		}
		c.ReadyMaxLag = n
		for _, d := range []struct {
			name, val string
			to        *time.Duration
		}{{"ready-lag-grace", grace, &c.ReadyLagGrace}, {"drain", drain, &c.Drain}} {
			v, err := time.ParseDuration(d.val)
			if err != nil || v < 0 || v > time.Hour {
				return fmt.Errorf("serve: --%s %q: want a duration from 0 to 1h", d.name, d.val)
			}
			*d.to = v
		}
		return nil
	}
}

// envName is the environment variable of a flag: --nats-url is PAIJU_NATS_URL.
func envName(flagName string) string {
	return "PAIJU_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// flagSet returns a flag set whose defaults come from the environment.
func flagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func str(fs *flag.FlagSet, getenv func(string) string, p *string, name, def, help string) {
	if v := getenv(envName(name)); v != "" {
		def = v
	}
	fs.StringVar(p, name, def, help+" (env "+envName(name)+")")
}

func addCommon(fs *flag.FlagSet, getenv func(string) string, c *app.Common) {
	str(fs, getenv, &c.Data, "data", "./data", "data directory: database, chain head, embedded NATS store")
	str(fs, getenv, &c.LogLevel, "log-level", "info", "log level: debug, info, warn, error")
	str(fs, getenv, &c.LogFormat, "log-format", "text", "log format: text or json")
	str(fs, getenv, &c.Sync, "sync", "FULL", "SQLite synchronous mode: FULL (durable on power loss) or NORMAL")
	str(fs, getenv, &c.Store, "store", "", "event store: empty for SQLite in the data directory, or a postgres:// URL (a cluster's shared store)")
}

// addNATS adds --nats-url and the credentials of an external server; the
// returned function reads the password file and checks them once parsed.
func addNATS(fs *flag.FlagSet, getenv func(string) string, c *app.NATSConfig, urlHelp string) (resolve func() error) {
	var passwordFile string
	str(fs, getenv, &c.URL, "nats-url", "", urlHelp)
	str(fs, getenv, &c.Auth.Creds, "nats-creds", "", "NATS credentials file (user JWT and nkey seed) for --nats-url")
	str(fs, getenv, &c.Auth.NKeySeed, "nats-nkey", "", "file holding a NATS user nkey seed for --nats-url")
	str(fs, getenv, &c.Auth.User, "nats-user", "", "NATS user name for --nats-url")
	str(fs, getenv, &c.Auth.Password, "nats-password", "", "NATS password for --nats-user (prefer the file or the environment: flags show in ps)")
	str(fs, getenv, &passwordFile, "nats-password-file", "", "file holding the NATS password (surrounding whitespace trimmed)")
	str(fs, getenv, &c.Auth.TLSCA, "nats-tls-ca", "", "PEM file of the CAs that sign the NATS server's certificate")
	str(fs, getenv, &c.Auth.TLSCert, "nats-tls-cert", "", "PEM client certificate for a NATS server that verifies clients")
	str(fs, getenv, &c.Auth.TLSKey, "nats-tls-key", "", "PEM key of --nats-tls-cert")
	str(fs, getenv, &c.Cluster, "cluster", "", "name of this deployment on NATS (letters, digits, - and _): its stream, subjects, consumers and buckets carry it, so deployments sharing a NATS never touch each other's; empty keeps the unnamed deployment's names (PAIJU_EVENTS, paiju.events.>)")
	return func() error {
		ns, err := natsbus.NewNamespace(c.Cluster)
		if err != nil {
			return fmt.Errorf("--cluster: %w", err)
		}
		c.NS = ns
		if passwordFile != "" {
			if c.Auth.Password != "" {
				return errors.New("give --nats-password or --nats-password-file, not both")
			}
			p, err := readSecret(passwordFile)
			if err != nil {
				return fmt.Errorf("--nats-password-file: %w", err)
			}
			c.Auth.Password = p
		}
		if c.URL == "" && !c.Auth.IsZero() {
			return errors.New("NATS credentials and TLS settings are for an external server: give --nats-url too (the embedded one is in-process only)")
		}
		_, err = c.Auth.Options()
		return err
	}
}

// addStreamLimits adds the limits of the stream serve configures; the
// returned function parses and checks them.
func addStreamLimits(fs *flag.FlagSet, getenv func(string) string, l *natsbus.StreamLimits) (resolve func() error) {
	var maxAge, maxBytes, replicas string
	str(fs, getenv, &maxAge, "nats-max-age", "72h", "how long the NATS stream keeps an event (a Go duration, at least 2m; 0 keeps them for ever); the store keeps every event")
	str(fs, getenv, &maxBytes, "nats-max-bytes", "1GiB", "how much the NATS stream may hold before its oldest events are dropped (e.g. 512MiB; 0 is no limit)")
	str(fs, getenv, &replicas, "nats-replicas", "1", "how many servers of a NATS cluster hold the stream and the deployment's key-value buckets (1 to 5; 3 survives the loss of one)")
	return func() error {
		r, err := strconv.Atoi(replicas)
		if err != nil || r < 1 || r > 5 {
			return fmt.Errorf("--nats-replicas %q: want 1 to 5", replicas)
		}
		d, err := time.ParseDuration(maxAge)
		if err != nil {
			return fmt.Errorf("--nats-max-age %q: want a Go duration such as 72h", maxAge)
		}
		n, err := humanize.ParseBytes(maxBytes)
		if err != nil || n > math.MaxInt64 {
			return fmt.Errorf("--nats-max-bytes %q: want a size such as 1GiB or 500MB", maxBytes)
		}
		*l = natsbus.StreamLimits{MaxAge: d, MaxBytes: int64(n), Replicas: r}
		if err := l.Validate(); err != nil {
			return fmt.Errorf("--nats-max-age, --nats-max-bytes: %w", err)
		}
		return nil
	}
}

// readSecret reads a token or password from a file, without the newline an
// editor or "echo" leaves.
func readSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// parsePrefixes reads comma-separated CIDRs; a bare address is its own /32
// or /128.
func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("%q: want a CIDR such as 10.0.0.0/8 or an address", f)
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("%q: want a CIDR such as 10.0.0.0/8 or an address", f)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// parseOrigins reads comma-separated browser origins: scheme://host[:port]
// with no path (an origin never has one, and a trailing slash would match
// nothing), at most one * in the host, or * alone for any origin.
func parseOrigins(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if f == "*" {
			out = append(out, f)
			continue
		}
		scheme, host, ok := strings.Cut(f, "://")
		if !ok || (scheme != "http" && scheme != "https") || host == "" || strings.ContainsAny(host, "/?#@ ") || strings.Count(host, "*") > 1 {
			return nil, fmt.Errorf("%q: want an origin such as https://play.example.com (no path), https://*.example.com or *", f)
		}
		out = append(out, strings.ToLower(f))
	}
	return out, nil
}

// addQuotas adds the flags of api.Quotas (docs/OPERATIONS.md, Quotas); parse
// finishes them after fs.Parse.
func addQuotas(fs *flag.FlagSet, getenv func(string) string, q *api.Quotas) (parse func() error) {
	d := api.DefaultQuotas
	flags := []struct {
		name, help string
		p          *int
		min, max   int
		v          string
	}{
		{"quota-tables-per-hour", "tables one player may open per hour; -1 is no limit", &q.TablesPerHour, -1, math.MaxInt, strconv.Itoa(d.TablesPerHour)},
		{"quota-registrations-per-minute", "players one address may register per minute; -1 is no limit", &q.RegistrationsPerMinute, -1, math.MaxInt, strconv.Itoa(d.RegistrationsPerMinute)},
		{"quota-auth-failures-per-minute", "failed authentications one address may make per minute before it gets 429; -1 is no limit", &q.AuthFailuresPerMinute, -1, math.MaxInt, strconv.Itoa(d.AuthFailuresPerMinute)},
		{"quota-streams-per-player", "live /stream responses one caller may hold open at once; -1 is no limit", &q.StreamsPerPlayer, -1, math.MaxInt, strconv.Itoa(d.StreamsPerPlayer)},
		{"quota-events-page", "most events one /events answer holds (1 to 1000)", &q.EventsPage, 1, api.MaxEventsPage, strconv.Itoa(d.EventsPage)},
		{"quota-costly-reads", "/legal and /export requests one caller may have running at once; -1 is no limit", &q.CostlyReads, -1, math.MaxInt, strconv.Itoa(d.CostlyReads)},
		{"quota-room-failures-per-minute", "failed room code attempts one player may make per minute before a lockout of a minute that doubles with each further one in the hour; -1 is no limit", &q.RoomFailuresPerMinute, -1, math.MaxInt, strconv.Itoa(d.RoomFailuresPerMinute)},
		{"quota-room-failures-per-node-per-minute", "failed room code attempts this node hears per minute from everyone together; past it, players who failed lately wait; -1 is no limit", &q.RoomFailuresPerNodePerMinute, -1, math.MaxInt, strconv.Itoa(d.RoomFailuresPerNodePerMinute)},
	}
	for i := range flags {
		str(fs, getenv, &flags[i].v, flags[i].name, flags[i].v, flags[i].help)
	}
	return func() error {
		for _, f := range flags {
			n, err := strconv.Atoi(f.v)
			if err != nil || n < f.min || n > f.max || n == 0 {
				return fmt.Errorf("serve: --%s %q: want an integer from %d to %d, not 0", f.name, f.v, f.min, f.max)
			}
			*f.p = n
		}
		return nil
	}
}
