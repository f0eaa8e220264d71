package api_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
)

// capAttempts is how many requests each cap test fires at once.
const capAttempts = 50

// atOnce runs do(0) … do(n-1) side by side and returns their answers by
// index. The requests are unchecked against openapi.yaml (the client's
// checks fail the test from their own goroutine); callers check what they
// count.
func atOnce(n int, do func(i int) *apitest.Response) []*apitest.Response {
	out := make([]*apitest.Response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { out[i] = do(i) })
	}
	wg.Wait()
	return out
}

// tally counts the answers by status and, for problems, by code; any other
// answer fails the test.
func tally(t *testing.T, what string, rs []*apitest.Response, want map[int]string) map[int]int {
	t.Helper()
	n := map[int]int{}
	for i, r := range rs {
		code, ok := want[r.Status]
		if !ok {
			t.Fatalf("%s, request %d: %d %s; want one of %v", what, i, r.Status, r.Body, want)
		}
		if code != "" && r.Problem(t) != code {
			t.Fatalf("%s, request %d: %d %s; want code %s", what, i, r.Status, r.Body, code)
		}
		n[r.Status]++
	}
	return n
}

// TestCapsHoldUnderConcurrency: each per-player cap holds exactly when one
// player fires 50 requests at once (issue #35: 40 concurrent POST
// /v1/me/tokens left 27 working tokens under a cap of 20). It runs under
// the race detector too.
func TestCapsHoldUnderConcurrency(t *testing.T) {
	t.Run("live tokens", func(t *testing.T) {
		e := newEnv(t, 91)
		p := e.newPlayer("many devices") // holds its registration token
		rs := atOnce(capAttempts, func(i int) *apitest.Response {
			return e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/me/tokens", Token: p.Token, Body: map[string]any{"label": fmt.Sprintf("device %d", i)}})
		})
		n := tally(t, "POST /v1/me/tokens at once", rs, map[int]string{http.StatusCreated: "", http.StatusConflict: "too_many_tokens"})
		var list struct {
			Tokens []tokenOut `json:"tokens"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: "/v1/me/tokens", Token: p.Token}).Decode(t, &list)
		if n[http.StatusCreated] != 19 || len(list.Tokens) != 20 {
			t.Errorf("%d token requests at once: %d created, %d held; want 19 created and 20 held (the cap)", capAttempts, n[http.StatusCreated], len(list.Tokens))
		}
	})
	t.Run("tables opened per hour", func(t *testing.T) {
		const quota = 5
		e := newEnvWith(t, 92, func(d *api.Deps) { d.Quotas.TablesPerHour = quota })
		p := e.newPlayer("opener")
		before := e.head()
		rs := atOnce(capAttempts, func(int) *apitest.Response {
			return e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: map[string]any{"game": "niuniu", "variant": "classic"}})
		})
		n := tally(t, "POST /v1/tables at once", rs, map[int]string{http.StatusCreated: "", http.StatusTooManyRequests: "rate_limited"})
		if n[http.StatusCreated] != quota || e.head()-before != quota {
			t.Errorf("%d tables opened at once: %d created, %d events stored; want %d of each (one TableOpened a table)", capAttempts, n[http.StatusCreated], e.head()-before, quota)
		}
	})
	t.Run("open streams", func(t *testing.T) {
		e, _ := newLiveEnv(t, 93, time.Hour)
		id, ps := e.openFull()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var mu sync.Mutex
		var opened []*http.Response
		defer func() {
			cancel()
			for _, resp := range opened {
				resp.Body.Close()
			}
		}()
		rs := atOnce(capAttempts, func(int) *apitest.Response {
			resp, problem := e.c.Stream(ctx, apitest.Request{Path: "/v1/tables/" + id + "/stream", Token: ps[0].Token})
			if problem != nil {
				return problem
			}
			// Held open until every request has its answer.
			mu.Lock()
			opened = append(opened, resp)
			mu.Unlock()
			return &apitest.Response{Status: resp.StatusCode}
		})
		n := tally(t, "/stream at once", rs, map[int]string{http.StatusOK: "", http.StatusTooManyRequests: "rate_limited"})
		if n[http.StatusOK] != api.DefaultQuotas.StreamsPerPlayer {
			t.Errorf("%d streams opened at once: %d open; want %d (the cap)", capAttempts, n[http.StatusOK], api.DefaultQuotas.StreamsPerPlayer)
		}
	})
	t.Run("watchers", func(t *testing.T) {
		e := newEnv(t, 94)
		id, ps := e.openFull()
		w := e.newPlayer("over the shoulder")
		rs := atOnce(capAttempts, func(i int) *apitest.Response {
			// Every seat at once asks for the same watcher, who may watch
			// one seat of a table.
			return e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/watchers", Token: ps[i%len(ps)].Token, Body: map[string]any{"player_id": w.ID}})
		})
		n := tally(t, "POST /watchers at once", rs, map[int]string{http.StatusOK: "", http.StatusConflict: "already_watching"})
		added := 0
		for _, ev := range e.auditorEvents(id) {
			if ev.Type == "WatcherAdded" {
				added++
			}
		}
		if n[http.StatusOK] != 1 || added != 1 {
			t.Errorf("%d watcher requests at once: %d accepted, %d WatcherAdded; want 1 of each", capAttempts, n[http.StatusOK], added)
		}
	})
}
