package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"
)

// typesOf lists the types of events.
func typesOf(evs []auditedEvent) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type
	}
	return out
}

// runClock moves the clock past one turn (10 s) and runs what is due.
func (e *env) runClock() {
	e.t.Helper()
	e.clock.Advance(10 * time.Second)
	if e.svc.RunDue(context.Background()) == 0 {
		e.t.Fatal("nothing ran at the deadline")
	}
}

// TestTimeoutsPassAndAbandon, over REST with the turn clock run by hand: in
// 斗地主 a timed-out last bidder after two passes passes too, and the hand is
// dealt again; a table whose seats only time out through 3 deals in a row
// thrown in closes with reason abandoned, nothing settled (rules README,
// Clocks, timeouts and absent players).
func TestTimeoutsPassAndAbandon(t *testing.T) {
	e := newEnv(t, 35)
	body := map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1, "clock": map[string]any{"turn_seconds": 10, "delegate_after": 0}}
	id, ps := e.openTable(body, 3)
	for range 3 {
		e.runClock()
	}
	got := typesOf(e.auditorEvents(id))
	tail := got[len(got)-5:]
	if want := []string{"TurnTimedOut", "BidPassed", "DealVoided", "HandDealt", "DealSecret"}; !slices.Equal(tail, want) {
		t.Fatalf("the last bidder's timeout ends the stream with %v, want %v: a pass and a new deal", tail, want)
	}
	if slices.Contains(got, "BidMade") {
		t.Fatalf("a timeout bid: %v", got)
	}
	if v := e.liveView(id, ps[0].Token); v.Closed || v.Phase != "bidding" {
		t.Fatalf("after one deal thrown in: closed %v, phase %s; want a new bidding", v.Closed, v.Phase)
	}
	for range 6 {
		e.runClock()
	}
	evs := e.auditorEvents(id)
	got = typesOf(evs)
	last := evs[len(evs)-1]
	var closed struct {
		Reason string `json:"reason"`
		Totals []int  `json:"totals"`
	}
	if err := json.Unmarshal(last.Data, &closed); err != nil || last.Type != "TableClosed" || closed.Reason != "abandoned" {
		t.Fatalf("after 3 deals of timeouts the stream ends %s %s, want TableClosed abandoned", last.Type, last.Data)
	}
	if n := count(got, "DealVoided"); n != 3 || slices.Contains(got, "HandSettled") || fmt.Sprint(closed.Totals) != "[0 0 0]" {
		t.Fatalf("%d deals thrown in, events %v, totals %v; want 3, nothing settled", n, got, closed.Totals)
	}
	if v := e.liveView(id, ps[1].Token); !v.Closed {
		t.Fatal("the table view does not show the abandoned table closed")
	}
	// A player's own feed shows the close too, checked against openapi.yaml.
	raw := e.eventsVia(e.c, id, ps[2].Token)
	var end auditedEvent
	mustUnmarshal(t, raw[len(raw)-1], &end)
	if end.Type != "TableClosed" {
		t.Fatalf("seat 2's feed ends with %s, want TableClosed", end.Type)
	}
	e.verifyStream(id)
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// TestFirstHandTimeoutsOverREST: in 刮风's and qiangbao's first hand a
// timed-out seat never declares (rules README, Clocks, timeouts and absent
// players), so a deal of timeouts alone is dealt again (seed 003: 第一局無人
// 亮主，則須重新發牌), and the third such deal in a row closes the table,
// reason abandoned, nothing settled.
func TestFirstHandTimeoutsOverREST(t *testing.T) {
	for _, variant := range []string{"guafeng", "qiangbao"} {
		t.Run(variant, func(t *testing.T) {
			e := newEnv(t, 37)
			body := map[string]any{"game": "shengji", "variant": variant, "stake": 1, "clock": map[string]any{"turn_seconds": 10, "delegate_after": 0}}
			id, ps := e.openTable(body, 4)
			for step := 0; !e.liveView(id, ps[0].Token).Closed; step++ {
				if step > 1000 {
					t.Fatal("1000 timeouts and the table is still open")
				}
				e.runClock()
			}
			evs := e.auditorEvents(id)
			got := typesOf(evs)
			last := evs[len(evs)-1]
			var closed struct {
				Reason string `json:"reason"`
			}
			if err := json.Unmarshal(last.Data, &closed); err != nil || closed.Reason != "abandoned" {
				t.Fatalf("the table closed with %s %s, want reason abandoned", last.Type, last.Data)
			}
			if n := count(got, "DealVoided"); n != 3 || slices.Contains(got, "TrumpDeclared") || slices.Contains(got, "HandSettled") {
				t.Fatalf("%d deals thrown in, a declaration or a settlement among %v; want 3 deals, no declaration, nothing settled", n, got)
			}
			e.verifyStream(id)
		})
	}
}
