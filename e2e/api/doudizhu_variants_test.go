package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"paiju/api/apitest"
)

// ddzGame is the part of a 斗地主 table's game_state these tests read.
type ddzGame struct {
	Landlord   *int     `json:"landlord"`
	Multiplier int      `json:"multiplier"`
	Open       bool     `json:"open"`
	OpenHand   []string `json:"open_hand"`
	Match      *struct {
		Hands     int  `json:"hands"`
		Played    int  `json:"played"`
		Over      bool `json:"over"`
		Standings []struct {
			Place    int    `json:"place"`
			Seat     int    `json:"seat"`
			PlayerID string `json:"player_id"`
			Total    int    `json:"total"`
		} `json:"standings"`
	} `json:"match"`
}

type ddzTable struct {
	tableView
	Closed    bool    `json:"closed"`
	GameState ddzGame `json:"game_state"`
}

func (e *env) ddzView(id, token string) ddzTable {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token})
	if r.Status != http.StatusOK {
		e.t.Fatalf("get table: %d %s", r.Status, r.Body)
	}
	var v ddzTable
	r.Decode(e.t, &v)
	return v
}

// feed returns the table's events as token sees them.
func (e *env) feed(id, token string) []eventView {
	e.t.Helper()
	var out []eventView
	for _, raw := range e.allEvents(id, token) {
		var ev eventView
		mustUnmarshal(e.t, raw, &ev)
		out = append(out, ev)
	}
	return out
}

// TestDoudizhuVariantsPlayToEnd opens each variant over REST and plays a
// hand of random legal actions to its settlement (doudizhu.md).
func TestDoudizhuVariantsPlayToEnd(t *testing.T) {
	crawlerSkipsUnderRace(t)
	for _, tc := range []struct {
		variant string
		seats   int
	}{{"classic", 3}, {"hubei", 3}, {"fourplayer", 4}} {
		t.Run(tc.variant, func(t *testing.T) {
			e := newEnv(t, 31)
			id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": tc.variant, "stake": 2}, tc.seats)
			v := e.ddzView(id, ps[0].Token)
			if v.Phase != "bidding" || len(v.Hand) != map[int]int{3: 17, 4: 25}[tc.seats] {
				t.Fatalf("%s after the last join: phase %s, %d cards", tc.variant, v.Phase, len(v.Hand))
			}
			hs := e.playHand(id, ps)
			sum := 0
			for _, d := range hs.Deltas {
				sum += d
			}
			var res struct {
				End        string `json:"end"`
				Multiplier int    `json:"multiplier"`
			}
			if err := json.Unmarshal(hs.Result, &res); err != nil {
				t.Fatal(err)
			}
			if len(hs.Deltas) != tc.seats || sum != 0 || res.Multiplier < 1 || res.End != "played_out" {
				t.Fatalf("%s settles %v with %s, want %d deltas summing to zero (doudizhu.md, Scoring)", tc.variant, hs.Deltas, hs.Result, tc.seats)
			}
		})
	}
}

// TestDoudizhuMatchOfFiveHands plays a match of 5 hands (002's tournament)
// over REST until the table closes with the standings, in each variant;
// with -short (a quick run) in classic alone.
func TestDoudizhuMatchOfFiveHands(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	for _, tc := range []struct {
		variant string
		seats   int
	}{{"classic", 3}, {"hubei", 3}, {"fourplayer", 4}} {
		if testing.Short() && tc.variant != "classic" {
			continue
		}
		t.Run(tc.variant, func(t *testing.T) { playMatch(t, tc.variant, tc.seats) })
	}
}

func playMatch(t *testing.T, variant string, seats int) {
	e := newEnv(t, 32)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": variant, "stake": 1, "options": map[string]any{"hands": 5}}, seats)
	if v := e.ddzView(id, ps[0].Token); v.GameState.Match == nil || v.GameState.Match.Hands != 5 {
		t.Fatalf("a match table shows match %+v, want 5 hands", v.GameState.Match)
	}
	settled := 0
	for step := 0; step < 3000; step++ {
		v := e.ddzView(id, ps[0].Token)
		if v.Closed {
			break
		}
		cr := e.step(id, ps)
		for _, ev := range cr.Events {
			if ev.Type == "HandSettled" {
				settled++
			}
		}
	}
	v := e.ddzView(id, ps[1].Token)
	if !v.Closed || v.Phase != "closed" || settled < 5 {
		t.Fatalf("after %d hands: closed %v phase %s; want the table closed after at least 5 hands (doudizhu.md, Tournament)", settled, v.Closed, v.Phase)
	}
	m := v.GameState.Match
	if m == nil || !m.Over || m.Played != settled || len(m.Standings) != seats || m.Standings[0].Place != 1 || m.Standings[1].Place == 1 {
		t.Fatalf("the closed table shows match %+v, want over after %d hands with one first (doudizhu.md, Tournament)", m, settled)
	}
	for _, s := range m.Standings {
		if s.Total != v.Seats[s.Seat].Total {
			t.Errorf("standing %+v, the table's total for seat %d is %d", s, s.Seat, v.Seats[s.Seat].Total)
		}
	}
	evs := e.feed(id, ps[2].Token)
	types := []string{}
	for _, ev := range evs[len(evs)-2:] {
		types = append(types, ev.Type)
	}
	if !slices.Equal(types, []string{"MatchEnded", "TableClosed"}) || evs[len(evs)-1].Data["reason"] != "match_over" {
		t.Fatalf("the feed ends with %v %v, want MatchEnded, TableClosed{match_over}", types, evs[len(evs)-1].Data)
	}
	if n := len(evs[len(evs)-2].Data["standings"].([]any)); n != seats {
		t.Errorf("MatchEnded holds %d standings, want %d", n, seats)
	}
	if l := e.legal(id, ps[0].Token); len(l) != 0 {
		t.Errorf("legal actions at a closed table: %v", l)
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[0].Token, Body: map[string]any{"type": "pass"}})
	if r.Status != http.StatusConflict || r.Problem(t) != "table_closed" {
		t.Errorf("acting at a closed table: %d %s, want 409 table_closed", r.Status, r.Body)
	}
}

// TestDoudizhuHubeiOpenHand checks 明牌 over REST: before it no seat (nor a
// spectator) sees the landlord's hand; after it every one of them does, in
// the table view and in the event feed (doudizhu.md, hubei 明牌).
func TestDoudizhuHubeiOpenHand(t *testing.T) {
	e := newEnv(t, 33)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "hubei", "stake": 1}, 3)
	spectator := e.newPlayer("sam")
	viewers := append(slices.Clone(ps), spectator)
	// Bid and grab at random until the landlord may open.
	var landlord int
	for step := 0; ; step++ {
		if step > 200 {
			t.Fatal("no landlord after 200 actions")
		}
		v := e.ddzView(id, ps[0].Token)
		if v.GameState.Landlord != nil && v.Phase == "playing" {
			landlord = *v.GameState.Landlord
			break
		}
		e.step(id, ps)
	}
	lv := e.ddzView(id, ps[landlord].Token)
	hand := lv.Hand
	mult := lv.GameState.Multiplier
	// The landlord's cards but the kitty (shown to all) are secret until 明牌.
	secret := map[string]bool{}
	for _, c := range hand {
		secret[c] = true
	}
	for _, c := range e.auditorTruth(id).kitty {
		secret[c] = false
	}
	for i, p := range viewers {
		v := e.ddzView(id, p.Token)
		if v.GameState.Open || v.GameState.OpenHand != nil {
			t.Fatalf("viewer %d sees the landlord's hand %v before 明牌", i, v.GameState.OpenHand)
		}
		if i == landlord {
			continue
		}
		for _, path := range []string{"", "/events", "/legal"} {
			r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + path, Token: p.Token})
			checkNoLeak(t, fmt.Sprintf("viewer %d", i), "GET "+path+" before 明牌", r.Body, secret, "")
		}
	}
	if !slices.ContainsFunc(e.legal(id, ps[landlord].Token), func(a map[string]any) bool { return a["type"] == "open" }) {
		t.Fatal("the landlord may not open before the first play (doudizhu.md, hubei 明牌)")
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[landlord].Token, Body: map[string]any{"type": "open"}})
	if r.Status != http.StatusOK {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var cr commandResp
	r.Decode(t, &cr)
	if len(cr.Events) != 1 || cr.Events[0].Type != "HandOpened" || fmt.Sprint(cr.Events[0].Data["cards"]) != fmt.Sprint(toAny(hand)) {
		t.Fatalf("open answers %+v, want HandOpened with the landlord's hand %v", cr.Events, hand)
	}
	for i, p := range viewers {
		v := e.ddzView(id, p.Token)
		if !v.GameState.Open || !slices.Equal(v.GameState.OpenHand, hand) || v.GameState.Multiplier != 2*mult {
			t.Errorf("viewer %d sees open %v hand %v multiplier %d after 明牌, want %v and %d", i, v.GameState.Open, v.GameState.OpenHand, v.GameState.Multiplier, hand, 2*mult)
		}
		evs := e.feed(id, p.Token)
		if last := evs[len(evs)-1]; last.Type != "HandOpened" || fmt.Sprint(last.Data["cards"]) != fmt.Sprint(toAny(hand)) {
			t.Errorf("viewer %d's feed ends with %s %v, want HandOpened showing the hand", i, last.Type, last.Data)
		}
	}
	// After a play the view shows the landlord's current hand.
	cr = e.step(id, ps)
	lv = e.ddzView(id, ps[landlord].Token)
	if v := e.ddzView(id, spectator.Token); !slices.Equal(v.GameState.OpenHand, lv.Hand) {
		t.Errorf("after a play a spectator sees %v, the landlord holds %v", v.GameState.OpenHand, lv.Hand)
	}
}

func toAny(cs []string) []any {
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = c
	}
	return out
}
