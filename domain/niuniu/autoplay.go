package niuniu

import (
	"time"

	"paiju/domain/table"
)

// The live-table side of 牛牛 (table.Autoplay): whom the turn clock waits
// for, what a seat does when its time runs out, and the bot. doc.go,
// "Turn clock, timeouts and the bot", states the policy.

var _ table.AutoplayDecider[*State] = (*Rules)(nil)

// Awaited lists the seats that have neither arranged nor declared no bull in
// the running hand: the reveal waits for each of them. A seat whose player
// escaped is never awaited: its bout is settled (niuniu.md, Escape). A seat that has
// arranged may still arrange again or call the reveal after the deadline,
// but the hand ends without it, so it is not awaited.
func (r *Rules) Awaited(s *State) []int { return awaited(s) }

// TimeoutAction is no_bull for every awaited seat (seed: "不拼牌,按无牛处理").
func (r *Rules) TimeoutAction(s *State, seat int) table.Action {
	return timeoutAction(s, seat)
}

// BotAction arranges the best bull of the seat's hand (see botAction).
func (r *Rules) BotAction(v table.View, legal []table.Action) table.Action {
	return botAction(v, legal)
}

func awaited(s *State) []int {
	if s.phase != phaseArranging {
		return nil
	}
	var out []int
	for seat := range s.seats {
		if !s.arr[seat].done && s.forfeit[seat] == nil {
			out = append(out, seat)
		}
	}
	return out
}

// timeoutAction: an unarranged seat whose time ran out is 没牛, as the seed
// rules a seat that does not arrange by the reveal; no_bull is always legal
// while the hand is arranged.
func timeoutAction(_ *State, _ int) table.Action {
	return table.Action{Type: ActionNoBull}
}

// botAction arranges the bull that reads highest (every bull of a hand reads
// the same class, so in practice the first listed); with no bull it declares
// no bull. A seat whose arrangement already stands calls the reveal when the
// deadline allows it (the unarranged seats are then 没牛), else arranges
// again as it would have.
func botAction(v table.View, legal []table.Action) table.Action {
	g, _ := v.Game.(GameView)
	if g.Arrangement != nil {
		for _, a := range legal {
			if a.Type == ActionReveal {
				return a
			}
		}
	}
	best, bestBull := -1, NoBull
	for i, a := range legal {
		if a.Type != ActionArrange {
			continue
		}
		if b, ok := Arrange(v.Hand, a.Cards); ok && (best < 0 || b > bestBull) {
			best, bestBull = i, b
		}
	}
	if best >= 0 {
		return legal[best]
	}
	for _, a := range legal {
		if a.Type == ActionNoBull {
			return a
		}
	}
	return legal[0]
}

// GameDeadline is the running deal's arrange_seconds deadline
// (table.GameDeadline): the server times out every seat still unarranged
// then, turn clock or not, and each one's default (没牛) leaves the reveal
// to the last of them, so that the hand ends at the deadline without any
// client calling the reveal (niuniu.md, Arranging: "不拼牌,按无牛处理").
func (r *Rules) GameDeadline(gs table.GameState) (time.Time, bool) {
	s, ok := gs.(*State)
	if !ok {
		return time.Time{}, false
	}
	return s.deadline()
}
