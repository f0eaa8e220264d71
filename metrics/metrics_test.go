package metrics

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestCounts: each observer call lands in its series; timeouts and bot moves
// count only when they were appended; an invented method does not become a
// label (docs/OPERATIONS.md, Metrics).
func TestCounts(t *testing.T) {
	m := New()
	m.Request("GET", "/v1/tables/{id}", 200, time.Millisecond)
	m.Request("BREW", "unmatched", 405, time.Millisecond)
	m.Command("doudizhu", "act", "ok", time.Millisecond)
	m.Command("doudizhu", "act", "not_your_turn", time.Millisecond)
	m.Command("doudizhu", "timeout", "ok", time.Millisecond)
	m.Command("doudizhu", "timeout", "deadline_not_reached", time.Millisecond)
	m.Command("doudizhu", "bot", "ok", time.Millisecond)
	m.Command("doudizhu", "open", "ok", time.Millisecond)
	m.CacheLookup(true)
	m.CacheLookup(false)
	m.CacheLookup(true)
	m.StreamOpened()
	m.StreamOpened()
	m.StreamClosed()
	m.Commit(6, 2, time.Millisecond)

	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"GET /v1/tables/{id} 200", testutil.ToFloat64(m.requests.WithLabelValues("GET", "/v1/tables/{id}", "200")), 1},
		{"an invented method is OTHER", testutil.ToFloat64(m.requests.WithLabelValues("OTHER", "unmatched", "405")), 1},
		{"refused act", testutil.ToFloat64(m.commands.WithLabelValues("doudizhu", "act", "not_your_turn")), 1},
		{"timeouts appended", testutil.ToFloat64(m.timeouts), 1},
		{"bot moves", testutil.ToFloat64(m.botMoves), 1},
		{"cache hits", testutil.ToFloat64(m.cache.WithLabelValues("hit")), 2},
		{"cache misses", testutil.ToFloat64(m.cache.WithLabelValues("miss")), 1},
		{"open streams", testutil.ToFloat64(m.streams), 1},
		{"moves timed (act, timeout, bot; not open)", float64(testutil.CollectAndCount(m.moveDuration)), 1},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if n := testutil.CollectAndCount(m.requests); n != 2 {
		t.Errorf("%d request series, want 2", n)
	}
	fams, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]float64{}
	for _, f := range fams {
		if h := f.GetMetric()[0].GetHistogram(); h != nil {
			sums[f.GetName()] = h.GetSampleSum()
		}
	}
	if sums["paiju_store_commit_events"] != 6 || sums["paiju_store_commit_appends"] != 2 {
		t.Errorf("a commit of 6 events in 2 appends recorded %v events and %v appends",
			sums["paiju_store_commit_events"], sums["paiju_store_commit_appends"])
	}
}

// BenchmarkRequest is the metrics' cost on every HTTP request.
func BenchmarkRequest(b *testing.B) {
	m := New()
	for b.Loop() {
		m.Request("POST", "/v1/tables/{id}/actions", 200, time.Millisecond)
	}
}

// BenchmarkCommand is the metrics' cost on every move.
func BenchmarkCommand(b *testing.B) {
	m := New()
	for b.Loop() {
		m.Command("doudizhu", "act", "ok", time.Millisecond)
	}
}
