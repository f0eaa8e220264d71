package niuniu

import (
	"slices"
	"time"

	"paiju/domain/table"
)

// Legal lists every action seat may take now (escape excluded): while the
// hand is being arranged, every bull of the seat's hand (Bulls' order), then
// no_bull. Every seat may act at once, and again until the reveal: an
// arrangement may be replaced. Nil when seat may not act, as a seat whose
// player escaped from the hand.
func (r *Rules) Legal(s *State, seat int) []table.Action {
	if s.phase != phaseArranging || seat < 0 || seat >= s.seats || s.forfeit[seat] != nil {
		return nil
	}
	bulls := Bulls(s.hands[seat])
	out := make([]table.Action, 0, len(bulls)+1)
	for _, b := range bulls {
		out = append(out, table.Action{Type: ActionArrange, Cards: b})
	}
	return append(out, table.Action{Type: ActionNoBull})
}

// LegalAt is Legal at the clock reading now: once the table's deadline has
// passed, every seat may also call the reveal (table.Timed).
func (r *Rules) LegalAt(s *State, seat int, now time.Time) []table.Action {
	out := r.Legal(s, seat)
	if out == nil {
		return nil
	}
	if s.mayReveal(now) == nil {
		out = append(out, table.Action{Type: ActionReveal})
	}
	return out
}

// Command names the action whose events begin with p, so that an auditor can
// re-decide a recorded stream action by action.
func (r *Rules) Command(p table.Payload) (seat int, a table.Action, ok bool) {
	if rc, ok := p.(RevealCalled); ok {
		return rc.Seat, table.Action{Type: ActionReveal, At: rc.At}, true
	}
	e, ok := p.(HandArranged)
	if !ok {
		return 0, table.Action{}, false
	}
	if len(e.Cards) == 0 {
		return e.Seat, table.Action{Type: ActionNoBull}, true
	}
	return e.Seat, table.Action{Type: ActionArrange, Cards: slices.Clone(e.Cards)}, true
}
