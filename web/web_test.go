package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"paiju/web"
)

func get(t *testing.T, h http.Handler, method, path string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newHandler(t *testing.T) *web.Handler {
	t.Helper()
	h, err := web.New()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestPagesAnswerIndex: every page of the app is index.html, where the
// browser-side router takes over; other paths are 404.
func TestPagesAnswerIndex(t *testing.T) {
	h := newHandler(t)
	index := body(t, get(t, h, "GET", "/static/index.html"))
	if !strings.Contains(index, `src="/static/js/app.js"`) {
		t.Fatalf("index.html does not load the app:\n%s", index)
	}
	for _, p := range []string{"/", "/tables/01JDQ6Z0M4W8YB3R5T2N7K9XHC", "/hands/01JDQ6Z0M4W8YB3R5T2N7K9XHC-3", "/verify",
		"/leaderboards", "/leaderboards/doudizhu", "/tournaments", "/tournaments/abc", "/tournaments/abc/standings"} {
		r := get(t, h, "GET", p)
		if r.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d, want 200 (a page of the app)", p, r.StatusCode)
			continue
		}
		if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("GET %s: Content-Type %q", p, ct)
		}
		if b := body(t, r); b != index {
			t.Errorf("GET %s: not index.html", p)
		}
	}
	for _, p := range []string{"/nope", "/tables", "/tables/", "/tables/x/y", "/hands/", "/static/", "/static/missing.js",
		"/static/../web.go", "/web.go", "/verify/x", "/leaderboards/a/b", "/static/js/../../web.go"} {
		if r := get(t, h, "GET", p); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, r.StatusCode)
		}
	}
}

// TestAssets: files carry their types, a validator and the policy that
// keeps every request of the app on its own origin.
func TestAssets(t *testing.T) {
	h := newHandler(t)
	for path, ct := range map[string]string{
		"/static/js/app.js":             "text/javascript; charset=utf-8",
		"/static/js/pages/lobby.js":     "text/javascript; charset=utf-8",
		"/static/app.css":               "text/css; charset=utf-8",
		"/static/index.html":            "text/html; charset=utf-8",
		"/tables/01JDQ6Z0M4W8YB3R5T2N7": "text/html; charset=utf-8",
	} {
		r := get(t, h, "GET", path)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", path, r.StatusCode)
		}
		if got := r.Header.Get("Content-Type"); got != ct {
			t.Errorf("GET %s: Content-Type %q, want %q", path, got, ct)
		}
		csp := r.Header.Get("Content-Security-Policy")
		for _, d := range []string{"default-src 'self'", "script-src 'self'", "connect-src 'self'", "img-src 'self' data:"} {
			if !strings.Contains(csp, d) {
				t.Errorf("GET %s: Content-Security-Policy %q lacks %q", path, csp, d)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("GET %s: Content-Security-Policy %q allows inline or eval'd script", path, csp)
		}
		if r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no X-Content-Type-Options: nosniff", path)
		}
		etag := r.Header.Get("ETag")
		if etag == "" || r.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("GET %s: ETag %q, Cache-Control %q: want a validator and no-cache", path, etag, r.Header.Get("Cache-Control"))
		}
		if r := get(t, h, "GET", path, "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s If-None-Match its ETag: %d, want 304", path, r.StatusCode)
		}
	}
}

// TestHeadAndMethods: HEAD answers as GET without a body; other methods
// are 405 naming GET and HEAD.
func TestHeadAndMethods(t *testing.T) {
	h := newHandler(t)
	g := get(t, h, "GET", "/static/js/app.js")
	hd := get(t, h, "HEAD", "/static/js/app.js")
	if hd.StatusCode != http.StatusOK || hd.Header.Get("Content-Length") != g.Header.Get("Content-Length") || body(t, hd) != "" {
		t.Fatalf("HEAD: %d, length %q (GET's %q), want 200, the same length, no body", hd.StatusCode, hd.Header.Get("Content-Length"), g.Header.Get("Content-Length"))
	}
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		r := get(t, h, m, "/")
		if r.StatusCode != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s /: %d Allow %q, want 405 Allow GET, HEAD", m, r.StatusCode, r.Header.Get("Allow"))
		}
	}
}

// TestIsAppPath pins the pages the browser-side router (js/app.js) knows.
func TestIsAppPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/": true, "/verify": true, "/leaderboards": true, "/leaderboards/niuniu": true, "/tables/x": true, "/hands/x-1": true,
		"/tournaments": true, "/tournaments/t/rounds": true, "/join": true, "/me": true,
		"/join/123456": false, "/me/tokens": false, "/v1/me": false,
		"/v1/tables": false, "/tables": false, "/hands": false, "/index.html": false, "/verify/": false, "/healthz": false,
	} {
		if got := web.IsAppPath(p); got != want {
			t.Errorf("IsAppPath(%q) = %v, want %v", p, got, want)
		}
	}
}
