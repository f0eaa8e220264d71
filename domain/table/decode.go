package table

import (
	"paiju/domain/cards"
	"paiju/domain/internal/canonjson"
)

// decodeCanonical decodes the deal events, whose cards made them the
// costliest of a replay to decode, from the form json.Marshal writes them
// in, without encoding/json's reflection; false for any other event or
// form, which encoding/json then decodes. TestDecodeCanonical holds it to
// encoding/json.
func decodeCanonical(typ string, data []byte) (Payload, bool) {
	r := canonjson.New(data)
	var p Payload
	switch typ {
	case "HandDealt":
		var e HandDealt
		r.Lit(`{"hand":`)
		e.Hand = r.Int()
		r.Lit(`,"deal":`)
		e.Deal = r.Int()
		r.Lit(`,"commitment":`)
		e.Commitment = r.String()
		r.Lit(`,"hands":`)
		if !r.Next(`null`) {
			r.Lit(`[`)
			e.Hands = [][]cards.Card{}
			for !r.Failed() && !r.Next(`]`) {
				if len(e.Hands) > 0 {
					r.Lit(`,`)
				}
				e.Hands = append(e.Hands, r.Cards())
			}
		}
		r.Lit(`,"kitty":`)
		e.Kitty = r.Cards()
		r.Lit(`,"first_seat":`)
		e.FirstSeat = r.Int()
		if r.Next(`,"at":`) {
			r.JSON(&e.At)
			if e.At.IsZero() {
				r.Fail() // omitzero never writes the zero time
			}
		}
		r.Lit(`}`)
		p = e
	case "DealSecret":
		var e DealSecret
		r.Lit(`{"hand":`)
		e.Hand = r.Int()
		r.Lit(`,"deal":`)
		e.Deal = r.Int()
		r.Lit(`,"seed":`)
		e.Seed = r.String()
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
