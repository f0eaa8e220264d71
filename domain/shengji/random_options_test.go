package shengji

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// optionTables and optionHands: TestRandomOptionHands plays this many
// tables of each variant, each under its own random options, settling this
// many hands each (3 × 12 × 40 = 1,440 hands).
const (
	optionTables = 12
	optionHands  = 40
	// optionStream is the second word of the generator that draws each
	// table's options (the tables' own actions use randomStream).
	optionStream = 0x6f70
)

// TestRandomOptionHands plays random legal hands of every variant, each
// table under random table options drawn from a fixed seed (shengji.md,
// Table options), with the invariants of the random suites: the 108 cards
// accounted for after every action, Legal's actions accepted by Decide,
// each trick re-judged, zero-sum settlements (or the recorded house share
// of an escape), the kitty's factor restated from the last trick's winning
// play and the option, the scoring by the step option's formulas, the
// levels by start_level and the must_defend gates, and show_points' views
// (checkPointsShown). Every table is replayed by audit.VerifyTable under
// the options it recorded.
func TestRandomOptionHands(t *testing.T) {
	t.Parallel()
	for _, v := range []struct {
		name  string
		first uint64
	}{{"ningyang", 7000}, {"guafeng", 7100}, {"qiangbao", 7200}} {
		t.Run(v.name, func(t *testing.T) {
			for i := range uint64(optionTables) {
				seed := v.first + i
				opts := randomTableOptions(v.name, seed)
				r := variantRules(t, v.name, opts)
				t.Run(fmt.Sprintf("%d_%s", seed, opts), func(t *testing.T) {
					playRandom(t, randomVariant{
						rules: func(testing.TB) *Rules { return r }, firstSeed: seed, tables: 1, hands: optionHands,
						audited: func(uint64) bool { return true }, minDeals: 1,
					})
				})
			}
		})
	}
	if *tableSeedFlag != 0 {
		return
	}
	// The option paths the random tables must reach.
	reach := map[string][]string{
		"ningyang": {"opt_kitty_rule", "opt_step", "opt_steps_lost", "opt_start_2", "opt_won_from_2", "points_hidden", "points_shown"},
		"guafeng":  {"opt_kitty_rule", "opt_step", "opt_steps_lost", "opt_start_2", "points_hidden", "points_shown"},
		"qiangbao": {"opt_kitty_rule", "points_hidden", "points_shown"},
	}
	seen.Lock()
	defer seen.Unlock()
	for variant, keys := range reach {
		for _, k := range keys {
			if seen.n[countKey(variant, k)] == 0 {
				t.Errorf("no random %s hand with options reached %s", variant, k)
			}
		}
	}
}

// countOptions counts the option paths a settlement took.
func (rt *randomTable) countOptions(res Result) {
	o := rt.r.o
	for k, hit := range map[string]bool{
		"opt_kitty_rule": res.KittyRule != "",
		"opt_step":       res.Step != 0,
		"opt_steps_lost": res.StepsLost > 0,
		"opt_start_2":    o.first() == startTwo,
		"opt_won_from_2": o.first() == startTwo && res.MatchWinner != nil,
	} {
		if hit {
			rt.count(k)
		}
	}
}

// randomTableOptions draws a table's options for variant from seed: each
// option the variant takes is left out (its default) or set to one of its
// values.
func randomTableOptions(variant string, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, optionStream))
	choices := [][2]any{}
	pick := func(key string, values ...any) {
		if rng.IntN(len(values)+1) > 0 {
			choices = append(choices, [2]any{key, values[rng.IntN(len(values))]})
		}
	}
	if variant == "guafeng" {
		pick("kitty_multiplier", `"cards"`, `"linear"`, `"double"`)
		pick("kitty_deduction", false, true)
	} else {
		pick("kitty_multiplier", `"by_shape"`, `"double"`, `"linear"`, `"cards"`)
	}
	if variant != "qiangbao" {
		pick("step", 40, 30, 20)
		pick("start_level", `"A"`, `"2"`)
		pick("must_defend", `"none"`, `"last"`, `"points"`)
	}
	pick("show_points", false, true)
	parts := make([]string, len(choices))
	for i, c := range choices {
		parts[i] = fmt.Sprintf("%q:%v", c[0], c[1])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// checkKittyFactor restates the kitty's factor from the last trick's
// winning play (n cards, p pairs) and the kitty_multiplier option
// (shengji.md, Table options: by_shape 2^(p+1), double 2, linear 2n, cards
// n) and returns it, failing when the result says otherwise.
func (rt *randomTable) checkKittyFactor(res Result) int {
	g := rt.g()
	var win []cards.Card
	for _, p := range g.lastTrick {
		if p.seat == res.LastTrick {
			win = p.cards
		}
	}
	n, pairs := len(win), 0
	same := map[cards.Card]int{}
	for _, c := range win {
		if same[c]++; same[c]%2 == 0 {
			pairs++
		}
	}
	want := map[string]int{KittyByShape: 1 << (pairs + 1), KittyDouble: 2, KittyLinear: 2 * n, KittyCards: n}[rt.r.o.KittyMultiplier]
	if res.KittyRule != "" {
		rt.count("opt_kitty_rule")
	}
	if res.KittyMultiplier != want {
		rt.Fatalf("hand %d: the last trick won by %s, kitty_multiplier %q: factor %d, want %d (shengji.md, Table options, kitty_multiplier)", g.hand, cards.Format(win), rt.r.o.KittyMultiplier, res.KittyMultiplier, want)
	}
	return want
}

// expectedScoreStep is ningyang's scoring under the step option: the table
// at 40, the file's formula otherwise (shengji.md, Table options, step).
func expectedScoreStep(x, step int) int {
	if step == defaultStep {
		return expectedScore(x)
	}
	if x < 80 {
		return 1 + (80-x)/step
	}
	return -(1 + (x-80)/step)
}

// guafengExpectedScoreStep is guafeng's scoring under the step option: the
// seed's table at 40, the file's formula otherwise (stakes and dealer
// levels ⌈(80 − X)/step⌉, +1 at X ≤ 0; defender stakes 1 + ⌊(X − 80)/step⌋
// and one level less).
func guafengExpectedScoreStep(x, step int) (pts, dealerUp, defUp int) {
	if step == defaultStep {
		return guafengExpectedScore(x)
	}
	if x < 80 {
		k := (80 - x + step - 1) / step
		if x <= 0 {
			k++
		}
		return k, k, 0
	}
	k := 1 + (x-80)/step
	return -k, 0, k - 1
}

// wantLevel climbs a side from level from by n steps, one at a time, under
// the table's must_defend gates (shengji.md, Table options, must_defend):
// the climb stops on reaching a gate, and a side at a gate climbs only by
// a hand it won as the dealer side.
func (rt *randomTable) wantLevel(from, n int, asDealer bool) int {
	o := rt.r.o
	gate := map[int]bool{}
	switch o.MustDefend {
	case MustDefendPoints:
		gate[5], gate[10], gate[13] = true, true, true
		gate[o.last()] = true
	case MustDefendLast:
		gate[o.last()] = true
	}
	if gate[from] && !asDealer {
		return from
	}
	l := from
	for range n {
		if l++; gate[l] {
			break
		}
	}
	return l
}

// checkLevels: the result's levels are the ones wanted, named from the
// table's start level ("won" past its last).
func (rt *randomTable) checkLevels(res Result, levels [2]int, x int, cite string) {
	rt.countOptions(res)
	for side, l := range levels {
		if want := rt.r.o.levelName(l); res.Levels[side] != want {
			rt.Fatalf("hand %d, X = %d, levels %v, options %s: side %d goes to %s, want %s (%s)", rt.g().hand, x, rt.levelsBefore, rt.r.Options(), side, res.Levels[side], want, cite)
		}
	}
}

// checkPointsShown: with show_points false a seat and a watcher see no
// trick points while the hand runs, the auditor does; with the default
// every viewer does (shengji.md, Table options, show_points).
func (rt *randomTable) checkPointsShown() {
	g := rt.g()
	for _, seat := range []int{g.tricks % seats, -1, table.Auditor} {
		gv := rt.r.View(g, seat).Game.(GameView)
		shown := !rt.r.o.HidePoints || seat == table.Auditor
		if (gv.DefenderPoints != nil) != shown || (gv.Sides[0].Points != nil) != shown {
			rt.Fatalf("hand %d trick %d, options %s: seat %d sees defender_points %v, want shown %v", g.hand, g.tricks, rt.r.Options(), seat, gv.DefenderPoints, shown)
		}
	}
	if !rt.r.o.HidePoints {
		rt.count("points_shown")
	} else {
		rt.count("points_hidden")
	}
}

// TestOptionsTimeoutsAndBots: under random table options (fixed seeds),
// hands played by bots and by seats that only time out settle, zero-sum,
// and at every position each bot's choice is one of its Legal actions
// (the bots read a view whose points a table may hide).
func TestOptionsTimeoutsAndBots(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, variant := range variants() {
		for i := range uint64(4) {
			seed := 7400 + i
			opts := randomTableOptions(variant, seed)
			t.Run(fmt.Sprintf("%s/%s", variant, opts), func(t *testing.T) {
				r := variantRules(t, variant, opts)
				seeds := &gametest.SeedSeq{ID: seed}
				d := &handDriver{t: t, st: openTable(t, r, 1, seeds), seeds: seeds,
					players: []gametest.Player{firstDeclarer, gametest.BotPlayer, gametest.TimeoutPlayer, gametest.BotPlayer},
					visit: func(st *table.State) {
						for _, seat := range []int{1, 3} {
							legal := r.Legal(st.G.(*State), seat)
							if len(legal) == 0 {
								continue
							}
							if a := r.BotAction(r.View(st.G.(*State), seat), legal); !containsAction(legal, a) {
								t.Fatalf("hand %d: the bot of seat %d chose %s, not one of its legal actions", st.Hand, seat, gametest.DescribeAction(a))
							}
						}
					}}
				for range 8 {
					if d.st.Closed {
						d.st = openTable(t, r, 1, seeds)
					}
					hs := d.hand()
					sum := hs.House
					for _, x := range hs.Deltas {
						sum += x
					}
					if sum != 0 {
						t.Fatalf("hand %d under %s: deltas %v, house %d (shengji.md, Scoring: zero-sum)", d.st.Hand, opts, hs.Deltas, hs.House)
					}
				}
			})
		}
	}
}
