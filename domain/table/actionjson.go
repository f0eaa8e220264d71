package table

import (
	"strconv"

	"paiju/domain/cards"
)

// AppendActionJSON appends a as encoding/json encodes it (type, then bid,
// cards and as when not empty), or reports false when a holds what it
// does not write that way: an invalid card (encoding/json fails on it) or
// a string with a byte encoding/json escapes or a multi-byte character.
// The legal actions of a position are encoded, and measured, before every
// move: encoding/json finds the fields by reflection and makes three
// strings a card.
func AppendActionJSON(b []byte, a *Action) ([]byte, bool) {
	var ok bool
	b = append(b, `{"type":`...)
	if b, ok = AppendPlainString(b, a.Type); !ok {
		return b, false
	}
	if a.Bid != nil {
		b = append(b, `,"bid":`...)
		b = strconv.AppendInt(b, int64(*a.Bid), 10)
	}
	if len(a.Cards) > 0 {
		b = append(b, `,"cards":`...)
		if b, ok = AppendCardsJSON(b, a.Cards); !ok {
			return b, false
		}
	}
	if a.As != "" {
		b = append(b, `,"as":`...)
		if b, ok = AppendPlainString(b, a.As); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// AppendCardsJSON appends cs as a JSON array of card notation, null when
// nil, as encoding/json does; false for an invalid card.
func AppendCardsJSON(b []byte, cs []cards.Card) ([]byte, bool) {
	if cs == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		if !c.Valid() {
			return b, false
		}
		b = append(b, '"')
		b = appendCardText(b, c)
		b = append(b, '"')
	}
	return append(b, ']'), true
}

// appendCardText appends a valid card's canonical notation, c.String(),
// without making it a string.
func appendCardText(b []byte, c cards.Card) []byte {
	if c.Suit == cards.Joker {
		return append(b, c.Rank.String()...)
	}
	b = append(b, c.Suit.Letter()...)
	if c.Rank <= 10 {
		return strconv.AppendInt(b, int64(c.Rank), 10)
	}
	return append(b, c.Rank.String()...)
}

// AppendPlainString appends s quoted if encoding/json writes it as it is:
// printable ASCII other than the quote, the backslash and the three bytes
// it escapes for HTML. It reports false, and appends nothing, otherwise.
func AppendPlainString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return b, false
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}
