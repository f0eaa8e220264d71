package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/domain/table"
	"paiju/games"
)

// sjShownDefaults are every 升级 variant's options with their defaults
// (shengji.md, Table options), as the lobby and the table view show them.
var sjShownDefaults = map[string]map[string]any{
	"ningyang": {"match": true, "kitty_multiplier": "by_shape", "step": 40, "start_level": "A", "must_defend": "none", "show_points": true},
	"guafeng":  {"match": true, "kitty_multiplier": "cards", "kitty_deduction": true, "step": 40, "start_level": "A", "must_defend": "none", "show_points": true},
	"qiangbao": {"match": true, "kitty_multiplier": "by_shape", "show_points": true},
}

// TestShengjiOptions: every 升级 table option through the REST API
// (shengji.md, Table options (house rules) — turn 3). A table opened with
// the option (a single hand, match false) shows its options with the
// defaults filled in, in the lobby and in the table view; plays a hand of
// random legal actions to its settlement, which is restated from the
// option's arithmetic (sjCheckSettlement); show_points false hides the
// trick points from the players while the hand runs; and the table's export
// verifies, re-decided under the options it recorded.
func TestShengjiOptions(t *testing.T) {
	crawlerSkipsUnderRace(t)
	cases := []struct {
		variant string
		options map[string]any
	}{
		{"ningyang", map[string]any{"kitty_multiplier": "linear"}},
		{"ningyang", map[string]any{"kitty_multiplier": "double"}},
		{"ningyang", map[string]any{"kitty_multiplier": "cards", "show_points": false}},
		{"ningyang", map[string]any{"step": 20}},
		{"ningyang", map[string]any{"step": 30, "start_level": "2"}},
		{"ningyang", map[string]any{"must_defend": "points", "step": 20}},
		{"guafeng", map[string]any{"kitty_multiplier": "linear", "step": 20}},
		{"guafeng", map[string]any{"kitty_multiplier": "double", "must_defend": "last", "start_level": "2"}},
		{"guafeng", map[string]any{"step": 30, "show_points": false}},
		{"qiangbao", map[string]any{"kitty_multiplier": "cards", "show_points": false}},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%s_%d", c.variant, i), func(t *testing.T) {
			e := newEnv(t, 1900+uint64(i))
			opts := maps.Clone(c.options)
			opts["match"] = false
			id, ps := e.openTable(map[string]any{"game": "shengji", "variant": c.variant, "stake": 2, "options": opts}, 4)
			want := maps.Clone(sjShownDefaults[c.variant])
			maps.Copy(want, opts)
			e.sjCheckShown(id, ps[0].Token, want)

			// Play the hand; once tricks are played, the players' views
			// show the points only when show_points is on (the auditor's
			// always do).
			hs := e.sjPlayHand(id, ps, func() {
				e.sjCheckPointsShown(id, ps[1].Token, opts["show_points"] != false)
				e.sjCheckPointsShown(id, auditorToken, true)
			})
			sjCheckSettlement(t, c.variant, want, 2, hs.Deltas, hs.Result, e.sjLastTrick(id))
			e.sjCheckPointsShown(id, ps[1].Token, true)

			full := e.export(id, auditorToken)
			if full.Status != http.StatusOK {
				t.Fatalf("auditor export: %d %s", full.Status, full.Body)
			}
			if _, err := audit.VerifyExport(games.All().Rules, bytes.NewReader(full.Body)); err != nil {
				t.Fatalf("the export of a table played under %v does not verify: %v", opts, err)
			}
		})
	}
}

// sjPlayHand plays random legal actions (shengjiStep) until the first hand
// settles, calling midHand once, the first time three tricks are played;
// the plays skip the OpenAPI checks (midHand's reads are checked).
func (e *env) sjPlayHand(id string, ps []player, midHand func()) table.HandSettled {
	e.t.Helper()
	checked := e.c
	defer func() { e.c = checked }()
	e.c = e.c.Unchecked()
	for range 3000 {
		e.shengjiStep(id, ps)
		var v struct {
			Phase          string             `json:"phase"`
			LastSettlement *table.HandSettled `json:"last_settlement"`
			GameState      struct {
				Tricks int `json:"tricks"`
			} `json:"game_state"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: auditorToken}).Decode(e.t, &v)
		if v.LastSettlement != nil {
			if midHand != nil {
				e.t.Fatalf("the hand settled before its third trick was seen")
			}
			return *v.LastSettlement
		}
		if midHand != nil && v.Phase == "playing" && v.GameState.Tricks >= 3 {
			e.c = checked
			midHand()
			e.c, midHand = e.c.Unchecked(), nil
		}
	}
	e.t.Fatalf("hand 1 did not settle in 3000 actions")
	return table.HandSettled{}
}

// TestShengjiOptionsRefused: a bad value, or an option the variant does not
// take (qiangbao's level is fixed: no step, start_level or must_defend), is
// 422 invalid_option naming the key in the problem's option member; nothing
// is opened (rules README, Table options: Validated).
func TestShengjiOptionsRefused(t *testing.T) {
	e := newEnv(t, 950)
	p := e.newPlayer("opener")
	cases := []struct {
		variant string
		options map[string]any
		key     string
	}{
		{"ningyang", map[string]any{"kitty_multiplier": "triple"}, "kitty_multiplier"},
		{"guafeng", map[string]any{"kitty_multiplier": "by_shape"}, "kitty_multiplier"},
		{"ningyang", map[string]any{"step": 25}, "step"},
		{"guafeng", map[string]any{"start_level": "3"}, "start_level"},
		{"ningyang", map[string]any{"must_defend": "always"}, "must_defend"},
		{"guafeng", map[string]any{"show_points": "no"}, "show_points"},
		{"qiangbao", map[string]any{"step": 20}, "step"},
		{"qiangbao", map[string]any{"start_level": "2"}, "start_level"},
		{"qiangbao", map[string]any{"must_defend": "last"}, "must_defend"},
		{"ningyang", map[string]any{"kitty_deduction": false}, "kitty_deduction"},
	}
	for _, c := range cases {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Raw: true,
			Body: map[string]any{"game": "shengji", "variant": c.variant, "options": c.options}})
		var prob struct {
			Code   string `json:"code"`
			Option string `json:"option"`
		}
		mustUnmarshal(t, r.Body, &prob)
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" || prob.Option != c.key {
			t.Errorf("%s options %v: %d %s, want 422 invalid_option naming %q", c.variant, c.options, r.Status, r.Body, c.key)
		}
	}
}

// sjCheckShown: the table view and the lobby show the table's options with
// every default filled in.
func (e *env) sjCheckShown(id, token string, want map[string]any) {
	e.t.Helper()
	wantJSON, _ := json.Marshal(want)
	var v struct {
		Options map[string]any `json:"options"`
	}
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token})
	r.Decode(e.t, &v)
	if got, _ := json.Marshal(v.Options); string(got) != string(wantJSON) {
		e.t.Fatalf("the table view shows options %s, want %s", got, wantJSON)
	}
	var lobby struct {
		Tables []struct {
			ID      string         `json:"id"`
			Options map[string]any `json:"options"`
		} `json:"tables"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/me/tables", Token: token}).Decode(e.t, &lobby)
	for _, tb := range lobby.Tables {
		if tb.ID == id {
			if got, _ := json.Marshal(tb.Options); string(got) != string(wantJSON) {
				e.t.Fatalf("the lobby shows options %s, want %s", got, wantJSON)
			}
			return
		}
	}
	e.t.Fatalf("table %s is not in /v1/me/tables", id)
}

// sjCheckPointsShown: token's view shows the trick points (defender_points
// and the sides' points) exactly when shown (shengji.md, Table options,
// show_points: view-only).
func (e *env) sjCheckPointsShown(id, token string, shown bool) {
	e.t.Helper()
	var v struct {
		GameState struct {
			DefenderPoints *int `json:"defender_points"`
			Sides          []struct {
				Points *int `json:"points"`
			} `json:"sides"`
		} `json:"game_state"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token}).Decode(e.t, &v)
	g := v.GameState
	if (g.DefenderPoints != nil) != shown || len(g.Sides) != 2 || (g.Sides[0].Points != nil) != shown || (g.Sides[1].Points != nil) != shown {
		e.t.Fatalf("defender_points %v, sides %+v: want the points shown %v (shengji.md, Table options, show_points)", g.DefenderPoints, g.Sides, shown)
	}
}

// sjLastTrick is the plays of the last trick of the table's last hand, by
// seat.
func (e *env) sjLastTrick(id string) map[int][]string {
	e.t.Helper()
	var plays []map[int][]string
	for _, ev := range e.auditorEvents(id) {
		if ev.Type != "CardsPlayed" {
			continue
		}
		var d struct {
			Seat  int      `json:"seat"`
			Cards []string `json:"cards"`
		}
		mustUnmarshal(e.t, ev.Data, &d)
		plays = append(plays, map[int][]string{d.Seat: d.Cards})
	}
	trick := map[int][]string{}
	for _, p := range plays[len(plays)-4:] {
		maps.Copy(trick, p)
	}
	return trick
}

// sjOutcome is the part of a 升级 settlement the options shape.
type sjOutcome struct {
	End             string   `json:"end"`
	Dealer          int      `json:"dealer"`
	TrickPoints     int      `json:"trick_points"`
	KittyPoints     int      `json:"kitty_points"`
	KittyMultiplier int      `json:"kitty_multiplier"`
	KittyDeducted   bool     `json:"kitty_deducted"`
	DefenderPoints  int      `json:"defender_points"`
	LastTrick       int      `json:"last_trick"`
	Multiple        int      `json:"multiple"`
	LevelSteps      int      `json:"level_steps"`
	StepsLost       int      `json:"steps_lost"`
	NextDealer      int      `json:"next_dealer"`
	Levels          []string `json:"levels"`
	KittyRule       string   `json:"kitty_rule"`
	Step            int      `json:"step"`
}

// sjCheckSettlement restates a first hand's settlement from shengji.md's
// arithmetic under the shown options opts: the kitty's factor from the last
// trick's winning play (Table options, kitty_multiplier), the defenders'
// points X, the stakes by the step formulas (or qiangbao's match table),
// zero-sum deltas at stake, the levels from the start level under the
// must_defend gates, and the next dealer.
func sjCheckSettlement(t *testing.T, variant string, opts map[string]any, stake int, deltas []int, raw json.RawMessage, last map[int][]string) {
	t.Helper()
	var res sjOutcome
	mustUnmarshal(t, raw, &res)
	if res.End != "played_out" {
		t.Fatalf("the hand ended by %s", res.End)
	}
	side := func(seat int) int { return seat % 2 }
	defendersLast := side(res.LastTrick) != side(res.Dealer)
	win := last[res.LastTrick]
	n, pairs, same := len(win), 0, map[string]int{}
	for _, c := range win {
		if same[c]++; same[c]%2 == 0 {
			pairs++
		}
	}
	mode := opts["kitty_multiplier"].(string)
	factor := map[string]int{"by_shape": 1 << (pairs + 1), "double": 2, "linear": 2 * n, "cards": n}[mode]
	x := res.TrickPoints
	switch {
	case variant != "guafeng" && defendersLast:
		x += res.KittyPoints * factor
	case variant != "guafeng":
		factor = 0
	case res.KittyMultiplier == 0:
		// guafeng: the last trick was not won with trumps.
		factor = 0
	case defendersLast:
		x += res.KittyPoints * factor
	case res.KittyDeducted:
		x -= res.KittyPoints * factor
	}
	defaultMode := map[bool]string{true: "cards", false: "by_shape"}[variant == "guafeng"]
	wantRule := ""
	if factor != 0 && mode != defaultMode {
		wantRule = mode
	}
	if res.KittyMultiplier != factor || res.DefenderPoints != x || res.KittyRule != wantRule {
		t.Fatalf("last trick won by seat %d with %v, options %v: kitty ×%d (rule %q), X %d; want ×%d (rule %q), X %d (shengji.md, Table options, kitty_multiplier)", res.LastTrick, win, opts, res.KittyMultiplier, res.KittyRule, res.DefenderPoints, factor, wantRule, x)
	}
	dealerWins, k, up := sjScore(variant, opts, x)
	if res.Multiple != k {
		t.Fatalf("X = %d under %v: multiple %d, want %d (shengji.md, Table options, step)", x, opts, res.Multiple, k)
	}
	for seat, d := range deltas {
		want := k * stake
		if (side(seat) == side(res.Dealer)) != dealerWins {
			want = -want
		}
		if d != want {
			t.Fatalf("X = %d under %v: seat %d gets %d, want %d", x, opts, seat, d, want)
		}
	}
	next := (res.Dealer + 1) % 4
	if dealerWins {
		next = (res.Dealer + 2) % 4
	}
	levels := []string{"3", "3"}
	if variant != "qiangbao" {
		start := map[string]int{"A": 1, "2": 2}[opts["start_level"].(string)]
		lv := [2]int{start, start}
		rising := 1 - side(res.Dealer)
		if dealerWins {
			rising = side(res.Dealer)
		}
		lv[rising] = sjClimb(opts["must_defend"].(string), start, start, up, dealerWins)
		levels = []string{sjLevelName(lv[0], start), sjLevelName(lv[1], start)}
	}
	if res.NextDealer != next || res.Levels[0] != levels[0] || res.Levels[1] != levels[1] {
		t.Fatalf("X = %d under %v: next dealer %d, levels %v; want %d, %v (shengji.md, Scoring and levels; Table options)", x, opts, res.NextDealer, res.Levels, next, levels)
	}
	if step := opts["step"]; step != nil && step != 40 && res.Step != step {
		t.Fatalf("step %v: the result records step %d", step, res.Step)
	}
}

// sjScore is the winning side, the stakes and the level steps for X
// (shengji.md, Scoring and levels, and Table options, step; qiangbao's
// match points).
func sjScore(variant string, opts map[string]any, x int) (dealerWins bool, k, up int) {
	if variant == "qiangbao" {
		switch {
		case x <= 0:
			return true, 3, 0
		case x < 30:
			return true, 2, 0
		case x < 80:
			return true, 1, 0
		case x < 120:
			return false, 1, 0
		case x < 160:
			return false, 2, 0
		}
		return false, 3, 0
	}
	step := opts["step"].(int)
	if x >= 80 {
		k = 1 + (x-80)/step
		return false, k, k - 1
	}
	if variant == "guafeng" {
		k = (80 - x + step - 1) / step
		if x <= 0 {
			k++
		}
		return true, k, k
	}
	k = 1 + (80-x)/step
	return true, k, k
}

// sjClimb climbs from level from by n steps, stopping at a must_defend
// gate; a side at a gate climbs only as the dealer side (shengji.md, Table
// options, must_defend). Levels count from start; the last is start + 12.
func sjClimb(mustDefend string, start, from, n int, asDealer bool) int {
	gates := map[string][]int{"last": {start + 12}, "points": {5, 10, 13, start + 12}}[mustDefend]
	isGate := func(l int) bool {
		for _, g := range gates {
			if g == l {
				return true
			}
		}
		return false
	}
	if isGate(from) && !asDealer {
		return from
	}
	l := from
	for range n {
		if l++; isGate(l) {
			break
		}
	}
	return l
}

// sjLevelName names level l of a match started at start: "A" for 1 and 14,
// "won" past the last.
func sjLevelName(l, start int) string {
	switch {
	case l > start+12:
		return "won"
	case l == 1 || l == 14:
		return "A"
	}
	return map[int]string{11: "J", 12: "Q", 13: "K"}[l] + map[bool]string{true: fmt.Sprint(l), false: ""}[l <= 10]
}

// TestShengjiQuickOptions: quick play matches 升级 tables by their
// normalized options: options at their defaults are the table without
// options; another value opens another table; a bad value is 422
// invalid_option naming the key.
func TestShengjiQuickOptions(t *testing.T) {
	e := newEnv(t, 960)
	quick := func(name string, options map[string]any) (int, string, *apitest.Response) {
		p := e.newPlayer(name)
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: p.Token, Raw: true,
			Body: map[string]any{"game": "shengji", "variant": "ningyang", "options": options}})
		var tv tableView
		if r.Status == http.StatusOK || r.Status == http.StatusCreated {
			r.Decode(t, &tv)
		}
		return r.Status, tv.ID, r
	}
	st, plain, _ := quick("ann", map[string]any{})
	if st != http.StatusCreated {
		t.Fatalf("ann's quick play: %d", st)
	}
	if st, id, _ := quick("ben", map[string]any{"step": 40, "start_level": "A", "must_defend": "none", "show_points": true, "kitty_multiplier": "by_shape"}); st != http.StatusOK || id != plain {
		t.Fatalf("ben's quick play with the defaults spelled out: %d at %s, want 200 at %s", st, id, plain)
	}
	st, fast, _ := quick("cat", map[string]any{"step": 20})
	if st != http.StatusCreated || fast == plain {
		t.Fatalf("cat's quick play with step 20: %d at %s, want a new table", st, fast)
	}
	if st, id, _ := quick("dan", map[string]any{"step": 20}); st != http.StatusOK || id != fast {
		t.Fatalf("dan's quick play with step 20: %d at %s, want 200 at %s", st, id, fast)
	}
	st, _, r := quick("eve", map[string]any{"must_defend": "sometimes"})
	var prob struct {
		Option string `json:"option"`
	}
	mustUnmarshal(t, r.Body, &prob)
	if st != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" || prob.Option != "must_defend" {
		t.Fatalf("a bad must_defend in quick play: %d %s", st, r.Body)
	}
}
