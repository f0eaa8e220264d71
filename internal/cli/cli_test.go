package cli

import (
	"bytes"
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"paiju/api"
	"paiju/internal/app"
	"paiju/natsbus"
)

func TestMigrateThenVerifyEmpty(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	env := func(string) string { return "" }
	if err := Run(context.Background(), []string{"migrate", "--data", dir}, env, &out, &out); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "schema up to date") {
		t.Fatalf("migrate said %q", out.String())
	}
	out.Reset()
	if err := Run(context.Background(), []string{"verify", "--data", dir}, env, &out, &out); err != nil {
		t.Fatalf("verify of an empty store: %v\n%s", err, out.String())
	}
}

// TestFlagsFromEnvironment: every serve flag can come from PAIJU_*; a flag on
// the command line wins.
func TestFlagsFromEnvironment(t *testing.T) {
	env := map[string]string{
		"PAIJU_ADDR":            "127.0.0.1:9999",
		"PAIJU_DATA":            "/srv/paiju",
		"PAIJU_NATS_URL":        "nats://127.0.0.1:4222",
		"PAIJU_AUDITOR_TOKEN":   "tok",
		"PAIJU_LOG_LEVEL":       "debug",
		"PAIJU_SYNC":            "NORMAL",
		"PAIJU_RATE_LIMIT":      "7",
		"PAIJU_BOT_DELAY":       "50ms",
		"PAIJU_NATS_USER":       "paiju",
		"PAIJU_NATS_PASSWORD":   "pw",
		"PAIJU_NATS_MAX_AGE":    "24h",
		"PAIJU_NATS_REPLICAS":   "3",
		"PAIJU_CLUSTER":         "prod",
		"PAIJU_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1",
		// observability (docs/OPERATIONS.md)
		"PAIJU_LOG_FORMAT":      "json",
		"PAIJU_METRICS_ADDR":    "127.0.0.1:9090",
		"PAIJU_OTLP_ENDPOINT":   "http://127.0.0.1:4318",
		"PAIJU_READY_MAX_LAG":   "50",
		"PAIJU_READY_LAG_GRACE": "10s",
		"PAIJU_DRAIN":           "2s",
		// request read timeouts
		"PAIJU_READ_TIMEOUT":        "20s",
		"PAIJU_READ_HEADER_TIMEOUT": "5s",
		"PAIJU_REQUEST_TIMEOUT":     "3s",
	}
	var stderr bytes.Buffer
	c, err := parseServe([]string{"--addr", "127.0.0.1:7777"}, func(k string) string { return env[k] }, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	prod, err := natsbus.NewNamespace("prod")
	if err != nil {
		t.Fatal(err)
	}
	want := app.Config{Common: app.Common{Data: "/srv/paiju", LogLevel: "debug", Sync: "NORMAL", LogFormat: "json"}, Addr: "127.0.0.1:7777",
		NATS: app.NATSConfig{
			URL:     "nats://127.0.0.1:4222",
			Auth:    natsbus.Auth{User: "paiju", Password: "pw"},
			Limits:  natsbus.StreamLimits{MaxAge: 24 * time.Hour, MaxBytes: 1 << 30, Replicas: 3},
			Cluster: "prod",
			NS:      prod,
		},
		AuditorToken: "tok", RateLimit: 7, BotDelay: 50 * time.Millisecond, AnchorEvery: 5 * time.Second, LeaseTTL: 10 * time.Second, Quotas: api.DefaultQuotas, Web: true,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.1/32")},
		Observe:        app.Observe{MetricsAddr: "127.0.0.1:9090", OTLPEndpoint: "http://127.0.0.1:4318", ReadyMaxLag: 50, ReadyLagGrace: 10 * time.Second, Drain: 2 * time.Second},
		HTTPTimeouts:   app.HTTPTimeouts{ReadHeader: 5 * time.Second, Read: 20 * time.Second, Request: 3 * time.Second}}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("config %+v, want %+v", c, want)
	}
	d, err := parseServe(nil, func(string) string { return "" }, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if d.Addr != "127.0.0.1:8080" || d.Data != "./data" || d.NATS.URL != "" || d.NATS.Limits != (natsbus.StreamLimits{MaxAge: 72 * time.Hour, MaxBytes: 1 << 30, Replicas: 1}) || d.NATS.NS != (natsbus.Namespace{}) || d.TrustedProxies != nil || d.AuditorToken != "" || d.Sync != "FULL" || d.LogLevel != "info" || d.RateLimit != 100 || d.BotDelay != 300*time.Millisecond || d.HTTPTimeouts != (app.HTTPTimeouts{ReadHeader: 10 * time.Second, Read: 30 * time.Second, Request: 10 * time.Second}) {
		t.Fatalf("defaults %+v", d)
	}
	if d.LogFormat != "text" || d.Observe != (app.Observe{ReadyMaxLag: 1000, ReadyLagGrace: 30 * time.Second, Drain: 5 * time.Second}) {
		t.Fatalf("observability defaults %+v %+v", d.LogFormat, d.Observe)
	}
}

func TestUnknownCommandAndBadFlags(t *testing.T) {
	var out bytes.Buffer
	env := func(string) string { return "" }
	if err := Run(context.Background(), []string{"dance"}, env, &out, &out); err == nil {
		t.Fatal("an unknown command succeeded")
	}
	if err := Run(context.Background(), []string{"serve", "--log-level", "loud", "--data", t.TempDir()}, env, &out, &out); err == nil || !strings.Contains(err.Error(), "log level") {
		t.Fatalf("bad log level: %v", err)
	}
}

// Secrets can come from files, so that they never show in ps; a file and
// the value itself together are refused, as are credentials for the
// embedded server, which has no port to protect.
func TestSecretFilesAndNATSFlags(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("  from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pwFile := filepath.Join(dir, "pw")
	if err := os.WriteFile(pwFile, []byte("nats-pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	noEnv := func(string) string { return "" }
	c, err := parseServe([]string{"--auditor-token-file", tokenFile, "--nats-url", "nats://n:4222", "--nats-user", "u", "--nats-password-file", pwFile}, noEnv, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if c.AuditorToken != "from-file" || c.NATS.Auth.Password != "nats-pw" {
		t.Fatalf("token %q and password %q from files, want them trimmed", c.AuditorToken, c.NATS.Auth.Password)
	}
	c, err = parseServe(nil, func(k string) string { return map[string]string{"PAIJU_AUDITOR_TOKEN_FILE": tokenFile}[k] }, &stderr)
	if err != nil || c.AuditorToken != "from-file" {
		t.Fatalf("PAIJU_AUDITOR_TOKEN_FILE: token %q, %v", c.AuditorToken, err)
	}
	bad := []struct {
		args []string
		want string
	}{
		{[]string{"--auditor-token", "x", "--auditor-token-file", tokenFile}, "not both"},
		{[]string{"--auditor-token-file", filepath.Join(dir, "missing")}, "auditor-token-file"},
		{[]string{"--auditor-token-file", empty}, "empty"},
		{[]string{"--nats-user", "u", "--nats-password", "p"}, "--nats-url"},
		{[]string{"--nats-url", "nats://n:4222", "--nats-password", "p", "--nats-password-file", pwFile}, "not both"},
		{[]string{"--nats-url", "nats://n:4222", "--nats-user", "u"}, "password"},
		{[]string{"--nats-url", "nats://n:4222", "--nats-creds", "a.creds", "--nats-nkey", "a.nk"}, "one of"},
		{[]string{"--nats-max-age", "1m"}, "duplicate window"},
		{[]string{"--nats-max-age", "soon"}, "nats-max-age"},
		{[]string{"--nats-max-bytes", "lots"}, "nats-max-bytes"},
		{[]string{"--trusted-proxies", "10.0.0.0/33"}, "trusted-proxies"},
		{[]string{"--trusted-proxies", "proxy.local"}, "trusted-proxies"},
		{[]string{"--cluster", "a.b"}, "--cluster"},
		{[]string{"--cluster", "events"}, "reserved"},
		{[]string{"--nats-replicas", "7"}, "nats-replicas"},
		{[]string{"--nats-replicas", "3"}, "NATS cluster"},
		{[]string{"--lease-ttl", "100ms"}, "lease-ttl"},
		{[]string{"--anchor-interval", "2h"}, "anchor-interval"},
	}
	for _, tc := range bad {
		if _, err := parseServe(tc.args, noEnv, &stderr); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("serve %q: %v, want an error mentioning %q", tc.args, err, tc.want)
		}
	}
	if _, err := parseProject([]string{"--data", dir, "--nats-url", "nats://n:4222", "--nats-nkey", "a.nk", "--nats-user", "u", "--nats-password", "p"}, noEnv, &stderr); err == nil {
		t.Error("project accepted an nkey and a user at once")
	}
}

// TestParseVerifyFileThenFlags: verify's FILE may come before its flags
// (paiju verify FILE --ratings H.json), and one FILE at most is taken.
func TestParseVerifyFileThenFlags(t *testing.T) {
	noEnv := func(string) string { return "" }
	for _, args := range [][]string{{"t.jsonl", "--ratings", "a.json,b.json"}, {"--ratings", "a.json,b.json", "t.jsonl"}} {
		c, file, err := parseVerify(args, noEnv, &bytes.Buffer{})
		if err != nil || file != "t.jsonl" || c.Ratings != "a.json,b.json" {
			t.Fatalf("verify %q: file %q, ratings %q, %v", args, file, c.Ratings, err)
		}
	}
	if _, _, err := parseVerify([]string{"t.jsonl", "--ratings", "a.json", "u.jsonl"}, noEnv, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "one FILE at most") {
		t.Fatalf("two files: %v", err)
	}
}
