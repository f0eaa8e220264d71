package shuangkou

import (
	"slices"

	"paiju/domain/table"
)

// Command names the action whose events begin with p, so that an auditor can
// re-decide a recorded stream action by action. A play is named with its
// recorded reading ("<type>:<main>"), which Decide reaches again from the
// same position.
func (r *Rules) Command(p table.Payload) (seat int, a table.Action, ok bool) {
	switch e := p.(type) {
	case PlayPassed:
		return e.Seat, table.Action{Type: ActionPass}, true
	case CardsPlayed:
		return e.Seat, table.Action{Type: ActionPlay, Cards: slices.Clone(e.Cards), As: e.Reading.Name()}, true
	}
	return 0, table.Action{}, false
}
