package api_test

import (
	"fmt"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
)

// register posts registrations until one is refused, and returns how many
// were accepted (at most limit+1 tries).
func register(t *testing.T, e *env, limit int, xff string) int {
	t.Helper()
	for i := range limit + 1 {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": fmt.Sprintf("p %s %d", xff, i)}, Header: map[string]string{"X-Forwarded-For": xff}})
		if r.Status == http.StatusTooManyRequests {
			return i
		}
		if r.Status != http.StatusCreated {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
	}
	return limit + 1
}

// Behind a trusted reverse proxy each client has its own registration
// bucket; without trusting it, X-Forwarded-For changes nothing and a client
// cannot escape the limit by writing the header.
func TestRegistrationLimitBehindProxy(t *testing.T) {
	const limit = 3
	for _, trust := range []bool{true, false} {
		t.Run(fmt.Sprintf("trusted=%v", trust), func(t *testing.T) {
			e := newEnvWith(t, 5, func(d *api.Deps) {
				d.RateLimit, d.RateWindow = limit, time.Hour
				if trust {
					// httptest serves on loopback: the test client is the proxy.
					d.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
				}
			})
			first := register(t, e, limit, "198.51.100.1")
			if first != limit {
				t.Fatalf("the first client registered %d times under a limit of %d", first, limit)
			}
			second := register(t, e, limit, "198.51.100.2")
			if trust && second != limit {
				t.Errorf("behind a trusted proxy a second client registered %d times, want its own %d: every client shared the proxy's bucket", second, limit)
			}
			if !trust && second != 0 {
				t.Errorf("an untrusted X-Forwarded-For gave a client a new bucket (%d registrations)", second)
			}
		})
	}
}
