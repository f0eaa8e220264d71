package api_test

import (
	"net/http"
	"strings"
	"testing"

	"paiju/api"
	"paiju/api/apitest"
)

// send makes a request the OpenAPI client cannot (a preflight OPTIONS, an
// Origin of our choosing) and returns the answer's status and headers.
func send(t *testing.T, method, url string, h map[string]string) (int, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// TestCORS: a web app of a configured origin may call the API from a
// browser: its preflight is 204 and allows the methods and headers the API
// reads, and the answers let it read the headers the API sends. Another
// origin gets no Access-Control-* header, and a server with no origins
// configured sends none at all.
func TestCORS(t *testing.T) {
	const app = "https://play.example.com"
	e := newEnvWith(t, 1, func(d *api.Deps) { d.CORSOrigins = []string{app, "https://*.paiju.test"} })
	id, ps := e.openFull()
	actions := e.c.Base() + "/v1/tables/" + id + "/actions"
	preflight := map[string]string{
		"Origin":                         app,
		"Access-Control-Request-Method":  "POST",
		"Access-Control-Request-Headers": "authorization, content-type, if-match, if-none-match, idempotency-key, prefer, last-event-id",
	}
	status, h := send(t, http.MethodOptions, actions, preflight)
	if status != http.StatusNoContent {
		t.Fatalf("preflight: %d, want 204", status)
	}
	if h.Get("Access-Control-Allow-Origin") != app || h.Get("Access-Control-Allow-Methods") != "POST" ||
		h.Get("Access-Control-Max-Age") == "" || h.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("preflight headers %v", h)
	}
	allowed := strings.ToLower(h.Get("Access-Control-Allow-Headers"))
	for _, want := range []string{"authorization", "content-type", "if-match", "if-none-match", "idempotency-key", "prefer", "last-event-id"} {
		if !strings.Contains(allowed, want) {
			t.Errorf("preflight allows headers %q, not %s", allowed, want)
		}
	}
	// A wildcard origin, and a preflight for a header the API does not read.
	if status, h := send(t, http.MethodOptions, actions, map[string]string{"Origin": "https://web.paiju.test", "Access-Control-Request-Method": "POST"}); status != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "https://web.paiju.test" {
		t.Errorf("preflight from a wildcard origin: %d, Allow-Origin %q", status, h.Get("Access-Control-Allow-Origin"))
	}
	if _, h := send(t, http.MethodOptions, actions, map[string]string{"Origin": app, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-secret"}); h.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight for an unknown header allowed: %v", h)
	}

	// The answer itself exposes the API's headers to the app.
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token, Header: map[string]string{"Origin": app}})
	if r.Status != http.StatusOK || r.Header.Get("Access-Control-Allow-Origin") != app {
		t.Fatalf("GET from %s: %d, Allow-Origin %q", app, r.Status, r.Header.Get("Access-Control-Allow-Origin"))
	}
	exposed := strings.ToLower(r.Header.Get("Access-Control-Expose-Headers"))
	for _, want := range []string{"etag", "location", "ratelimit", "ratelimit-policy", "retry-after", "idempotent-replayed", "preference-applied", "x-request-id"} {
		if !strings.Contains(exposed, want) {
			t.Errorf("Access-Control-Expose-Headers %q lacks %s", exposed, want)
		}
	}
	// Another origin learns nothing.
	for _, origin := range []string{"https://evil.example", "https://play.example.com.evil.example"} {
		preflight["Origin"] = origin
		if _, h := send(t, http.MethodOptions, actions, preflight); h.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight from %s allowed: %v", origin, h)
		}
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token, Header: map[string]string{"Origin": origin}})
		if r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("GET from %s: Allow-Origin %q", origin, r.Header.Get("Access-Control-Allow-Origin"))
		}
	}

	// No origins configured: no CORS.
	plain := newEnv(t, 1)
	preflight["Origin"] = app
	status, h = send(t, http.MethodOptions, plain.c.Base()+"/v1/tables/T0001/actions", preflight)
	if status != http.StatusMethodNotAllowed || h.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight without configured origins: %d %v, want 405 and no CORS headers", status, h)
	}
	status, h = send(t, http.MethodGet, plain.c.Base()+"/healthz", map[string]string{"Origin": app})
	for k := range h {
		if strings.HasPrefix(k, "Access-Control-") {
			t.Errorf("GET without configured origins: %d with %s", status, k)
		}
	}
}
