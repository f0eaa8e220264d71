package dadun

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Command names the action whose events begin with p, so that an auditor can
// re-decide a recorded stream action by action. A play is named with its
// recorded reading, which Decide reaches again from the same position.
// CardTurned follows the deal and is no command.
func (r *Rules) Command(p table.Payload) (seat int, a table.Action, ok bool) {
	switch e := p.(type) {
	case AloneDeclared:
		return e.Seat, table.Action{Type: ActionAlone}, true
	case AloneDeclined:
		return e.Seat, table.Action{Type: ActionPass}, true
	case FriendCalled:
		return e.Seat, table.Action{Type: ActionCall, Cards: []cards.Card{e.Card}}, true
	case PlayPassed:
		return e.Seat, table.Action{Type: ActionPass}, true
	case CardsPlayed:
		return e.Seat, table.Action{Type: ActionPlay, Cards: slices.Clone(e.Cards), As: e.Reading.Name()}, true
	}
	return 0, table.Action{}, false
}
