package strictjson_test

import (
	"encoding/json"
	"errors"
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
