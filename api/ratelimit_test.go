package api_test

import (
	"net/http"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
)

// TestBurstsAreRateLimited: one token's burst past the limit gets 429
// rate_limited with Retry-After and changes nothing; another token is not
// slowed by it.
func TestBurstsAreRateLimited(t *testing.T) {
	const limit = 6
	e := newEnvWith(t, 9, func(d *api.Deps) { d.RateLimit, d.RateWindow = limit, time.Hour })
	id, ps := e.openFull() // 3 registrations from one IP and 4 table requests
	a, b := ps[0], ps[1]
	limited := 0
	for range limit + 2 {
		before := e.head()
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: a.Token, Body: map[string]any{"type": "bid", "bid": 9}})
		if r.Status == http.StatusTooManyRequests {
			limited++
			if code := r.Problem(t); code != "rate_limited" {
				t.Fatalf("429 with code %q, want rate_limited", code)
			}
			if r.Header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
		}
		if e.head() != before {
			t.Fatal("a limited or rejected request changed the store")
		}
	}
	if limited == 0 {
		t.Fatalf("%d requests in an hour from one token with a limit of %d: none was refused", limit+2, limit)
	}
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: b.Token}); r.Status != http.StatusOK {
		t.Fatalf("another player's request after the burst: %d %s", r.Status, r.Body)
	}
	// Registration is limited by address: the env registered 3 players already.
	seen429 := false
	for range limit {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "flood"}})
		seen429 = seen429 || r.Status == http.StatusTooManyRequests
	}
	if !seen429 {
		t.Fatal("registrations past the limit from one address were all accepted")
	}
}
