package e2e

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestParseLoadtestAddrs: --addr takes one server or a cluster's nodes,
// comma-separated, with or without a scheme; naming none is an error.
func TestParseLoadtestAddrs(t *testing.T) {
	none := func(string) string { return "" }
	c, err := parseLoadtest([]string{"--addr", "http://a:8080/, b:8080 ,,https://c", "--record", "acks.jsonl"}, none, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://a:8080", "http://b:8080", "https://c"}; !slices.Equal(c.Addrs, want) || c.Record != "acks.jsonl" {
		t.Fatalf("addrs %q record %q, want %q and acks.jsonl", c.Addrs, c.Record, want)
	}
	d, err := parseLoadtest(nil, func(k string) string {
		if k == "PAIJU_ADDR" {
			return "n1:1,n2:2"
		}
		return ""
	}, io.Discard)
	if err != nil || !slices.Equal(d.Addrs, []string{"http://n1:1", "http://n2:2"}) {
		t.Fatalf("from PAIJU_ADDR: %q, %v", d.Addrs, err)
	}
	if _, err := parseLoadtest([]string{"--addr", " , "}, none, io.Discard); err == nil {
		t.Fatal("--addr naming no server was accepted")
	}
}

// TestParseProcessCPU: the server's CPU seconds are read from Prometheus'
// text format, and a scrape without them is an error, not zero.
func TestParseProcessCPU(t *testing.T) {
	text := "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 12.34\nprocess_cpu_seconds_total_other 1\n"
	v, err := parseProcessCPU(strings.NewReader(text))
	if err != nil || v != 12.34 {
		t.Fatalf("got %v, %v; want 12.34", v, err)
	}
	if _, err := parseProcessCPU(strings.NewReader("go_goroutines 7\n")); err == nil {
		t.Fatal("a scrape without process_cpu_seconds_total read as a figure")
	}
}

// TestLoadtestAgainstServer runs the load tool against a real server in
// its three ways of playing (minimal answers, full views, a client per
// seat following its stream): every acknowledged move has its events, none fails,
// the default way prefers the minimal answer (no view to learn the turn
// from, so some /legal go to a seat not to act) and reads the server's CPU
// from /metrics.
func TestLoadtestAgainstServer(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir(), "--quota-registrations-per-minute", "-1", "--quota-tables-per-hour", "-1", "--quota-costly-reads", "-1")
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	for _, mode := range []string{"minimal", "full", "per-seat", "per-seat-ask-legal"} {
		full := mode == "full"
		var acks atomic.Int64
		var out strings.Builder
		cfg := loadConfig{Addrs: []string{base}, Duration: 2 * time.Second, Tables: 4, Clients: 2, Game: "doudizhu", Variant: "classic", Seed: 3, Full: full, PerSeat: strings.HasPrefix(mode, "per-seat"), AskLegal: mode == "per-seat-ask-legal",
			OnAck: func(a loadAck) {
				if len(a.Versions) == 0 || a.Versions[len(a.Versions)-1] > a.Version {
					t.Errorf("move %s acknowledged version %d with events %v", a.Key, a.Version, a.Versions)
				}
				acks.Add(1)
			}}
		res, err := loadtest(t.Context(), cfg, &out)
		if err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out.String())
		}
		t.Logf("%s: %s", mode, res)
		if res.Moves == 0 || int64(res.Moves) != acks.Load() || res.Errors != 0 {
			t.Fatalf("full %v: %d moves, %d acknowledged, %d errors (%s)", full, res.Moves, acks.Load(), res.Errors, res.FirstErr)
		}
		if res.CPU <= 0 {
			t.Fatalf("full %v: no server CPU read from /metrics:\n%s", full, out.String())
		}
		switch {
		case mode == "per-seat":
			// The stream pushes each seat its legal actions: /legal is
			// asked only to narrow a long list.
			if res.Requests < res.Moves || res.Requests >= 2*res.Moves {
				t.Fatalf("%s: %d requests for %d moves, want a POST each and /legal seldom", mode, res.Requests, res.Moves)
			}
		case res.Requests < 2*res.Moves:
			t.Fatalf("%s: %d requests for %d moves, fewer than a /legal and a POST each", mode, res.Requests, res.Moves)
		}
		// Minimal answers name the awaited seat (Awaited-Seats), as full
		// ones name the turn: /legal is never asked of a seat not to act.
		if res.Misses != 0 {
			t.Fatalf("full %v: %d /legal asked of a seat not to act", full, res.Misses)
		}
		// Each seat follows its own stream, and acts only when a turn
		// message (or its own answer) names it.
		if strings.HasPrefix(mode, "per-seat") && res.Streams < 4*3 {
			t.Fatalf("per seat: %d streams opened for 12 seats", res.Streams)
		}
	}
}

// TestPickMove: the load tool never plays escape, leave or delegate, picks
// every other action, sends the one it picks as the server wrote it, and
// reports an action it cannot read.
func TestPickMove(t *testing.T) {
	raw := func(s ...string) []json.RawMessage {
		out := make([]json.RawMessage, len(s))
		for i, a := range s {
			out[i] = json.RawMessage(a)
		}
		return out
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if a, ok, err := pickMove(raw(`{"type":"escape"}`, `{"type":"leave"}`, `{"type":"delegate"}`), rng); ok || err != nil {
		t.Fatalf("only escape, leave and delegate: picked %s, %v, %v", a, ok, err)
	}
	actions := raw(`{"type":"escape"}`, `{"type":"pass"}`, `{"type":"delegate"}`, `{"type":"play","cards":["S3"]}`, `{"type":"leave"}`)
	seen := map[string]int{}
	for range 400 {
		a, ok, err := pickMove(actions, rng)
		if !ok || err != nil {
			t.Fatalf("picked nothing: %v", err)
		}
		seen[string(a)]++
	}
	if len(seen) != 2 || seen[`{"type":"pass"}`] < 150 || seen[`{"type":"play","cards":["S3"]}`] < 150 {
		t.Fatalf("picks %v, want pass and the play about as often, nothing else", seen)
	}
	if string(actions[0]) != `{"type":"escape"}` || string(actions[4]) != `{"type":"leave"}` {
		t.Fatalf("pickMove reordered its argument: %s", actions)
	}
	if _, _, err := pickMove(raw(`{"type":`), rng); err == nil {
		t.Fatal("an action that is not JSON was picked without an error")
	}
	for a, want := range map[string]bool{`{"type":"pass"}`: false, `{"type":"play","cards":null}`: false, `{"type":"play","cards":["BJ"]}`: true, `{`: false} {
		if got := namesCards(json.RawMessage(a)); got != want {
			t.Errorf("namesCards(%s) = %v, want %v", a, got, want)
		}
	}
}
