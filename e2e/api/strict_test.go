package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"paiju/api/apitest"
)

// TestStrictInput: input that a lenient reader would take one way and
// another reader another way is refused with a stable code, and changes
// nothing (issue "Integrity and abuse resistance", item 5).
func TestStrictInput(t *testing.T) {
	e := newEnv(t, 4)
	id, ps := e.openFull()
	v := e.view(id, ps[0].Token)
	actor := ps[*v.Turn]
	path := "/v1/tables/" + id + "/actions"
	bid := func(h map[string]string) apitest.Request {
		return apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: map[string]any{"type": "bid", "bid": 1}, Header: h, Raw: true}
	}
	cur := fmt.Sprintf(`"%d"`, v.Version)
	cases := []struct {
		name   string
		req    apitest.Request
		status int
		code   string
	}{
		{"key in another case", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: `{"type":"bid","bid":1,"BID":3}`, Raw: true}, 400, "malformed_json"},
		{"only a case variant", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: `{"Type":"pass"}`, Raw: true}, 400, "malformed_json"},
		{"name in another case", apitest.Request{Method: "POST", Path: "/v1/players", Body: `{"name":"o","Name":"p"}`, Raw: true}, 400, "malformed_json"},
		{"no Content-Type", bid(map[string]string{"Content-Type": ""}), 415, "unsupported_media_type"},
		{"no Content-Type on join", apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: e.newPlayer("jo").Token, Body: `{}`, Header: map[string]string{"Content-Type": ""}, Raw: true}, 415, "unsupported_media_type"},
		{"empty Idempotency-Key", bid(map[string]string{"Idempotency-Key": ""}), 400, "invalid_idempotency_key"},
		{"unquoted If-Match", bid(map[string]string{"If-Match": fmt.Sprint(v.Version)}), 400, "invalid_if_match"},
		{"empty If-Match", bid(map[string]string{"If-Match": ""}), 400, "invalid_if_match"},
		{"If-Match list", bid(map[string]string{"If-Match": cur + ", " + cur}), 400, "invalid_if_match"},
		{"If-Match signed", bid(map[string]string{"If-Match": `"+` + cur[1:]}), 400, "invalid_if_match"},
		{"weak If-Match", bid(map[string]string{"If-Match": "W/" + cur}), 412, "precondition_failed"},
		{"name with a bidi override", apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]any{"name": "ann\u202Egnp.exe"}}, 422, "invalid_name"},
		{"name with a bidi isolate", apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]any{"name": "\u2067ann"}}, 422, "invalid_name"},
		{"name with a zero-width joiner", apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]any{"name": "a\u200Dnn"}}, 422, "invalid_name"},
		{"name with a zero-width space", apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]any{"name": "a\u200Bnn"}}, 422, "invalid_name"},
		{"name with a BOM", apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]any{"name": "\uFEFFann"}}, 422, "invalid_name"},
		{"name with a lone surrogate", apitest.Request{Method: "POST", Path: "/v1/players", Body: `{"name":"ann\ud800"}`, Raw: true}, 422, "invalid_name"},
		{"name with a control character", apitest.Request{Method: "POST", Path: "/v1/players", Body: `{"name":"ann\u0007"}`, Raw: true}, 422, "invalid_name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := e.head()
			r := e.c.Do(tc.req)
			if r.Status != tc.status {
				t.Fatalf("got %d, want %d; body %s", r.Status, tc.status, r.Body)
			}
			if code := r.Problem(t); code != tc.code {
				t.Fatalf("code %q, want %q", code, tc.code)
			}
			if after := e.head(); after != before {
				t.Fatalf("the store moved from position %d to %d on a refused request", before, after)
			}
		})
	}
	// The same bid, strictly written, is taken.
	if r := e.c.Do(bid(map[string]string{"If-Match": cur, "Idempotency-Key": "b-1"})); r.Status != http.StatusOK {
		t.Fatalf("a well-formed bid after the refusals: %d %s", r.Status, r.Body)
	}
}

// TestNameNormalised: a name is stored in NFC, so that "é" typed as e and a
// combining accent is the same name as the precomposed é.
func TestNameNormalised(t *testing.T) {
	e := newEnv(t, 5)
	p := e.newPlayer("Rene\u0301")
	if p.Name != "Ren\u00e9" {
		t.Fatalf("name %q (%+q), want the NFC form %+q", p.Name, p.Name, "Ren\u00e9")
	}
}

// TestMethodNotAllowedNamesAllow: a 405 carries Allow with the methods the
// resource has (RFC 9110, 15.5.6).
func TestMethodNotAllowedNamesAllow(t *testing.T) {
	e := newEnv(t, 6)
	id, ps := e.openFull()
	for _, tc := range []struct {
		method, path, allow string
	}{
		{"DELETE", "/v1/tables/" + id, "GET"},
		{"PUT", "/v1/tables/" + id + "/actions", "POST"},
		{"GET", "/v1/players", "POST"},
		{"POST", "/v1/tables/" + id + "/legal", "GET"},
		{"PATCH", "/v1/tables", "GET, POST"},
	} {
		r := e.c.Do(apitest.Request{Method: tc.method, Path: tc.path, Token: ps[0].Token, Raw: true})
		if r.Status != http.StatusMethodNotAllowed || r.Problem(t) != "method_not_allowed" {
			t.Fatalf("%s %s: %d %s, want 405 method_not_allowed", tc.method, tc.path, r.Status, r.Body)
		}
		if got := strings.Join(r.Header.Values("Allow"), ", "); got != tc.allow {
			t.Errorf("%s %s: Allow %q, want %q", tc.method, tc.path, got, tc.allow)
		}
	}
}
