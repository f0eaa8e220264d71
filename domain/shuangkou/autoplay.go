package shuangkou

import (
	"strings"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

var _ table.AutoplayDecider[*State] = (*Rules)(nil)

// Awaited is the seat on turn in the play; nobody between deals. 双扣 has one
// phase, which waits for exactly one seat; no other seat has a legal action
// (Legal is nil off turn).
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

// timeoutAction: pass when following; a leader plays its lowest card as a
// single (climb.Sort's order: the lowest rank, then ♠ ♥ ♣ ♦).
func timeoutAction(s *State, seat int) table.Action {
	if s.last != nil {
		return table.Action{Type: ActionPass}
	}
	var low cards.Card
	found := false
	for i, k := range s.hands[seat] {
		if k == 0 {
			continue
		}
		if c := cards.FromIndex(i); !found || climb.CompareDisplay(c, low) < 0 {
			low, found = c, true
		}
	}
	return table.Action{Type: ActionPlay, Cards: []cards.Card{low}}
}

// botAction is climb.Choose with the fixed partner across the table
// (shuangkou.md, Partnerships): it lets the partner's play win and stops an
// opponent holding 3 cards or fewer. With jokers wild (百变) they cost no
// play of their own in the count.
func botAction(v table.View, legal []table.Action) table.Action {
	g, ok := v.Game.(GameView)
	if !ok || v.Turn == nil {
		return legal[0]
	}
	seat := *v.Turn
	shapes := climb.Shapes{MinRun: [4]int{0, 5, 3, 2}, JokerGroup: 4, WildJokers: g.Wild}
	sit := climb.Situation{Hand: climb.CountsOf(v.Hand), Pass: -1, Danger: 3}
	for i, left := range g.CardsLeft {
		if i == seat || i == partner(seat) || left == 0 {
			continue
		}
		if sit.OpponentLow == 0 || left < sit.OpponentLow {
			sit.OpponentLow = left
		}
	}
	if g.LastPlay != nil && g.LastPlay.Seat == partner(seat) {
		sit.PartnerWinning = true
	}
	opts := climb.Options(&sit, legal, ActionPass, ActionPlay, func(a table.Action, take *climb.Counts) bool { return isBomb(a.As, take) })
	return legal[shapes.Choose(sit, opts)]
}

// isBomb reports a bomb or the joker bomb (shuangkou.md, Combinations): a
// play named as one, or without a name natural cards of one rank with
// jokers or not, four cards or more (one reading only: a run needs several
// ranks), or four jokers alone.
func isBomb(as string, c *climb.Counts) bool {
	if as != "" {
		name, _, _ := strings.Cut(as, ":")
		t, ok := ParseType(name)
		return ok && (t == Bomb || t == JokerBomb)
	}
	if c.Total() < 4 {
		return false
	}
	ranks := 0
	for r := climb.Rank3; r <= climb.Rank2; r++ {
		if c[r] > 0 {
			ranks++
		}
	}
	return ranks <= 1
}
