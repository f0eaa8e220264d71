package projections

import (
	"encoding/json"
	"reflect"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

var decodeSeeds = []string{
	`{"hand":3}`, `{"hand":-2,"deal":1}`, `{"hand":07}`, `{"hand":1e2}`, `{"hand":1,"Hand":2}`, `{"hand":1,"HAND":2}`,
	`{"hand":1,"h\u0061nd":2}`, `{"hand":1,"hands":[["S3"]],"kitty":[]}`, `{"hand":1, "deal":2}`, `{"hand":1,"deal":{"hand":5}}`,
	`{"hand":1,"x":"a\"b","hand":4}`, `{"hand":1,` + "\"\u212Aey\"" + `:1}`, `{"hand":12345678901234567890}`, `{"hand":1`, `{"hand":1}x`,
	`{"hand":2,"deltas":[1,-2,1],"result":{"a":[1,{"b":"}"}]},"seed":"s"}`, `{"hand":2,"deltas":[]}`, `{"hand":2,"deltas":null}`,
	`{"hand":2,"deltas":[1,2],"deltas":[3]}`, `{"hand":2,"deltas":[1,2],"Deltas":[3]}`, `{"hand":2,"deltas":[1,]}`, `{"hand":2,"deltas":[1 ,2]}`,
	`{"hand":2,"deltas":[1],"seed":"ſ","deltaſ":[9]}`, `{"deltas":[1],"hand":2}`, `{"a":{"hand":1},"hand":2,"deltas":[3]}`, ` { "hand" : 4 , "deltas" : [5] } `, `{"hand":2,"deltas":[1.5]}`, `[]`, `null`, ``,
}

func addSeeds(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	dealt, _ := json.Marshal(table.HandDealt{Hand: 7, Deal: 2, Commitment: "c", Hands: [][]cards.Card{{}}, FirstSeat: 1})
	settled, _ := json.Marshal(table.HandSettled{Hand: 7, Deltas: []int{4, -2, -2}, House: 1, Result: json.RawMessage(`{"w":[0]}`), Seed: "s"})
	f.Add(dealt)
	f.Add(settled)
}

// FuzzHandNumber: HandNumber answers as encoding/json does, error or not.
func FuzzHandNumber(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := HandNumber(data)
		var want handNumber
		werr := json.Unmarshal(data, &want)
		if (err != nil) != (werr != nil) || (err == nil && got != want.Hand) {
			t.Fatalf("%q: got %d, %v; encoding/json %d, %v", data, got, err, want.Hand, werr)
		}
	})
}

// FuzzSettlement: Settlement answers as encoding/json does, error or not,
// an empty list of deltas included (null is nil, [] is not).
func FuzzSettlement(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Settlement(data)
		hand, deltas := got.Hand, got.Deltas
		var want Settled
		werr := json.Unmarshal(data, &want)
		if (err != nil) != (werr != nil) {
			t.Fatalf("%q: got error %v; encoding/json %v", data, err, werr)
		}
		if err == nil && (hand != want.Hand || !reflect.DeepEqual(deltas, want.Deltas)) {
			t.Fatalf("%q: got %d %#v; encoding/json %d %#v", data, hand, deltas, want.Hand, want.Deltas)
		}
	})
}

// FuzzHandSettledOf: HandSettledOf answers as encoding/json does, error
// or not: the same hand, deltas, house, result bytes and seed.
func FuzzHandSettledOf(f *testing.F) {
	addSeeds(f)
	for _, s := range []string{`{"hand":1,"deltas":[1],"house":2,"result":{"w":[0]},"seed":"s"}`, `{"hand":1,"deltas":[1],"result":null,"seed":"s"}`,
		`{"hand":1,"deltas":[1],"result":[1, 2],"seed":"a\"b"}`, `{"hand":1,"deltas":[1],"result":{},"seed":"é"}`, `{"hand":1,"deltas":[1],"result":1}`,
		`{"hand":1,"deltas":[1],"result":{},"seed":"s","house":null}`, `{"hand":1,"deltas":[1],"result":{},"seed":"s","House":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := HandSettledOf(data)
		var want table.HandSettled
		werr := json.Unmarshal(data, &want)
		if (err != nil) != (werr != nil) {
			t.Fatalf("%q: got error %v; encoding/json %v", data, err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %#v; encoding/json %#v", data, got, want)
		}
	})
}

// TestDecodeStored: the events as the store holds them (json.Marshal of
// their structs) are read without encoding/json.
func TestDecodeStored(t *testing.T) {
	for _, d := range []table.HandDealt{{Hand: 1}, {Hand: 12, Deal: 3, Commitment: "abc", Hands: [][]cards.Card{{}, {}}, FirstSeat: 2}} {
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if hand, ok := handNumberFast(data); !ok || hand != d.Hand {
			t.Errorf("%s: %d %v", data, hand, ok)
		}
	}
	for _, s := range []table.HandSettled{{Hand: 1, Deltas: []int{}}, {Hand: 4, Deltas: []int{-30, 10, 20}, House: 2, Result: json.RawMessage(`{"winners":[0],"s":"}]"}`), Seed: "x"}} {
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if hand, deltas, ok := settlementFast(data); !ok || hand != s.Hand || !reflect.DeepEqual(deltas, s.Deltas) {
			t.Errorf("%s: %d %v %v", data, hand, deltas, ok)
		}
		if s.Result != nil {
			if hs, ok := handSettledFast(data); !ok || !reflect.DeepEqual(hs, s) {
				t.Errorf("%s: %#v %v", data, hs, ok)
			}
		}
	}
	// As a map marshals: the keys in order.
	if hand, ok := handNumberFast([]byte(`{"commitment":"c","deal":1,"first_seat":0,"hand":3,"hands":[["S3"]],"kitty":["D3"]}`)); !ok || hand != 3 {
		t.Errorf("map order: %d %v", hand, ok)
	}
	if hand, deltas, ok := settlementFast([]byte(`{"deltas":[2,-2],"hand":5,"seed":"s"}`)); !ok || hand != 5 || !reflect.DeepEqual(deltas, []int{2, -2}) {
		t.Errorf("map order: %d %v %v", hand, deltas, ok)
	}
	for _, s := range []string{`{"hand":1,"Hand":2}`, `{"hand":2,"deltas":null}`, `{"hand":2,"deltas":[1 ,2]}`, `{"hand":2,"deltas":[1],"hand":3}`, `{"deltas":[1]}`} {
		if _, _, ok := settlementFast([]byte(s)); ok {
			t.Errorf("%s: read without encoding/json", s)
		}
	}
}
