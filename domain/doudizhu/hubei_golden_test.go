package doudizhu

import (
	"testing"

	"paiju/domain/table"
)

// hubeiPlan is how the players of a hubei golden hand act: the seat on turn
// bids 3 at once; grabs when grab says so; the landlord opens when open; a
// seat plays the first legal play of type prefer when it has one; farmers
// (or the landlord) pass whenever they may, if told to; else the lowest play.
type hubeiPlan struct {
	grab           func(g *State) bool
	open           bool
	prefer         Type
	farmersPass    bool
	landlordPasses bool
}

func (p hubeiPlan) strategy(r *Rules) strategy {
	return func(g *State, step int, legal []table.Action) (int, table.Action) {
		switch g.phase {
		case phaseBidding:
			return g.turn, legal[len(legal)-2] // bid 3
		case phaseGrabbing:
			if p.grab != nil && p.grab(g) {
				return g.turn, grabA()
			}
			return g.turn, passA()
		}
		if p.open && g.mayOpen(g.turn) {
			return g.turn, openA()
		}
		if g.last != nil && ((p.farmersPass && g.turn != g.landlord) || (p.landlordPasses && g.turn == g.landlord)) {
			return g.turn, passA()
		}
		if p.prefer != 0 {
			for _, a := range legal {
				if a.Type != ActionPlay {
					continue
				}
				for _, rd := range r.Classify(a.Cards) {
					if rd.Type == p.prefer && (a.As == "" || a.As == p.prefer.String()) {
						return g.turn, a
					}
				}
			}
		}
		return g.turn, legal[0]
	}
}

// product is the hubei multiplier a result's parts make (doudizhu.md,
// Scoring, hubei).
func product(res Result) int {
	m := res.BidMultiplier
	if res.Open {
		m *= 2
	}
	m *= pow(2, res.Bombs) * pow(4, res.Rockets)
	if res.Spring {
		m *= 4
	}
	if res.AntiSpring {
		m *= 2
	}
	return m
}

// hubeiGoldenCases: one golden hand per multiplier the 004 text names.
func hubeiGoldenCases() []variantCase {
	firstOther := func(g *State) bool { return g.turn == (g.caller+1)%3 }
	c := func(name string, seeds uint64, p hubeiPlan, shows func(Result) bool) variantCase {
		r := &Rules{v: mustVariant("hubei")}
		return variantCase{
			goldenCase: goldenCase{name: "hubei_" + name, stake: 2, seeds: seeds, play: p.strategy(r)},
			variant:    "hubei",
			shows:      func(res Result) bool { return res.Multiplier == product(res) && shows(res) },
		}
	}
	return []variantCase{
		c("grab", 11, hubeiPlan{grab: firstOther}, func(res Result) bool {
			return res.Grabs == 1 && !res.GrabBack && res.BidMultiplier == 6 // 3 × 2
		}),
		c("grab_back", 12, hubeiPlan{grab: func(g *State) bool { return firstOther(g) || g.turn == g.caller }}, func(res Result) bool {
			return res.Grabs == 2 && res.GrabBack && res.BidMultiplier == 12 // 3 × 2 × 2
		}),
		c("ceiling_24", 13, hubeiPlan{grab: func(*State) bool { return true }}, func(res Result) bool {
			return res.Grabs == 3 && res.GrabBack && res.BidMultiplier == 24 // 3 × 2 × 2 × 2
		}),
		c("open", 14, hubeiPlan{open: true}, func(res Result) bool { return res.Open }),
		c("bomb", hubeiBombSeeds, hubeiPlan{prefer: Bomb}, func(res Result) bool { return res.Bombs > 0 }),
		c("rocket", hubeiRocketSeeds, hubeiPlan{prefer: Rocket}, func(res Result) bool { return res.Rockets > 0 }),
		c("spring", 17, hubeiPlan{farmersPass: true}, func(res Result) bool { return res.Spring }),
		c("landlord_played_once", 18, hubeiPlan{landlordPasses: true}, func(res Result) bool { return res.AntiSpring }),
	}
}

// The deal seeds of the bomb and rocket hands: found by trying seedSeq ids
// until a bomb (a rocket) was played.
const (
	hubeiBombSeeds   = 5
	hubeiRocketSeeds = 3
)

func mustVariant(name string) *variant {
	v, ok := variantNamed(name)
	if !ok {
		panic(name)
	}
	return v
}

// TestFindGoldenSeeds is a tool, not a test: with -update it reports seedSeq
// ids for which the bomb and rocket strategies play a bomb or the rocket.
func TestFindGoldenSeeds(t *testing.T) {
	if !*update {
		t.Skip("a tool for -update")
	}
	r := rulesOf(t, "hubei", "")
	for _, tc := range hubeiGoldenCases() {
		for id := uint64(1); id < 300; id++ {
			f := recordGolden(t, r, 2, id, tc.play)
			var res Result
			for _, s := range f.Steps {
				for _, e := range s.Events {
					if e.Type == "HandSettled" {
						res = resultOf(t, e.Data)
					}
				}
			}
			if tc.shows(res) {
				t.Logf("%s: seeds %d", tc.name, id)
				break
			}
		}
	}
}
