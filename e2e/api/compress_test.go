package api_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
)

// TestCompression: a large answer (an export, a page of events) is encoded
// in the encoding the client accepts, says Vary: Accept-Encoding, and
// decodes to the same body as the plain answer; a client that accepts no
// encoding gets the plain body; ETag and If-None-Match work the same way
// encoded; small answers go as they are.
func TestCompression(t *testing.T) {
	e := newEnv(t, 3)
	id, ps := e.openFull()
	e.playHand(id, ps)

	// The plain answers, from a client that sends no Accept-Encoding at all.
	raw := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	plain := map[string][]byte{}
	for _, path := range []string{"/v1/tables/" + id + "/export", "/v1/tables/" + id + "/events"} {
		req, err := http.NewRequest("GET", e.c.Base()+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+auditorToken)
		resp, err := raw.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" {
			t.Fatalf("GET %s with no Accept-Encoding: %d, Content-Encoding %q; want 200 unencoded", path, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		if !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("GET %s: Vary %q, want Accept-Encoding (the answer depends on it)", path, resp.Header.Get("Vary"))
		}
		plain[path] = body
	}

	for path, want := range plain {
		for _, enc := range []string{"gzip", "zstd", "gzip, deflate, br, zstd"} {
			r := e.c.Do(apitest.Request{Method: "GET", Path: path, Token: auditorToken, Header: map[string]string{"Accept-Encoding": enc}})
			got := r.Header.Get("Content-Encoding")
			if wantEnc := enc[strings.LastIndex(enc, " ")+1:]; got != wantEnc {
				t.Errorf("GET %s accepting %q: Content-Encoding %q, want %s", path, enc, got, wantEnc)
			}
			if !sameAnswer(r.Body, want) {
				t.Errorf("GET %s accepting %s: the decoded body differs from the plain one", path, enc)
			}
			t.Logf("GET %s accepting %q: %d bytes as %s for %d plain", path, enc, r.WireBytes, got, len(want))
			if r.WireBytes*3 > len(want) {
				t.Errorf("GET %s accepting %s: %d bytes sent for %d, want at most a third", path, enc, r.WireBytes, len(want))
			}
			if !strings.Contains(r.Header.Get("Vary"), "Accept-Encoding") {
				t.Errorf("GET %s accepting %s: Vary %q", path, enc, r.Header.Get("Vary"))
			}
		}
	}

	// The ETag is the table's version however the view travels, and
	// If-None-Match with it is 304.
	gz := map[string]string{"Accept-Encoding": "gzip"}
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token, Header: gz})
	etag := r.Header.Get("ETag")
	if v := e.view(id, ps[0].Token); etag != fmt.Sprintf(`"%d"`, v.Version) {
		t.Fatalf("encoded view: ETag %s, want the version %d", etag, v.Version)
	}
	r = e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token, Header: map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag}})
	if r.Status != http.StatusNotModified || r.Header.Get("ETag") != etag || len(r.Body) != 0 {
		t.Fatalf("If-None-Match %s accepting gzip: %d ETag %s body %q, want 304 with the same ETag", etag, r.Status, r.Header.Get("ETag"), r.Body)
	}
	// A small answer is not worth encoding.
	r = e.c.Do(apitest.Request{Method: "GET", Path: "/healthz", Header: gz})
	if r.Header.Get("Content-Encoding") != "" {
		t.Errorf("/healthz (%d bytes) encoded as %s", len(r.Body), r.Header.Get("Content-Encoding"))
	}
}

// sameAnswer compares two answers but for an export's last line, its head,
// which says when it was taken.
func sameAnswer(a, b []byte) bool {
	cut := func(x []byte) string {
		s := strings.TrimSuffix(string(x), "\n")
		if i := strings.LastIndexByte(s, '\n'); i >= 0 && strings.Contains(s[i:], `"exported_at"`) {
			return s[:i]
		}
		return s
	}
	return cut(a) == cut(b)
}

// TestStreamIsNotCompressed: an event stream asked for by a client that
// accepts every encoding goes unencoded, and each event arrives as it is
// sent (a compressor would hold it back until its block filled); so does
// the stream of a client that accepts none.
func TestStreamIsNotCompressed(t *testing.T) {
	e, _ := newLiveEnv(t, 5, time.Hour)
	id, ps := e.openFull()
	for _, accept := range []string{"gzip, zstd", "identity"} {
		resp, problem := e.c.Stream(t.Context(), apitest.Request{Path: "/v1/tables/" + id + "/stream", Token: auditorToken,
			Header: map[string]string{"Accept-Encoding": accept}})
		if problem != nil {
			t.Fatalf("stream: %d %s", problem.Status, problem.Body)
		}
		if ce := resp.Header.Get("Content-Encoding"); ce != "" {
			t.Fatalf("event stream accepting %s sent with Content-Encoding %s", accept, ce)
		}
		c := &sseClient{t: t, cancel: func() {}, done: make(chan struct{}), api: e.c}
		go c.read(resp)
		v := e.view(id, ps[0].Token)
		c.waitFor("the auditor accepting "+accept, v.Version)
		// One small event after the catch-up arrives on its own.
		cr := e.step(id, ps)
		c.waitFor("the auditor accepting "+accept, cr.Version)
		resp.Body.Close()
		<-c.done
	}
}
