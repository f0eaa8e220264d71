package shengji

import (
	"slices"

	"paiju/domain/table"
)

// Command names the action whose events begin with p, so that an auditor can
// re-decide a recorded stream action by action.
func (r *Rules) Command(p table.Payload) (seat int, a table.Action, ok bool) {
	switch e := p.(type) {
	case CardsDrawn:
		return e.Seat, table.Action{Type: ActionDraw}, true
	case TrumpDeclared:
		if e.Kind == kindStick {
			return e.Seat, table.Action{Type: ActionStick, Cards: slices.Clone(e.Cards)}, true
		}
		return e.Seat, table.Action{Type: ActionDeclare, Cards: slices.Clone(e.Cards)}, true
	case TrumpReinforced:
		return e.Seat, table.Action{Type: ActionReinforce, Cards: slices.Clone(e.Cards)}, true
	case CardGiven:
		return e.Seat, table.Action{Type: ActionExchange, Cards: slices.Clone(e.Cards)}, true
	case KittySwapped:
		return e.Seat, table.Action{Type: ActionSwap, Cards: slices.Clone(e.Cards)}, true
	case KittySwapClosed:
		return e.Seat, table.Action{Type: ActionPass}, true
	case DeclarePassed:
		return e.Seat, table.Action{Type: ActionPass}, true
	case KittyBuried:
		return e.Seat, table.Action{Type: ActionBury, Cards: slices.Clone(e.Cards)}, true
	case CardsPlayed:
		return e.Seat, table.Action{Type: ActionPlay, Cards: slices.Clone(e.Cards)}, true
	}
	return 0, table.Action{}, false
}
