package doudizhu

import (
	"paiju/domain/cards"
	"paiju/domain/climb"
)

// The generator of rank patterns that Legal used before appendPatterns:
// it generated candidate patterns shape by shape, read each one with the
// classifier Decide uses, and de-duplicated the airplanes with a map. It is
// kept as the reference the differential tests compare the new generator
// with (TestPatternsMatchLegacy, FuzzPatterns): slower, but simpler to
// trust, as the classifier has the last word on every pattern.

// legacyKept is a pattern the old plan kept, with its playable types.
type legacyKept struct {
	p     climb.Counts
	types uint32
}

// legacyPatterns is the old plan's first step: the playable rank patterns
// of hand on lead of the generators' types, in Legal's order.
func legacyPatterns(hand *cards.Multiset, lead *Reading, ct cardTypes, gens []Type) []legacyKept {
	var h holding
	h.types = ct
	h.fill(hand)
	var g legacySet
	for _, t := range gens {
		length := 0
		if lead != nil && t == lead.Type {
			length = lead.Length
		}
		h.legacyGenerate(t, length, &g)
	}
	var out []legacyKept
	var readings [8]Reading
	for _, p := range g.pats {
		n := p.Total()
		var types uint32
		for _, rd := range ct.classify(&p, n, readings[:0]) {
			if lead == nil || rd.Beats(*lead) {
				types |= 1 << rd.Type
			}
		}
		if types != 0 {
			out = append(out, legacyKept{p, types})
		}
	}
	return out
}

// legacyGens is the old plan's choice of generators on lead.
func legacyGens(lead *Reading) []Type {
	switch {
	case lead == nil:
		return allTypes[:]
	case lead.Type == Rocket:
		return nil
	case lead.Type == Bomb:
		return []Type{Bomb, Rocket}
	}
	return []Type{lead.Type, Bomb, Rocket}
}

// legacySet collects rank patterns. Each generator yields a pattern once;
// only the airplane generators can yield the same pattern twice between them
// (333444555666 is an airplane and two airplanes with kickers, as an
// airplane's kickers may form another chain), since no other pattern reads
// as two types. Those patterns are de-duplicated.
type legacySet struct {
	seen map[uint64]struct{}
	pats []climb.Counts
}

func (g *legacySet) add(p *climb.Counts, mayRepeat bool) {
	if mayRepeat {
		if g.seen == nil {
			g.seen = map[uint64]struct{}{}
		}
		k := p.Key()
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
func (h *holding) legacyGenerate(t Type, length int, g *legacySet) {
	var p climb.Counts
	switch t {
	case Single, Pair, Trio:
		k := legacyGroupSize(t)
		for r := range climb.NumRanks {
			if h.c[r] >= k {
				p[r] = k
				g.add(&p, false)
				p[r] = 0
			}
		}
	case Bomb:
		// One deck: four of a rank. Two decks: 4 to 8 (doudizhu.md, fourplayer).
		for r := 0; r <= int(climb.Rank2); r++ {
			for k := uint8(4); k <= min(h.c[r], h.types.maxBomb); k++ {
				p[r] = k
				g.add(&p, false)
			}
			p[r] = 0
		}
	case Rocket:
		k := h.types.rocketJokers
		if h.c[climb.RankBJ] >= k && h.c[climb.RankRJ] >= k {
			p[climb.RankBJ], p[climb.RankRJ] = k, k
			g.add(&p, false)
		}
	case TrioSingle, TrioPair:
		k := uint8(1)
		if t == TrioPair {
			k = 2
		}
		for body := range climb.NumRanks {
			if h.c[body] < 3 {
				continue
			}
			p[body] = 3
			for kick := range climb.NumRanks {
				if kick != body && h.c[kick] >= k {
					p[kick] = k
					g.add(&p, false)
					p[kick] = 0
				}
			}
			p[body] = 0
		}
	case FourTwoSingles, FourTwoPairs:
		for body := 0; body <= int(climb.Rank2); body++ {
			if h.c[body] < 4 {
				continue
			}
			p[body] = 4
			h.legacyKickers(&p, 0, 2, &legacyKickerRule{pairs: t == FourTwoPairs, most: 2, lo: body, hi: body}, g)
			p[body] = 0
		}
	case Straight, PairStraight, Airplane, AirplaneSingles, AirplanePairs:
		width, minLen := legacyGroupSize(t), legacyMinChain(t)
		for lo := 0; lo <= int(climb.RankA); lo++ {
			for hi := lo; hi <= int(climb.RankA) && h.c[hi] >= width; hi++ {
				n := hi - lo + 1
				if n < minLen || (length != 0 && n != length) {
					continue
				}
				for r := lo; r <= hi; r++ {
					p[r] = width
				}
				switch t {
				case AirplaneSingles:
					h.legacyKickers(&p, 0, n, &legacyKickerRule{most: 3, lo: lo, hi: hi, repeat: true}, g)
				case AirplanePairs:
					h.legacyKickers(&p, 0, n, &legacyKickerRule{pairs: true, lo: lo, hi: hi}, g)
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

// legacyKickerRule says which kickers a body takes (doudizhu.md, Kickers
// Decision): never of the body's ranks lo..hi, never both jokers, never four
// of a rank.
type legacyKickerRule struct {
	pairs  bool // pairs of distinct ranks; else single cards, at most `most` of a rank
	most   int
	lo, hi int
	repeat bool // the same pattern may come from another body (airplanes)
}

// kickers adds p extended by every choice of need kickers (need pairs, with
// k.pairs) from the ranks ≥ from.
func (h *holding) legacyKickers(p *climb.Counts, from, need int, k *legacyKickerRule, g *legacySet) {
	if need == 0 {
		if !h.types.hasRocket(p) {
			g.add(p, k.repeat)
		}
		return
	}
	for r := from; r < climb.NumRanks; r++ {
		if r >= k.lo && r <= k.hi {
			continue
		}
		if k.pairs {
			if h.c[r] >= 2 {
				p[r] = 2
				h.legacyKickers(p, r+1, need-1, k, g)
				p[r] = 0
			}
			continue
		}
		for n := 1; n <= min(int(h.c[r]), k.most, need); n++ {
			p[r] = uint8(n)
			h.legacyKickers(p, r+1, need-n, k, g)
		}
		p[r] = 0
	}
}

func legacyGroupSize(t Type) uint8 {
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

func legacyMinChain(t Type) int {
	switch t {
	case Straight:
		return 5
	case PairStraight:
		return 3
	}
	return 2
}
