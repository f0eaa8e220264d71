package shengji

import (
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// TestQiangbaoLegalMatchesDecide: through random qiangbao matches (first
// and later hands), at every draw and window position and for every seat,
// Decide accepts a show of 1 or 2 of the seat's cards exactly when Legal
// lists it, and a bury of one card exactly when Legal lists it (shengji.md,
// qiangbao; DESIGN.md: Legal⇔Decide both ways). Shows are reached in both
// kinds of hand, overrides by a pair among them.
func TestQiangbaoLegalMatchesDecide(t *testing.T) {
	r := qiangbaoRules(t)
	kinds := map[string]int{}
	for id := range uint64(4) {
		rt := newRandomTable(t, r, 700+id, false)
		for rt.Settled < 7 {
			g := rt.g()
			switch g.phase {
			case phaseDrawing, phaseWindow:
				for seat := range seats {
					listed := map[string]bool{}
					for _, a := range r.Legal(g, seat) {
						if a.Type == ActionDeclare {
							listed[canon(a.Cards)] = true
						}
					}
					for n := 1; n <= 2; n++ {
						subMultisets(g.held[seat], n, func(pick []cards.Card) {
							_, err := r.Decide(g, seat, table.Action{Type: ActionDeclare, Cards: slices.Clone(pick)})
							if (err == nil) != listed[canon(pick)] {
								t.Fatalf("hand %d round %d: seat %d shows %s: Decide %v, Legal lists it: %v (shengji.md, qiangbao)", g.hand, g.round, seat, cards.Format(pick), err, listed[canon(pick)])
							}
							if err == nil {
								kind := "first"
								if g.matchDealer >= 0 {
									kind = "later"
								}
								if g.declarer >= 0 {
									kind += "_override"
								}
								kinds[kind]++
							}
						})
					}
				}
			case phaseBurying:
				listed := map[string]bool{}
				for _, a := range r.Legal(g, g.burier) {
					listed[canon(a.Cards)] = true
				}
				subMultisets(g.held[g.burier], 1, func(pick []cards.Card) {
					_, err := r.Decide(g, g.burier, table.Action{Type: ActionBury, Cards: slices.Clone(pick)})
					if (err == nil) != listed[canon(pick)] || err != nil {
						t.Fatalf("bury %s: Decide %v, Legal lists it: %v", cards.Format(pick), err, listed[canon(pick)])
					}
				})
				for other := range seats {
					if other != g.burier && len(r.Legal(g, other)) > 0 {
						t.Fatalf("seat %d may act while seat %d buries", other, g.burier)
					}
				}
			}
			rt.Step()
		}
	}
	for _, k := range []string{"first", "later", "later_override"} {
		if kinds[k] == 0 {
			t.Errorf("no %s show checked: %v", k, kinds)
		}
	}
	t.Logf("shows checked: %v", kinds)
}
