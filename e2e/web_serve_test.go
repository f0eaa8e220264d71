package e2e

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func webFetch(t *testing.T, method, url string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// TestServeWebApp: paiju serve answers the web app at / and at its pages,
// with its assets, while unknown /v1 paths keep the API's problem+json 404;
// --web=false leaves only the API.
func TestServeWebApp(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir())
	defer func() {
		if err := stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	res, index := webFetch(t, "GET", base+"/")
	if res.StatusCode != http.StatusOK || !strings.Contains(index, "/static/js/app.js") {
		t.Fatalf("GET /: %d\n%s", res.StatusCode, index)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Errorf("GET /: Content-Security-Policy %q", csp)
	}
	for _, p := range []string{"/tables/01JDQ6Z0M4W8YB3R5T2N7K9XHC", "/hands/01JDQ6Z0M4W8YB3R5T2N7K9XHC-1", "/verify", "/leaderboards/doudizhu"} {
		if res, b := webFetch(t, "GET", base+p); res.StatusCode != http.StatusOK || b != index {
			t.Errorf("GET %s: %d, want index.html", p, res.StatusCode)
		}
	}
	if res, b := webFetch(t, "HEAD", base+"/"); res.StatusCode != http.StatusOK || b != "" {
		t.Errorf("HEAD /: %d %q", res.StatusCode, b)
	}
	if res, _ := webFetch(t, "GET", base+"/static/js/app.js"); res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("GET app.js: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, p := range []string{"/v1/nope", "/v1", "/v1/tables/x/nope"} {
		res, b := webFetch(t, "GET", base+p)
		if res.StatusCode != http.StatusNotFound || res.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(b, `"code":"not_found"`) {
			t.Errorf("GET %s: %d %q %s, want the API's problem+json 404", p, res.StatusCode, res.Header.Get("Content-Type"), b)
		}
	}
	if res, _ := webFetch(t, "GET", base+"/healthz"); res.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz: %d", res.StatusCode)
	}
	if res, _ := webFetch(t, "GET", base+"/elsewhere"); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /elsewhere: %d, want 404", res.StatusCode)
	}

	off, _, stopOff := startServer(t, t.TempDir(), "--web=false")
	defer func() {
		if err := stopOff(); err != nil {
			t.Errorf("serve --web=false: %v", err)
		}
	}()
	for _, p := range []string{"/", "/static/js/app.js", "/tables/x"} {
		res, b := webFetch(t, "GET", off+p)
		if res.StatusCode != http.StatusNotFound || !strings.Contains(b, `"code":"not_found"`) {
			t.Errorf("--web=false: GET %s: %d %s, want the API's 404", p, res.StatusCode, b)
		}
	}
}
