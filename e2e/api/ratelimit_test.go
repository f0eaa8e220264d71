package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/audit"
	"paiju/internal/testclock"
	"paiju/service"
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
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: a.Token, Body: map[string]any{"type": "bid", "bid": 9}, Raw: true})
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
	// Every counted answer says where the caller stands, in the fields of
	// draft-ietf-httpapi-ratelimit-headers-10, and nothing in httprate's
	// X-RateLimit-* ones.
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[2].Token})
	if got, want := r.Header.Get("RateLimit-Policy"), `"requests";q=6;w=3600`; got != want {
		t.Errorf("RateLimit-Policy %q, want %q", got, want)
	}
	if got, want := r.Header.Get("RateLimit"), `"requests";r=4;t=3600`; got != want {
		t.Errorf("RateLimit after its join and this read: %q, want %q", got, want)
	}
	r = e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: a.Token})
	if r.Status != http.StatusTooManyRequests || r.Header.Get("RateLimit") != `"requests";r=0;t=3600` {
		t.Errorf("over the limit: %d with RateLimit %q, want 429 with r=0", r.Status, r.Header.Get("RateLimit"))
	}
	for k := range r.Header {
		if strings.HasPrefix(strings.ToLower(k), "x-ratelimit") {
			t.Errorf("answer with %s: the draft's fields replace httprate's", k)
		}
	}
	// A table opened counts against two policies: one item each.
	r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[2].Token, Body: map[string]any{"game": "doudizhu", "variant": "classic"}})
	if got, want := strings.Join(r.Header.Values("RateLimit-Policy"), ", "), `"requests";q=6;w=3600, "tables";q=60;w=3600`; got != want {
		t.Errorf("opening a table: RateLimit-Policy %q, want %q", got, want)
	}
	if got, want := strings.Join(r.Header.Values("RateLimit"), ", "), `"requests";r=3;t=3600, "tables";r=59;t=3600`; got != want {
		t.Errorf("opening a table: RateLimit %q, want %q", got, want)
	}
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: b.Token}); r.Status != http.StatusOK {
		t.Fatalf("another player's request after the burst: %d %s", r.Status, r.Body)
	}
	// Registration is limited by address: the env registered 3 players already.
	seen429 := false
	for i := range limit {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": fmt.Sprintf("flood %d", i)}})
		seen429 = seen429 || r.Status == http.StatusTooManyRequests
	}
	if !seen429 {
		t.Fatal("registrations past the limit from one address were all accepted")
	}
}

// wantRateLimited fails unless r is 429 rate_limited with a Retry-After of
// at least one second.
func wantRateLimited(t *testing.T, what string, r *apitest.Response) {
	t.Helper()
	if r.Status != http.StatusTooManyRequests {
		t.Fatalf("%s: %d %s, want 429", what, r.Status, r.Body)
	}
	if code := r.Problem(t); code != "rate_limited" {
		t.Fatalf("%s: code %q, want rate_limited", what, code)
	}
	if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 {
		t.Fatalf("%s: Retry-After %q, want whole seconds ≥ 1", what, r.Header.Get("Retry-After"))
	}
}

// TestQuotas: each quota of docs/OPERATIONS.md, Quotas, refuses the request
// past it with 429 rate_limited and Retry-After, changes nothing, and does
// not touch another caller.
func TestQuotas(t *testing.T) {
	open := map[string]any{"game": "doudizhu", "variant": "classic", "stake": 2}
	t.Run("tables opened per player per hour", func(t *testing.T) {
		e := newEnvWith(t, 3, func(d *api.Deps) { d.Quotas.TablesPerHour = 2 })
		a, b := e.newPlayer("a"), e.newPlayer("b")
		for i := range 2 {
			if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: a.Token, Body: open}); r.Status != http.StatusCreated {
				t.Fatalf("table %d of 2: %d %s", i+1, r.Status, r.Body)
			}
		}
		before := e.head()
		wantRateLimited(t, "a third table in the hour", e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: a.Token, Body: open}))
		if e.head() != before {
			t.Fatal("the refused table changed the store")
		}
		if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: b.Token, Body: open}); r.Status != http.StatusCreated {
			t.Fatalf("another player's table: %d %s", r.Status, r.Body)
		}
	})
	t.Run("registrations per address per minute", func(t *testing.T) {
		e := newEnvWith(t, 4, func(d *api.Deps) { d.Quotas.RegistrationsPerMinute = 3 })
		for i := range 3 {
			e.newPlayer(fmt.Sprintf("p%d", i))
		}
		wantRateLimited(t, "a fourth registration in the minute", e.c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "flood"}}))
	})
	t.Run("failed authentications per address", func(t *testing.T) {
		clock := testclock.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
		e := newEnvWith(t, 5, func(d *api.Deps) { d.Quotas.AuthFailuresPerMinute = 3; d.Now = clock.Now })
		good := e.newPlayer("good")
		path := "/v1/tables/T0001"
		for i, tok := range []string{"", "pj_guess1", "pj_guess2"} {
			if r := e.c.Do(apitest.Request{Method: "GET", Path: path, Token: tok}); r.Status != http.StatusUnauthorized {
				t.Fatalf("failure %d of 3: %d %s, want 401", i+1, r.Status, r.Body)
			}
		}
		wantRateLimited(t, "a fourth guess in the minute", e.c.Do(apitest.Request{Method: "GET", Path: path, Token: "pj_guess3"}))
		// Refused before the token is looked at: a right guess would tell
		// nothing either.
		wantRateLimited(t, "a good token from the blocked address", e.c.Do(apitest.Request{Method: "GET", Path: "/v1/projections", Token: good.Token}))
		clock.Advance(time.Minute)
		if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: good.Token, Body: open}); r.Status != http.StatusCreated {
			t.Fatalf("a minute later, a good token: %d %s", r.Status, r.Body)
		}
	})
	t.Run("events page", func(t *testing.T) {
		e := newEnvWith(t, 6, func(d *api.Deps) { d.Quotas.EventsPage = 4 })
		id, ps := e.openFull()
		e.playHand(id, ps)
		var page struct {
			Version int               `json:"version"`
			Events  []json.RawMessage `json:"events"`
			More    bool              `json:"more"`
			Next    int               `json:"next"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: auditorToken}).Decode(t, &page)
		if len(page.Events) != 4 || !page.More || page.Next != 4 {
			t.Fatalf("no limit: %d events, more %v, next %d; want the maximum page of 4, more, next 4", len(page.Events), page.More, page.Next)
		}
		// Pages of 3 walk the whole log, each version once.
		seen := 0
		for after := 0; ; {
			e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/events?after=%d&limit=3", id, after), Token: auditorToken}).Decode(t, &page)
			for _, raw := range page.Events {
				var ev struct{ Version int }
				mustUnmarshal(t, raw, &ev)
				if seen++; ev.Version != seen {
					t.Fatalf("paging after %d: version %d, want %d", after, ev.Version, seen)
				}
			}
			if !page.More {
				break
			}
			after = page.Next
		}
		if seen != page.Version || page.Next != page.Version {
			t.Fatalf("the pages held %d events and end at next %d; the table has %d", seen, page.Next, page.Version)
		}
		for _, q := range []string{"limit=0", "limit=5", "limit=x"} {
			r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events?" + q, Token: ps[0].Token, Raw: true})
			if r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_query" {
				t.Errorf("?%s: %d %s, want 400 invalid_query", q, r.Status, r.Body)
			}
		}
	})
	t.Run("costly reads at once per caller", func(t *testing.T) {
		gate := &gatedExporter{Exporter: audit.Exporter{}, entered: make(chan struct{}), release: make(chan struct{})}
		e := newEnvWith(t, 7, func(d *api.Deps) { d.Exporter = gate })
		id, ps := e.openFull()
		done := make(chan *apitest.Response, 2)
		for range 2 {
			go func() {
				done <- e.c.Unchecked().Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/export", Token: ps[0].Token})
			}()
			<-gate.entered
		}
		wantRateLimited(t, "a third costly read while two run", e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal", Token: ps[0].Token}))
		if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal", Token: ps[1].Token}); r.Status != http.StatusOK {
			t.Fatalf("another player's /legal: %d %s", r.Status, r.Body)
		}
		close(gate.release)
		for range 2 {
			if r := <-done; r.Status != http.StatusOK {
				t.Fatalf("a held export: %d %s", r.Status, r.Body)
			}
		}
		if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal", Token: ps[0].Token}); r.Status != http.StatusOK {
			t.Fatalf("/legal once the exports ended: %d %s", r.Status, r.Body)
		}
	})
}

// gatedExporter is the real exporter held at its start until release is
// closed, so that a test can have exports running at once.
type gatedExporter struct {
	audit.Exporter
	entered chan struct{}
	release chan struct{}
}

func (g *gatedExporter) WriteExport(w io.Writer, raw *service.Raw, n int, at time.Time) error {
	g.entered <- struct{}{}
	<-g.release
	return g.Exporter.WriteExport(w, raw, n, at)
}

// TestStreamsPerPlayer: one caller may hold StreamsPerPlayer streams open;
// one more is 429 rate_limited with Retry-After, and another caller is not
// affected.
func TestStreamsPerPlayer(t *testing.T) {
	e, _ := newLiveEnv(t, 33, time.Hour)
	id, ps := e.openFull()
	var open []*sseClient
	for range api.DefaultQuotas.StreamsPerPlayer {
		open = append(open, e.openStream(id, ps[0].Token, "", ""))
	}
	defer func() {
		for _, c := range open {
			c.close()
		}
	}()
	resp, problem := e.c.Stream(context.Background(), apitest.Request{Path: "/v1/tables/" + id + "/stream", Token: ps[0].Token})
	if problem == nil {
		resp.Body.Close()
		t.Fatalf("stream %d of one player was opened", api.DefaultQuotas.StreamsPerPlayer+1)
	}
	wantRateLimited(t, "one stream too many", problem)
	open = append(open, e.openStream(id, ps[1].Token, "", ""))
}
