package doudizhu

import (
	"math/bits"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Legal lists every action seat may take now (escape excluded): during the
// bidding the bids above the highest so far, then pass; during the play every
// distinct play the seat may make (distinct as multisets of cards, so S3 and
// H3 are two plays), then pass when the seat does not lead. A multiset that
// is legal under readings of more than one type is listed once per type, with
// "as" naming it; every other play leaves "as" empty. Nil when seat may not act.
func (r *Rules) Legal(gs table.GameState, seat int) []table.Action {
	s, err := r.state(gs)
	if err != nil || s.phase == phaseWaiting || seat != s.turn {
		return nil
	}
	if s.phase == phaseBidding {
		var out []table.Action
		for b := s.highBid + 1; b <= r.v.maxBid; b++ {
			out = append(out, table.Action{Type: ActionBid, Bid: table.Seat(b)})
		}
		return append(out, table.Action{Type: ActionPass})
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	out := legalPlays(&s.hands[seat], lead)
	if lead != nil {
		out = append(out, table.Action{Type: ActionPass})
	}
	return out
}

// holding is a hand arranged for generating plays.
type holding struct {
	c     counts
	n     int
	byRnk [numRanks][]cards.Card // the hand's cards of each rank, in suit order
}

func newHolding(m *cards.Multiset) *holding {
	h := &holding{}
	for i, k := range m {
		for range k {
			c := cards.FromIndex(i) // canonical order: suits S H C D within a rank
			r := RankOf(c)
			h.c[r]++
			h.n++
			h.byRnk[r] = append(h.byRnk[r], c)
		}
	}
	return h
}

// legalPlays lists the plays of hand that may be made on lead (nil: leading).
//
// It works in two steps. First it generates rank patterns (how many cards of
// each rank) shape by shape, only the shapes that can be legal on lead; each
// distinct pattern is then read by the same classifier Decide uses and kept
// with the readings that may be played. Second it expands each kept pattern
// into every choice of suits the hand allows.
func legalPlays(hand *cards.Multiset, lead *Reading) []table.Action {
	h := newHolding(hand)
	var g patternSet
	if lead == nil {
		for t := Single; t <= Rocket; t++ {
			h.generate(t, 0, &g)
		}
	} else {
		switch lead.Type {
		case Rocket:
		case Bomb:
			h.generate(Bomb, 0, &g)
			h.generate(Rocket, 0, &g)
		default:
			h.generate(lead.Type, lead.Length, &g)
			h.generate(Bomb, 0, &g)
			h.generate(Rocket, 0, &g)
		}
	}

	// Keep the patterns with their playable types, and count the actions
	// and cards they expand to, so that one backing array holds every play.
	type kept struct {
		p     counts
		types []Type
	}
	var keep []kept
	var buf []Reading
	actions, total := 0, 0
	for _, p := range g.pats {
		buf = classifyCounts(&p, patternLen(&p), buf[:0])
		var types []Type
		for _, rd := range buf {
			if (lead == nil || rd.Beats(*lead)) && !slices.Contains(types, rd.Type) {
				types = append(types, rd.Type)
			}
		}
		if len(types) == 0 {
			continue
		}
		n := h.choices(&p)
		keep = append(keep, kept{p, types})
		actions += n * len(types)
		total += n * patternLen(&p)
	}
	out := make([]table.Action, 0, actions+1)
	backing := make([]cards.Card, 0, total)
	for _, k := range keep {
		first := len(out)
		h.expand(&k.p, func(cs []cards.Card) {
			start := len(backing)
			backing = append(backing, cs...)
			out = append(out, table.Action{Type: ActionPlay, Cards: backing[start:len(backing):len(backing)]})
		})
		if len(k.types) > 1 {
			plays := slices.Clone(out[first:])
			out = out[:first]
			for _, a := range plays {
				for _, t := range k.types {
					a.As = t.String()
					out = append(out, a)
				}
			}
		}
	}
	return out
}

func patternLen(p *counts) int {
	n := 0
	for _, k := range p {
		n += int(k)
	}
	return n
}

// patternSet collects rank patterns. Only the airplane family can yield the
// same pattern twice (333444555666 is an airplane and two airplanes with
// kickers; an airplane's kickers may form another chain), since every other
// pattern has readings of one type only; those are de-duplicated.
type patternSet struct {
	seen map[uint64]struct{}
	pats []counts
}

func (g *patternSet) add(p *counts, mayRepeat bool) {
	if mayRepeat {
		if g.seen == nil {
			g.seen = map[uint64]struct{}{}
		}
		k := p.key()
		if _, dup := g.seen[k]; dup {
			return
		}
		g.seen[k] = struct{}{}
	}
	g.pats = append(g.pats, *p)
}

// generate adds the rank patterns of type t the hand can make; chain types
// use only the given length when it is not 0. It may add patterns that the
// classifier then rejects (never the other way round).
func (h *holding) generate(t Type, length int, g *patternSet) {
	var p counts
	switch t {
	case Single, Pair, Trio, Bomb:
		k := groupSize(t)
		for r := range numRanks {
			if h.c[r] >= k && (t != Bomb || r <= int(Rank2)) {
				p[r] = k
				g.add(&p, false)
				p[r] = 0
			}
		}
	case Rocket:
		if h.c[RankBJ] > 0 && h.c[RankRJ] > 0 {
			p[RankBJ], p[RankRJ] = 1, 1
			g.add(&p, false)
		}
	case TrioSingle, TrioPair:
		k := uint8(1)
		if t == TrioPair {
			k = 2
		}
		for body := range numRanks {
			if h.c[body] < 3 {
				continue
			}
			p[body] = 3
			for kick := range numRanks {
				if kick != body && h.c[kick] >= k {
					p[kick] = k
					g.add(&p, false)
					p[kick] = 0
				}
			}
			p[body] = 0
		}
	case FourTwoSingles, FourTwoPairs:
		for body := 0; body <= int(Rank2); body++ {
			if h.c[body] < 4 {
				continue
			}
			p[body] = 4
			if t == FourTwoSingles {
				h.kickers(&p, 0, 2, 2, 1, body, body, g)
			} else {
				h.kickers(&p, 0, 2, 2, 2, body, body, g)
			}
			p[body] = 0
		}
	case Straight, PairStraight, Airplane, AirplaneSingles, AirplanePairs:
		width, minLen := groupSize(t), minChain(t)
		for lo := 0; lo <= int(RankA); lo++ {
			for hi := lo; hi <= int(RankA) && h.c[hi] >= width; hi++ {
				n := hi - lo + 1
				if n < minLen || (length != 0 && n != length) {
					continue
				}
				for r := lo; r <= hi; r++ {
					p[r] = width
				}
				switch t {
				case AirplaneSingles:
					h.kickers(&p, 0, n, 3, 1, lo, hi, g)
				case AirplanePairs:
					h.kickers(&p, 0, n, 2, 2, lo, hi, g)
				default:
					g.add(&p, t == Airplane)
				}
				for r := lo; r <= hi; r++ {
					p[r] = 0
				}
			}
		}
	}
}

// kickers adds p extended by every choice of need kickers from ranks ≥ from
// outside the body lo..hi. With unit 1 the kickers are single cards, at most
// most of a rank; with unit 2 they are pairs of distinct ranks (need counts
// pairs). Both jokers together are never kickers.
func (h *holding) kickers(p *counts, from, need int, most, unit uint8, lo, hi int, g *patternSet) {
	if need == 0 {
		if p[RankBJ] == 0 || p[RankRJ] == 0 {
			g.add(p, unit == 1 && most == 3)
		}
		return
	}
	for r := from; r < numRanks; r++ {
		if r >= lo && r <= hi {
			continue
		}
		if unit == 2 {
			if h.c[r] >= 2 {
				p[r] = 2
				h.kickers(p, r+1, need-1, most, unit, lo, hi, g)
				p[r] = 0
			}
			continue
		}
		for k := 1; k <= int(min(h.c[r], most)) && k <= need; k++ {
			p[r] = uint8(k)
			h.kickers(p, r+1, need-k, most, unit, lo, hi, g)
		}
		p[r] = 0
	}
}

func groupSize(t Type) uint8 {
	switch t {
	case Single, Straight:
		return 1
	case Pair, PairStraight:
		return 2
	case Bomb:
		return 4
	}
	return 3
}

func minChain(t Type) int {
	switch t {
	case Straight:
		return 5
	case PairStraight:
		return 3
	}
	return 2
}

// choices is the number of ways the hand's suits can make pattern p.
func (h *holding) choices(p *counts) int {
	n := 1
	for r, k := range p {
		if k > 0 {
			n *= binomial(len(h.byRnk[r]), int(k))
		}
	}
	return n
}

func binomial(n, k int) int {
	out := 1
	for i := range k {
		out = out * (n - i) / (i + 1)
	}
	return out
}

// expand calls emit with every choice of the hand's cards that has pattern
// p's rank counts, each in display order.
func (h *holding) expand(p *counts, emit func([]cards.Card)) {
	n := patternLen(p)
	var ranks []int
	for r, k := range p {
		if k > 0 {
			ranks = append(ranks, r)
		}
	}
	cur := make([]cards.Card, 0, n)
	var rec func(i int)
	rec = func(i int) {
		if i == len(ranks) {
			emit(append([]cards.Card(nil), cur...))
			return
		}
		r := ranks[i]
		have := h.byRnk[r]
		k := int(p[r])
		for mask := uint(0); mask < 1<<len(have); mask++ {
			if bits.OnesCount(mask) != k {
				continue
			}
			mark := len(cur)
			for j, c := range have {
				if mask&(1<<j) != 0 {
					cur = append(cur, c)
				}
			}
			rec(i + 1)
			cur = cur[:mark]
		}
	}
	rec(0)
}
