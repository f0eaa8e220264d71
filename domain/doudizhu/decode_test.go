package doudizhu

import (
	"encoding/json"
	"reflect"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// canonicalCases are events of every type decodeCanonical reads, in the
// forms json.Marshal writes (omitted and present optional fields, empty
// and absent card lists).
func canonicalCases() []table.Payload {
	c := func(s ...string) []cards.Card {
		out := []cards.Card{}
		for _, x := range s {
			out = append(out, cards.MustParse(x)...)
		}
		return out
	}
	return []table.Payload{
		PlayPassed{Seat: 2},
		BidMade{Seat: 1, Bid: 3},
		BidPassed{Seat: 0},
		CardsPlayed{Seat: 0, Cards: c("S3", "H3", "C3", "D3"), Reading: Reading{Type: Bomb, Main: climb.Rank(0), Length: 1}},
		CardsPlayed{Seat: 3, Cards: c("S3", "H3", "C3", "D3", "S3", "H3"), Reading: Reading{Type: Bomb, Main: climb.Rank(0), Length: 1, Count: 6}},
		CardsPlayed{Seat: 1, Cards: c("BJ", "RJ"), Reading: Reading{Type: Rocket, Main: climb.RankRJ, Length: 1}},
		CardsPlayed{Seat: 1, Reading: Reading{Type: Single, Main: climb.Rank(3), Length: 1}},
		CardsPlayed{Seat: 1, Cards: c(), Reading: Reading{Type: Single, Main: climb.Rank(3), Length: 1}},
		LandlordChosen{Seat: 2, Bid: 1, Kitty: c("S5", "S6", "SA")},
		LandlordChosen{Seat: 2, Bid: 1, Kitty: c("S5", "S6", "SA", "D10"), Multiplier: 4},
		LandlordChosen{Seat: 2, Bid: 1},
	}
}

// TestDecodeCanonical holds decodeCanonical to encoding/json: on what
// json.Marshal writes for every case and every event of long random games
// it must decode, and to the same value.
func TestDecodeCanonical(t *testing.T) {
	var data []storedEvent
	for _, p := range canonicalCases() {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, storedEvent{p.EventType(), b})
	}
	data = append(data, replayStream(t, 3000)...)
	seen := map[string]int{}
	for _, e := range data {
		want, err := events.Decode(e.typ, e.data)
		if err != nil {
			continue // not a game event (the table's own)
		}
		got, ok := decodeCanonical(e.typ, e.data)
		if !ok {
			t.Fatalf("%s %s: not read", e.typ, e.data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %s: read %#v, encoding/json %#v", e.typ, e.data, got, want)
		}
		seen[e.typ]++
	}
	for _, typ := range []string{"PlayPassed", "BidMade", "BidPassed", "CardsPlayed", "LandlordChosen"} {
		if seen[typ] == 0 {
			t.Errorf("no %s read", typ)
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
	f.Add("CardsPlayed", []byte(`{"seat":0,"cards":["S3",],"reading":{"type":"single","main":"3","length":1}}`))
	f.Add("CardsPlayed", []byte(`{"seat":-0,"cards":null,"reading":{"type":"single","main":"3","length":1,"count":0}}`))
	f.Fuzz(func(t *testing.T, typ string, data []byte) {
		got, ok := decodeCanonical(typ, data)
		if !ok {
			return
		}
		want, err := events.Decode(typ, data)
		if err != nil {
			t.Fatalf("%s %q read as %#v; encoding/json: %v", typ, data, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %q: read %#v, encoding/json %#v", typ, data, got, want)
		}
	})
}
