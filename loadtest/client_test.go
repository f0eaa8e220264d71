package loadtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestClientRetries: with RetryFor a request a node cannot serve goes to
// the next node, and the reply names the node that answered and whether it
// answered as a replay; without it every request is sent once, and an
// answer of 300 or above is an error naming the status and the body.
func TestClientRetries(t *testing.T) {
	var downHits, upHits atomic.Int64
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		downHits.Add(1)
		http.Error(w, `{"error":"unavailable"}`, http.StatusServiceUnavailable)
	}))
	defer down.Close()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upHits.Add(1)
		if r.Header.Get("Authorization") != "Bearer tok" || r.Header.Get("Idempotency-Key") != "k1" || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad headers "+r.Header.Get("Authorization")+" "+r.Header.Get("Idempotency-Key"), http.StatusBadRequest)
			return
		}
		var body map[string]string
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body["type"] != "pass" {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		w.Header().Set("Idempotent-Replayed", "true")
		w.Write([]byte(`{"version":7}`))
	}))
	defer up.Close()

	c := NewClient(down.URL, up.URL)
	c.RetryFor = 10 * time.Second
	var out struct {
		Version int `json:"version"`
	}
	rep, status, err := c.DoOn(t.Context(), 0, "POST", "/v1/tables/x/actions", "tok", "k1", json.RawMessage(`{"type":"pass"}`), &out)
	if err != nil || status != http.StatusOK || out.Version != 7 || rep.Node != up.URL || !rep.Replayed {
		t.Fatalf("got %+v, %d, %v, version %d; want the replay of %s", rep, status, err, out.Version, up.URL)
	}
	if downHits.Load() != 1 || upHits.Load() != 1 || c.retries.Load() != 1 {
		t.Fatalf("%d requests to the node down, %d to the one up, %d retries; want 1 each", downHits.Load(), upHits.Load(), c.retries.Load())
	}

	once := NewClient(down.URL, up.URL)
	status, err = once.Do(t.Context(), "GET", "/readyz", "", nil, nil)
	if err == nil || status != http.StatusServiceUnavailable || !strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), "unavailable") {
		t.Fatalf("without RetryFor: %d, %v; want the 503 and its body", status, err)
	}
	if downHits.Load() != 2 || once.retries.Load() != 0 {
		t.Fatalf("without RetryFor the request was sent %d times", downHits.Load()-1)
	}
	if _, err := NewClient().Do(t.Context(), "GET", "/readyz", "", nil, nil); err == nil {
		t.Fatal("a client without a server address sent a request")
	}
}
