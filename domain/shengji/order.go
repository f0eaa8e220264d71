package shengji

import (
	"slices"

	"paiju/domain/cards"
)

// Order is the card order of one hand: its level rank and trump suit
// (shengji.md, Trump order, ningyang). Every comparison of the hand goes
// through it, because a card's rank in 升级 depends on the hand.
type Order struct {
	Level cards.Rank
	Trump cards.Suit // cards.Joker while the trump suit is not fixed
	// Fixed: every 2, 3 and 5 is a trump (常主, guafeng), and plays are
	// read as guafeng's combinations (combo_guafeng.go).
	Fixed bool
}

// trumpClass is the suit-class of every trump: jokers, level cards and the
// trump suit play as one suit.
const trumpClass = cards.Joker

// Positions inside a suit-class, low to high. A side suit holds the 12 ranks
// other than the level, 2 … A, at 0..11. The trump class continues with
// level cards of other suits (all equal), the trump suit's level card, BJ
// and RJ; tractors are pairs at consecutive positions.
const (
	posOtherLevel = 12
	posTrumpLevel = 13
	posBJ         = 14
	posRJ         = 15
)

// Positions of the guafeng trump class above the plain cards (at their
// rank − 2, 2 … 12): the other suits' fixed trumps 2 < 3 < 5, the trump
// suit's, the other level cards, the trump suit's level card, BJ, RJ
// (shengji.md, Trump order, guafeng). Side suits use the plain positions.
const (
	guafengOtherFixed = 13 // + 0, 1, 2 for 2, 3, 5
	guafengTrumpFixed = 16
	guafengOtherLevel = 19
	guafengTrumpLevel = 20
	guafengBJ         = 21
	guafengRJ         = 22
	// maxPos bounds every position of both variants.
	maxPos = guafengRJ
)

// isFixedRank: 2, 3 and 5 are fixed trumps in guafeng (常主), unless the
// hand's level is that rank, which makes them level cards.
func (o Order) isFixedRank(r cards.Rank) bool {
	return o.Fixed && r != o.Level && (r == 2 || r == 3 || r == 5)
}

func fixedIndex(r cards.Rank) int {
	switch r {
	case 2:
		return 0
	case 3:
		return 1
	}
	return 2
}

// IsTrump reports whether c is a trump.
func (o Order) IsTrump(c cards.Card) bool {
	return c.IsJoker() || c.Rank == o.Level || c.Suit == o.Trump || o.isFixedRank(c.Rank)
}

// Class is the suit-class c follows and is followed in: trumpClass for
// trumps, else its suit.
func (o Order) Class(c cards.Card) cards.Suit {
	if o.IsTrump(c) {
		return trumpClass
	}
	return c.Suit
}

// Pos is c's position inside its class; higher beats lower, equal positions
// (two level cards of side suits) go to the one played first.
func (o Order) Pos(c cards.Card) int {
	if o.Fixed {
		return o.guafengPos(c)
	}
	switch {
	case c.Rank == cards.RedJoker:
		return posRJ
	case c.Rank == cards.BlackJoker:
		return posBJ
	case c.Rank == o.Level && (c.Suit == o.Trump || o.Trump == cards.Joker):
		// With no trump suit (qiangbao's 无主) every level card stands
		// right under BJ, so a level pair and a BJ pair link; before a
		// trump suit is fixed this changes no order between cards.
		return posTrumpLevel
	case c.Rank == o.Level:
		return posOtherLevel
	}
	return o.plainPos(c.Rank)
}

// guafengPos is Pos in guafeng: RJ > BJ > the trump suit's level card > the
// other level cards > the trump suit's 5 > 3 > 2 > the other 5 > 3 > 2 >
// plain cards A … 4 (trump suit in the trump class, side suits in theirs).
func (o Order) guafengPos(c cards.Card) int {
	switch {
	case c.Rank == cards.RedJoker:
		return guafengRJ
	case c.Rank == cards.BlackJoker:
		return guafengBJ
	case c.Rank == o.Level && c.Suit == o.Trump:
		return guafengTrumpLevel
	case c.Rank == o.Level:
		return guafengOtherLevel
	case o.isFixedRank(c.Rank) && c.Suit == o.Trump:
		return guafengTrumpFixed + fixedIndex(c.Rank)
	case o.isFixedRank(c.Rank):
		return guafengOtherFixed + fixedIndex(c.Rank)
	}
	return int(c.Rank) - 2
}

// plainPos is the position of a non-level rank: 2 … A without the level.
func (o Order) plainPos(r cards.Rank) int {
	p := int(r) - 2
	if r > o.Level {
		p--
	}
	return p
}

// Strength orders cards for display and for "highest": trumps above side
// suits, then by position. It is not a beating order across side suits.
func (o Order) Strength(c cards.Card) int {
	s := o.Pos(c) * 8
	if o.IsTrump(c) {
		return 1000 + s
	}
	return s + int(3-c.Suit)
}

// Sort puts cs in display order: trumps first, high to low, then the side
// suits ♠ ♥ ♣ ♦, each high to low.
// sortKeys is Sort's order as one number a card (by Index): smaller sorts
// first, and two cards share a number only if they are the same card. Legal
// sorts every one of its many short card lists; comparing numbers costs far
// less than ranking both cards again at every comparison.
type sortKeys [54]int32

func (o Order) sortKeys() *sortKeys {
	var k sortKeys
	for i := range k {
		c := cards.FromIndex(i)
		// Trumps first, highest first; then the plain suits in suit
		// order, highest first; equal places by suit (Sort's last rule).
		key := int32(0)
		if !o.IsTrump(c) {
			key = 1<<20 | int32(c.Suit)<<16
		}
		k[i] = key | int32(255-o.Pos(c))<<4 | int32(c.Suit)
	}
	return &k
}

// sort sorts cs as Order.Sort does.
func (k *sortKeys) sort(cs []cards.Card) {
	slices.SortFunc(cs, func(a, b cards.Card) int { return int(k[a.Index()] - k[b.Index()]) })
}

func (o Order) Sort(cs []cards.Card) {
	slices.SortStableFunc(cs, func(a, b cards.Card) int {
		ta, tb := o.IsTrump(a), o.IsTrump(b)
		if ta != tb {
			if ta {
				return -1
			}
			return 1
		}
		if !ta && a.Suit != b.Suit {
			return int(a.Suit) - int(b.Suit)
		}
		if pa, pb := o.Pos(a), o.Pos(b); pa != pb {
			return pb - pa
		}
		return int(a.Suit) - int(b.Suit)
	})
}
