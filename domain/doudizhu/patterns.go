package doudizhu

import (
	"paiju/domain/cards"
	"paiju/domain/climb"
)

// AppendPatterns appends to dst the rank patterns seat may play now, at
// the level a move list without suits needs (DouZero's): each distinct
// multiset of ranks once, packed as climb.Counts.Key packs it (4 bits a
// rank, 3 lowest). It appends nothing when seat is not playing its turn.
// With a dst of enough capacity it allocates nothing.
func (r *Rules) AppendPatterns(dst []uint64, s *State, seat int) []uint64 {
	if s.phase != phasePlaying || seat != s.turn {
		return dst
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	c := countsOfMultiset(&s.hands[seat])
	return r.v.cardTypes().appendPatterns(dst, &c, lead)
}

// countsOfMultiset counts m by rank.
func countsOfMultiset(m *cards.Multiset) climb.Counts {
	var c climb.Counts
	for i, k := range m {
		c[climb.RankOfIndex(i)] += k
	}
	return c
}

// appendPatterns appends the playable rank patterns of a hand with rank
// counts c on lead (nil: leading), in Legal's order.
func (t cardTypes) appendPatterns(dst []uint64, c *climb.Counts, lead *Reading) []uint64 {
	var m cards.Multiset
	for r, k := range c {
		for j := range k {
			m[indexOfRank(r, int(j))]++
		}
	}
	var pl plan
	pl.make(&m, lead, t)
	for _, k := range pl.keep {
		dst = append(dst, k.p.Key())
	}
	return dst
}

// indexOfRank is the card index of a j-th card of rank r (any suit will
// do for a rank pattern; two decks put a second copy on the same index).
func indexOfRank(r, j int) int {
	switch climb.Rank(r) {
	case climb.RankBJ:
		return 52
	case climb.RankRJ:
		return 53
	case climb.Rank2:
		return (j % 4) * 13
	}
	return (j%4)*13 + r + 1
}

// checkPlay reads the cards cs as one play on lead (nil: leading) as
// Decide reads a play posted without "as": the reading it takes, false when
// cs is no play or beats nothing.
func (t cardTypes) checkPlay(cs []cards.Card, lead *Reading) (Reading, bool) {
	c := climb.CountsOf(cs)
	return climb.Pick(t.classify(&c, len(cs), nil), lead)
}
