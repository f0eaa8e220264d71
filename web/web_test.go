package web_test

import (
	"encoding/json"
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

// TestInstallable: the manifest is served as application/manifest+json and
// names the app, its start page and icons that exist; the service worker
// is answered at /sw.js (scope /) as JavaScript that revalidates, and
// keeps for offline use exactly the app's own files, every one of which
// the handler serves, its version changing with them.
func TestInstallable(t *testing.T) {
	h := newHandler(t)
	r := get(t, h, "GET", "/static/manifest.webmanifest")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("GET the manifest: %d %q, want 200 application/manifest+json", r.StatusCode, r.Header.Get("Content-Type"))
	}
	var m struct {
		Name      string `json:"name"`
		ShortName string `json:"short_name"`
		StartURL  string `json:"start_url"`
		Scope     string `json:"scope"`
		Display   string `json:"display"`
		Icons     []struct{ Src, Sizes, Type string }
	}
	if err := json.Unmarshal([]byte(body(t, r)), &m); err != nil {
		t.Fatalf("the manifest: %v", err)
	}
	if m.Name == "" || m.ShortName == "" || m.StartURL != "/" || m.Scope != "/" || m.Display != "standalone" {
		t.Errorf("manifest %+v: want a name, a short name, start_url and scope /, display standalone", m)
	}
	sizes := map[string]bool{}
	for _, i := range m.Icons {
		ir := get(t, h, "GET", i.Src)
		if ir.StatusCode != http.StatusOK || ir.Header.Get("Content-Type") != i.Type {
			t.Errorf("icon %s: %d %q, want 200 %s", i.Src, ir.StatusCode, ir.Header.Get("Content-Type"), i.Type)
		}
		sizes[i.Sizes] = true
	}
	if !sizes["192x192"] || !sizes["512x512"] {
		t.Errorf("icons %v: a phone installs an app with icons of 192 and 512 pixels", sizes)
	}

	w := get(t, h, "GET", "/sw.js")
	src := body(t, w)
	if w.StatusCode != http.StatusOK || w.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || w.Header.Get("Cache-Control") != "no-cache" || w.Header.Get("ETag") == "" {
		t.Fatalf("GET /sw.js: %d %q %q %q, want 200 JavaScript, no-cache, an ETag", w.StatusCode, w.Header.Get("Content-Type"), w.Header.Get("Cache-Control"), w.Header.Get("ETag"))
	}
	if w.Header.Get("Content-Security-Policy") != web.Policy {
		t.Errorf("/sw.js: Content-Security-Policy %q", w.Header.Get("Content-Security-Policy"))
	}
	first, rest, _ := strings.Cut(src, "\n")
	list, ok := strings.CutPrefix(first, "self.PAIJU_PRECACHE = ")
	if !ok || !strings.Contains(rest, "addEventListener(\"fetch\"") {
		t.Fatalf("/sw.js starts %q: want the precache line, then the worker", first)
	}
	var pre struct {
		Version string
		Files   []string
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(list, ";")), &pre); err != nil {
		t.Fatalf("precache line %q: %v", first, err)
	}
	kept := map[string]bool{}
	for _, f := range pre.Files {
		kept[f] = true
		if r := get(t, h, "GET", f); r.StatusCode != http.StatusOK {
			t.Errorf("the worker keeps %s, which answers %d", f, r.StatusCode)
		}
		if strings.HasPrefix(f, "/v1") {
			t.Errorf("the worker precaches the API answer %s", f)
		}
	}
	for _, f := range []string{"/", "/static/app.css", "/static/verify.css", "/static/js/app.js", "/static/js/pages/verify.js", "/static/js/pages/replay.js", "/static/js/verify/verify.js", "/static/manifest.webmanifest"} {
		if !kept[f] {
			t.Errorf("the worker does not keep %s for offline use: %v", f, pre.Files)
		}
	}
	if kept["/static/js/sw.js"] || kept["/sw.js"] || pre.Version == "" {
		t.Errorf("precache %+v: the worker keeps itself, or has no version", pre)
	}
}
