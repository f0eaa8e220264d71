package e2e

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"paiju/api/apitest"
	"paiju/internal/cli"
)

// scrape reads the server's /metrics and parses it.
func scrape(t *testing.T, c *apitest.Client) map[string]*dto.MetricFamily {
	t.Helper()
	r := c.Do(apitest.Request{Method: "GET", Path: "/metrics"})
	if r.Status != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", r.Status, r.Body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, r.Body)
	}
	return fams
}

// series returns the value of the series of family name whose labels
// include want (a counter's or gauge's value, a histogram's count), and
// whether there is one.
func series(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f, ok := fams[name]
	if !ok {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		}
	}
	return 0, false
}

// TestMetricsAfterPlay scrapes a real server after players registered,
// opened, joined and moved, and a table of bots played: every documented
// series is there, and the counters count what happened
// (docs/OPERATIONS.md, Metrics).
func TestMetricsAfterPlay(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir(), "--bot-delay", "0")
	defer stop()
	c := apitest.New(t, base)

	tv, ps := seatThree(t, c)
	// An event stream stays open across the scrape.
	ctx, closeStream := context.WithCancel(context.Background())
	defer closeStream()
	sse, _ := c.Stream(ctx, apitest.Request{Path: "/v1/tables/" + tv.ID + "/stream", Token: ps[0].Token})
	if sse == nil {
		t.Fatal("no event stream")
	}
	defer sse.Body.Close()

	before := scrape(t, c)
	rng := rand.New(rand.NewPCG(3, 4))
	const moves = 4
	for range moves {
		randomMove(t, c, tv.ID, ps, rng)
	}
	// A rejected move: someone not at the table.
	var stranger rootPlayer
	c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "dan"}}).Decode(t, &stranger)
	if r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/actions", Token: stranger.Token, Body: map[string]any{"type": "pass"}}); r.Status < 400 {
		t.Fatalf("a stranger's move: %d, want an error", r.Status)
	}
	// A table of bots plays by itself.
	if r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[0].Token,
		Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1, "bots": 3, "max_hands": 1}}); r.Status != http.StatusCreated {
		t.Fatalf("open a table of bots: %d %s", r.Status, r.Body)
	}
	var after map[string]*dto.MetricFamily
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		after = scrape(t, c)
		if n, _ := series(after, "paiju_bot_moves_total", nil); n > 0 || time.Now().After(deadline) {
			break
		}
	}

	increased := []struct {
		name   string
		labels map[string]string
		by     float64
	}{
		{"paiju_http_requests_total", map[string]string{"method": "POST", "route": "/v1/tables/{id}/actions", "status": "200"}, moves},
		{"paiju_http_request_duration_seconds", map[string]string{"method": "POST", "route": "/v1/tables/{id}/actions"}, moves},
		{"paiju_commands_total", map[string]string{"game": "doudizhu", "command": "act", "outcome": "ok"}, moves},
		{"paiju_move_duration_seconds", map[string]string{"game": "doudizhu"}, moves},
		{"paiju_store_commit_events", nil, 1},
		{"paiju_store_commit_appends", nil, 1},
		{"paiju_store_commit_duration_seconds", nil, 1},
		{"paiju_table_cache_lookups_total", map[string]string{"result": "hit"}, 1},
		{"paiju_bot_moves_total", nil, 1},
	}
	for _, s := range increased {
		was, _ := series(before, s.name, s.labels)
		now, ok := series(after, s.name, s.labels)
		if !ok || now-was < s.by {
			t.Errorf("%s%v went from %v to %v (present: %v), want up by ≥ %v", s.name, s.labels, was, now, ok, s.by)
		}
	}
	if n, _ := series(after, "paiju_commands_total", map[string]string{"command": "act"}); n == 0 {
		t.Error("no act command counted")
	}
	var refused float64
	for _, m := range after["paiju_commands_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "outcome" && l.GetValue() != "ok" {
				refused += m.GetCounter().GetValue()
			}
		}
	}
	if refused < 1 {
		t.Error("the stranger's refused move is not counted under its error code")
	}
	if n, ok := series(after, "paiju_http_live_streams", nil); !ok || n != 1 {
		t.Errorf("paiju_http_live_streams = %v (present %v) with one stream open, want 1", n, ok)
	}
	for _, name := range []string{"paiju_relay_lag_events", "paiju_relay_up", "paiju_turn_timeouts_total", "go_goroutines", "process_resident_memory_bytes"} {
		if _, ok := series(after, name, nil); !ok {
			t.Errorf("%s is missing from /metrics", name)
		}
	}
	if up, _ := series(after, "paiju_relay_up", nil); up != 1 {
		t.Errorf("paiju_relay_up = %v while the relay runs, want 1", up)
	}
	for _, p := range []string{"hands", "leaderboards"} {
		if lag, ok := series(after, "paiju_projection_lag_events", map[string]string{"projection": p}); !ok || lag < 0 {
			t.Errorf("paiju_projection_lag_events{projection=%q} = %v (present %v), want a lag ≥ 0", p, lag, ok)
		}
	}
	// Route labels are patterns: no table id may become a label value.
	for _, m := range after["paiju_http_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if strings.Contains(l.GetValue(), tv.ID) {
				t.Errorf("a route label holds the raw path %q", l.GetValue())
			}
		}
	}
}

// TestDrainOnShutdown: once the context ends (SIGTERM), /readyz fails at once
// while the server keeps answering for --drain, then it stops
// (docs/OPERATIONS.md, Health).
func TestDrainOnShutdown(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	args := []string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--rate-limit", "0", "--drain", "5s"}
	go func() { done <- cli.Run(ctx, args, func(string) string { return "" }, io.Discard, logs) }()
	var base string
	for deadline := time.Now().Add(30 * time.Second); base == ""; time.Sleep(20 * time.Millisecond) {
		if m := addrRE.FindStringSubmatch(logs.String()); m != nil {
			base = "http://" + m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start listening:\n%s", logs.String())
		}
	}
	c := apitest.New(t, base)
	var ready struct {
		Status string `json:"status"`
		Checks []struct {
			Name string `json:"name"`
			OK   bool   `json:"ok"`
		} `json:"checks"`
	}
	c.WaitReady()

	cancel()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(logs.String(), "draining"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no drain logged:\n%s", logs.String())
		}
	}
	r := c.Do(apitest.Request{Method: "GET", Path: "/readyz"})
	if r.Status != http.StatusServiceUnavailable {
		t.Fatalf("readyz while draining: %d %s, want 503", r.Status, r.Body)
	}
	r.Decode(t, &ready)
	drainingFailed := false
	for _, ch := range ready.Checks {
		drainingFailed = drainingFailed || ch.Name == "draining" && !ch.OK
	}
	if ready.Status != "not_ready" || !drainingFailed {
		t.Errorf("readyz body while draining: %s, want status not_ready and the draining check failed", r.Body)
	}
	if r := c.Do(apitest.Request{Method: "GET", Path: "/healthz"}); r.Status != http.StatusOK {
		t.Errorf("healthz while draining: %d, want 200: the process is alive", r.Status)
	}
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v after draining", err)
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Error("the listener still accepts after the drain")
	}
}
