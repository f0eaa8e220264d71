package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// commonConfig is what every command needs.
type commonConfig struct {
	Data      string
	LogLevel  string
	LogFormat string // text or json
	Sync      string
}

// serveConfig configures paiju serve.
type serveConfig struct {
	commonConfig
	Addr         string
	NATSURL      string
	AuditorToken string
	RateLimit    int
	DebugAddr    string
	TimeZone     string // leaderboard periods; "" is projections.DefaultLocation
	Projector    string // "" or "in-process", or "external" (paiju project)
	BotDelay     time.Duration
	observeConfig
}

// observeConfig is metrics, tracing, readiness and drain (docs/OPERATIONS.md).
type observeConfig struct {
	MetricsAddr   string // "" serves /metrics on the API's address
	OTLPEndpoint  string // "" turns tracing off
	ReadyMaxLag   int64
	ReadyLagGrace time.Duration
	Drain         time.Duration
}

// addObserve adds the flags of observeConfig; parse finishes them after
// fs.Parse.
func addObserve(fs *flag.FlagSet, getenv func(string) string, c *observeConfig) (parse func() error) {
	str(fs, getenv, &c.MetricsAddr, "metrics-addr", "", "if set, serve /metrics on this address instead of the API's")
	str(fs, getenv, &c.OTLPEndpoint, "otlp-endpoint", "", "OTLP/HTTP collector URL for traces (e.g. http://localhost:4318); empty turns tracing off")
	maxLag, grace, drain := "1000", "30s", "5s"
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

func (c commonConfig) dbPath() string   { return filepath.Join(c.Data, "paiju.db") }
func (c commonConfig) headPath() string { return filepath.Join(c.Data, "chain-head") }
func (c commonConfig) natsDir() string  { return filepath.Join(c.Data, "nats") }

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

func addCommon(fs *flag.FlagSet, getenv func(string) string, c *commonConfig) {
	str(fs, getenv, &c.Data, "data", "./data", "data directory: database, chain head, embedded NATS store")
	str(fs, getenv, &c.LogLevel, "log-level", "info", "log level: debug, info, warn, error")
	str(fs, getenv, &c.LogFormat, "log-format", "text", "log format: text or json")
	str(fs, getenv, &c.Sync, "sync", "FULL", "SQLite synchronous mode: FULL (durable on power loss) or NORMAL")
}

func parseServe(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	var c serveConfig
	fs := flagSet("serve", stderr)
	addCommon(fs, getenv, &c.commonConfig)
	str(fs, getenv, &c.Addr, "addr", "127.0.0.1:8080", "HTTP listen address")
	str(fs, getenv, &c.NATSURL, "nats-url", "", "external NATS server URL; empty starts an embedded server")
	str(fs, getenv, &c.AuditorToken, "auditor-token", "", "bearer token that reads every table in full; empty disables it")
	str(fs, getenv, &c.DebugAddr, "debug-addr", "", "if set, serve Go's profiler (net/http/pprof) on this address; keep it on loopback")
	// Empty defaults (resolved in serve) keep the zero config the default.
	str(fs, getenv, &c.TimeZone, "time-zone", "", "IANA time zone bounding leaderboard days, weeks and months; empty is Asia/Shanghai")
	str(fs, getenv, &c.Projector, "projector", "", `where projections are built: "in-process" (empty) or "external" (a separate "paiju project")`)
	botDelay := "300ms"
	str(fs, getenv, &botDelay, "bot-delay", botDelay, "how long a bot or a delegated seat (托管) thinks before it plays (a Go duration, 0 to 1m)")
	rate := "100"
	str(fs, getenv, &rate, "rate-limit", rate, "requests per second one token (or one IP registering players) may make; 0 disables the limit")
	parseObserve := addObserve(fs, getenv, &c.observeConfig)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if err := parseObserve(); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("serve: unexpected arguments %q", fs.Args())
	}
	n, err := strconv.Atoi(rate)
	if err != nil || n < 0 {
		return c, fmt.Errorf("serve: --rate-limit %q: want an integer ≥ 0", rate)
	}
	c.RateLimit = n
	d, err := time.ParseDuration(botDelay)
	if err != nil || d < 0 || d > time.Minute {
		return c, fmt.Errorf("serve: --bot-delay %q: want a duration from 0 to 1m", botDelay)
	}
	c.BotDelay = d
	return c, nil
}
