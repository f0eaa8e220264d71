package shengji

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// The 粘牌 kitty swap (shengji.md, guafeng, 粘牌 kitty swap; seed 003:
// "粘牌者換底牌的時候，只能用同點數的副牌去換主牌"). Once the sticker has
// given back every card it took, the phase stays "exchanging" with nobody
// owed (State.swapper set): the sticker sees the buried kitty and may take
// its plain trump-suit cards one at a time, each for a side card of the
// same rank from its hand, until it passes. The step opens after every
// stick, a swap possible or not, and closes only by the sticker's pass, so
// that neither its opening nor its end tells the other seats what the
// kitty or the sticker's hand holds.

// swapStep reports whether the sticker is in the kitty swap.
func (s *State) swapStep() bool {
	return s.phase == phaseExchanging && len(s.owed) == 0 && s.swapper >= 0
}

// isSwappable reports whether the sticker may take c out of the kitty: a
// plain card of the trump suit, never a joker, a 2, 3 or 5, or a level card
// (they are trumps of every suit), nor a side card.
func (o Order) isSwappable(c cards.Card) bool {
	return !c.IsJoker() && c.Suit == o.Trump && !o.isExchangeTrump(c)
}

// isSwapFor reports whether the sticker may give gave for took: a side
// card of the same rank.
func (o Order) isSwapFor(took, gave cards.Card) bool {
	return !gave.IsJoker() && gave.Rank == took.Rank && gave.Suit != o.Trump
}

// guafengSwap checks a kitty swap: cs is [the kitty card, the hand card].
func (s *State) guafengSwap(seat int, cs []cards.Card) ([]table.Payload, error) {
	if !s.swapStep() {
		return nil, table.ErrWrongPhase.With("no kitty swap is open: the hand is %s", s.phase)
	}
	if seat != s.swapper {
		return nil, ErrNotSticker.With("seat %d, the sticker, swaps kitty cards", s.swapper)
	}
	if len(cs) != 2 {
		return nil, ErrBadSwap.With("a swap takes two cards, the kitty's and yours, not %d (shengji.md, 粘牌 kitty swap)", len(cs))
	}
	took, gave := cs[0], cs[1]
	if !slices.Contains(s.buried, took) {
		return nil, ErrBadSwap.With("the kitty holds no %s", took)
	}
	if s.held[seat].Count(gave) == 0 {
		return nil, table.ErrCardNotInHand.With("you do not hold %s", gave)
	}
	if !s.order.isSwappable(took) {
		return nil, ErrBadSwap.With("%s is not a plain card of the trump suit: jokers, 2, 3, 5, level cards and side cards stay in the kitty (shengji.md, 粘牌 kitty swap)", took)
	}
	if !s.order.isSwapFor(took, gave) {
		return nil, ErrBadSwap.With("%s takes a side card of its rank, not %s (shengji.md, 粘牌 kitty swap)", took, gave)
	}
	return []table.Payload{KittySwapped{Seat: seat, Cards: []cards.Card{took, gave}}}, nil
}

// guafengSwapPass ends the kitty swap: the dealer leads.
func (s *State) guafengSwapPass(seat int) ([]table.Payload, error) {
	if seat != s.swapper {
		return nil, ErrNotSticker.With("seat %d, the sticker, ends the kitty swap", s.swapper)
	}
	return []table.Payload{KittySwapClosed{Seat: seat}}, nil
}

// guafengSwaps lists every swap guafengSwap accepts now, each once, as
// [kitty card, hand card]: at most the 4 kitty cards times the 3 side suits.
func (s *State) guafengSwaps(seat int) [][]cards.Card {
	if !s.swapStep() || seat != s.swapper {
		return nil
	}
	var out [][]cards.Card
	for i, took := range s.buried {
		if (i > 0 && s.buried[i-1] == took) || !s.order.isSwappable(took) {
			continue
		}
		for suit := cards.Spades; suit < cards.Joker; suit++ {
			gave := cards.Card{Suit: suit, Rank: took.Rank}
			if s.order.isSwapFor(took, gave) && s.held[seat].Count(gave) > 0 {
				out = append(out, []cards.Card{took, gave})
			}
		}
	}
	return out
}

// buriedAs is the kitty as the burier buried it, before any swap.
func (s *State) buriedAs() []cards.Card {
	if s.asBuried != nil {
		return s.asBuried
	}
	return s.buried
}

// evolveSwap applies the kitty swap's events (shengji.md, 粘牌 kitty swap).
func (s *State) evolveSwap(p table.Payload) {
	switch e := p.(type) {
	case KittySwapOpened:
		s.swapper = e.Seat
		s.asBuried = s.buried
		s.phase, s.turn = phaseExchanging, e.Seat
	case KittySwapped:
		if len(e.Cards) != 2 {
			panic("shengji: corrupt stream: a KittySwapped without its two cards")
		}
		i := slices.Index(s.buried, e.Cards[0])
		if i < 0 {
			panic("shengji: corrupt stream: the kitty swap takes a card the kitty does not hold")
		}
		s.remove(e.Seat, e.Cards[1:])
		s.held[e.Seat].Add(e.Cards[0])
		buried := slices.Clone(s.buried)
		buried[i] = e.Cards[1]
		s.order.Sort(buried)
		s.buried = buried
	case KittySwapClosed:
		s.phase, s.turn = phasePlaying, s.dealer
	}
}
