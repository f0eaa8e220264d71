package e2e

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"paiju/loadtest"
	"paiju/loadtest/linearcheck"
)

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
	// 升级's final declaration window awaits several seats at once: a
	// client per seat must not act on a legal message another seat's move
	// made stale while its own was under way.
	for _, mode := range []string{"minimal", "full", "per-seat", "per-seat-ask-legal", "per-seat shengji", "per-seat-ask-legal shengji"} {
		mode, game, variant := mode, "doudizhu", "classic"
		if m, ok := strings.CutSuffix(mode, " shengji"); ok {
			mode, game, variant = m, "shengji", "ningyang"
		}
		full := mode == "full"
		var acks atomic.Int64
		var out strings.Builder
		cfg := loadtest.Config{Addrs: []string{base}, Duration: 2 * time.Second, Tables: 4, Clients: 2, Game: game, Variant: variant, Seed: 3, Full: full, PerSeat: strings.HasPrefix(mode, "per-seat"), AskLegal: mode == "per-seat-ask-legal",
			OnAck: func(a loadtest.Ack) {
				if len(a.Versions) == 0 || a.Versions[len(a.Versions)-1] > a.Version {
					t.Errorf("move %s acknowledged version %d with events %v", a.Key, a.Version, a.Versions)
				}
				acks.Add(1)
			}}
		res, err := loadtest.Run(t.Context(), cfg, &out)
		if err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out.String())
		}
		t.Logf("%s %s: %s", game, mode, res)
		if res.Moves == 0 || int64(res.Moves) != acks.Load() || res.Errors != 0 {
			t.Fatalf("%s %s: %d moves, %d acknowledged, %d errors (%s)", game, mode, res.Moves, acks.Load(), res.Errors, res.FirstErr)
		}
		if res.CPU <= 0 {
			t.Fatalf("%s %s: no server CPU read from /metrics:\n%s", game, mode, out.String())
		}
		switch {
		case mode == "per-seat":
			// The stream pushes each seat its legal actions: /legal is
			// asked only to narrow a long list.
			if res.Requests < res.Moves || res.Requests >= 2*res.Moves {
				t.Fatalf("%s %s: %d requests for %d moves, want a POST each and /legal seldom", game, mode, res.Requests, res.Moves)
			}
		case res.Requests < 2*res.Moves:
			t.Fatalf("%s %s: %d requests for %d moves, fewer than a /legal and a POST each", game, mode, res.Requests, res.Moves)
		}
		// Minimal answers name the awaited seat (Awaited-Seats), as full
		// ones name the turn: /legal is never asked of a seat not to act.
		if res.Misses != 0 {
			t.Fatalf("%s %s: %d /legal asked of a seat not to act", game, mode, res.Misses)
		}
		// Each seat follows its own stream, and acts only when a turn
		// message (or its own answer) names it.
		if strings.HasPrefix(mode, "per-seat") && res.Streams < 4*3 {
			t.Fatalf("per seat: %d streams opened for 12 seats", res.Streams)
		}
	}
}

// TestLoadtestHistory: with OnOp the load tool records every move's
// command with the version its If-Match named; against one server, every
// command is accepted at the version the previous one on its table
// reached, the tables have no turn clock, and the histories are
// linearizable. The same history with one answer changed (a version a
// command could not have reached) is not.
func TestLoadtestHistory(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir(), "--quota-registrations-per-minute", "-1", "--quota-tables-per-hour", "-1", "--quota-costly-reads", "-1")
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	var (
		mu  sync.Mutex
		ops []loadtest.Op
	)
	cfg := loadtest.Config{Addrs: []string{base}, Duration: 2 * time.Second, Tables: 4, Clients: 2, Game: "doudizhu", Variant: "classic", Seed: 5,
		OnOp: func(o loadtest.Op) { mu.Lock(); ops = append(ops, o); mu.Unlock() }}
	var out strings.Builder
	res, err := loadtest.Run(t.Context(), cfg, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	last := map[string]int{}
	for _, o := range ops {
		if o.Outcome == loadtest.OutcomeUnknown {
			continue // the run's end cut it off
		}
		if o.Outcome != loadtest.OutcomeOK || o.Version <= o.Expected || (last[o.Table] != 0 && o.Expected != last[o.Table]) {
			t.Fatalf("command %s at table %s: %s at %d → %d, the table was at %d", o.Key, o.Table, o.Outcome, o.Expected, o.Version, last[o.Table])
		}
		last[o.Table] = o.Version
	}
	if res.Moves == 0 || len(ops) < res.Moves {
		t.Fatalf("%d commands recorded for %d moves", len(ops), res.Moves)
	}
	c := loadtest.NewClient(base)
	for id := range last {
		var v struct {
			Clock *struct {
				TurnSeconds int `json:"turn_seconds"`
			} `json:"clock"`
		}
		if _, err := c.Do(t.Context(), "GET", "/v1/tables/"+id, "audit-me", nil, &v); err != nil {
			t.Fatal(err)
		}
		if v.Clock != nil && v.Clock.TurnSeconds != 0 {
			t.Fatalf("table %s has a turn clock of %ds: the server writes to it too", id, v.Clock.TurnSeconds)
		}
	}
	if r := linearcheck.Check(ops, time.Minute); r.Linearizable != porcupine.Ok || r.Tables != len(last) {
		t.Fatalf("%s over %d tables, want Ok over %d", r.Linearizable, r.Tables, len(last))
	}
	// A command followed by another accepted one on its table.
	for i, o := range ops {
		if o.Outcome == loadtest.OutcomeOK && o.Version < last[o.Table] {
			ops[i].Version = o.Version + 1000
			break
		}
	}
	if r := linearcheck.Check(ops, time.Minute); r.Linearizable != porcupine.Illegal {
		t.Fatalf("a version no command reached: %s, want Illegal", r.Linearizable)
	}
}

// TestLoadtestIdle: --idle opens and deals the tables against a real
// server and plays no move (the memory per idle table is measured so).
func TestLoadtestIdle(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir(), "--quota-registrations-per-minute", "-1", "--quota-tables-per-hour", "-1", "--quota-costly-reads", "-1")
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	var out strings.Builder
	cfg := loadtest.Config{Addrs: []string{base}, Duration: time.Second, Tables: 3, Clients: 2, Game: "doudizhu", Variant: "classic", Seed: 3, Idle: true,
		OnAck: func(a loadtest.Ack) { t.Errorf("idle tables, yet move %s acknowledged", a.Key) }}
	res, err := loadtest.Run(t.Context(), cfg, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.Moves != 0 || !strings.Contains(out.String(), "opened and dealt 3 doudizhu/classic tables") {
		t.Fatalf("%d moves, output %q; want none and the tables opened", res.Moves, out.String())
	}
}
