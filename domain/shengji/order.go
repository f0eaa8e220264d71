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

// IsTrump reports whether c is a trump.
func (o Order) IsTrump(c cards.Card) bool {
	return c.IsJoker() || c.Rank == o.Level || c.Suit == o.Trump
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
	switch {
	case c.Rank == cards.RedJoker:
		return posRJ
	case c.Rank == cards.BlackJoker:
		return posBJ
	case c.Rank == o.Level && c.Suit == o.Trump:
		return posTrumpLevel
	case c.Rank == o.Level:
		return posOtherLevel
	}
	return o.plainPos(c.Rank)
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
