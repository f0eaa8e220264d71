package api_test

import (
	"net/http"
	"testing"

	"paiju/api/apitest"
)

// TestQiangbaoMatchOverREST: four players play a whole 抢报 team match
// (shengji.md, qiangbao) over REST, from the seats' legal actions, until
// the table closes: in the first hand the first seat to show a level card
// deals (抢报) and every seat sees the shown suit at once; every hand is
// played at level 3, the kitty is taken as 8 cards and buried one card per
// action; each settlement is zero-sum and adds 1, 2 or 3 points to the side
// that won; the match closes after 5 hands or more, exactly when the
// points are untied, the side ahead winning. Every response is checked
// against openapi.yaml by the harness.
func TestQiangbaoMatchOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	e := newEnv(t, 5)
	id, ps := e.openTable(map[string]any{"game": "shengji", "variant": "qiangbao", "stake": 1}, 4)
	type choice struct {
		seat int
		a    map[string]any
	}
	var pts [2]int
	hands, firstShow := 0, -1
	var closed map[string]any
	var lastResult map[string]any
	for step := 0; closed == nil && step < 6000; step++ {
		var decl, other []choice
		for seat, p := range ps {
			for _, a := range e.legal(id, p.Token) {
				switch a["type"] {
				case "escape", "leave", "delegate":
				case "declare":
					decl = append(decl, choice{seat, a})
				case "bury":
					if n := len(a["cards"].([]any)); n != 1 {
						t.Fatalf("seat %d is offered a bury of %d cards: one per action (shengji.md, qiangbao)", seat, n)
					}
					other = append(other, choice{seat, a})
				default:
					other = append(other, choice{seat, a})
				}
			}
		}
		var c choice
		switch {
		case len(decl) > 0 && e.rng.IntN(3) == 0:
			c = decl[e.rng.IntN(len(decl))]
		case len(other) > 0:
			c = other[e.rng.IntN(len(other))]
		case len(decl) > 0:
			c = decl[0]
		default:
			t.Fatalf("no seat may act in phase %s", e.view(id, ps[0].Token).Phase)
		}
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[c.seat].Token, Body: c.a})
		if r.Status != 200 {
			t.Fatalf("seat %d: legal %v: %d %s", c.seat, c.a, r.Status, r.Body)
		}
		var cr commandResp
		r.Decode(t, &cr)
		for _, ev := range cr.Events {
			d := ev.Data
			switch ev.Type {
			case "TrumpDeclared":
				seat := int(d["seat"].(float64))
				if hands == 0 && firstShow < 0 {
					firstShow = seat
				}
				// A show is public (亮出): another seat sees the suit now.
				other := (seat + 1) % 4
				var v struct {
					GameState map[string]any `json:"game_state"`
				}
				e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[other].Token}).Decode(t, &v)
				if v.GameState["trump"] != d["suit"] || v.GameState["level"] != "3" {
					t.Fatalf("seat %d sees trump %v level %v after seat %d showed %v (shengji.md, qiangbao: level 3, shown)", other, v.GameState["trump"], v.GameState["level"], seat, d)
				}
			case "KittyTaken":
				if hands == 0 && int(d["seat"].(float64)) != firstShow {
					t.Fatalf("first hand dealt by %v; seat %d showed first (shengji.md, qiangbao: 抢报)", d["seat"], firstShow)
				}
				if d["level"] != "3" {
					t.Fatalf("hand at level %v, want 3 for the whole match", d["level"])
				}
				if int(d["seat"].(float64)) == c.seat {
					if n := len(d["cards"].([]any)); n != 8 {
						t.Fatalf("the dealer takes %d kitty cards, want 8", n)
					}
				}
			case "HandSettled":
				res := d["result"].(map[string]any)
				if res["end"] != "played_out" {
					t.Fatalf("hand ended by %v", res["end"])
				}
				hands++
				sum := 0.0
				for _, x := range d["deltas"].([]any) {
					sum += x.(float64)
				}
				k := int(res["multiple"].(float64))
				dealer := int(res["dealer"].(float64))
				won := dealer % 2
				if res["winner"] == "defenders" {
					won = 1 - won
				}
				pts[won] += k
				mp := res["match_points"].([]any)
				levels := res["levels"].([]any)
				if sum != 0 || k < 1 || k > 3 || int(mp[0].(float64)) != pts[0] || int(mp[1].(float64)) != pts[1] || levels[0] != "3" || levels[1] != "3" {
					t.Fatalf("hand %d settled %v: want zero-sum, 1–3 points to the winner (running %v), level 3 (shengji.md, qiangbao)", hands, d, pts)
				}
				lastResult = res
			case "TableClosed":
				closed = d
			}
		}
	}
	if closed == nil {
		t.Fatalf("the match did not close: %d hands, points %v", hands, pts)
	}
	if closed["reason"] != "match_over" || hands < 5 || pts[0] == pts[1] {
		t.Fatalf("closed %v after %d hands at %v: want match_over after 5 or more, untied (shengji.md, qiangbao)", closed, hands, pts)
	}
	w := 0
	if pts[1] > pts[0] {
		w = 1
	}
	if mw, ok := lastResult["match_winner"].(float64); !ok || int(mw) != w {
		t.Fatalf("match winner %v, points %v: want side %d", lastResult["match_winner"], pts, w)
	}
	t.Logf("match over after %d hands, points %v", hands, pts)
}

// TestQiangbaoOwnPairOtherSuitOverREST: after 抢报's first hand, a seat
// whose level card stands may not show a pair of another suit over its own
// single (shengji.md, qiangbao, Decision turn 3: a seat's own pair may
// override its own single only in the same suit): the pair is refused with
// 422 already_declared, is not among the seat's legal actions, and the
// table is untouched. Matches are played from seeds in turn until, in a
// later hand, the seat that showed draws such a pair.
func TestQiangbaoOwnPairOtherSuitOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel()
	// From seed 3, the first to reach the position (a match of seeds 1 or
	// 2 never does); the search goes on past it should the deals change.
	for seed := uint64(3); seed <= 22; seed++ {
		if qiangbaoOwnPairRefused(t, seed) {
			return
		}
	}
	t.Fatal("no match of seeds 3 to 22 gave a seat that showed a level pair of another suit in a later hand: widen the search")
}

// qiangbaoOwnPairRefused plays a qiangbao match dealt from seed, each seat
// offered a single level card while none stands showing it and nobody
// showing anything else, the other moves drawn at random, and reports
// whether, in a hand after the first, the seat that showed came to hold a
// level pair of another suit, which it then tries to show.
func qiangbaoOwnPairRefused(t *testing.T, seed uint64) bool {
	t.Helper()
	e := newEnv(t, seed)
	id, ps := e.openTable(map[string]any{"game": "shengji", "variant": "qiangbao", "stake": 1}, 4)
	shownHand, shown, suit := 0, -1, ""
	for step := 0; step < 6000; step++ {
		v := e.view(id, ps[0].Token)
		if v.Closed {
			return false
		}
		if shownHand != v.HandNumber {
			shownHand, shown, suit = v.HandNumber, -1, ""
		}
		if shown >= 0 && v.HandNumber > 1 {
			if pair := levelPairOtherSuit(e.view(id, ps[shown].Token).Hand, suit); pair != nil {
				for _, a := range e.legal(id, ps[shown].Token) {
					if cs, _ := a["cards"].([]any); a["type"] == "declare" && len(cs) == 2 && cs[0] == pair[0] {
						t.Fatalf("seed %d: seat %d is offered its own %v over its %s single", seed, shown, pair, suit)
					}
				}
				r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[shown].Token, Body: map[string]any{"type": "declare", "cards": pair}})
				if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "already_declared" {
					t.Fatalf("seed %d: seat %d shows its own %v over its %s single: %d %s, want 422 already_declared", seed, shown, pair, suit, r.Status, r.Body)
				}
				if after := e.view(id, ps[0].Token).Version; after != v.Version {
					t.Fatalf("seed %d: the refused show moved the table from version %d to %d", seed, v.Version, after)
				}
				return true
			}
		}
		type choice struct {
			seat int
			a    map[string]any
		}
		var show *choice
		var other []choice
		for seat, p := range ps {
			for _, a := range e.legal(id, p.Token) {
				cs, _ := a["cards"].([]any)
				switch {
				case a["type"] == "escape" || a["type"] == "leave" || a["type"] == "delegate":
				case a["type"] == "declare":
					if shown < 0 && len(cs) == 1 && show == nil {
						show = &choice{seat, a}
					}
				default:
					other = append(other, choice{seat, a})
				}
			}
		}
		c := show
		if c == nil {
			if len(other) == 0 {
				t.Fatalf("seed %d: no seat may act in phase %s", seed, v.Phase)
			}
			c = &other[e.rng.IntN(len(other))]
		}
		if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[c.seat].Token, Body: c.a}); r.Status != http.StatusOK {
			t.Fatalf("seed %d: seat %d: legal %v: %d %s", seed, c.seat, c.a, r.Status, r.Body)
		}
		if c == show {
			shown, suit = c.seat, c.a["cards"].([]any)[0].(string)[:1]
		}
	}
	t.Fatalf("seed %d: the match has not closed in 6000 actions", seed)
	return false
}

// levelPairOtherSuit is a pair of level cards (3s: every qiangbao hand is
// played at level 3) in hand of a suit other than suit, or nil.
func levelPairOtherSuit(hand []string, suit string) []string {
	n := map[string]int{}
	for _, c := range hand {
		if len(c) == 2 && c[1] == '3' && c[:1] != suit {
			n[c]++
			if n[c] == 2 {
				return []string{c, c}
			}
		}
	}
	return nil
}
