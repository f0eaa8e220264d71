package doudizhu

import (
	"math/bits"

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

// holding is a hand arranged for generating plays: its rank counts, and its
// cards of each rank in suit order (S H C D).
type holding struct {
	c     counts
	cards [numRanks][2 * 4]cards.Card // up to two decks
}

// fill arranges hand m; h must be zero.
func (h *holding) fill(m *cards.Multiset) {
	for i, k := range m {
		if k == 0 {
			continue
		}
		r, c := rankOfIndex(i), cards.FromIndex(i)
		for range k {
			h.cards[r][h.c[r]] = c
			h.c[r]++
		}
	}
}

// of is the hand's cards of rank r.
func (h *holding) of(r int) []cards.Card { return h.cards[r][:h.c[r]] }

// rankOfIndex is RankOf(cards.FromIndex(i)).
func rankOfIndex(i int) Rank {
	switch {
	case i >= 52:
		return RankBJ + Rank(i-52)
	case i%13 == 0:
		return Rank2
	}
	return Rank(i%13 - 1)
}

// legalPlays lists the plays of hand that may be made on lead (nil: leading).
//
// It works in two steps. First it generates rank patterns (how many cards of
// each rank) shape by shape, only the shapes that can be legal on lead; each
// distinct pattern is then read by the same classifier Decide uses and kept
// with the readings that may be played. Second it expands each kept pattern
// into every choice of suits the hand allows.
func legalPlays(hand *cards.Multiset, lead *Reading) []table.Action {
	var h holding
	h.fill(hand)
	var patBuf [32]counts // most calls need no more: no allocation
	g := patternSet{pats: patBuf[:0]}
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

	// Keep the patterns with their playable types, and count the cards they
	// expand to, so that one backing array holds every play.
	type kept struct {
		p     counts
		n     int    // cards in a play
		plays int    // choices of suits
		types uint32 // bit t set: playable as type t
	}
	var keepBuf [32]kept
	keep := keepBuf[:0]
	var readings [8]Reading
	total, actions := 0, 0
	for _, p := range g.pats {
		n := patternLen(&p)
		var types uint32
		for _, rd := range classifyCounts(&p, n, readings[:0]) {
			if lead == nil || rd.Beats(*lead) {
				types |= 1 << rd.Type
			}
		}
		if types != 0 {
			c := h.choices(&p)
			keep = append(keep, kept{p, n, c, types})
			total += c * n
			actions += c * bits.OnesCount32(types)
		}
	}
	backing := make([]cards.Card, 0, total)
	for _, k := range keep {
		backing = h.expand(&k.p, backing)
	}
	out := make([]table.Action, 0, actions+1) // + a pass
	at := 0
	for _, k := range keep {
		end := at + k.plays*k.n
		for ; at < end; at += k.n {
			a := table.Action{Type: ActionPlay, Cards: backing[at : at+k.n : at+k.n]}
			if bits.OnesCount32(k.types) == 1 {
				out = append(out, a)
				continue
			}
			for t := Single; t <= Rocket; t++ {
				if k.types&(1<<t) != 0 {
					a.As = t.String()
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// patternSet collects rank patterns. Each generator yields a pattern once;
// only the airplane generators can yield the same pattern twice between them
// (333444555666 is an airplane and two airplanes with kickers, as an
// airplane's kickers may form another chain), since no other pattern reads
// as two types. Those patterns are de-duplicated.
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
			h.kickers(&p, 0, 2, &kickerRule{pairs: t == FourTwoPairs, most: 2, lo: body, hi: body}, g)
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
					h.kickers(&p, 0, n, &kickerRule{most: 3, lo: lo, hi: hi, repeat: true}, g)
				case AirplanePairs:
					h.kickers(&p, 0, n, &kickerRule{pairs: true, lo: lo, hi: hi}, g)
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

// kickerRule says which kickers a body takes (doudizhu.md, Kickers
// Decision): never of the body's ranks lo..hi, never both jokers, never four
// of a rank.
type kickerRule struct {
	pairs  bool // pairs of distinct ranks; else single cards, at most `most` of a rank
	most   int
	lo, hi int
	repeat bool // the same pattern may come from another body (airplanes)
}

// kickers adds p extended by every choice of need kickers (need pairs, with
// k.pairs) from the ranks ≥ from.
func (h *holding) kickers(p *counts, from, need int, k *kickerRule, g *patternSet) {
	if need == 0 {
		if p[RankBJ] == 0 || p[RankRJ] == 0 {
			g.add(p, k.repeat)
		}
		return
	}
	for r := from; r < numRanks; r++ {
		if r >= k.lo && r <= k.hi {
			continue
		}
		if k.pairs {
			if h.c[r] >= 2 {
				p[r] = 2
				h.kickers(p, r+1, need-1, k, g)
				p[r] = 0
			}
			continue
		}
		for n := 1; n <= min(int(h.c[r]), k.most, need); n++ {
			p[r] = uint8(n)
			h.kickers(p, r+1, need-n, k, g)
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
			n *= binomial(int(h.c[r]), int(k))
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

// expand appends to out every choice of the hand's cards that has pattern
// p's rank counts, one play after the other, each in display order. It
// counts through the choices like an odometer, the last rank fastest; each
// rank's choice is a bit mask over its cards, stepped through the masks with
// the same number of bits in increasing order.
func (h *holding) expand(p *counts, out []cards.Card) []cards.Card {
	var (
		ranks       [numRanks]uint8
		mask, first [numRanks]uint
	)
	nr := 0
	for r, k := range p {
		if k > 0 {
			ranks[nr], first[nr] = uint8(r), 1<<k-1
			mask[nr] = first[nr]
			nr++
		}
	}
	for {
		for i := range nr {
			for j, c := range h.of(int(ranks[i])) {
				if mask[i]&(1<<j) != 0 {
					out = append(out, c)
				}
			}
		}
		i := nr - 1
		for ; i >= 0; i-- {
			if next := nextMask(mask[i]); next < 1<<h.c[ranks[i]] {
				mask[i] = next
				break
			}
			mask[i] = first[i]
		}
		if i < 0 {
			return out
		}
	}
}

// nextMask is the next larger integer with as many one bits as m (m > 0).
func nextMask(m uint) uint {
	low := m & -m
	up := m + low
	return up | ((up^m)>>2)/low
}

func patternLen(p *counts) int {
	n := 0
	for _, k := range p {
		n += int(k)
	}
	return n
}
