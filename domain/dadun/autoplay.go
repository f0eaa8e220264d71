package dadun

import (
	"strings"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

var _ table.AutoplayDecider[*State] = (*Rules)(nil)

// Awaited is the seat on turn in the declaring round and the play; nobody
// between deals. Every phase of 打盾 waits for exactly one seat, and no other
// seat has a legal action (Legal is nil off turn).
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

// timeoutAction: in the declaring round pass (never go alone), but a banker
// holding both copies of the turned card, who may not pass, calls its
// lowest card held once (climb.Sort's order); in the play pass when
// following, and lead the lowest card as a single.
func timeoutAction(s *State, seat int) table.Action {
	switch {
	case s.phase == phaseDeclaring && s.mustCall(seat):
		return table.Action{Type: ActionCall, Cards: []cards.Card{lowestCard(&s.hands[seat], 1)}}
	case s.phase == phaseDeclaring || s.last != nil:
		return table.Action{Type: ActionPass}
	}
	return table.Action{Type: ActionPlay, Cards: []cards.Card{lowestCard(&s.hands[seat], 0)}}
}

// lowestCard is the first card of hand in display order, among the cards
// held exactly once when once is 1.
func lowestCard(hand *cards.Multiset, once uint8) cards.Card {
	var low cards.Card
	found := false
	for i, k := range hand {
		if k == 0 || (once > 0 && k != once) {
			continue
		}
		if c := cards.FromIndex(i); !found || climb.CompareDisplay(c, low) < 0 {
			low, found = c, true
		}
	}
	return low
}

// shapes of 打盾 for counting plays (dadun.md, Combinations): straights of
// 5, pair runs and trio runs of 2, a trio carries two cards, three jokers
// make a bomb.
var shapes = climb.Shapes{MinRun: [4]int{0, 5, 2, 2}, Kickers: climb.KickerTwo, JokerGroup: 3}

// botAction: never goes alone; a banker who must call names its highest
// card held once (its holder of the other copy is likely strong); in the
// play climb.Choose, with the partners the view shows: the banker to the
// friend (role friend), the sides once public, the other three to each
// other in 打独. Before the sides are public the banker and the opponents
// know no partner, and treat every other seat as an opponent.
func botAction(v table.View, legal []table.Action) table.Action {
	g, ok := v.Game.(GameView)
	if !ok || v.Turn == nil {
		return legal[0]
	}
	if v.Phase == phaseDeclaring.String() {
		pick := -1
		for i, a := range legal {
			switch a.Type {
			case ActionPass:
				return a
			case ActionCall:
				pick = i
			}
		}
		if pick < 0 {
			return legal[0]
		}
		return legal[pick]
	}
	seat := *v.Turn
	partner := partners(seat, &g)
	sit := climb.Situation{Hand: climb.CountsOf(v.Hand), Pass: -1, Danger: 3}
	for i, left := range g.CardsLeft {
		if i == seat || left == 0 || partner[i] {
			continue
		}
		if sit.OpponentLow == 0 || left < sit.OpponentLow {
			sit.OpponentLow = left
		}
	}
	if g.LastPlay != nil && partner[g.LastPlay.Seat] {
		sit.PartnerWinning = true
	}
	opts := climb.Options(&sit, legal, ActionPass, ActionPlay, func(a table.Action, take *climb.Counts) bool { return isSpecial(a.As, take) })
	return legal[shapes.Choose(sit, opts)]
}

// partners are the seats the view shows to be on seat's side.
func partners(seat int, g *GameView) [seats]bool {
	var p [seats]bool
	switch {
	case g.Soloist != nil:
		if *g.Soloist != seat {
			for i := range seats {
				p[i] = i != seat && i != *g.Soloist
			}
		}
	case g.Sides != nil:
		for _, side := range g.Sides {
			for _, i := range side {
				for _, j := range side {
					if j == seat && i != seat {
						p[i] = true
					}
				}
			}
		}
	case g.Role == RoleFriend && g.Banker != nil:
		p[*g.Banker] = true
	}
	return p
}

// isSpecial reports a special combination (dadun.md, Combinations): a play
// named as one, or without a name four or more cards of one rank, three or
// more jokers alone, or sets of 5, 10 and K.
func isSpecial(as string, c *climb.Counts) bool {
	if as != "" {
		name, _, _ := strings.Cut(as, ":")
		t, ok := ParseType(name)
		return ok && t.Special()
	}
	ranks, most := 0, uint8(0)
	for _, k := range c {
		if k > 0 {
			ranks++
			most = max(most, k)
		}
	}
	switch {
	case ranks == 1 && most >= 4:
		return true
	case c.Jokers() == c.Total() && c.Total() >= 3:
		return true
	}
	k := c[climb.Rank5]
	return k > 0 && c[climb.Rank10] == k && c[climb.RankK] == k && int(k)*3 == c.Total()
}
