package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"paiju/internal/cli"
)

// lockedBuffer is the server's log, written by its goroutines and read by
// the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeOpenAPI: paiju serve answers GET /openapi.yaml with the
// contract built into the binary, byte for byte the repository's
// openapi.yaml, as application/yaml with an ETag that makes a repeated
// fetch a 304 (HEAD answering as GET), and without a token; --web=false keeps it, since client
// developers of the API need it without the web app.
func TestServeOpenAPI(t *testing.T) {
	want, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cli.OpenAPI = openAPI // as main does
	addrRE := regexp.MustCompile(`msg="paiju serving" addr=(\S+)`)
	for _, web := range []string{"true", "false"} {
		t.Run("web="+web, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			logs := &lockedBuffer{}
			done := make(chan error, 1)
			args := []string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--drain", "0", "--web=" + web}
			go func() { done <- cli.Run(ctx, args, func(string) string { return "" }, io.Discard, logs) }()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("serve: %v", err)
				}
			}()
			var base string
			for deadline := time.Now().Add(30 * time.Second); base == ""; {
				if m := addrRE.FindStringSubmatch(logs.String()); m != nil {
					base = "http://" + m[1]
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("serve did not start listening:\n%s", logs.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			res, err := http.Get(base + "/openapi.yaml")
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
				t.Fatalf("GET /openapi.yaml: %d, %d bytes; want 200 and openapi.yaml's %d bytes", res.StatusCode, len(got), len(want))
			}
			if ct := res.Header.Get("Content-Type"); ct != "application/yaml" {
				t.Errorf("Content-Type %q, want application/yaml (RFC 9512)", ct)
			}
			etag := res.Header.Get("ETag")
			if !strings.HasPrefix(etag, `"`) || len(etag) < 10 {
				t.Fatalf("ETag %q, want a strong validator", etag)
			}
			req, _ := http.NewRequest(http.MethodGet, base+"/openapi.yaml", nil)
			req.Header.Set("If-None-Match", etag)
			res, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusNotModified {
				t.Errorf("GET /openapi.yaml with If-None-Match %s: %d, want 304", etag, res.StatusCode)
			}
			res, err = http.Head(base + "/openapi.yaml")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK || res.Header.Get("ETag") != etag {
				t.Errorf("HEAD /openapi.yaml: %d, ETag %q; want 200 and %s", res.StatusCode, res.Header.Get("ETag"), etag)
			}
		})
	}
}
