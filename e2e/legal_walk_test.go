package e2e

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
)

// playRandomChoice posts one of the legal actions of token's seat at
// table id, drawn by rng among all but an escape or a delegation, and
// fails the test unless the server accepts it.
func playRandomChoice(t *testing.T, c *apitest.Client, id, token string, rng *rand.Rand) *apitest.Response {
	t.Helper()
	var choices []map[string]any
	for _, a := range legalChoices(t, c, id, token, rng) {
		if a["type"] != "escape" && a["type"] != "delegate" {
			choices = append(choices, a)
		}
	}
	r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: token, Body: choices[rng.IntN(len(choices))]})
	if r.Status != http.StatusOK {
		t.Fatalf("action: %d %s", r.Status, r.Body)
	}
	return r
}

// legalChoices is what token may do at table id for a test to choose from:
// /legal's actions when it lists them whole; otherwise the card-less ones
// and the plays reached by adding random cards of extend to the selection
// (openapi.yaml, /legal). rng is drawn from only in the second case.
func legalChoices(t *testing.T, c *apitest.Client, id, token string, rng *rand.Rand) []map[string]any {
	t.Helper()
	var sel []string
	for {
		var l struct {
			Actions  []map[string]any `json:"actions"`
			Complete bool             `json:"complete"`
			Extend   []string         `json:"extend"`
		}
		r := c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal?selected=" + strings.Join(sel, ","), Token: token})
		if r.Status != http.StatusOK {
			t.Fatalf("legal with selected=%v: %d %s", sel, r.Status, r.Body)
		}
		r.Decode(t, &l)
		if l.Complete || len(l.Extend) == 0 {
			return l.Actions
		}
		if slices.ContainsFunc(l.Actions, func(a map[string]any) bool { return a["cards"] != nil }) && rng.IntN(2) == 0 {
			return l.Actions
		}
		sel = append(sel, l.Extend[rng.IntN(len(l.Extend))])
	}
}

// randomMove makes one random game move at table id for whichever of ps
// the table awaits (escapes, delegations and leaving left out), and
// returns the answer.
func randomMove(t *testing.T, c *apitest.Client, id string, ps []rootPlayer, rng *rand.Rand) *apitest.Response {
	t.Helper()
	var v struct {
		Turn *int `json:"turn"`
	}
	c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token}).Decode(t, &v)
	if v.Turn == nil {
		t.Fatalf("table %s awaits nobody's turn", id)
	}
	p := ps[*v.Turn]
	var choices []map[string]any
	for _, a := range legalChoices(t, c, id, p.Token, rng) {
		if a["type"] != "escape" && a["type"] != "delegate" && a["type"] != "leave" {
			choices = append(choices, a)
		}
	}
	if len(choices) == 0 {
		t.Fatalf("seat %d of table %s has no move to make", *v.Turn, id)
	}
	r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: p.Token, Body: choices[rng.IntN(len(choices))]})
	if r.Status != http.StatusOK {
		t.Fatalf("action: %d %s", r.Status, r.Body)
	}
	return r
}
