package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func TestMigrateThenVerifyEmpty(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	env := func(string) string { return "" }
	if err := run(context.Background(), []string{"migrate", "--data", dir}, env, &out, &out); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "schema up to date") {
		t.Fatalf("migrate said %q", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"verify", "--data", dir}, env, &out, &out); err != nil {
		t.Fatalf("verify of an empty store: %v\n%s", err, out.String())
	}
}

// TestFlagsFromEnvironment: every serve flag can come from PAIJU_*; a flag on
// the command line wins.
func TestFlagsFromEnvironment(t *testing.T) {
	env := map[string]string{
		"PAIJU_ADDR":          "127.0.0.1:9999",
		"PAIJU_DATA":          "/srv/paiju",
		"PAIJU_NATS_URL":      "nats://127.0.0.1:4222",
		"PAIJU_AUDITOR_TOKEN": "tok",
		"PAIJU_LOG_LEVEL":     "debug",
		"PAIJU_SYNC":          "NORMAL",
		"PAIJU_RATE_LIMIT":    "7",
		"PAIJU_BOT_DELAY":     "50ms",
		// observability (docs/OPERATIONS.md)
		"PAIJU_LOG_FORMAT":      "json",
		"PAIJU_METRICS_ADDR":    "127.0.0.1:9090",
		"PAIJU_OTLP_ENDPOINT":   "http://127.0.0.1:4318",
		"PAIJU_READY_MAX_LAG":   "50",
		"PAIJU_READY_LAG_GRACE": "10s",
		"PAIJU_DRAIN":           "2s",
	}
	var stderr bytes.Buffer
	c, err := parseServe([]string{"--addr", "127.0.0.1:7777"}, func(k string) string { return env[k] }, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	want := serveConfig{commonConfig: commonConfig{Data: "/srv/paiju", LogLevel: "debug", Sync: "NORMAL", LogFormat: "json"}, Addr: "127.0.0.1:7777", NATSURL: "nats://127.0.0.1:4222", AuditorToken: "tok", RateLimit: 7, BotDelay: 50 * time.Millisecond,
		observeConfig: observeConfig{MetricsAddr: "127.0.0.1:9090", OTLPEndpoint: "http://127.0.0.1:4318", ReadyMaxLag: 50, ReadyLagGrace: 10 * time.Second, Drain: 2 * time.Second}}
	if c != want {
		t.Fatalf("config %+v, want %+v", c, want)
	}
	d, err := parseServe(nil, func(string) string { return "" }, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if d.Addr != "127.0.0.1:8080" || d.Data != "./data" || d.NATSURL != "" || d.Sync != "FULL" || d.LogLevel != "info" || d.RateLimit != 100 || d.BotDelay != 300*time.Millisecond {
		t.Fatalf("defaults %+v", d)
	}
	if d.LogFormat != "text" || d.observeConfig != (observeConfig{ReadyMaxLag: 1000, ReadyLagGrace: 30 * time.Second, Drain: 5 * time.Second}) {
		t.Fatalf("observability defaults %+v %+v", d.LogFormat, d.observeConfig)
	}
}

func TestUnknownCommandAndBadFlags(t *testing.T) {
	var out bytes.Buffer
	env := func(string) string { return "" }
	if err := run(context.Background(), []string{"dance"}, env, &out, &out); err == nil {
		t.Fatal("an unknown command succeeded")
	}
	if err := run(context.Background(), []string{"serve", "--log-level", "loud", "--data", t.TempDir()}, env, &out, &out); err == nil || !strings.Contains(err.Error(), "log level") {
		t.Fatalf("bad log level: %v", err)
	}
}
