package doudizhu

import (
	"paiju/domain/internal/canonjson"
	"paiju/domain/table"
)

// decodeCanonical decodes the game's most frequent events from the form
// json.Marshal writes them in, without encoding/json's reflection; false
// for any other event or form, which events.Decode then decodes.
// TestDecodeCanonical holds it to encoding/json.
func decodeCanonical(typ string, data []byte) (table.Payload, bool) {
	r := canonjson.New(data)
	var p table.Payload
	switch typ {
	case "PlayPassed":
		var e PlayPassed
		r.Lit(`{"seat":`)
		e.Seat = r.Int()
		r.Lit(`}`)
		p = e
	case "CardsPlayed":
		var e CardsPlayed
		r.Lit(`{"seat":`)
		e.Seat = r.Int()
		r.Lit(`,"cards":`)
		e.Cards = r.Cards()
		r.Lit(`,"reading":{"type":`)
		r.Text(&e.Reading.Type)
		r.Lit(`,"main":`)
		r.Text(&e.Reading.Main)
		r.Lit(`,"length":`)
		e.Reading.Length = r.Int()
		if r.Next(`,"count":`) {
			if e.Reading.Count = r.Int(); e.Reading.Count == 0 {
				r.Fail() // omitempty never writes 0
			}
		}
		r.Lit(`}}`)
		p = e
	case "BidMade":
		var e BidMade
		r.Lit(`{"seat":`)
		e.Seat = r.Int()
		r.Lit(`,"bid":`)
		e.Bid = r.Int()
		r.Lit(`}`)
		p = e
	case "BidPassed":
		var e BidPassed
		r.Lit(`{"seat":`)
		e.Seat = r.Int()
		r.Lit(`}`)
		p = e
	case "LandlordChosen":
		var e LandlordChosen
		r.Lit(`{"seat":`)
		e.Seat = r.Int()
		r.Lit(`,"bid":`)
		e.Bid = r.Int()
		r.Lit(`,"kitty":`)
		e.Kitty = r.Cards()
		if r.Next(`,"multiplier":`) {
			if e.Multiplier = r.Int(); e.Multiplier == 0 {
				r.Fail()
			}
		}
		r.Lit(`}`)
		p = e
	default:
		return nil, false
	}
	if !r.OK() {
		return nil, false
	}
	return p, true
}
