package doudizhu

import (
	"fmt"
	"math/bits"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// Type is a card type (牌型) of doudizhu.md, Card types. It is persisted by
// name, and clients name an ambiguous play's type with the same names.
type Type uint8

// The card types, in the order of the rules file's table.
const (
	Single          Type = iota + 1 // 1 card
	Pair                            // 2 of a rank
	Trio                            // 3 of a rank
	TrioSingle                      // 3 of a rank + 1 card of another rank
	TrioPair                        // 3 of a rank + a pair of another rank
	Straight                        // ≥ 5 consecutive ranks within 3..A
	PairStraight                    // ≥ 3 consecutive pairs within 3..A (连对)
	Airplane                        // ≥ 2 consecutive trios within 3..A (飞机)
	AirplaneSingles                 // n consecutive trios + n single kickers
	AirplanePairs                   // n consecutive trios + n kicker pairs
	FourTwoSingles                  // 4 of a rank + 2 single kickers
	FourTwoPairs                    // 4 of a rank + 2 kicker pairs
	Bomb                            // 4 of a rank
	Rocket                          // BJ + RJ
)

var typeNames = climb.TypeNames{Game: "doudizhu", Names: []string{"", "single", "pair", "trio", "trio_single", "trio_pair",
	"straight", "pair_straight", "airplane", "airplane_singles", "airplane_pairs",
	"four_two_singles", "four_two_pairs", "bomb", "rocket"}}

func (t Type) String() string { return typeNames.Name(uint8(t)) }

// ParseType returns the type with the given name.
func ParseType(name string) (Type, bool) {
	t, ok := typeNames.Parse(name)
	return Type(t), ok
}

// MarshalText writes the type's name.
func (t Type) MarshalText() ([]byte, error) { return typeNames.Marshal(uint8(t)) }

// UnmarshalText reads a type's name.
func (t *Type) UnmarshalText(b []byte) error {
	v, err := typeNames.Unmarshal(b)
	*t = Type(v)
	return err
}

// Reading is how a play is read: its type, its main rank (the single, pair,
// trio or four, or the highest rank of a chain; kickers never count) and its
// length (the number of ranks in the chain; 1 for a type that is not a chain).
// Type and length fix the number of cards, but for the bombs and the rocket
// of two decks (fourplayer), whose number of cards is Count; Count is 0 (and
// absent from the JSON) in the one-deck variants.
type Reading struct {
	Type   Type       `json:"type"`
	Main   climb.Rank `json:"main"`
	Length int        `json:"length"`
	Count  int        `json:"count,omitempty"`
}

func (r Reading) String() string {
	if r.Count > 0 {
		return fmt.Sprintf("%s of %d × %s", r.Type, r.Count, r.Main)
	}
	if r.Length > 1 {
		return fmt.Sprintf("%s of %d up to %s", r.Type, r.Length, r.Main)
	}
	return fmt.Sprintf("%s of %s", r.Type, r.Main)
}

// Size is the number of cards a play of this reading holds.
func (r Reading) Size() int {
	if r.Count > 0 {
		return r.Count
	}
	switch r.Type {
	case Single:
		return 1
	case Pair, Rocket:
		return 2
	case Trio:
		return 3
	case TrioSingle, Bomb:
		return 4
	case TrioPair:
		return 5
	case Straight:
		return r.Length
	case PairStraight:
		return 2 * r.Length
	case Airplane:
		return 3 * r.Length
	case AirplaneSingles:
		return 4 * r.Length
	case AirplanePairs:
		return 5 * r.Length
	case FourTwoSingles:
		return 6
	case FourTwoPairs:
		return 8
	}
	return 0
}

// Beats reports whether a play read as r may be played on the play lead
// (doudizhu.md, Beating): the rocket beats everything, a bomb beats every
// non-bomb and a lower bomb, and otherwise the type and the number of cards
// must match and the main rank must be higher. Bombs compare by their number
// of cards first, then by rank (doudizhu.md, fourplayer Decision; one deck
// has only bombs of four).
func (r Reading) Beats(lead Reading) bool {
	switch {
	case r.Type == Rocket:
		return lead.Type != Rocket
	case lead.Type == Rocket:
		return false
	case r.Type == Bomb:
		return lead.Type != Bomb || r.bombAbove(lead)
	case lead.Type == Bomb:
		return false
	}
	return r.Type == lead.Type && r.Length == lead.Length && r.Main > lead.Main
}

// bombAbove orders two bombs: by their number of cards, then by rank.
func (r Reading) bombAbove(o Reading) bool {
	if a, b := r.Size(), o.Size(); a != b {
		return a > b
	}
	return r.Main > o.Main
}

// class orders the three tiers of play strength.
func (r Reading) class() int {
	switch r.Type {
	case Rocket:
		return 2
	case Bomb:
		return 1
	}
	return 0
}

// Outranks is the order that picks among the readings of an ambiguous play
// when the client does not name one: rocket, then bombs, then every other
// type; within a tier the higher main rank, then the longer chain, then the
// type later in the rules file's table. For 333444555666 it prefers the
// airplane of four trios over an airplane of three trios with kickers.
func (r Reading) Outranks(o Reading) bool {
	if a, b := r.class(), o.class(); a != b {
		return a > b
	}
	if r.Type == Bomb && o.Type == Bomb && r.Size() != o.Size() {
		return r.Size() > o.Size()
	}
	if r.Main != o.Main {
		return r.Main > o.Main
	}
	if r.Length != o.Length {
		return r.Length > o.Length
	}
	return r.Type > o.Type
}

// Classify returns every reading of the cards cs as one play (doudizhu.md,
// Card types and the Kicker Decision), in a fixed order; none when cs is not
// a play. Every card must be valid. The order of cs does not matter.
//
// Classify reads the one-deck card types (classic, hubei); Rules.Classify
// reads a variant's own.
func Classify(cs []cards.Card) []Reading {
	return typesOf(1).classifyCards(cs, nil)
}

// cardTypes is what the number of decks changes in the card types: the
// classifier and the legal-play generator read it, so that one value, not a
// flag handed down every call, says which plays exist. One deck (classic,
// hubei) has bombs of four and BJ + RJ as the rocket; two decks (doudizhu.md,
// fourplayer Decision) have bombs of 4 to 8 cards, all four jokers as the
// rocket, and two jokers of a colour as a pair.
type cardTypes struct {
	// maxBomb is the most cards of a bomb: every card of a rank.
	maxBomb uint8
	// rocketJokers is how many of each joker the rocket holds.
	rocketJokers uint8
}

// typesOf returns the card types of a variant dealt from decks decks (1 or 2).
func typesOf(decks int) cardTypes {
	return cardTypes{maxBomb: uint8(4 * decks), rocketJokers: uint8(decks)}
}

// cardTypes returns the card types of the variant.
func (v *variant) cardTypes() cardTypes { return typesOf(v.decks) }

// counted reports whether bombs and the rocket record their number of cards
// in Reading.Count: only where bombs of different sizes exist.
func (t cardTypes) counted() bool { return t.maxBomb > 4 }

// count is the Count of a bomb or rocket of n cards.
func (t cardTypes) count(n int) int {
	if t.counted() {
		return n
	}
	return 0
}

// classify appends the readings of the multiset with rank counts c and n
// cards in all. It accepts any counts (fuzzed input may hold five of a rank,
// or a pair of jokers with one deck).
func (t cardTypes) classify(c *climb.Counts, n int, out []Reading) []Reading {
	if n == 0 {
		return out
	}
	// The ranks held as a bit set, gathered without a branch a rank (which
	// ranks are empty is what a branch would guess wrong).
	var held uint32
	maxc := uint8(0)
	for r, k := range c {
		var bit uint32
		if k != 0 {
			bit = 1
		}
		held |= bit << r
		maxc = max(maxc, k)
	}
	return t.classifyHeld(c, n, held, maxc, out)
}

// classifyCards appends the readings of the cards cs as one play: classify
// with the counts, the ranks held and the most of a rank gathered card by
// card, as a play holds far fewer ranks than there are.
func (t cardTypes) classifyCards(cs []cards.Card, out []Reading) []Reading {
	if len(cs) == 0 {
		return out
	}
	var c climb.Counts
	var held uint32
	for _, x := range cs {
		r := climb.RankOf(x)
		c[r]++
		held |= 1 << r
	}
	maxc := uint8(0)
	for m := held; m != 0; m &= m - 1 {
		maxc = max(maxc, c[bits.TrailingZeros32(m)])
	}
	return t.classifyHeld(&c, len(cs), held, maxc, out)
}

// classifyHeld is classify given the set of ranks c holds (held) and the
// most cards of a rank (maxc).
func (t cardTypes) classifyHeld(c *climb.Counts, n int, held uint32, maxc uint8, out []Reading) []Reading {
	lo, hi, distinct := -1, -1, bits.OnesCount32(held)
	if held != 0 {
		lo, hi = bits.TrailingZeros32(held), 31-bits.LeadingZeros32(held)
	}
	one := func(t Type, main int) []Reading {
		return append(out, Reading{Type: t, Main: climb.Rank(main), Length: 1})
	}
	k := t.rocketJokers
	switch {
	case n >= 4 && n <= int(t.maxBomb) && distinct == 1 && lo <= int(climb.Rank2):
		return append(out, Reading{Type: Bomb, Main: climb.Rank(lo), Length: 1, Count: t.count(n)})
	case n == 2*int(k) && c[climb.RankBJ] == k && c[climb.RankRJ] == k:
		return append(out, Reading{Type: Rocket, Main: climb.RankRJ, Length: 1, Count: t.count(n)})
	}
	switch n {
	case 1:
		return one(Single, lo)
	case 2:
		if c[climb.RankBJ] == 1 && c[climb.RankRJ] == 1 {
			return out // BJ + RJ: neither a pair nor, with two decks, the rocket
		}
		if distinct == 1 {
			return one(Pair, lo)
		}
		return out
	case 3:
		if distinct == 1 {
			return one(Trio, lo)
		}
		return out
	case 4:
		if distinct == 2 && maxc == 3 {
			return one(TrioSingle, levelWith(c, 3))
		}
		return out
	case 5:
		if distinct == 2 && maxc == 3 {
			return one(TrioPair, levelWith(c, 3))
		}
	case 6:
		// 4 + 2 singles; the singles may pair but may not be the rocket.
		if f := levelWith(c, 4); f >= 0 && f <= int(climb.Rank2) && maxc == 4 && !t.hasRocket(c) {
			out = one(FourTwoSingles, f)
		}
	case 8:
		// 4 + two real pairs of two other ranks: 44445555 is two bombs, not this.
		if f := levelWith(c, 4); f >= 0 && f <= int(climb.Rank2) && distinct == 3 && maxc == 4 && pairsBesides(c, f) && !t.pairsHoldRocket(c) {
			out = one(FourTwoPairs, f)
		}
	}
	// low and high are the lowest and highest ranks held, so a run from low
	// to high holds every card: its length is n / k for k cards a rank. A
	// run of k a rank has maxc == k, which rules out most plays cheaply.
	low, high := climb.Rank(lo), climb.Rank(hi)
	if n >= 5 && maxc == 1 && c.Run(low, high, 1) {
		out = append(out, Reading{Type: Straight, Main: high, Length: n})
	}
	if n >= 6 && maxc == 2 && c.Run(low, high, 2) {
		out = append(out, Reading{Type: PairStraight, Main: high, Length: n / 2})
	}
	if n >= 6 && maxc == 3 && c.Run(low, high, 3) {
		out = append(out, Reading{Type: Airplane, Main: high, Length: n / 3})
	}
	// An airplane's body lies within lo..hi (and 3..A).
	if k := n / 4; n%4 == 0 && k >= 2 {
		for s := lo; s+k-1 <= min(hi, int(climb.RankA)); s++ {
			if allEqual(c, s, s+k-1, 3) && t.singleKickersOK(c, s, s+k-1) {
				out = append(out, Reading{Type: AirplaneSingles, Main: climb.Rank(s + k - 1), Length: k})
			}
		}
	}
	if k := n / 5; n%5 == 0 && k >= 2 {
		for s := lo; s+k-1 <= min(hi, int(climb.RankA)); s++ {
			if allEqual(c, s, s+k-1, 3) && t.pairKickersOK(c, s, s+k-1) {
				out = append(out, Reading{Type: AirplanePairs, Main: climb.Rank(s + k - 1), Length: k})
			}
		}
	}
	return out
}

// levelWith is the lowest rank holding exactly k cards, or -1.
func levelWith(c *climb.Counts, k uint8) int {
	for r, n := range c {
		if n == k {
			return r
		}
	}
	return -1
}

// allEqual reports whether every rank lo..hi holds exactly k cards. Exactly:
// a kicker never shares a rank with the body it is attached to.
func allEqual(c *climb.Counts, lo, hi int, k uint8) bool {
	for r := lo; r <= hi; r++ {
		if c[r] != k {
			return false
		}
	}
	return true
}

// pairsBesides reports whether every rank other than f holds 0 or 2 cards.
func pairsBesides(c *climb.Counts, f int) bool {
	for r, n := range c {
		if r != f && n != 0 && n != 2 {
			return false
		}
	}
	return true
}

// hasRocket reports whether c holds the rocket (kickers may never be the
// rocket: doudizhu.md, Kickers Decision; 004 带牌中不能有火箭).
func (t cardTypes) hasRocket(c *climb.Counts) bool {
	return c[climb.RankBJ] >= t.rocketJokers && c[climb.RankRJ] >= t.rocketJokers
}

// pairsHoldRocket reports whether kicker pairs c hold the rocket: only the
// rocket of two decks is made of pairs (BJ BJ + RJ RJ); one deck's BJ + RJ
// is no pair, so a one-deck hand's kicker pairs never hold it.
func (t cardTypes) pairsHoldRocket(c *climb.Counts) bool {
	return t.rocketJokers == 2 && t.hasRocket(c)
}

// singleKickersOK checks the single kickers of an airplane with body lo..hi:
// never four of a rank, never the rocket (doudizhu.md, Kickers Decision).
func (t cardTypes) singleKickersOK(c *climb.Counts, lo, hi int) bool {
	if t.hasRocket(c) {
		return false
	}
	for r, n := range c {
		if (r < lo || r > hi) && n >= 4 {
			return false
		}
	}
	return true
}

// pairKickersOK checks the pair kickers of an airplane with body lo..hi: each
// kicker rank holds exactly one pair, and the pairs never hold the rocket.
func (t cardTypes) pairKickersOK(c *climb.Counts, lo, hi int) bool {
	if t.pairsHoldRocket(c) {
		return false
	}
	for r, n := range c {
		if (r < lo || r > hi) && n != 0 && n != 2 {
			return false
		}
	}
	return true
}
