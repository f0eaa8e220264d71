package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"paiju/internal/app"
	"paiju/natsbus"
)

func parseServe(args []string, getenv func(string) string, stderr io.Writer) (app.Config, error) {
	var c app.Config
	fs := flagSet("serve", stderr)
	addCommon(fs, getenv, &c.Common)
	str(fs, getenv, &c.Addr, "addr", "127.0.0.1:8080", "HTTP listen address")
	resolveNATS := addNATS(fs, getenv, &c.NATS, "external NATS server URL; empty starts an embedded server reachable only in-process")
	resolveLimits := addStreamLimits(fs, getenv, &c.NATS.Limits)
	str(fs, getenv, &c.AuditorToken, "auditor-token", "", "bearer token that reads every table in full; empty disables it (prefer --auditor-token-file: flags show in ps)")
	var tokenFile, proxies, origins string
	str(fs, getenv, &tokenFile, "auditor-token-file", "", "file holding the auditor token (surrounding whitespace trimmed)")
	str(fs, getenv, &proxies, "trusted-proxies", "", "comma-separated CIDRs of reverse proxies whose X-Forwarded-For gives the client address (rate limits, logs)")
	str(fs, getenv, &origins, "cors-origins", "", "comma-separated origins whose web apps may call the API from a browser (https://play.example.com; one * wildcard, or * for any); empty sends no CORS headers")
	str(fs, getenv, &c.DebugAddr, "debug-addr", "", "if set, serve Go's profiler (net/http/pprof) on this address; keep it on loopback")
	// Empty defaults (resolved in serve) keep the zero config the default.
	str(fs, getenv, &c.TimeZone, "time-zone", "", "IANA time zone bounding leaderboard days, weeks and months; empty is Asia/Shanghai")
	str(fs, getenv, &c.Projector, "projector", "", `where projections are built: "in-process" (empty) or "external" (a separate "paiju project")`)
	leaseTTL := natsbus.DefaultLeaseTTL.String()
	str(fs, getenv, &leaseTTL, "lease-ttl", leaseTTL, "with --nats-url, how long the relay's lease outlives a node that died without releasing it (1s to 5m): the longest a deployment waits for another node to relay; fixed when the deployment's leases bucket is created")
	anchorEvery := "5s"
	str(fs, getenv, &anchorEvery, "anchor-interval", anchorEvery, "with --nats-url, how often the node running the relay records the store's head as the chain anchor in NATS (100ms to 1h)")
	webDefault := true
	if v := getenv(envName("web")); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("serve: %s=%q: want true or false", envName("web"), v)
		}
		webDefault = b
	}
	fs.BoolVar(&c.Web, "web", webDefault, "serve the web app (play, watch, replay, verify) at /; --web=false leaves only the API (env "+envName("web")+")")
	botDelay := app.DefaultBotDelay.String()
	str(fs, getenv, &botDelay, "bot-delay", botDelay, "how long a bot or a delegated seat (托管) thinks before it plays (a Go duration, 0 to 1m)")
	rate := strconv.Itoa(app.DefaultRateLimit)
	str(fs, getenv, &rate, "rate-limit", rate, "requests per second one token (or one IP registering players) may make; 0 disables the limit")
	parseObserve := addObserve(fs, getenv, &c.Observe)
	parseTimeouts := addHTTPTimeouts(fs, getenv, &c.HTTPTimeouts)
	parseQuotas := addQuotas(fs, getenv, &c.Quotas)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if err := parseTimeouts(); err != nil {
		return c, err
	}
	if err := parseObserve(); err != nil {
		return c, err
	}
	if err := parseQuotas(); err != nil {
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
	if c.AnchorEvery, err = time.ParseDuration(anchorEvery); err != nil || c.AnchorEvery < 100*time.Millisecond || c.AnchorEvery > time.Hour {
		return c, fmt.Errorf("serve: --anchor-interval %q: want a duration from 100ms to 1h", anchorEvery)
	}
	if c.LeaseTTL, err = time.ParseDuration(leaseTTL); err != nil || c.LeaseTTL < time.Second || c.LeaseTTL > 5*time.Minute {
		return c, fmt.Errorf("serve: --lease-ttl %q: want a duration from 1s to 5m", leaseTTL)
	}
	if tokenFile != "" {
		if c.AuditorToken != "" {
			return c, errors.New("serve: give --auditor-token or --auditor-token-file, not both")
		}
		if c.AuditorToken, err = readSecret(tokenFile); err != nil {
			return c, fmt.Errorf("serve: --auditor-token-file: %w", err)
		}
		if c.AuditorToken == "" {
			return c, fmt.Errorf("serve: --auditor-token-file %s is empty", tokenFile)
		}
	}
	if c.TrustedProxies, err = parsePrefixes(proxies); err != nil {
		return c, fmt.Errorf("serve: --trusted-proxies: %w", err)
	}
	if c.CORSOrigins, err = parseOrigins(origins); err != nil {
		return c, fmt.Errorf("serve: --cors-origins: %w", err)
	}
	if err := resolveNATS(); err != nil {
		return c, fmt.Errorf("serve: %w", err)
	}
	if err := resolveLimits(); err != nil {
		return c, fmt.Errorf("serve: %w", err)
	}
	if c.NATS.URL == "" && c.NATS.Limits.Replicas > 1 {
		return c, errors.New("serve: --nats-replicas above 1 is for a NATS cluster (--nats-url): the embedded server is one")
	}
	return c, nil
}

// runServe runs the HTTP API until ctx ends.
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseServe(args, getenv, stderr)
	if err != nil {
		return err
	}
	if cfg.Logger, err = cfg.Common.Logger(stderr); err != nil {
		return err
	}
	cfg.OpenAPI = OpenAPI
	return app.Serve(ctx, cfg)
}
