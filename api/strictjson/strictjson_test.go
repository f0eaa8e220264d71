package strictjson_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"paiju/api/strictjson"
	"paiju/domain/cards"
)

// action has the shape of the API's action body.
type action struct {
	Type  string   `json:"type"`
	Bid   *int     `json:"bid"`
	Cards []string `json:"cards"`
	As    string   `json:"as"`
}

func TestDecodeRefuses(t *testing.T) {
	for _, body := range []string{
		`{"type":"bid","bid":1,"bid":3}`,
		`{"type":"pass","force":true}`,
		`{"type":"pass"} {"type":"pass"}`,
		`{"type":"pass"}]`,
		`{"type":`,
		`{"type":"pass","x":{"a":1,"a":2}}`,
		`{"bid":"two"}`,
		``,
	} {
		var a action
		err := strictjson.Decode([]byte(body), &a)
		var se *strictjson.Error
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a *strictjson.Error", body, err)
		}
	}
	var a action
	if err := strictjson.Decode([]byte(` {"type":"play","cards":["S3","h3"],"as":"pair"} `), &a); err != nil || a.Type != "play" || len(a.Cards) != 2 {
		t.Fatalf("a good action: %+v, %v", a, err)
	}
}

// TestCaseVariantKeysRefused: Go's decoder matches keys to fields ignoring
// case, so {"bid":1,"BID":3} passed the (case-sensitive) duplicate check and
// recorded a bid of 3. A key must name its field exactly.
func TestCaseVariantKeysRefused(t *testing.T) {
	type inner struct {
		Seat int `json:"seat"`
	}
	type outer struct {
		Name   string           `json:"name"`
		Clock  *inner           `json:"clock"`
		Seats  []inner          `json:"seats"`
		ByName map[string]inner `json:"by_name"`
		Plain  int
	}
	for _, tc := range []struct {
		body, key string // key: the key the error must name; "" accepts
	}{
		{`{"name":"o"}`, ""},
		{`{"name":"o","Name":"p"}`, "Name"},
		{`{"NAME":"p"}`, "NAME"},
		{`{"clock":{"Seat":1}}`, "Seat"},
		{`{"Clock":{"seat":1}}`, "Clock"},
		{`{"seats":[{"seat":1},{"SEAT":2}]}`, "SEAT"},
		{`{"by_name":{"A":{"seat":1},"b":{"sEat":2}}}`, "sEat"},
		{`{"by_name":{"A":{"seat":1}}}`, ""},
		{`{"Plain":1}`, ""},
		{`{"plain":1}`, "plain"},
		{"{\"nam\u212a\":1}", ""}, // not EqualFold to "name": an unknown field
	} {
		var o outer
		err := strictjson.Decode([]byte(tc.body), &o)
		switch {
		case tc.key == "" && err != nil && !strings.Contains(err.Error(), "unknown field"):
			t.Errorf("%s: refused with %v, want it accepted", tc.body, err)
		case tc.key != "" && (err == nil || !strings.Contains(err.Error(), strconv.Quote(tc.key))):
			t.Errorf("%s: got %v, want a refusal naming %q", tc.body, err, tc.key)
		}
	}
	var a action
	err := strictjson.Decode([]byte(`{"type":"bid","bid":1,"BID":3}`), &a)
	var se *strictjson.Error
	if !errors.As(err, &se) {
		t.Fatalf(`{"type":"bid","bid":1,"BID":3}: got %v (bid %v), want a *strictjson.Error`, err, a.Bid)
	}
}

func TestDuplicateKeysAtAnyDepth(t *testing.T) {
	for body, dup := range map[string]bool{
		`{"a":1,"b":2}`:                           false,
		`{"a":1,"a":2}`:                           true,
		`{"a":{"b":1,"b":2}}`:                     true,
		`{"a":[{"b":1},{"b":2}]}`:                 false,
		`{"a":[{"b":1,"b":1}]}`:                   true,
		`{"a":{"b":1},"c":{"b":1}}`:               false,
		`[{"a":1},{"a":1,"x":[1,{"x":2,"x":3}]}]`: true,
	} {
		if got := strictjson.CheckDuplicateKeys([]byte(body)) != nil; got != dup {
			t.Errorf("%s: duplicate found = %v, want %v", body, got, dup)
		}
	}
}

// FuzzDecode feeds arbitrary bodies to the strict decoder with the action
// shape: it must never panic, must refuse what is not exactly one JSON object
// without duplicate keys, and whatever it accepts must survive a round trip.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"pass"}`,
		`{"type":"bid","bid":2}`,
		`{"type":"play","cards":["S3","h3","♣3","D10","T"],"as":"trio_single"}`,
		`{"type":"bid","bid":1,"bid":3}`,
		`{"type":"pass"} {}`,
		`{"type":"pass","x":{"a":1,"a":2}}`,
		`[{"type":"pass"}]`,
		"{\"type\":\"pa\xffss\"}",
		`{"type":"bid","bid":1,"BID":3}`,
		`{"TYPE":"pass"}`,
		`{"type":"play","Cards":["S3"]}`,
		"{\"type\":\"bid\",\"bi\u0064\":2}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var a action
		if err := strictjson.Decode(body, &a); err != nil {
			var se *strictjson.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *strictjson.Error", err)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		if err := strictjson.CheckDuplicateKeys(body); err != nil {
			t.Fatalf("accepted %q with %v", body, err)
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(body, &keys); err == nil {
			for k := range keys {
				if k != "type" && k != "bid" && k != "cards" && k != "as" {
					t.Fatalf("accepted %q with the key %q, which names no field exactly", body, k)
				}
			}
		}
		again, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back action
		if err := strictjson.Decode(again, &back); err != nil {
			t.Fatalf("re-encoded %s does not decode: %v", again, err)
		}
		if _, err := cards.ParseList(a.Cards); err != nil {
			var pe *cards.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("card list error %v is not a ParseError", err)
			}
		}
	})
}

// BenchmarkDecode decodes a 斗地主 play as POST /actions receives it.
func BenchmarkDecode(b *testing.B) {
	body := []byte(`{"type":"play","cards":["S3","H3","D3","C4","S5","H6","D7","C8"],"as":"trio_chain"}`)
	b.ReportAllocs()
	for b.Loop() {
		var a action
		if err := strictjson.Decode(body, &a); err != nil {
			b.Fatal(err)
		}
	}
}
