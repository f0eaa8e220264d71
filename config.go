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
	Data     string
	LogLevel string
	Sync     string
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
	if err := fs.Parse(args); err != nil {
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
