package doudizhu

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// clockTable opens a table of variant under version with a turn clock that
// never delegates, seated by three (or four) players.
func clockTable(t *testing.T, version, variant string) (*table.State, *gametest.SeedSeq) {
	t.Helper()
	r, err := New().RulesAt(version, variant, json.RawMessage(nil))
	if err != nil {
		t.Fatal(err)
	}
	st, seeds := table.New(r), &gametest.SeedSeq{ID: 7}
	evs, err := table.OpenWith(r, table.Opening{ID: "t", Game: "doudizhu", Variant: variant, Stake: 1, OpenedBy: "p0", Clock: &table.Clock{TurnSeconds: 10}})
	if err != nil {
		t.Fatal(err)
	}
	applyAt(st, evs, opened)
	for i := range r.Seats() {
		evs, err := table.Join(st, fmt.Sprint("p", i), "", -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		applyAt(st, evs, opened)
	}
	return st, seeds
}

// opened is when the test tables open; deadlines count from recorded times.
var opened = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

func applyAt(st *table.State, evs []table.Payload, at time.Time) {
	for _, e := range evs {
		table.ApplyAt(st, e, at)
	}
}

// timeOut runs the clock out for the awaited seat and applies what follows.
func timeOut(t *testing.T, st *table.State, seeds table.SeedSource) []table.Payload {
	t.Helper()
	seat := st.G.(*State).turn
	deadline, ok := st.Deadline(seat)
	if !ok {
		t.Fatalf("seat %d has no deadline", seat)
	}
	evs, err := table.Timeout(st, seat, deadline, seeds)
	if err != nil {
		t.Fatal(err)
	}
	applyAt(st, evs, deadline)
	return evs
}

// A timed-out last bidder after every other seat passed passes too, and the
// deal is thrown in and dealt again (rules README, Clocks, timeouts and
// absent players: a timeout never bids where passing is legal; seed 002
// 如果都不叫，則重新發牌).
func TestTimeoutLastBidderPasses(t *testing.T) {
	for _, variant := range []string{"classic", "hubei", "fourplayer"} {
		t.Run(variant, func(t *testing.T) {
			r, _ := New().Rules(variant, nil)
			st, seeds := clockTable(t, r.Version(), variant)
			for range r.Seats() - 1 {
				timeOut(t, st, seeds)
			}
			evs := timeOut(t, st, seeds)
			types := gametest.EventTypes(evs)
			want := []string{"TurnTimedOut", "BidPassed", "DealVoided", "HandDealt", "DealSecret"}
			if fmt.Sprint(types) != fmt.Sprint(want) {
				t.Fatalf("the last bidder's timeout gave %v, want %v", types, want)
			}
			if st.Deal != 2 || st.Hand != 1 {
				t.Fatalf("after the throw-in: hand %d deal %d, want hand 1 dealt again (deal 2)", st.Hand, st.Deal)
			}
		})
	}
}

// Tables opened under the versions before the rule replay as recorded: the
// last bidder after passes bids 1 when its time runs out, and no table is
// abandoned (doc.go, Rules versions).
func TestTimeoutLastBidderOldVersions(t *testing.T) {
	for _, tc := range []struct{ version, variant string }{
		{"doudizhu/classic/1", "classic"}, {"doudizhu/hubei/2", "hubei"}, {"doudizhu/hubei/1", "hubei"},
		{"doudizhu/fourplayer/2", "fourplayer"}, {"doudizhu/fourplayer/1", "fourplayer"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			st, seeds := clockTable(t, tc.version, tc.variant)
			for range st.Rules.Seats() - 1 {
				timeOut(t, st, seeds)
			}
			evs := timeOut(t, st, seeds)
			if b, ok := evs[1].(BidMade); !ok || b.Bid != 1 {
				t.Fatalf("%s: the last bidder timed out with %v, want bid 1", tc.version, evs[1])
			}
			if a, ok := table.Adapted(st.Rules).(table.Abandoning); ok && a.AbandonAfter() != 0 {
				t.Fatalf("%s abandons tables after %d deals; its streams never did", tc.version, a.AbandonAfter())
			}
		})
	}
}

// A table whose every seat only times out through 3 deals in a row thrown in
// closes with reason abandoned, nothing settled (rules README, Clocks,
// timeouts and absent players). A seat acting for itself in a deal starts the
// count again.
func TestAbsentTableAbandoned(t *testing.T) {
	r, _ := New().Rules("classic", nil)
	st, seeds := clockTable(t, r.Version(), "classic")
	// Deal 1 thrown in by timeouts, deal 2 with seat 0 passing itself.
	for range 3 {
		timeOut(t, st, seeds)
	}
	evs, err := table.Act(st, st.G.(*State).turn, table.Action{Type: ActionPass}, seeds)
	if err != nil {
		t.Fatal(err)
	}
	applyAt(st, evs, opened)
	for range 2 {
		timeOut(t, st, seeds)
	}
	if st.Closed || st.Deal != 3 {
		t.Fatalf("after a deal a seat passed itself: closed %v, deal %d; want deal 3 running", st.Closed, st.Deal)
	}
	var last []table.Payload
	for deal := range 3 {
		for range 3 {
			if st.Closed {
				t.Fatalf("closed after %d absent deals, want 3", deal)
			}
			last = timeOut(t, st, seeds)
		}
	}
	closed, ok := last[len(last)-1].(table.TableClosed)
	if !ok || closed.Reason != "abandoned" || !st.Closed {
		t.Fatalf("3 absent deals in a row end with %v, want TableClosed abandoned", gametest.EventTypes(last))
	}
	if fmt.Sprint(closed.Totals) != "[0 0 0]" || st.Last != nil {
		t.Fatalf("an abandoned table settled something: totals %v, last %v", closed.Totals, st.Last)
	}
}

// A server bot's seat is never absent (rules README, Clocks: tables of server
// bots never count as absent): its passes keep a table of timed-out players
// open through any number of deals thrown in.
func TestBotTableNeverAbandoned(t *testing.T) {
	r, _ := New().Rules("classic", nil)
	st, seeds := table.New(r), &gametest.SeedSeq{ID: 7}
	evs, err := table.OpenWith(r, table.Opening{ID: "t", Game: "doudizhu", Variant: "classic", Stake: 1, OpenedBy: "p0", Clock: &table.Clock{TurnSeconds: 10}})
	if err != nil {
		t.Fatal(err)
	}
	applyAt(st, evs, opened)
	for i := range 2 {
		evs, err := table.Join(st, fmt.Sprint("p", i), "", -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		applyAt(st, evs, opened)
	}
	evs, err = table.SeatBot(st, "bot", "Bot", 2, seeds)
	if err != nil {
		t.Fatal(err)
	}
	applyAt(st, evs, opened)
	for step := 0; st.Deal <= 5; step++ {
		if st.Closed || step > 100 {
			t.Fatalf("a table with a server bot closed (%v) or stalled after deal %d", st.Closed, st.Deal)
		}
		seat := st.G.(*State).turn
		if seat != 2 {
			timeOut(t, st, seeds)
			continue
		}
		evs, err := table.Act(st, seat, table.Action{Type: ActionPass}, seeds)
		if err != nil {
			t.Fatal(err)
		}
		applyAt(st, evs, opened)
	}
}
