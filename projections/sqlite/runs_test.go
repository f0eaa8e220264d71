package sqlite

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
	"unicode/utf8"

	"paiju/projections"
)

// slowRun is the slow reading of an element of a run: encoding/json.
func slowRun(t *testing.T, js string) []projections.HandEvent {
	t.Helper()
	var elems [][5]json.RawMessage
	if err := json.Unmarshal([]byte(js), &elems); err != nil {
		t.Fatalf("encoding/json: %v\n%s", err, js)
	}
	evs := []projections.HandEvent{}
	for _, el := range elems {
		var e projections.HandEvent
		var data string
		var at int64
		for i, v := range []any{&e.Position, &e.Version, &e.Type, &data, &at} {
			if err := json.Unmarshal(el[i], v); err != nil {
				t.Fatalf("encoding/json: element %d: %v\n%s", i, err, js)
			}
		}
		e.Data = json.RawMessage(data)
		e.RecordedAt = time.Unix(0, at).UTC()
		evs = append(evs, e)
	}
	return evs
}

// FuzzRun: a run written by appendHandEvent reads back as written, any
// bytes included, and, for valid UTF-8, as encoding/json reads it.
func FuzzRun(f *testing.F) {
	f.Add(int64(7), 1, "HandDealt", `{"hand":1,"deal":2,"hands":[["3\u2665","\u003c"]]}`, int64(1700000000123456789), "CardsPlayed", "a\"b\\c\n\x01\x7f\xff")
	f.Add(int64(-1), -3, "", "", int64(0), "x", `\u00e9`)
	f.Fuzz(func(t *testing.T, pos int64, version int, typ, data string, at int64, typ2, data2 string) {
		b := []byte{'['}
		b = appendHandEvent(b, pos, version, typ, []byte(data), at)
		b = append(b, ',')
		b = appendHandEvent(b, pos+1, version, typ2, []byte(data2), at)
		b = append(b, ']')
		got, err := parseRun(nil, string(b))
		if err != nil {
			t.Fatalf("parseRun: %v\n%s", err, b)
		}
		want := []projections.HandEvent{
			{Position: pos, Version: version, Type: typ, Data: json.RawMessage(data), RecordedAt: time.Unix(0, at).UTC()},
			{Position: pos + 1, Version: version, Type: typ2, Data: json.RawMessage(data2), RecordedAt: time.Unix(0, at).UTC()},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("parseRun\n got %+v\nwant %+v", got, want)
		}
		if json.Valid(b) && utf8.Valid(b) {
			if slow := slowRun(t, string(b)); !reflect.DeepEqual(slow, want) {
				t.Fatalf("encoding/json\n got %+v\nwant %+v", slow, want)
			}
		}
	})
}

// FuzzParseRun: on any text, parseRun either fails or agrees with
// encoding/json (which it must, on valid JSON of valid UTF-8).
func FuzzParseRun(f *testing.F) {
	f.Add(`[[1,2,"HandDealt","{\"a\":\"\\u00e9\"}",3]]`)
	f.Add(`[ [1 , 2,"t","\ud83d\ude00\ud800x\n",3] ,[4,5,"","",-6]]`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, js string) {
		got, err := parseRun([]projections.HandEvent{}, js)
		if err != nil {
			return
		}
		if !json.Valid([]byte(js)) || !utf8.ValidString(js) {
			return // encoding/json makes invalid UTF-8 U+FFFD; the fast reader keeps the bytes
		}
		var elems [][5]json.RawMessage
		if json.Unmarshal([]byte(js), &elems) != nil {
			t.Fatalf("parseRun read %q, encoding/json did not", js)
		}
		if slow := slowRun(t, js); !reflect.DeepEqual(got, slow) {
			t.Fatalf("%q\nparseRun %+v\nencoding/json %+v", js, got, slow)
		}
	})
}
