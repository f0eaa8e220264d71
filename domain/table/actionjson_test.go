package table

import (
	"bytes"
	"encoding/json"
	"testing"

	"paiju/domain/cards"
)

// TestCardText holds the appender's card notation to cards.Card's text.
func TestCardText(t *testing.T) {
	for i := range cards.DeckSize {
		c := cards.FromIndex(i)
		want, err := c.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		if got := appendCardText(nil, c); string(got) != string(want) {
			t.Errorf("card %d: appended %q, encoding/json writes %q", i, got, want)
		}
	}
}

// TestAppendActionJSON: what the appender writes is what encoding/json
// writes, byte for byte, and it declines exactly what it cannot write so
// (an invalid card, a string encoding/json escapes).
func TestAppendActionJSON(t *testing.T) {
	bid := 3
	hand := []cards.Card{cards.FromIndex(0), cards.FromIndex(17), cards.FromIndex(52), cards.FromIndex(53)}
	for _, tc := range []struct {
		a  Action
		ok bool
	}{
		{Action{Type: "pass"}, true},
		{Action{Type: "bid", Bid: &bid}, true},
		{Action{Type: "play", Cards: hand}, true},
		{Action{Type: "play", Cards: hand[:2], As: "airplane_pairs"}, true},
		{Action{Type: "play", Cards: []cards.Card{}}, true}, // empty: omitted
		{Action{Type: "a<b"}, false},
		{Action{Type: "play", As: "é"}, false},
		{Action{Type: "play", Cards: []cards.Card{{}}}, false},
	} {
		got, ok := AppendActionJSON(nil, &tc.a)
		if ok != tc.ok {
			t.Errorf("%+v: appended %v, want %v", tc.a, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		want, err := json.Marshal(&tc.a)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%+v: appended %s, encoding/json writes %s", tc.a, got, want)
		}
	}
}
