package api_test

import (
	"fmt"
	"slices"
	"testing"

	"paiju/api/apitest"
)

// TestGuafengStickHandOverREST: four players play a whole 刮风 hand over
// REST to its settlement, with a 粘牌 (shengji.md, guafeng): every card is
// drawn, one seat declares a joker and a pair, another sticks with a joker
// and a two-pair tractor, the final declarer deals and its partner buries
// every joker it holds, the sticker takes the stuck seat's declaration
// cards and gives back as many one at a time (a trump for each trump
// taken), with /legal listing a few dozen single cards at each give, then
// passes the kitty swap (its kitty shown to it alone), and every trick is
// played from the seats' legal actions. Every response is checked against
// openapi.yaml by the harness; the stuck declaration stays hidden from the
// other seats until the bury, and each card given back is seen only by the
// two seats of the exchange.
func TestGuafengStickHandOverREST(t *testing.T) {
	// Seed 3: its first deal lets one seat declare with a pair and another
	// stick with a tractor (found by shengji's TestFindRESTStickSeed).
	e := newEnv(t, 3)
	id, ps := e.openTable(map[string]any{"game": "shengji", "variant": "guafeng", "stake": 2}, 4)
	post := func(seat int, a map[string]any) commandResp {
		t.Helper()
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[seat].Token, Body: a})
		if r.Status != 200 {
			t.Fatalf("seat %d: %v: %d %s", seat, a, r.Status, r.Body)
		}
		var cr commandResp
		r.Decode(t, &cr)
		return cr
	}
	of := func(seat int, typ string) []map[string]any {
		var out []map[string]any
		for _, a := range e.legal(id, ps[seat].Token) {
			if a["type"] == typ {
				out = append(out, a)
			}
		}
		return out
	}
	for range 26 {
		post(0, map[string]any{"type": "draw"})
	}
	if v := e.view(id, ps[0].Token); v.Phase != "declaring" {
		t.Fatalf("after 26 rounds the phase is %s, want declaring", v.Phase)
	}
	// The sticker: a seat with a stick-sized declaration (a joker and two
	// pairs); the stuck seat: another seat with a joker and one pair.
	sticker, stuck := -1, -1
	var stickCards, declCards []any
	for seat := range 4 {
		for _, a := range of(seat, "declare") {
			cs := a["cards"].([]any)
			if len(cs) == 5 && cs[1] != "BJ" && cs[1] != "RJ" && sticker < 0 {
				sticker, stickCards = seat, cs
			}
		}
	}
	for seat := range 4 {
		for _, a := range of(seat, "declare") {
			if cs := a["cards"].([]any); seat != sticker && len(cs) == 3 && stuck < 0 {
				stuck, declCards = seat, cs
			}
		}
	}
	if sticker < 0 || stuck < 0 {
		t.Fatalf("seed 3 offers no stick: sticker %d, stuck %d", sticker, stuck)
	}
	post(stuck, map[string]any{"type": "declare", "cards": declCards})
	// The declaration is hidden (暗亮): another seat sees its seat and
	// strength only.
	other := (stuck + 1) % 4
	if other == sticker {
		other = (other + 1) % 4
	}
	ds := e.guafengGameState(id, ps[other].Token)["declarations"].([]any)
	if d := ds[0].(map[string]any); d["suit"] != nil || d["cards"] != nil || d["pairs"] != 1.0 {
		t.Fatalf("seat %d sees seat %d's declaration as %v (shengji.md: hidden until the kitty is buried)", other, stuck, d)
	}
	sticks := of(sticker, "stick")
	i := slices.IndexFunc(sticks, func(a map[string]any) bool { return fmt.Sprint(a["cards"]) == fmt.Sprint(stickCards) })
	if i < 0 {
		t.Fatalf("seat %d may not stick with %v over %v: offered %v", sticker, stickCards, declCards, sticks)
	}
	cr := post(sticker, sticks[i])
	if cr.Events[0].Type != "TrumpDeclared" || cr.Events[0].Data["kind"] != "stick" {
		t.Fatalf("stick: %v", cr.Events)
	}
	for seat := range 4 {
		post(seat, map[string]any{"type": "pass"})
	}
	// The sticker is the final declarer: it deals, its partner buries.
	g := e.guafengGameState(id, ps[0].Token)
	burier := (sticker + 2) % 4
	if g["dealer"] != float64(sticker) || g["burier"] != float64(burier) {
		t.Fatalf("dealer %v burier %v, want %d and %d (shengji.md, guafeng: the declarer deals; Kitty: its partner buries)", g["dealer"], g["burier"], sticker, burier)
	}
	buries := of(burier, "bury")
	if len(buries) == 0 {
		t.Fatalf("seat %d has no bury", burier)
	}
	// The trump is the sticker's hidden suit until the bury: the burier's
	// hand and buries are not sorted by it (shengji.md, guafeng: hidden until
	// the kitty is buried).
	if v := e.view(id, ps[burier].Token); !sjSortedWithoutTrump(v.Hand, g["level"].(string), true) {
		t.Fatalf("the burier sees its hand as %v before the trump is public: sorted by the hidden suit", v.Hand)
	}
	for _, a := range buries {
		var names []string
		for _, c := range a["cards"].([]any) {
			names = append(names, c.(string))
		}
		if !sjSortedWithoutTrump(names, g["level"].(string), true) {
			t.Fatalf("the burier is offered %v before the trump is public: sorted by the hidden suit", a)
		}
	}
	cr = post(burier, buries[len(buries)/2])
	// The bury takes the stuck declaration into the sticker's hand, in
	// public (doc.go: DeclarationTaken).
	taken := cr.Events[len(cr.Events)-1]
	// Trumps owed: one per card taken that is a trump under the final
	// trump (shengji.md, 粘牌): the joker, and the pair when it is of the
	// trump suit or a 2, 3, 5 or the level.
	trump := e.guafengGameState(id, ps[0].Token)["trump"]
	pair := ""
	for _, c := range declCards {
		if c != "BJ" && c != "RJ" {
			pair = c.(string)
		}
	}
	owed := 1.0
	if rank := pair[1:]; pair[:1] == trump || rank == "2" || rank == "3" || rank == "5" || rank == g["level"] {
		owed = 3
	}
	if taken.Type != "DeclarationTaken" || taken.Data["from"] != float64(stuck) || len(taken.Data["cards"].([]any)) != len(declCards) || taken.Data["trumps"] != owed {
		t.Fatalf("bury: %v, want the last event to take seat %d's %d declaration cards, %v trumps owed", cr.Events, stuck, len(declCards), owed)
	}
	// One card per exchange until the stuck seat has as many back as were
	// taken; /legal lists single cards, a few dozen at most.
	for left := len(declCards); left > 0; left-- {
		if v := e.view(id, ps[0].Token); v.Phase != "exchanging" || v.Turn == nil || *v.Turn != sticker {
			t.Fatalf("%d cards owed: phase %s turn %v, want the sticker %d to exchange", left, v.Phase, v.Turn, sticker)
		}
		exchanges := of(sticker, "exchange")
		if len(exchanges) == 0 || len(exchanges) > 40 || len(e.legal(id, ps[sticker].Token)) > 41 {
			t.Fatalf("%d cards owed: /legal offers %d exchanges, want 1..40", left, len(exchanges))
		}
		for _, a := range exchanges {
			if len(a["cards"].([]any)) != 1 {
				t.Fatalf("exchange %v: one card at a time", a)
			}
		}
		cr = post(sticker, exchanges[len(exchanges)/3])
		ex := cr.Events[0]
		// The last give opens the kitty swap too.
		want := 1
		if left == 1 {
			want = 2
		}
		if len(cr.Events) != want || ex.Type != "CardGiven" || ex.Data["to"] != float64(stuck) || ex.Data["left"] != float64(left-1) || ex.Data["cards"] == nil {
			t.Fatalf("exchange with %d owed: %v", left, cr.Events)
		}
		given := ex.Data["cards"]
		// The given card: seen by the sticker and the stuck seat only.
		for seat := range 4 {
			r := e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/events?after=%d", id, ex.Version-1), Token: ps[seat].Token})
			var feed struct {
				Events []eventView `json:"events"`
			}
			r.Decode(t, &feed)
			if len(feed.Events) == 0 || feed.Events[0].Type != "CardGiven" {
				t.Fatalf("seat %d: events %v", seat, feed.Events)
			}
			seen := feed.Events[0].Data["cards"]
			if (seat == sticker || seat == stuck) != (seen != nil) {
				t.Fatalf("seat %d sees the card given back as %v (doc.go: only the two seats of the exchange)", seat, seen)
			}
			if seen != nil && fmt.Sprint(seen) != fmt.Sprint(given) {
				t.Fatalf("seat %d sees %v given, the sticker %v", seat, seen, given)
			}
		}
	}
	// The kitty swap follows the last give (shengji.md, 粘牌 kitty swap):
	// the sticker alone is shown the kitty and may swap; it passes.
	if last := cr.Events[len(cr.Events)-1]; last.Type != "KittySwapOpened" {
		t.Fatalf("the last give: %v, want KittySwapOpened last", cr.Events)
	}
	for seat := range 4 {
		if k := e.guafengGameState(id, ps[seat].Token)["kitty"]; (k != nil) != (seat == sticker || seat == burier) {
			t.Fatalf("seat %d sees the kitty as %v in the kitty swap (the sticker and the burier only)", seat, k)
		}
	}
	if passes := of(sticker, "pass"); len(passes) != 1 {
		t.Fatalf("the sticker's kitty swap offers %v, want one pass", e.legal(id, ps[sticker].Token))
	}
	if cr = post(sticker, map[string]any{"type": "pass"}); len(cr.Events) != 1 || cr.Events[0].Type != "KittySwapClosed" {
		t.Fatalf("the sticker passes the kitty swap: %v", cr.Events)
	}
	// Every trick from the seats' legal plays, to the settlement.
	var settled map[string]any
	for step := 0; settled == nil && step < 200; step++ {
		v := e.view(id, ps[0].Token)
		if v.Phase != "playing" || v.Turn == nil {
			t.Fatalf("phase %s, turn %v, before the hand ended", v.Phase, v.Turn)
		}
		plays := of(*v.Turn, "play")
		if len(plays) == 0 {
			t.Fatalf("seat %d on turn has no legal play", *v.Turn)
		}
		cr := post(*v.Turn, plays[e.rng.IntN(len(plays))])
		for _, ev := range cr.Events {
			if ev.Type == "HandSettled" {
				settled = ev.Data
			}
		}
	}
	if settled == nil {
		t.Fatal("the hand did not settle in 200 plays")
	}
	res := settled["result"].(map[string]any)
	sum := 0.0
	for _, d := range settled["deltas"].([]any) {
		sum += d.(float64)
	}
	if res["end"] != "played_out" || sum != 0 || settled["seed"] == "" || res["dealer"] != float64(sticker) || res["trump"] == "" {
		t.Fatalf("settlement %v: a played-out hand dealt by the sticker, zero-sum, its seed revealed (shengji.md, Scoring, guafeng)", settled)
	}
	if v := e.view(id, ps[0].Token); v.HandNumber != 2 || v.LastSettlement == nil {
		t.Fatalf("after the hand the table deals hand %d", v.HandNumber)
	}
}

// guafengGameState is the game's state as token's holder sees it.
func (e *env) guafengGameState(id, token string) map[string]any {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token})
	var v struct {
		GameState map[string]any `json:"game_state"`
	}
	r.Decode(e.t, &v)
	return v.GameState
}
