package canonjson

import (
	"encoding/json"
	"reflect"
	"testing"

	"paiju/domain/cards"
)

// TestInt: the integers Marshal writes are read as encoding/json reads
// them; any other form fails.
func TestInt(t *testing.T) {
	for _, in := range []string{"0", "7", "-7", "10", "123456789012345678", "-123456789012345678"} {
		var want int
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		r := New([]byte(in))
		if got := r.Int(); !r.OK() || got != want {
			t.Errorf("%s: read %d (ok %v), want %d", in, got, r.OK(), want)
		}
	}
	for _, in := range []string{"", "-", "-0", "01", "+1", "1.0", "1e3", "1234567890123456789", " 1", "x"} {
		r := New([]byte(in))
		if r.Int(); r.OK() {
			t.Errorf("%q read as an integer", in)
		}
	}
}

// TestStr: strings without escapes are read as they are; escapes, bytes
// outside printable ASCII and what Marshal escapes fail.
func TestStr(t *testing.T) {
	for _, in := range []string{`""`, `"abc"`, `"Player 1"`, `"e8dd-94:3d"`} {
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		r := New([]byte(in))
		if got := r.String(); !r.OK() || got != want {
			t.Errorf("%s: read %q (ok %v), want %q", in, got, r.OK(), want)
		}
	}
	for _, in := range []string{`"a\"b"`, `"a\nb"`, "\"a\tb\"", `"é"`, `"<"`, `"&"`, `"abc`, `abc"`} {
		r := New([]byte(in))
		if r.Str(); r.OK() {
			t.Errorf("%s read as a string", in)
		}
	}
}

// TestCards: card lists as encoding/json reads them, null as nil and []
// as an empty list that is not nil.
func TestCards(t *testing.T) {
	for _, in := range []string{`null`, `[]`, `["S3"]`, `["S10","HA","BJ","RJ"]`} {
		var want []cards.Card
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		r := New([]byte(in))
		if got := r.Cards(); !r.OK() || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read %#v (ok %v), want %#v", in, got, r.OK(), want)
		}
	}
	for _, in := range []string{`["S3",]`, `[,]`, `["S3" ]`, `["X3"]`, `[null]`, `["S3"`, `nul`} {
		r := New([]byte(in))
		if r.Cards(); r.OK() {
			t.Errorf("%s read as cards", in)
		}
	}
}
