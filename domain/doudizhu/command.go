package doudizhu

import (
	"slices"

	"paiju/domain/table"
)

// Command names the action whose events begin with p, so that an auditor can
// re-decide a recorded stream action by action. A play is named with its
// recorded reading, which Decide reaches again from the same position.
func (r *Rules) Command(p table.Payload) (seat int, a table.Action, ok bool) {
	switch e := p.(type) {
	case BidMade:
		bid := e.Bid
		return e.Seat, table.Action{Type: ActionBid, Bid: &bid}, true
	case BidPassed:
		return e.Seat, table.Action{Type: ActionPass}, true
	case PlayPassed:
		return e.Seat, table.Action{Type: ActionPass}, true
	case GrabMade:
		return e.Seat, table.Action{Type: ActionGrab}, true
	case GrabDeclined:
		return e.Seat, table.Action{Type: ActionPass}, true
	case DoubleMade:
		return e.Seat, table.Action{Type: ActionDouble}, true
	case DoublePassed:
		return e.Seat, table.Action{Type: ActionPass}, true
	case HandOpened:
		return e.Seat, table.Action{Type: ActionOpen}, true
	case CardsPlayed:
		return e.Seat, table.Action{Type: ActionPlay, Cards: slices.Clone(e.Cards), As: e.Reading.Type.String()}, true
	}
	return 0, table.Action{}, false
}
