package api

import (
	"reflect"
	"testing"

	"paiju/api/strictjson"
)

// actionBodies are action bodies of every shape: the ones clients send,
// which the one-pass reader takes, and ones it must leave to the strict
// decoder (refused, or valid in a form it does not read).
var actionBodies = []string{
	`{"type":"play","cards":["S3","S4","S5","S6","S7"],"as":"straight"}`,
	`{"type":"bid","bid":3}`,
	`{"type":"bid","bid":-0}`,
	`{"type":"pass"}`,
	` { "type" : "play" , "cards" : [ "S3" , "H3" ] } ` + "\n",
	"{\t\"type\":\r\n\"pass\"}",
	`{}`,
	`{"type":null,"bid":null,"cards":null,"as":null}`,
	`{"type":"play","cards":[]}`,
	`{"type":"牌","as":"é"}`,
	`{"type":"bid","bid":123456789012345678}`,
	// Left to the strict decoder.
	`{"type":"bid","bid":1234567890123456789}`,
	`{"type":"bid","bid":99999999999999999999}`,
	`{"type":"bid","bid":1.0}`,
	`{"type":"bid","bid":1e2}`,
	`{"type":"bid","bid":01}`,
	`{"type":"bid","bid":-}`,
	`{"type":"bid","bid":"3"}`,
	`{"type":"play","type":"pass"}`,
	`{"type":"play","TYPE":"pass"}`,
	`{"Type":"play"}`,
	`{"type":"play","extra":1}`,
	`{"type":"pl\u0061y"}`,
	`{"type":"play\n"}`,
	`{"type":"play","cards":["S3",]}`,
	`{"type":"play","cards":["S3",null]}`,
	`{"type":"play",}`,
	`{"type":"play"} {}`,
	`{"type":"play"}x`,
	`{"type":"play"`,
	`[]`,
	`null`,
	"{\"type\":\"\xff\"}",
	`{"type":"bid","bid":3,"cards":["S3"],"as":"x","bid":4}`,
	`{"type":true}`,
	`{"cards":"S3"}`,
	`{"type":"play","cards":[["S3"]]}`,
}

// TestActionFastMatchesStrict holds the one-pass reader of an action to the
// strict decoder: whatever it takes, the strict decoder takes and decodes
// to the same value, and the bodies clients send do not need the strict
// decoder at all.
func TestActionFastMatchesStrict(t *testing.T) {
	fast := 0
	for _, body := range actionBodies {
		if checkActionFast(t, []byte(body)) {
			fast++
		}
	}
	if fast != 11 {
		t.Errorf("the one-pass reader took %d of the bodies, want the first 11", fast)
	}
}

func FuzzActionFast(f *testing.F) {
	for _, body := range actionBodies {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkActionFast(t, body)
	})
}

// checkActionFast reports whether the one-pass reader took body, and fails
// t if it took what the strict decoder refuses or reads otherwise, or if
// it left anything in the value of a body it did not take.
func checkActionFast(t *testing.T, body []byte) bool {
	t.Helper()
	var got actionRequest
	ok := got.decodeFast(body)
	if !ok {
		if !reflect.DeepEqual(got, actionRequest{}) {
			t.Errorf("%q: not taken, but the value is %+v", body, got)
		}
		return false
	}
	var want actionRequest
	if err := strictjson.Decode(body, &want); err != nil {
		t.Errorf("%q: the one-pass reader took it as %+v, the strict decoder refuses it: %v", body, got, err)
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q: the one-pass reader read %+v, the strict decoder %+v", body, got, want)
	}
	return true
}
