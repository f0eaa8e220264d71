package doudizhu

import (
	"math/bits"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

var _ table.SummaryDecider[*State] = (*Rules)(nil)

// LegalSummary summarizes, during the play, the plays of LegalSeqHolding(s,
// seat, sel) that contain sel from the rank patterns alone
// (table.SummaryDecider): how many plays of a pattern hold sel is a product
// over its ranks of the choices of suits that hold sel's cards of the rank,
// and only the plays that are sel exactly are given their suits. Other
// phases (bidding, grabbing, doubling, another seat's turn) list a few actions: ok is
// false there.
func (r *Rules) LegalSummary(s *State, seat int, sel cards.Multiset) (table.HoldingSummary, bool) {
	if s.phase == phaseWaiting || seat != s.turn || s.speaking() {
		return table.HoldingSummary{}, false
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	hand := &s.hands[seat]
	var sum table.HoldingSummary
	var need climb.Counts
	inHand := true
	for i, k := range sel {
		need[climb.RankOfIndex(i)] += k
		if k > hand[i] {
			inHand = false
		}
	}
	if inHand {
		var pats []uint64
		summarize(hand, lead, r.v.cardTypes(), &sel, &need, &sum, &pats)
	}
	if s.mayOpen(seat) {
		sum.Short = append(sum.Short, table.Action{Type: ActionOpen})
	}
	if lead != nil {
		sum.Short = append(sum.Short, table.Action{Type: ActionPass})
	}
	return sum, true
}

// summarize adds to sum the plays of hand on lead that contain sel (whose
// rank counts are need; hand holds sel): their number, the cards that
// extend sel, and the plays that are sel exactly, in LegalSeq's order. It
// walks the rank patterns as plan.make does, without counting every
// pattern's choices of suits as a plan does.
// pats is a buffer for the patterns, which a caller may reuse.
func summarize(hand *cards.Multiset, lead *Reading, ct cardTypes, sel *cards.Multiset, need *climb.Counts, sum *table.HoldingSummary, pats *[]uint64) {
	var h holding
	h.types = ct
	h.fill(hand)
	g := patternGen{h: h.c.Key(), t: ct, lead: lead, gens: gensOn(lead), out: (*pats)[:0]}
	var ends [Rocket + 1]int
	g.all(&ends)
	*pats = g.out
	// The patterns are packed counts, four bits a rank (climb.Counts.Key):
	// they are read without unpacking them.
	needKey := need.Key()
	var needAt [climb.NumRanks]int
	needRanks := needAt[:0]
	for r, n := range need {
		if n > 0 {
			needRanks = append(needRanks, r)
		}
	}
	// holds[r][k]: the choices of k cards of rank r that hold sel's cards
	// of the rank, made once a rank that needs them.
	var holds [climb.NumRanks][2*4 + 1]int
	var counted uint32 // bit r: holds[r] made
	var extend uint32  // bit r: some play holding sel has more of rank r
	start := 0
	for ty := Single; ty <= Rocket; ty++ {
	patterns:
		for _, key := range g.out[start:ends[ty]] {
			for _, r := range needRanks {
				if uint8(key>>(4*r)&0xF) < need[r] {
					continue patterns
				}
			}
			plays := 1
			var more uint32
			for k := key; k != 0; {
				r := bits.TrailingZeros64(k) / 4
				n := int(k >> (4 * r) & 0xF)
				k &^= 0xF << (4 * r)
				if counted&(1<<r) == 0 {
					h.holdingChoices(r, sel, &holds[r])
					counted |= 1 << r
				}
				plays *= holds[r][n]
				if uint8(n) > need[r] {
					more |= 1 << r
				}
			}
			if plays == 0 {
				continue
			}
			types := patternTypes(key, ty, lead)
			sum.Matching += plays * bits.OnesCount32(types)
			extend |= more
			if key == needKey {
				p := patternCounts(key)
				h.exact(&p, types, sel, sum)
			}
		}
		start = ends[ty]
	}
	for i, k := range sel {
		if extend&(1<<climb.RankOfIndex(i)) != 0 && hand[i] > k {
			sum.Extend[i] = 1
		}
	}
}

// holdingChoices sets out[k] to the number of distinct choices of k of the
// hand's cards of rank r (distinct multisets, as expand lists them) that
// hold sel's cards of that rank: the coefficients of the product, over the
// rank's distinct cards c held m times, of x^sel[c] + … + x^m.
func (h *holding) holdingChoices(r int, sel *cards.Multiset, out *[2*4 + 1]int) {
	*out = [2*4 + 1]int{1}
	of := h.of(r)
	for j := 0; j < len(of); {
		c := of[j]
		m := 1
		for j+m < len(of) && of[j+m] == c {
			m++ // the copies of a card are next to each other (fill)
		}
		j += m
		var next [2*4 + 1]int
		for d, n := range out {
			if n == 0 {
				continue
			}
			for e := int(sel[c.Index()]); e <= m && d+e < len(next); e++ {
				next[d+e] += n
			}
		}
		*out = next
	}
}

// exact appends to sum.Short the play of pattern p whose cards are sel,
// once per playable type (types), as LegalSeq yields it.
func (h *holding) exact(p *climb.Counts, types uint32, sel *cards.Multiset, sum *table.HoldingSummary) {
	var o odometer
	o.start(p)
	for {
		cs := o.append(h, nil)
		if cards.Of(cs) == *sel {
			a := table.Action{Type: ActionPlay, Cards: cs}
			if bits.OnesCount32(types) == 1 {
				sum.Short = append(sum.Short, a)
			} else {
				for t := Single; t <= Rocket; t++ {
					if types&(1<<t) != 0 {
						a.As = t.String()
						sum.Short = append(sum.Short, a)
					}
				}
			}
			return // the choices are distinct multisets: one is sel
		}
		if !o.next(h) {
			return
		}
	}
}
