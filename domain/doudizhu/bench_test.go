package doudizhu

import (
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// BenchmarkRandomHand plays whole hands of random legal actions through
// table.Act and table.Apply, as a server would, in each variant: one op is
// one settled hand (hands/s = 1e9 / ns/op). The plays are drawn as
// TestRandomGames draws them (a random type, then a random play of it from
// Legal's plan), so the figure is the rules' cost, not that of listing every
// legal play.
func BenchmarkRandomHand(b *testing.B) {
	for _, variant := range []string{"classic", "hubei", "fourplayer"} {
		b.Run(variant, func(b *testing.B) {
			r := rulesOf(b, variant, "")
			seeds := &gametest.SeedSeq{ID: 1}
			rng := rand.New(rand.NewPCG(1, 1))
			st := openTable(b, r, 1, seeds)
			var pl plan
			actions := 0
			b.ReportAllocs()
			for b.Loop() {
				for hand := st.Hand; st.Hand == hand || !st.InDeal; {
					g := gametest.Game[State](st)
					a := benchAction(r, g, rng, &pl)
					evs, err := table.Act(st, g.turn, a, seeds)
					if err != nil {
						b.Fatal(err)
					}
					gametest.ApplyAll(st, evs)
					actions++
				}
			}
			b.ReportMetric(float64(actions)/float64(b.N), "actions/hand")
		})
	}
}

// benchAction picks a random legal action of the seat on turn.
func benchAction(r *Rules, g *State, rng *rand.Rand, pl *plan) table.Action {
	if g.phase != phasePlaying {
		legal := r.Legal(g, g.turn)
		return legal[rng.IntN(len(legal))]
	}
	if g.mayOpen(g.turn) && rng.IntN(3) == 0 {
		return table.Action{Type: ActionOpen}
	}
	var lead *Reading
	gens := allTypes[:]
	if g.last != nil {
		if rng.IntN(4) == 0 {
			return table.Action{Type: ActionPass}
		}
		lead = &g.last.reading
		gens = []Type{lead.Type, Bomb, Rocket}
	}
	for range 2 * len(gens) {
		pl.makeOf(&g.hands[g.turn], lead, r.v.cardTypes(), []Type{gens[rng.IntN(len(gens))]})
		if pl.actions > 0 {
			return pl.at(rng.IntN(pl.actions))
		}
	}
	if lead != nil {
		return table.Action{Type: ActionPass}
	}
	pl.makeOf(&g.hands[g.turn], nil, r.v.cardTypes(), []Type{Single})
	return pl.at(rng.IntN(pl.actions))
}

// BenchmarkLegalLead lists every legal play of a landlord's hand on the
// lead: 20 cards with one deck, 33 with two.
func BenchmarkLegalLead(b *testing.B) {
	for _, tc := range []struct {
		name  string
		decks int
		hand  string
	}{
		{"one_deck", 1, "S3 H3 C3 S4 H4 C4 S5 H5 D5 S6 S7 H7 S8 S9 H10 SJ HQ SK S2 BJ"},
		{"two_decks", 2, "S3 S3 H3 C3 S4 H4 C4 D4 S5 H5 D5 S6 S6 S7 H7 S8 S8 S9 H10 SJ SJ HQ SK SK HK S2 S2 H2 BJ RJ RJ HA SA"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := cards.Of(cards.MustParse(tc.hand))
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				n = len(legalPlays(&m, nil, typesOf(tc.decks)))
			}
			b.ReportMetric(float64(n), "plays")
		})
	}
}

func BenchmarkClassify(b *testing.B) {
	plays := [][]cards.Card{
		cards.MustParse("S3"),
		cards.MustParse("S3 H4 C5 D6 S7 S8 S9"),
		cards.MustParse("S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6"),
		cards.MustParse("S4 H4 C4 D4 S5 H5 C5 D5"),
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range plays {
			Classify(p)
		}
	}
}
