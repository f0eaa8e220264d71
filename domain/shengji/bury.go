package shengji

import (
	"iter"

	"paiju/domain/cards"
	"paiju/domain/table"
)

var (
	_ table.HoldingDecider[*State] = (*Rules)(nil)
	_ table.SummaryDecider[*State] = (*Rules)(nil)
)

// choosesKitty tells whether seat's legal actions are LegalSeq's bury of
// any kittyLen of its held cards: the burier with the kitty picked up, in
// a variant where it buries alone. A hand of 29 cards has tens of
// thousands of such buries, which a bounded /legal answer narrowed card by
// card walked again at every step.
func choosesKitty(s *State, seat int) bool {
	return seat >= 0 && seat < seats && s.phase == phaseBurying && seat == s.burier && !s.v.qiangbao && !s.v.partnerBuries
}

// LegalSeqHolding is LegalSeq without the buries that do not contain sel
// (table.HoldingDecider): the others are yielded in LegalSeq's order. Every
// other position is LegalSeq's.
func (r *Rules) LegalSeqHolding(s *State, seat int, sel cards.Multiset) iter.Seq[table.Action] {
	if !choosesKitty(s, seat) {
		return r.LegalSeq(s, seat)
	}
	return func(yield func(table.Action) bool) {
		o := s.sortOrder(seat) // as LegalSeq sorts
		var buf []cards.Card
		eachSubMultisetHolding(s.held[seat], sel, kittyLen, func(cs []cards.Card) bool {
			buf = append(buf[:0], cs...)
			o.Sort(buf)
			return yield(table.Action{Type: ActionBury, Cards: buf[:len(buf):len(buf)]})
		})
	}
}

// LegalSummary summarizes the buries holding sel without walking them
// (table.SummaryDecider): they are the sel plus any kittyLen-|sel| of the
// held cards left, so they are counted from the counts of those cards,
// each such card extends sel while sel is short of kittyLen, and only sel
// itself, when it is a whole kitty, is listed. ok is false at every other
// position.
func (r *Rules) LegalSummary(s *State, seat int, sel cards.Multiset) (table.HoldingSummary, bool) {
	if !choosesKitty(s, seat) {
		return table.HoldingSummary{}, false
	}
	held := &s.held[seat]
	var sum table.HoldingSummary
	var rest cards.Multiset
	n := 0
	for i, k := range sel {
		if k > held[i] {
			return sum, true // no bury holds sel
		}
		rest[i] = held[i] - k
		n += int(k)
	}
	if n > kittyLen {
		return sum, true
	}
	sum.Matching = countSubMultisets(&rest, kittyLen-n)
	if n < kittyLen {
		for i, k := range rest {
			if k > 0 {
				sum.Extend[i] = 1
			}
		}
		return sum, true
	}
	cs := sel.Cards() // in the order eachSubMultiset gives them to the sort
	s.sortOrder(seat).Sort(cs)
	sum.Short = []table.Action{{Type: ActionBury, Cards: cs}}
	return sum, true
}

// countSubMultisets is how many multisets of k cards m contains: the
// coefficient of x^k in the product over m's cards of 1 + x + … + x^count.
func countSubMultisets(m *cards.Multiset, k int) int {
	if k < 0 {
		return 0
	}
	ways := make([]int, k+1)
	ways[0] = 1
	for _, c := range m {
		if c == 0 {
			continue
		}
		for j := k; j > 0; j-- {
			for take := 1; take <= int(c) && take <= j; take++ {
				ways[j] += ways[j-take]
			}
		}
	}
	return ways[k]
}
