package doudizhu

import (
	"fmt"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// The game's own events. Their type names and JSON shapes are persisted and
// never change meaning; see doc.go for the shapes.

// BidMade: a seat bid 1, 2 or 3 (叫分).
type BidMade struct {
	Seat int `json:"seat"`
	Bid  int `json:"bid"`
}

// BidPassed: a seat declined to bid (不叫).
type BidPassed struct {
	Seat int `json:"seat"`
}

// LandlordChosen ends the bidding: Seat is the landlord (地主) at Bid, and
// Kitty, shown to everyone, joins the landlord's hand. The landlord leads.
type LandlordChosen struct {
	Seat  int          `json:"seat"`
	Bid   int          `json:"bid"`
	Kitty []cards.Card `json:"kitty"`
}

// CardsPlayed: a seat played Cards (in display order), read as Reading.
type CardsPlayed struct {
	Seat    int          `json:"seat"`
	Cards   []cards.Card `json:"cards"`
	Reading Reading      `json:"reading"`
}

// PlayPassed: a seat passed (不出) on the current play.
type PlayPassed struct {
	Seat int `json:"seat"`
}

func (BidMade) EventType() string        { return "BidMade" }
func (BidPassed) EventType() string      { return "BidPassed" }
func (LandlordChosen) EventType() string { return "LandlordChosen" }
func (CardsPlayed) EventType() string    { return "CardsPlayed" }
func (PlayPassed) EventType() string     { return "PlayPassed" }

// Result is the game's detail of a HandSettled, as its JSON result.
type Result struct {
	// End is "played_out" (someone played their last card) or "escape".
	End string `json:"end"`
	// Landlord is the landlord's seat; null when an escape ended the bidding.
	Landlord *int `json:"landlord"`
	// Winner is "landlord" or "farmers" when the hand was played out.
	Winner string `json:"winner,omitempty"`
	// Bid is the landlord's bid (0 before bidding ended).
	Bid int `json:"bid"`
	// Multiplier is what each farmer's stake was multiplied by: the bid, ×2
	// for a spring or an anti-spring. For an escape it is the current
	// multiplier the penalty was computed from (the bid, 1 before bidding ended).
	Multiplier int  `json:"multiplier"`
	Spring     bool `json:"spring"`
	AntiSpring bool `json:"anti_spring"`
	// CardsLeft counts the cards each seat still held.
	CardsLeft []int `json:"cards_left"`
	// Escaper, Penalty: who escaped and the penalty they paid in stake units
	// multiplied out, shared among the seats that stayed.
	Escaper *int `json:"escaper,omitempty"`
	Penalty int  `json:"penalty,omitempty"`
}

// decode decodes the game's own event types.
func decode(typ string, data []byte) (table.Payload, error) {
	switch typ {
	case "BidMade":
		return table.DecodeAs[BidMade](data)
	case "BidPassed":
		return table.DecodeAs[BidPassed](data)
	case "LandlordChosen":
		return table.DecodeAs[LandlordChosen](data)
	case "CardsPlayed":
		return table.DecodeAs[CardsPlayed](data)
	case "PlayPassed":
		return table.DecodeAs[PlayPassed](data)
	}
	return nil, fmt.Errorf("doudizhu: unknown event type %q", typ)
}
