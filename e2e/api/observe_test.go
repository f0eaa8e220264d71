package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/internal/app"
)

// logBuffer collects the server's JSON log lines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// lines decodes every log line.
func (l *logBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		out = append(out, m)
	}
	return out
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// requestLines returns the access lines logged for request id.
func requestLines(lines []map[string]any, id string) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["msg"] == "request" && l["request_id"] == id {
			out = append(out, l)
		}
	}
	return out
}

// TestAccessLogAndRequestID: every response carries X-Request-Id, an error's
// problem body quotes it, and one access line at info tells method, route
// pattern, status, size, duration and player, never a token or a query
// string.
func TestAccessLogAndRequestID(t *testing.T) {
	logs := &logBuffer{}
	e := newEnvWith(t, 1, func(d *api.Deps) {
		d.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	p := e.newPlayer("ann")

	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/NOSUCHTABLE?ticket=sekrit-ticket", Token: p.Token})
	if r.Status != http.StatusNotFound {
		t.Fatalf("GET an unknown table: %d %s", r.Status, r.Body)
	}
	id := r.Header.Get("X-Request-Id")
	if id == "" {
		t.Fatal("no X-Request-Id on an error response")
	}
	var prob api.Problem
	r.Decode(t, &prob)
	if prob.RequestID != id {
		t.Errorf("problem request_id %q, header X-Request-Id %q: want the same", prob.RequestID, id)
	}
	got := requestLines(logs.lines(t), id)
	if len(got) != 1 {
		t.Fatalf("%d access lines for request %s, want 1:\n%s", len(got), id, logs.String())
	}
	want := map[string]any{"level": "INFO", "method": "GET", "route": "/v1/tables/{id}", "status": float64(404), "player": p.ID}
	for k, v := range want {
		if got[0][k] != v {
			t.Errorf("access line %s = %v, want %v", k, got[0][k], v)
		}
	}
	for _, k := range []string{"duration", "bytes"} {
		if _, ok := got[0][k]; !ok {
			t.Errorf("access line has no %s: %v", k, got[0])
		}
	}
	for _, secret := range []string{p.Token, "sekrit-ticket", "NOSUCHTABLE"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds %q (a token, a query string or a raw path)", secret)
		}
	}

	for _, tc := range []struct {
		name, sent string
		kept       bool
	}{
		{"a plain id is kept", "trace-42.abc:1", true},
		{"an id with spaces is replaced", "evil id level=ERROR", false},
		{"a long id is replaced", strings.Repeat("x", 65), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.c.Do(apitest.Request{Method: "GET", Path: "/healthz", Header: map[string]string{"X-Request-Id": tc.sent}})
			if got := r.Header.Get("X-Request-Id"); (got == tc.sent) != tc.kept || got == "" {
				t.Errorf("sent X-Request-Id %q, got back %q; want kept: %v", tc.sent, got, tc.kept)
			}
		})
	}
}

// newTracedServer is the real server traced into an in-memory exporter,
// its API logging to logs at debug; nothing leaves the process.
func newTracedServer(t *testing.T, logs *logBuffer) (http.Handler, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	_, s := start(t, 1, nil, app.Config{Observe: app.Observe{Tracer: tp.Tracer("paiju-test")}}, func(d *api.Deps) {
		d.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	return s.Handler(), exp
}

// TestTracing: with a tracer, a request is a server span named by its route,
// and a command inside it has spans for its decision and its append, all in
// one trace.
func TestTracing(t *testing.T) {
	h, exp := newTracedServer(t, &logBuffer{})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := apitest.New(t, srv.URL)
	var p player
	c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "ann"}}).Decode(t, &p)
	var tv tableView
	c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1}}).Decode(t, &tv)
	exp.Reset()
	if r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: p.Token}); r.Status != http.StatusOK {
		t.Fatalf("join: %d %s", r.Status, r.Body)
	}
	spans := exp.GetSpans()
	byName := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = s
	}
	root, ok := byName["POST /v1/tables/{id}/join"]
	if !ok {
		t.Fatalf("no server span named by the route; spans: %v", names(spans))
	}
	for _, name := range []string{"paiju.command", "paiju.decide", "paiju.append"} {
		s, ok := byName[name]
		if !ok {
			t.Errorf("no %s span; spans: %v", name, names(spans))
			continue
		}
		if s.SpanContext.TraceID() != root.SpanContext.TraceID() {
			t.Errorf("%s is in trace %s, the request in %s", name, s.SpanContext.TraceID(), root.SpanContext.TraceID())
		}
	}
	if s := byName["paiju.command"]; s.Parent.SpanID() != root.SpanContext.SpanID() {
		t.Errorf("paiju.command's parent is %s, want the request span %s", s.Parent.SpanID(), root.SpanContext.SpanID())
	}
}

func names(spans tracetest.SpanStubs) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

// TestClientGoneIsNotAnError: a request whose client went away is logged at
// debug, recorded as 499, and never as an ERROR "context canceled".
func TestClientGoneIsNotAnError(t *testing.T) {
	logs := &logBuffer{}
	h, _ := newTracedServer(t, logs)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequestWithContext(ctx, "GET", "/v1/tables/T0001", nil)
	req.Header.Set("Authorization", "Bearer "+auditorToken)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	id := rec.Header().Get("X-Request-Id")
	lines := logs.lines(t)
	for _, l := range lines {
		if l["level"] == "ERROR" {
			t.Errorf("a client that went away is logged as an error: %v", l)
		}
	}
	got := requestLines(lines, id)
	if len(got) != 1 || got[0]["status"] != float64(499) {
		t.Errorf("access lines %v, want one with status 499", got)
	}
	if !strings.Contains(logs.String(), `"msg":"client went away"`) {
		t.Errorf("no debug line for the client going away:\n%s", logs.String())
	}
}

// TestReadyzReportsChecks: /readyz is 503 when any check fails, and says
// which (docs/OPERATIONS.md, Health).
func TestReadyzReportsChecks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		checks []api.Check
		status int
	}{
		{"no checks", nil, http.StatusOK},
		{"all ok", []api.Check{{Name: "store", OK: true}, {Name: "relay", OK: true, Detail: "0 events behind"}}, http.StatusOK},
		{"relay stopped", []api.Check{{Name: "store", OK: true}, {Name: "relay", Detail: "the relay is not running"}}, http.StatusServiceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(api.NewServer(api.Deps{Ready: func(context.Context) []api.Check { return tc.checks }}))
			defer srv.Close()
			r := apitest.New(t, srv.URL).Do(apitest.Request{Method: "GET", Path: "/readyz"})
			if r.Status != tc.status {
				t.Fatalf("readyz: %d %s, want %d", r.Status, r.Body, tc.status)
			}
			var body struct {
				Status string      `json:"status"`
				Checks []api.Check `json:"checks"`
			}
			r.Decode(t, &body)
			if len(body.Checks) != len(tc.checks) {
				t.Errorf("readyz reports %d checks, want %d: %s", len(body.Checks), len(tc.checks), r.Body)
			}
			if wantStatus := map[int]string{200: "ready", 503: "not_ready"}[tc.status]; body.Status != wantStatus {
				t.Errorf("readyz status %q, want %q", body.Status, wantStatus)
			}
		})
	}
}
