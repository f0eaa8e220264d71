package shengji

import (
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// TestBuryHoldingAndSummary plays random ningyang hands to the burier's
// choice and checks, for random selections (whole kitties, partial ones,
// none, and ones the hand does not hold), that LegalSeqHolding yields
// exactly LegalSeq's buries that contain the selection, in LegalSeq's
// order, and that LegalSummary counts them, names the cards that extend
// the selection within them and lists the selection itself when it is a
// bury, as walking LegalSeq finds. Other seats and positions get no
// summary.
func TestBuryHoldingAndSummary(t *testing.T) {
	t.Parallel()
	r := variantRules(t, "ningyang", "")
	positions := 0
	for id := range uint64(3) {
		rt := newRandomTable(t, r, 700+id, false)
		for rt.Settled < 1 {
			g := rt.g()
			for seat := range seats {
				if !choosesKitty(g, seat) {
					if _, ok := r.LegalSummary(g, seat, cards.Multiset{}); ok {
						rt.Fatalf("seat %d (%s): a summary where the seat does not choose the kitty", seat, g.phase)
					}
					continue
				}
				positions++
				held := g.held[seat]
				var all []cards.Card
				for i, k := range held {
					for range k {
						all = append(all, cards.FromIndex(i))
					}
				}
				for try := range 12 {
					var sel cards.Multiset
					rt.Rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
					for _, c := range all[:try%(kittyLen+2)] {
						sel[c.Index()]++
					}
					if try == 11 {
						// A card the hand does not hold.
						for i := range sel {
							if held[i] == 0 {
								sel[i] = 1
								break
							}
						}
					}
					checkBury(rt, r, g, seat, sel)
				}
			}
			rt.Step()
		}
	}
	if positions == 0 {
		t.Fatal("no burier's choice was reached")
	}
}

// checkBury compares LegalSeqHolding and LegalSummary at sel with a walk of
// LegalSeq.
func checkBury(rt *randomTable, r *Rules, g *State, seat int, sel cards.Multiset) {
	var want []table.Action
	var extend cards.Multiset
	var short []table.Action
	n := sel.Len()
	for a := range r.LegalSeq(g, seat) {
		got := cards.Of(a.Cards)
		if !got.Contains(sel.Cards()) {
			continue
		}
		a.Cards = append([]cards.Card(nil), a.Cards...)
		want = append(want, a)
		for i, k := range got {
			if k > sel[i] {
				extend[i] = 1
			}
		}
		if len(a.Cards) == n {
			short = append(short, a)
		}
	}
	i := 0
	for a := range r.LegalSeqHolding(g, seat, sel) {
		if i >= len(want) || !sameAction(a, want[i]) {
			rt.Fatalf("seat %d, selection %v: LegalSeqHolding's action %d is %s, not LegalSeq's next holding the selection", seat, sel.Cards(), i, describe(a))
		}
		i++
	}
	if i != len(want) {
		rt.Fatalf("seat %d, selection %v: LegalSeqHolding yields %d buries, LegalSeq %d holding the selection", seat, sel.Cards(), i, len(want))
	}
	sum, ok := r.LegalSummary(g, seat, sel)
	if !ok {
		rt.Fatalf("seat %d: no summary of the burier's choice", seat)
	}
	if sum.Matching != len(want) || sum.Extend != extend || len(sum.Short) != len(short) {
		rt.Fatalf("seat %d, selection %v: summary counts %d buries, extends by %v, lists %d; the walk finds %d, %v, %d",
			seat, sel.Cards(), sum.Matching, sum.Extend.Cards(), len(sum.Short), len(want), extend.Cards(), len(short))
	}
	for j := range short {
		if !sameAction(sum.Short[j], short[j]) {
			rt.Fatalf("seat %d: the summary lists %s, the walk %s", seat, describe(sum.Short[j]), describe(short[j]))
		}
	}
}
