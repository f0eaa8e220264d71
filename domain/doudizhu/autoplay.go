package doudizhu

import (
	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

var _ table.AutoplayDecider[*State] = (*Rules)(nil)

// Awaited is the seat on turn in the bidding, the grab phase and the play;
// nobody between deals. Every phase of 斗地主 waits for exactly one seat, and
// no other seat has a legal action (Legal is nil off turn).
func (r *Rules) Awaited(s *State) []int { return awaited(s) }

// TimeoutAction is the default action of the seat on turn (see doc.go, Turn
// clock).
func (r *Rules) TimeoutAction(s *State, seat int) table.Action {
	return timeoutAction(s, seat)
}

// BotAction is the bot's choice (see doc.go, Bot), from the seat's view.
func (r *Rules) BotAction(v table.View, legal []table.Action) table.Action {
	return botAction(v, legal)
}

func awaited(s *State) []int {
	if s.phase == phaseWaiting {
		return nil
	}
	return []int{s.turn}
}

// timeoutAction: pass (不叫, 不抢, 不出) wherever pass is legal, so that a
// bidding every seat passes is dealt again (002: 如果都不叫，則重新發牌); a
// table of absent players is closed by AbandonAfter instead (rules README,
// Clocks, timeouts and absent players). A leader plays its lowest card as a
// single (climb.Sort's order: the lowest rank, then ♠ ♥ ♣ ♦). Never a grab,
// a double or open play. The versions before (timeoutBids) had the last bidder after
// every other seat passed bid 1.
func timeoutAction(s *State, seat int) table.Action {
	if s.v.timeoutBids && s.phase == phaseBidding && s.highBid == 0 && len(s.bids)+1 == s.v.seats {
		return table.Action{Type: ActionBid, Bid: table.Seat(1)}
	}
	if s.phase != phasePlaying || s.last != nil {
		return table.Action{Type: ActionPass}
	}
	return table.Action{Type: ActionPlay, Cards: []cards.Card{lowestCard(&s.hands[seat])}}
}

// lowestCard is the first card of hand in display order.
func lowestCard(hand *cards.Multiset) cards.Card {
	var low cards.Card
	found := false
	for i, k := range hand {
		if k == 0 {
			continue
		}
		if c := cards.FromIndex(i); !found || climb.CompareDisplay(c, low) < 0 {
			low, found = c, true
		}
	}
	return low
}
