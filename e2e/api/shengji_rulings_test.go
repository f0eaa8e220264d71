package api_test

import (
	"net/http"
	"strings"
	"testing"

	"paiju/api/apitest"
)

// TestDuplicateNotAnOrdinaryOption: "duplicate" exists only for the tables of
// a duplicate tournament, never as an option of an ordinary table
// (shengji.md, qiangbao, turn 3 Decision): POST /v1/tables asking for it, true
// or false, is 422 invalid_option naming the key, and nothing is stored.
func TestDuplicateNotAnOrdinaryOption(t *testing.T) {
	e := newEnv(t, 36)
	p := e.newPlayer("ann")
	for _, variant := range []string{"ningyang", "guafeng", "qiangbao"} {
		for _, v := range []bool{true, false} {
			before := e.head()
			body := map[string]any{"game": "shengji", "variant": variant, "stake": 1, "options": map[string]any{"duplicate": v}}
			// Raw: openapi.yaml's open request has no such option.
			r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: body, Raw: true})
			if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" || !strings.Contains(string(r.Body), "duplicate") {
				t.Fatalf("%s with duplicate %v: %d %s, want 422 invalid_option naming duplicate", variant, v, r.Status, r.Body)
			}
			if e.head() != before {
				t.Fatalf("%s: a refused opening changed the store", variant)
			}
		}
	}
}
