package table

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"paiju/domain/cards"
)

// canonicalCases are deal events in the forms json.Marshal writes: with
// and without a time, hands hidden (null) or empty, a kitty or none.
func canonicalCases() []Payload {
	r := rand.New(rand.NewPCG(21, 21))
	deck := cards.Deck(1)
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	return []Payload{
		HandDealt{Hand: 1, Deal: 1, Commitment: "2e95eb", Hands: [][]cards.Card{deck[:17], deck[17:34], deck[34:51]}, Kitty: deck[51:], FirstSeat: 2},
		HandDealt{Hand: 12, Deal: 3, Commitment: "c4", Hands: [][]cards.Card{nil, deck[:5], {}}, At: time.Date(2026, 11, 2, 3, 4, 5, 6, time.UTC)},
		HandDealt{Hand: 2, Deal: 1},
		HandDealt{Hand: 2, Deal: 1, Hands: [][]cards.Card{}, Kitty: []cards.Card{}},
		DealSecret{Hand: 3, Deal: 2, Seed: "e8dd943d366caae7beb706c6ae668eff0a257fc56edc27d7b2fa1c31bdf2eec1"},
		DealSecret{},
	}
}

// TestDecodeCanonical holds decodeCanonical to encoding/json on what
// json.Marshal writes: it must read all of it, to the same value.
func TestDecodeCanonical(t *testing.T) {
	for _, p := range canonicalCases() {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := commonEvents.Decode(p.EventType(), b)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := decodeCanonical(p.EventType(), b)
		if !ok {
			t.Fatalf("%s: not read", b)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: read %#v, encoding/json %#v", b, got, want)
		}
	}
}

// FuzzDecodeCanonical: whatever decodeCanonical reads, encoding/json reads
// to the same value.
func FuzzDecodeCanonical(f *testing.F) {
	for _, p := range canonicalCases() {
		b, _ := json.Marshal(p)
		f.Add(p.EventType(), b)
	}
	f.Add("HandDealt", []byte(`{"hand":1,"deal":1,"commitment":"x","hands":[["S3"],null,],"kitty":null,"first_seat":0}`))
	f.Add("HandDealt", []byte(`{"hand":1,"deal":1,"commitment":"x","hands":null,"kitty":null,"first_seat":0,"at":"0001-01-01T00:00:00Z"}`))
	f.Fuzz(func(t *testing.T, typ string, data []byte) {
		got, ok := decodeCanonical(typ, data)
		if !ok {
			return
		}
		want, err := commonEvents.Decode(typ, data)
		if err != nil {
			t.Fatalf("%s %q read as %#v; encoding/json: %v", typ, data, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %q: read %#v, encoding/json %#v", typ, data, got, want)
		}
	})
}
