package shengji

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestOptionsRecorded: rules README, Table options: a key at its default is
// left out of the recorded options, except the keys recorded before turn 3
// (ningyang's and qiangbao's kitty_multiplier, guafeng's kitty_deduction),
// which keep their recorded form so every stream replays byte-identically;
// the shown options fill every default in.
func TestOptionsRecorded(t *testing.T) {
	cases := []struct{ variant, options, recorded, shown string }{
		{"ningyang", ``, `{"match":true,"kitty_multiplier":"by_shape"}`,
			`{"match":true,"kitty_multiplier":"by_shape","step":40,"start_level":"A","must_defend":"none","show_points":true}`},
		{"ningyang", `{"step":40,"start_level":"A","must_defend":"none","show_points":true}`, `{"match":true,"kitty_multiplier":"by_shape"}`,
			`{"match":true,"kitty_multiplier":"by_shape","step":40,"start_level":"A","must_defend":"none","show_points":true}`},
		{"ningyang", `{"kitty_multiplier":"linear","step":20,"start_level":"2","must_defend":"points","show_points":false}`,
			`{"match":true,"kitty_multiplier":"linear","step":20,"start_level":"2","must_defend":"points","show_points":false}`,
			`{"match":true,"kitty_multiplier":"linear","step":20,"start_level":"2","must_defend":"points","show_points":false}`},
		{"guafeng", ``, `{"match":true,"kitty_deduction":true}`,
			`{"match":true,"kitty_multiplier":"cards","kitty_deduction":true,"step":40,"start_level":"A","must_defend":"none","show_points":true}`},
		{"guafeng", `{"kitty_multiplier":"cards"}`, `{"match":true,"kitty_deduction":true}`,
			`{"match":true,"kitty_multiplier":"cards","kitty_deduction":true,"step":40,"start_level":"A","must_defend":"none","show_points":true}`},
		{"guafeng", `{"kitty_multiplier":"double","step":30,"must_defend":"last"}`, `{"match":true,"kitty_multiplier":"double","kitty_deduction":true,"step":30,"must_defend":"last"}`,
			`{"match":true,"kitty_multiplier":"double","kitty_deduction":true,"step":30,"start_level":"A","must_defend":"last","show_points":true}`},
		{"qiangbao", ``, `{"match":true,"kitty_multiplier":"by_shape"}`, `{"match":true,"kitty_multiplier":"by_shape","show_points":true}`},
		{"qiangbao", `{"kitty_multiplier":"cards","show_points":false}`, `{"match":true,"kitty_multiplier":"cards","show_points":false}`,
			`{"match":true,"kitty_multiplier":"cards","show_points":false}`},
		// A duplicate tournament's tables: their recorded form is unchanged.
		{"ningyang", `{"duplicate":true}`, `{"match":true,"kitty_multiplier":"by_shape","duplicate":true}`,
			`{"match":true,"kitty_multiplier":"by_shape","duplicate":true,"step":40,"start_level":"A","must_defend":"none","show_points":true}`},
	}
	for _, c := range cases {
		r := variantRules(t, c.variant, c.options)
		if got := string(r.Options()); got != c.recorded {
			t.Errorf("%s %s: recorded %s, want %s", c.variant, c.options, got, c.recorded)
		}
		if got := string(r.ShownOptions()); got != c.shown {
			t.Errorf("%s %s: shown %s, want %s", c.variant, c.options, got, c.shown)
		}
		// The recorded form reads back to the same rules (RulesAt replays it).
		again, err := New().RulesAt(r.Version(), c.variant, r.Options())
		if err != nil || string(again.Options()) != c.recorded {
			t.Errorf("%s: RulesAt(recorded %s): %v, %v", c.variant, c.recorded, again, err)
		}
	}
}

// TestOptionsRefused: a bad value, a key the variant does not take, and
// qiangbao's step, start_level and must_defend are 422 invalid_option naming
// the key (rules README, Table options: Validated; shengji.md, Table
// options: "422 in qiangbao").
func TestOptionsRefused(t *testing.T) {
	cases := []struct{ variant, options, key string }{
		{"ningyang", `{"kitty_multiplier":"triple"}`, "kitty_multiplier"},
		{"guafeng", `{"kitty_multiplier":"by_shape"}`, "kitty_multiplier"},
		{"ningyang", `{"step":35}`, "step"},
		{"ningyang", `{"step":10}`, "step"},
		{"guafeng", `{"step":"40"}`, "step"},
		{"ningyang", `{"start_level":"3"}`, "start_level"},
		{"ningyang", `{"start_level":2}`, "start_level"},
		{"guafeng", `{"must_defend":"all"}`, "must_defend"},
		{"ningyang", `{"show_points":"no"}`, "show_points"},
		{"qiangbao", `{"step":40}`, "step"},
		{"qiangbao", `{"start_level":"A"}`, "start_level"},
		{"qiangbao", `{"must_defend":"last"}`, "must_defend"},
		{"ningyang", `{"kitty_deduction":true}`, "kitty_deduction"},
		{"ningyang", `{"match":1}`, "match"},
		{"guafeng", `{"speed":2}`, "speed"},
	}
	for _, c := range cases {
		_, err := New().Rules(c.variant, json.RawMessage(c.options))
		var te *table.Error
		if !errors.Is(err, table.ErrBadOption) || !errors.As(err, &te) || te.Option != c.key {
			t.Errorf("%s %s: %v, want invalid_option naming %q", c.variant, c.options, err, c.key)
		}
	}
}

// settleWith settles a hand of variant under options: dealer seat 0, levels
// as given, the kitty of kittyPts (ningyang's values), the last trick won by
// last with a play of shape sh (trumps), the defenders' trick points def.
func settleWith(t *testing.T, variant, opts string, levels [2]int, kitty []cards.Card, last int, sh Shape, def int) (table.HandSettled, Result, []table.Payload) {
	t.Helper()
	r := variantRules(t, variant, opts)
	s := newState(r.v, r.o)
	s.Stake, s.dealer, s.levels = 1, 0, levels
	s.order = Order{Level: levelRank(levels[0]), Trump: cards.Hearts, Fixed: r.v.fixedTrumps}
	s.buried = kitty
	evs := settledOut(t, s, last, sh, true, def)
	hs, res := gametest.SettledOf[Result](t, evs)
	return hs, res, evs
}

// TestKittyMultiplierOption: shengji.md, Table options, kitty_multiplier:
// with n cards and p pairs in the last trick's winning play, by_shape
// 2^(p+1), double 2, linear 2n, cards n; guafeng keeps its trump-only
// condition and kitty_deduction uses the same factor.
func TestKittyMultiplierOption(t *testing.T) {
	tractor3 := Shape{Pairs: 3}
	cases := []struct {
		variant, opts string
		kitty         string
		last          int
		sh            Shape
		def           int
		factor, x     int
		dealerDelta   int
		rule          string
	}{
		// The file's example, ningyang: defenders 50, kitty 10 points, last
		// trick won by a 3-pair tractor: by_shape ×16, X = 210, defenders +4;
		// linear ×12, X = 170, +3.
		{"ningyang", ``, "S10 S4 S6 S7", 1, tractor3, 50, 16, 210, -4, ""},
		{"ningyang", `{"kitty_multiplier":"linear"}`, "S10 S4 S6 S7", 1, tractor3, 50, 12, 170, -3, "linear"},
		{"ningyang", `{"kitty_multiplier":"double"}`, "S10 S4 S6 S7", 1, tractor3, 50, 2, 70, 1, "double"},
		{"ningyang", `{"kitty_multiplier":"cards"}`, "S10 S4 S6 S7", 1, tractor3, 50, 6, 110, -1, "cards"},
		{"ningyang", `{"kitty_multiplier":"cards"}`, "S10 S4 S6 S7", 1, Shape{}, 50, 1, 60, 1, "cards"},
		{"qiangbao", `{"kitty_multiplier":"linear"}`, "S10 S4 S6 S7 S8 S9 SJ SQ", 1, Shape{Pairs: 1}, 50, 4, 90, -1, "linear"},
		// guafeng: kitty S K D4 RJ = 10 + 0 + 100 + 10 (the level is 2, none
		// of them a level card) = 120; a trump pair wins the last trick.
		{"guafeng", ``, "SK D4 RJ C10", 1, Shape{Pairs: 1}, 40, 2, 40 + 120*2, -6, ""},
		{"guafeng", `{"kitty_multiplier":"linear"}`, "SK D4 RJ C10", 1, Shape{Pairs: 1}, 40, 4, 40 + 120*4, -12, "linear"},
		{"guafeng", `{"kitty_multiplier":"double"}`, "SK D4 RJ C10", 1, Shape{}, 40, 2, 40 + 120*2, -6, "double"},
		// The dealer side won it: the deduction uses the same factor.
		{"guafeng", `{"kitty_multiplier":"linear"}`, "SK D4 RJ C10", 0, Shape{Pairs: 1}, 40, 4, 40 - 120*4, 14, "linear"},
	}
	for _, c := range cases {
		hs, res, _ := settleWith(t, c.variant, c.opts, [2]int{2, 2}, cards.MustParse(c.kitty), c.last, c.sh, c.def)
		if res.KittyMultiplier != c.factor || res.DefenderPoints != c.x || hs.Deltas[0] != c.dealerDelta || res.KittyRule != c.rule {
			t.Errorf("%s %s, kitty %s, last trick seat %d with %s, trick points %d: ×%d X %d dealer %+d rule %q; want ×%d X %d dealer %+d rule %q (shengji.md, Table options, kitty_multiplier)",
				c.variant, c.opts, c.kitty, c.last, c.sh, c.def, res.KittyMultiplier, res.DefenderPoints, hs.Deltas[0], res.KittyRule, c.factor, c.x, c.dealerDelta, c.rule)
		}
	}
}

// TestStepOption: shengji.md, Table options, step: the formulas, which at
// 40 are exactly the scoring tables, and the file's examples (ningyang X =
// 25: 40 → dealer +2, 20 → +3; guafeng X = 130: 40 → defenders +2, one
// level; 20 → +3, two levels).
func TestStepOption(t *testing.T) {
	for x := -120; x <= 400; x += 5 {
		if x >= 0 {
			w, k := scoreTable(x, 40)
			if want := expectedScore(x); (want > 0) != w || abs(want) != k {
				t.Errorf("ningyang X = %d at step 40: %v %d, the table says %d (shengji.md, Scoring and levels)", x, w, k, want)
			}
		}
		w, k := guafengScore(x, 40)
		if want := guafengTableScore(x); (want > 0) != w || abs(want) != k {
			t.Errorf("guafeng X = %d at step 40: %v %d, the table says %d (shengji.md, Scoring and levels, guafeng)", x, w, k, want)
		}
	}
	cases := []struct {
		variant, opts string
		x             int
		dealerDelta   int
		levels        [2]string
		step          int
	}{
		{"ningyang", ``, 25, 2, [2]string{"4", "2"}, 0},
		{"ningyang", `{"step":20}`, 25, 3, [2]string{"5", "2"}, 20},
		{"ningyang", `{"step":30}`, 25, 2, [2]string{"4", "2"}, 30},
		{"ningyang", `{"step":30}`, 20, 3, [2]string{"5", "2"}, 30},
		{"ningyang", `{"step":20}`, 125, -3, [2]string{"2", "4"}, 20},
		{"guafeng", ``, 130, -2, [2]string{"2", "3"}, 0},
		{"guafeng", `{"step":20}`, 130, -3, [2]string{"2", "4"}, 20},
		{"guafeng", `{"step":20}`, 25, 3, [2]string{"5", "2"}, 20},
		{"guafeng", `{"step":30}`, 0, 4, [2]string{"6", "2"}, 30},
	}
	for _, c := range cases {
		hs, res, _ := settleWith(t, c.variant, c.opts, [2]int{2, 2}, nil, 0, Shape{}, c.x)
		if hs.Deltas[0] != c.dealerDelta || res.Levels[0] != c.levels[0] || res.Levels[1] != c.levels[1] || res.Step != c.step {
			t.Errorf("%s %s, X = %d: dealer %+d levels %v step %d; want %+d %v %d (shengji.md, Table options, step)", c.variant, c.opts, c.x, hs.Deltas[0], res.Levels, res.Step, c.dealerDelta, c.levels, c.step)
		}
	}
}

// guafengTableScore is seed 003's table (shengji.md, Scoring and levels,
// guafeng) continued every 40 both ways: the dealer side's stakes, negative
// when the defenders win.
func guafengTableScore(x int) int {
	switch {
	case x < 0:
		return 4 + (-x-5)/40
	case x == 0:
		return 3
	case x < 40:
		return 2
	case x < 80:
		return 1
	}
	return -(1 + (x-80)/40)
}

func abs(n int) int { return max(n, -n) }

// TestStartLevelOption: shengji.md, Table options, start_level "2": sides
// start at 2 and climb 2 … K, A; passing A (not K) wins the match.
func TestStartLevelOption(t *testing.T) {
	r := variantRules(t, "ningyang", `{"start_level":"2"}`)
	if s := newState(r.v, r.o); s.levels != [2]int{2, 2} {
		t.Fatalf("start_level 2: levels %v, want both at 2", s.levels)
	}
	cases := []struct {
		opts   string
		levels [2]int
		x      int
		want   [2]string
		won    bool
	}{
		{`{"start_level":"2"}`, [2]int{12, 3}, 40, [2]string{"A", "3"}, false},  // Q +2: K, then A
		{`{"start_level":"2"}`, [2]int{13, 3}, 40, [2]string{"won", "3"}, true}, // K +2 passes A
		{`{"start_level":"2"}`, [2]int{14, 3}, 60, [2]string{"won", "3"}, true}, // A +1
		{``, [2]int{12, 3}, 40, [2]string{"won", "3"}, true},                    // from A: passing K wins
	}
	for _, c := range cases {
		_, res, evs := settleWith(t, "ningyang", c.opts, c.levels, nil, 0, Shape{}, c.x)
		closed := evs[len(evs)-1].EventType() == "TableClosed"
		if res.Levels[0] != c.want[0] || res.Levels[1] != c.want[1] || (res.MatchWinner != nil) != c.won || closed != c.won {
			t.Errorf("%s levels %v X = %d: levels %v, match winner %v, closed %v; want %v, won %v (shengji.md, Table options, start_level)", c.opts, c.levels, c.x, res.Levels, res.MatchWinner, closed, c.want, c.won)
		}
	}
	// The result's level names read back to the same levels.
	for l := 2; l <= 15; l++ {
		if got := r.o.levelNumber(r.o.levelName(l)); got != l {
			t.Errorf("start 2: level %d reads back as %d", l, got)
		}
	}
}

// TestStartLevelMenPai: 悶牌's floor is the start (shengji.md, Table
// options, start_level: "every rule naming the first level … reads the
// start"): at 2 a guafeng side does not drop to A.
func TestStartLevelMenPai(t *testing.T) {
	r := variantRules(t, "guafeng", `{"start_level":"2"}`)
	for _, c := range []struct{ level, want int }{{5, 4}, {2, 2}, {14, 13}} {
		st := deal{first: [4]string{"S2", "S3", "S4", "S5"}, kitty: "BJ H3 H4 H6"}.build(t, r)
		g := gametest.Game[State](st)
		g.matchDealer, g.dealer, g.levels = 1, 1, [2]int{3, c.level}
		g.order.Level = levelRank(c.level)
		evs := closeWindow(t, st)
		i := slices.Index(gametest.EventTypes(evs), "LevelDropped")
		if i < 0 || evs[i].(LevelDropped).Level != r.o.levelName(c.want) || gametest.Game[State](st).levels[1] != c.want {
			t.Errorf("悶牌 at %s from start 2: %v, side 1 at %d; want a drop to %s", r.o.levelName(c.level), gametest.EventTypes(evs), gametest.Game[State](st).levels[1], r.o.levelName(c.want))
		}
	}
}

// TestMustDefendOption: shengji.md, Table options, must_defend, and its
// example (ningyang, last: dealer side at J wins 3 levels: stops at K; as
// defenders at K with X = 160 it goes on stage at K, not +2).
func TestMustDefendOption(t *testing.T) {
	const J, Q, K = 11, 12, 13
	cases := []struct {
		opts        string
		levels      [2]int // side 0 deals
		x           int
		want        [2]string
		steps, lost int
		won         bool
	}{
		{``, [2]int{J, 3}, 0, [2]string{"won", "3"}, 3, 0, true},
		{`{"must_defend":"last"}`, [2]int{J, 3}, 0, [2]string{"K", "3"}, 2, 1, false},
		{`{"must_defend":"last"}`, [2]int{3, K}, 160, [2]string{"3", "K"}, 0, 2, false},
		{`{"must_defend":"last"}`, [2]int{K, 3}, 40, [2]string{"won", "3"}, 2, 0, true}, // a dealer win at the gate
		{`{"must_defend":"last"}`, [2]int{Q, 3}, 45, [2]string{"K", "3"}, 1, 0, false},
		{`{"must_defend":"points"}`, [2]int{3, 2}, 0, [2]string{"5", "2"}, 2, 1, false},
		{`{"must_defend":"points"}`, [2]int{5, 2}, 0, [2]string{"8", "2"}, 3, 0, false},
		{`{"must_defend":"points"}`, [2]int{8, 2}, 0, [2]string{"10", "2"}, 2, 1, false},
		{`{"must_defend":"points"}`, [2]int{3, 10}, 200, [2]string{"3", "10"}, 0, 3, false},
		{`{"must_defend":"points"}`, [2]int{3, 9}, 200, [2]string{"3", "10"}, 1, 2, false},
		{`{"must_defend":"points"}`, [2]int{3, 6}, 165, [2]string{"3", "8"}, 2, 0, false},
		{`{"must_defend":"points","start_level":"2"}`, [2]int{K, 3}, 0, [2]string{"A", "3"}, 1, 2, false},
		{`{"must_defend":"last","start_level":"2"}`, [2]int{14, 3}, 60, [2]string{"won", "3"}, 1, 0, true},
	}
	for _, c := range cases {
		_, res, evs := settleWith(t, "ningyang", c.opts, c.levels, nil, 0, Shape{}, c.x)
		closed := evs[len(evs)-1].EventType() == "TableClosed"
		if res.Levels[0] != c.want[0] || res.Levels[1] != c.want[1] || res.LevelSteps != c.steps || res.StepsLost != c.lost || closed != c.won {
			t.Errorf("%s levels %v X = %d: levels %v steps %d lost %d closed %v; want %v %d %d %v (shengji.md, Table options, must_defend)",
				c.opts, c.levels, c.x, res.Levels, res.LevelSteps, res.StepsLost, closed, c.want, c.steps, c.lost, c.won)
		}
	}
	// guafeng: defenders at 10 going on stage with X = 200 (+3 levels)
	// stay at 10; below it at 9 they stop there.
	for _, c := range []struct {
		from int
		want string
	}{{10, "10"}, {9, "10"}, {6, "9"}} {
		_, res, _ := settleWith(t, "guafeng", `{"must_defend":"points"}`, [2]int{3, c.from}, nil, 0, Shape{}, 200)
		if res.Levels[1] != c.want {
			t.Errorf("guafeng, points: defenders at %s on stage with X = 200: go to %s, want %s", levelName(c.from), res.Levels[1], c.want)
		}
	}
}

// TestShowPointsOption: shengji.md, Table options, show_points false:
// defender_points and the sides' points are null in a seat's and a
// watcher's view while the hand runs; the auditor and the finished hand
// see them; no event changes (view-only).
func TestShowPointsOption(t *testing.T) {
	for _, hide := range []bool{false, true} {
		opts := ``
		if hide {
			opts = `{"show_points":false}`
		}
		r := variantRules(t, "ningyang", opts)
		s := newState(r.v, r.o)
		s.hand, s.dealer, s.phase, s.defPts, s.dealPts = 1, 0, phasePlaying, 35, 20
		for _, seat := range []int{0, 1, -1, table.Auditor} {
			g := r.View(s, seat).Game.(GameView)
			shown := !hide || seat == table.Auditor
			if (g.DefenderPoints != nil) != shown || (g.Sides[1].Points != nil) != shown || (g.Sides[0].Points != nil) != shown {
				t.Errorf("show_points %v, seat %d, hand running: defender_points %v, sides %v %v; shown %v", !hide, seat, g.DefenderPoints, g.Sides[0].Points, g.Sides[1].Points, shown)
			}
			if shown && (*g.DefenderPoints != 35 || *g.Sides[1].Points != 35 || *g.Sides[0].Points != 20) {
				t.Errorf("seat %d sees defender points %d, sides %d %d; want 35, 20 and 35", seat, *g.DefenderPoints, *g.Sides[0].Points, *g.Sides[1].Points)
			}
		}
		s.phase = phaseWaiting
		if g := r.View(s, 1).Game.(GameView); g.DefenderPoints == nil || *g.DefenderPoints != 35 {
			t.Errorf("show_points %v: the finished hand shows defender_points %v, want 35", !hide, g.DefenderPoints)
		}
	}
}
