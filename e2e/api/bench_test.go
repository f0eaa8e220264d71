package api_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/internal/app"
	"paiju/internal/app/apptest"
)

// BenchmarkMoveHTTP plays random legal 斗地主 moves over HTTP on many tables
// at once against the real server on a durable (synchronous=FULL) SQLite
// store, its relay and projections behind it. One op is one POST /actions;
// the GETs a client makes to choose its move are not timed in the latency
// metrics but do share the machine.
func BenchmarkMoveHTTP(b *testing.B) {
	srv := benchServer(b, app.Config{}, nil)

	var (
		mu        sync.Mutex
		latencies []time.Duration
		seeds     atomic.Uint64
	)
	b.SetParallelism(4)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		bt := benchEnv{b: b, c: apitest.New(b, srv.URL).Unchecked(), rng: rand.New(rand.NewPCG(seeds.Add(1), 1))}
		id, ps := bt.openFull()
		var local []time.Duration
		for pb.Next() {
			local = append(local, bt.move(id, ps))
		}
		mu.Lock()
		latencies = append(latencies, local...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(latencies)
	if n := len(latencies); n > 0 {
		b.ReportMetric(float64(n)/elapsed.Seconds(), "moves/s")
		b.ReportMetric(float64(latencies[n/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(latencies[n*99/100].Microseconds()), "p99-µs")
	}
}

// benchServer starts the real server configured by cfg for a benchmark,
// the turn clocks and bots left alone: nothing moves but the benchmark's
// requests. opt, if not nil, adjusts the API's dependencies.
func benchServer(b *testing.B, cfg app.Config, opt func(*api.Deps)) *apptest.Server {
	b.Helper()
	cfg.Inputs.ManualClock = true
	cfg.Inputs.API = opt
	return apptest.New(b, cfg)
}

type benchEnv struct {
	b   *testing.B
	c   *apitest.Client
	rng *rand.Rand
}

func (e benchEnv) do(r apitest.Request) *apitest.Response {
	resp := e.c.Do(r)
	if resp.Status >= 300 {
		e.b.Fatalf("%s %s: %d %s", r.Method, r.Path, resp.Status, resp.Body)
	}
	return resp
}

func (e benchEnv) openFull() (string, []player) {
	var ps []player
	for _, n := range []string{"a", "b", "c"} {
		var p player
		// Names are unique: each parallel client registers its own.
		name := fmt.Sprintf("%s %d", n, e.rng.Uint64())
		e.do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": name}}).Decode(e.b, &p)
		ps = append(ps, p)
	}
	var tv tableView
	e.do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[0].Token, Body: map[string]any{"game": "doudizhu", "variant": "classic"}}).Decode(e.b, &tv)
	for _, p := range ps {
		e.do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: p.Token})
	}
	return tv.ID, ps
}

func (e benchEnv) move(id string, ps []player) time.Duration {
	var v tableView
	e.do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token}).Decode(e.b, &v)
	p := ps[*v.Turn]
	legal := legalChoices(e.rng, func(selected string) legalPage {
		var l legalPage
		e.do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal?selected=" + selected, Token: p.Token}).Decode(e.b, &l)
		return l
	})
	var choices []map[string]any
	for _, a := range legal {
		if a["type"] != "escape" && a["type"] != "delegate" {
			choices = append(choices, a)
		}
	}
	a := choices[e.rng.IntN(len(choices))]
	start := time.Now()
	e.do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: p.Token, Body: a})
	return time.Since(start)
}
