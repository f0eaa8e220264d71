package doudizhu

import (
	"math/bits"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// AppendPatterns appends to dst the rank patterns seat may play now, at
// the level a move list without suits needs (DouZero's): each distinct
// multiset of ranks once, packed as climb.Counts.Key packs it (4 bits a
// rank, 3 lowest), in Legal's order. It appends nothing when seat is not
// playing its turn. With a dst of enough capacity it allocates nothing.
func (r *Rules) AppendPatterns(dst []uint64, s *State, seat int) []uint64 {
	if s.phase != phasePlaying || seat != s.turn {
		return dst
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	c := countsOfMultiset(&s.hands[seat])
	return r.v.cardTypes().appendPatterns(dst, c.Key(), lead)
}

// countsOfMultiset counts m by rank.
func countsOfMultiset(m *cards.Multiset) climb.Counts {
	var c climb.Counts
	for i, k := range m {
		c[climb.RankOfIndex(i)] += k
	}
	return c
}

// allGens is every type as a generator set (bit t for type t).
const allGens = 1<<(Rocket+1) - 1<<Single

// gensOn is the set of types that may be played on lead (nil: leading).
func gensOn(lead *Reading) uint32 {
	switch {
	case lead == nil:
		return allGens
	case lead.Type == Rocket:
		return 0
	case lead.Type == Bomb:
		return 1<<Bomb | 1<<Rocket
	}
	return 1<<lead.Type | 1<<Bomb | 1<<Rocket
}

// appendPatterns appends the playable rank patterns of hand (its rank
// counts packed as climb.Counts.Key packs them) on lead (nil: leading), in
// Legal's order.
func (t cardTypes) appendPatterns(dst []uint64, hand uint64, lead *Reading) []uint64 {
	g := patternGen{h: hand, t: t, lead: lead, out: dst, gens: gensOn(lead)}
	g.all(nil)
	return g.out
}

// patternGen generates the rank patterns a hand may play, straight from
// its rank counts: every generator yields only patterns the classifier
// reads as its type and that beat the lead, so that no pattern needs
// reading, and only the airplanes with single kickers can meet a pattern
// twice (a kicker trio next to the body makes another body, or a longer
// airplane), which it settles without a map (airplaneSingles). The
// differential tests hold it to the classifier: TestPatternsMatchLegacy,
// FuzzPatterns.
//
// A pattern is packed as climb.Counts.Key packs it: 4 bits a rank, so that
// adding k cards of rank r is adding k << 4r. The ranks holding at least k
// cards are a bit set (ge[k]), so that the generators visit only the ranks
// that can take part, lowest first as the old generator did.
type patternGen struct {
	h    uint64 // the hand's counts, packed
	t    cardTypes
	lead *Reading
	gens uint32
	out  []uint64
	ge   [5]uint32 // ge[k]: bit r set when c[r] ≥ k (k ≤ 4)

	// The body of the airplane whose kickers kick walks: its lowest rank,
	// its length, its ranks as a bit set.
	lo, n int
	body  uint32
}

// Rank sets.
const (
	allRanks = 1<<climb.NumRanks - 1
	runRanks = 1<<(climb.TopRun+1) - 1 // 3..A: the ranks of a chain
	bombable = 1<<(climb.Rank2+1) - 1  // 3..2: the ranks of a bomb or a four
)

// all runs the generators of g.gens in type order; ends, when not nil,
// gets the end in g.out of each type's patterns.
func (g *patternGen) all(ends *[Rocket + 1]int) {
	g.ge = [5]uint32{0, atLeast(g.h, 1), atLeast(g.h, 2), atLeast(g.h, 3), atLeast(g.h, 4)}
	gens := g.gens
	if g.ge[3] == 0 { // no trio: no trio, airplane, four or bomb
		gens &^= 1<<Trio | 1<<TrioSingle | 1<<TrioPair | 1<<Airplane | 1<<AirplaneSingles | 1<<AirplanePairs |
			1<<FourTwoSingles | 1<<FourTwoPairs | 1<<Bomb
	}
	for ty := Single; ty <= Rocket; ty++ {
		if gens&(1<<ty) != 0 {
			g.generate(ty)
		}
		if ends != nil {
			ends[ty] = len(g.out)
		}
	}
}

// lowBits has the lowest bit of each rank's 4 bits set.
const lowBits = 0x0111_1111_1111_1111

// atLeast is the set of ranks holding k cards or more in hand h (k ≤ 8,
// no count above 8), without a loop: adding 8 - k to every count sets a
// count's bit 3 when it is k or more (8 + 7 still fits in 4 bits), and
// these 15 bits, 4 apart, are packed together in four steps.
func atLeast(h uint64, k uint64) uint32 {
	x := (h + (8-k)*lowBits) >> 3 & lowBits
	x = (x | x>>3) & 0x0303_0303_0303_0303
	x = (x | x>>6) & 0x000F_000F_000F_000F
	x = (x | x>>12) & 0x0000_00FF_0000_00FF
	x = (x | x>>24) & 0xFFFF
	return uint32(x)
}

// count is how many cards of rank r the hand holds.
func (g *patternGen) count(r int) int { return int(g.h >> (4 * uint(r)) & 0xF) }

// rank is one card of rank r, packed.
func rank(r int) uint64 { return 1 << (4 * uint(r)) }

// reps[k][n] is n ranks of k cards each, packed from the lowest.
var reps = func() (out [4][climb.NumRanks + 1]uint64) {
	for k := range 4 {
		for n := 1; n <= climb.NumRanks; n++ {
			out[k][n] = out[k][n-1]<<4 | uint64(k)
		}
	}
	return out
}()

// nibbles[n] masks n ranks, packed from the lowest.
var nibbles = func() (out [climb.NumRanks + 1]uint64) {
	for n := 1; n <= climb.NumRanks; n++ {
		out[n] = out[n-1]<<4 | 0xF
	}
	return out
}()

// from is the lowest main rank a play of type ty may have on the lead: 0
// when leading, above the lead's main for its type, and past every rank
// (NumRanks) when ty cannot beat the lead. Bombs and the rocket are not
// asked.
func (g *patternGen) from(ty Type) int {
	switch {
	case g.lead == nil:
		return 0
	case g.lead.Type == ty:
		return int(g.lead.Main) + 1
	}
	return climb.NumRanks
}

// above is the set of ranks ≥ from.
func above(from int) uint32 { return allRanks &^ (1<<from - 1) }

// low is the lowest rank of the non-empty set m.
func low(m uint32) int { return bits.TrailingZeros32(m) }

func (g *patternGen) generate(ty Type) {
	switch ty {
	case Single, Pair, Trio:
		k := uint64(ty) // 1, 2, 3 cards
		for m := g.ge[k] & above(g.from(ty)); m != 0; m &= m - 1 {
			g.out = append(g.out, k<<(4*low(m)))
		}
	case Bomb:
		g.bombs()
	case Rocket:
		k := g.t.rocketJokers
		if g.count(int(climb.RankBJ)) >= int(k) && g.count(int(climb.RankRJ)) >= int(k) && (g.lead == nil || g.lead.Type != Rocket) {
			g.out = append(g.out, uint64(k)*(rank(int(climb.RankBJ))+rank(int(climb.RankRJ))))
		}
	case TrioSingle, TrioPair:
		k := 1
		if ty == TrioPair {
			k = 2
		}
		for m := g.ge[3] & above(g.from(ty)); m != 0; m &= m - 1 {
			body := low(m)
			p := 3 * rank(body)
			for n := g.ge[k] &^ (1 << body); n != 0; n &= n - 1 {
				g.out = append(g.out, p+uint64(k)*rank(low(n)))
			}
		}
	case FourTwoSingles, FourTwoPairs:
		for m := g.ge[4] & bombable & above(g.from(ty)); m != 0; m &= m - 1 {
			body := low(m)
			if ty == FourTwoSingles {
				g.fourSingles(4*rank(body), body)
			} else {
				g.fourPairs(4*rank(body), body)
			}
		}
	case Straight, PairStraight, Airplane, AirplaneSingles, AirplanePairs:
		g.chains(ty)
	}
}

// bombs generates the bombs that beat the lead: every bomb on a lead that
// is no bomb, and on a bomb those with more cards or as many of a higher
// rank (Reading.Beats).
func (g *patternGen) bombs() {
	size, main := 0, -1
	if l := g.lead; l != nil {
		switch l.Type {
		case Rocket:
			return
		case Bomb:
			size, main = l.Size(), int(l.Main)
		}
	}
	for m := g.ge[4] & bombable; m != 0; m &= m - 1 {
		r := low(m)
		top := min(g.count(r), int(g.t.maxBomb))
		for k := 4; k <= top; k++ {
			if k > size || (k == size && r > main) {
				g.out = append(g.out, uint64(k)*rank(r))
			}
		}
	}
}

// fourSingles adds four of body and two single kickers of other ranks (a
// pair of one rank too), never the rocket.
func (g *patternGen) fourSingles(p uint64, body int) {
	ones := g.ge[1] &^ (1 << body)
	for m := ones; m != 0; m &= m - 1 {
		r := low(m)
		q := p + rank(r)
		for n := ones & above(r+1); n != 0; n &= n - 1 {
			if x := q + rank(low(n)); !g.rocketIn(x) {
				g.out = append(g.out, x)
			}
		}
		if g.ge[2]&(1<<r) != 0 && !g.rocketIn(q+rank(r)) {
			g.out = append(g.out, q+rank(r))
		}
	}
}

// fourPairs adds four of body and two kicker pairs of two other ranks,
// never the rocket (two decks' BJ BJ RJ RJ).
func (g *patternGen) fourPairs(p uint64, body int) {
	twos := g.ge[2] &^ (1 << body)
	for m := twos; m != 0; m &= m - 1 {
		q := p + 2*rank(low(m))
		for n := m & (m - 1); n != 0; n &= n - 1 {
			if x := q + 2*rank(low(n)); !g.rocketIn(x) {
				g.out = append(g.out, x)
			}
		}
	}
}

// rocketIn reports whether pattern p holds the rocket.
func (g *patternGen) rocketIn(p uint64) bool {
	k := uint64(g.t.rocketJokers)
	return p>>(4*int(climb.RankBJ))&0xF >= k && p>>(4*int(climb.RankRJ))&0xF >= k
}

// chains generates the chains of type ty, body lo..hi by lo then hi, only
// of the lead's length when following.
func (g *patternGen) chains(ty Type) {
	from := g.from(ty)
	if from == climb.NumRanks {
		return
	}
	width, minLen := 1, 5
	switch ty {
	case PairStraight:
		width, minLen = 2, 3
	case Airplane, AirplaneSingles, AirplanePairs:
		width, minLen = 3, 2
	}
	maxLen := int(climb.TopRun) + 1
	if g.lead != nil {
		minLen, maxLen = g.lead.Length, g.lead.Length
	}
	held := g.ge[width] & runRanks
	for m := held; m != 0; m &= m - 1 {
		lo := low(m)
		run := bits.TrailingZeros32(^(held >> lo)) // ranks from lo up held width times
		for n := minLen; n <= min(run, maxLen); n++ {
			hi := lo + n - 1
			body := reps[width][n] << (4 * lo)
			switch ty {
			case AirplaneSingles:
				g.lo, g.n, g.body = lo, n, (1<<n-1)<<lo
				g.kick(body, g.ge[1]&^g.body, n, false)
			case AirplanePairs:
				if hi >= from {
					g.pairs(body, g.ge[2]&^((1<<n-1)<<lo), n)
				}
			default:
				if hi >= from {
					g.out = append(g.out, body)
				}
			}
		}
	}
}

// pairs adds to airplane p need kicker pairs of distinct ranks of the set
// m, never the rocket.
func (g *patternGen) pairs(p uint64, m uint32, need int) {
	if need == 0 {
		if !g.rocketIn(p) {
			g.out = append(g.out, p)
		}
		return
	}
	for ; m != 0; m &= m - 1 {
		g.pairs(p+2*rank(low(m)), m&(m-1), need-1)
	}
}

// kick adds to airplane p (body g.lo, g.n ranks) need single kickers from
// the ranks of the set m (outside the body), at most three of a rank, never
// the rocket; trio tells whether a kicker rank holds three cards.
func (g *patternGen) kick(p uint64, m uint32, need int, trio bool) {
	if need == 0 {
		g.airplaneSingles(p, trio)
		return
	}
	for ; m != 0; m &= m - 1 {
		r := low(m)
		top := min(g.count(r), 3, need)
		for k := 1; k <= top; k++ {
			g.kick(p+uint64(k)*rank(r), m&(m-1), need-k, trio || k == 3)
		}
	}
}

// airplaneSingles adds airplane with kickers p, generated from the body at
// g.lo, unless another generator has or will have added it. Only a kicker
// trio can make p read otherwise: as a pure airplane (333444555666 on a
// lead, which the airplane generator adds), or as the same type with
// another body (333444 + 555666's kickers); p is then added once, from its
// lowest body, when any of its readings beats the lead.
func (g *patternGen) airplaneSingles(p uint64, trio bool) {
	if g.rocketIn(p) {
		return
	}
	hi := g.lo + g.n - 1
	if !trio {
		if hi >= g.from(AirplaneSingles) {
			g.out = append(g.out, p)
		}
		return
	}
	if g.lead == nil && g.gens&(1<<Airplane) != 0 && trioRun(p) {
		return
	}
	top := -1 // the highest body's lowest rank
	body, mask := reps[3][g.n], nibbles[g.n]
	for s := 0; s+g.n-1 <= int(climb.TopRun); s++ {
		if p>>(4*s)&mask == body {
			if s < g.lo {
				return // added from body s
			}
			top = s
		}
	}
	if top+g.n-1 >= g.from(AirplaneSingles) {
		g.out = append(g.out, p)
	}
}

// trioRun reports whether p is a run of trios within 3..A and nothing else.
func trioRun(p uint64) bool {
	if p == 0 {
		return false
	}
	lo := bits.TrailingZeros64(p) / 4
	q := p >> (4 * lo)
	n := (bits.Len64(q) + 3) / 4
	return q == reps[3][n] && lo+n-1 <= int(climb.TopRun)
}

// patternCounts unpacks a pattern.
func patternCounts(p uint64) climb.Counts {
	var c climb.Counts
	for r := range c {
		c[r] = uint8(p >> (4 * r) & 0xF)
	}
	return c
}

// checkPlay reads the cards cs as one play on lead (nil: leading) as
// Decide reads a play posted without "as": the reading it takes, false when
// cs is no play or beats nothing.
func (t cardTypes) checkPlay(cs []cards.Card, lead *Reading) (Reading, bool) {
	var buf [8]Reading // more than any play has: no allocation
	return climb.Pick(t.classifyCards(cs, buf[:0]), lead)
}
