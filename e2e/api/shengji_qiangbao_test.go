package api_test

import (
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
