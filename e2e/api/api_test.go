package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/games"
	"paiju/service"
)

// TestFullHandOverREST plays whole hands of 斗地主 classic through the public
// API only, then proves the stored stream with the audit re-execution.
func TestFullHandOverREST(t *testing.T) {
	e := newEnv(t, 1)
	id, ps := e.openFull()
	v := e.view(id, ps[0].Token)
	if v.Phase != "bidding" || v.HandNumber != 1 || len(v.Hand) != 17 {
		t.Fatalf("after the last join: phase %q hand %d with %d cards, want bidding, hand 1, 17 cards (doudizhu.md, Deal)", v.Phase, v.HandNumber, len(v.Hand))
	}
	totals := make([]int, 3)
	for hand := 1; hand <= 3; hand++ {
		s := e.playHand(id, ps)
		sum := 0
		for i, d := range s.Deltas {
			sum += d
			totals[i] += d
		}
		if sum != 0 {
			t.Fatalf("hand %d settles %v, which sums to %d, not 0 (doudizhu.md, Scoring)", hand, s.Deltas, sum)
		}
		if len(s.Seed) != 64 {
			t.Fatalf("hand %d settlement reveals seed %q, want 64 hex digits (rules/README.md, Shuffling and dealing)", hand, s.Seed)
		}
	}
	v = e.view(id, ps[1].Token)
	for i, s := range v.Seats {
		if s.Total != totals[i] {
			t.Errorf("seat %d total %d, want the sum of its settlements %d", i, s.Total, totals[i])
		}
	}

	evs, err := e.store.Load(context.Background(), service.StreamID(id), 0)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := audit.VerifyTable(games.All().Rules, evs)
	if err != nil {
		t.Fatalf("the stream of a table played over REST does not verify: %v", err)
	}
	if rep.Deals < 3 {
		t.Fatalf("verified %d deals, want at least 3", rep.Deals)
	}
}

// TestBadInputChangesNothing sends bad requests of every kind and checks each
// gets its status and stable code, and that the store did not change.
func TestBadInputChangesNothing(t *testing.T) {
	e := newEnv(t, 2)
	id, ps := e.openFull()
	v := e.view(id, ps[0].Token)
	actor := ps[*v.Turn]
	other := ps[(*v.Turn+1)%3]
	// A card the actor does not hold: one from another seat's hand (only the
	// test knows it, via the other seat's own view).
	notMine := e.view(id, other.Token).Hand[0]
	path := "/v1/tables/" + id + "/actions"
	ifMatch := fmt.Sprintf(`"%d"`, v.Version-1)

	cases := []struct {
		name   string
		req    apitest.Request
		status int
		code   string
	}{
		{"no token", apitest.Request{Method: "POST", Path: path, Body: map[string]any{"type": "pass"}}, 401, "unauthorized"},
		{"unknown token", apitest.Request{Method: "POST", Path: path, Token: "pj_nope", Body: map[string]any{"type": "pass"}}, 401, "unauthorized"},
		{"out of turn", apitest.Request{Method: "POST", Path: path, Token: other.Token, Body: map[string]any{"type": "bid", "bid": 1}}, 409, "not_your_turn"},
		{"malformed JSON", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: `{"type": "bid", "bid": }`, Raw: true}, 400, "malformed_json"},
		{"duplicate key", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: `{"type": "bid", "bid": 1, "bid": 3}`, Raw: true}, 400, "malformed_json"},
		{"unknown field", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: `{"type": "pass", "force": true}`, Raw: true}, 400, "malformed_json"},
		{"trailing data", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: `{"type": "pass"} {"type": "pass"}`, Raw: true}, 400, "malformed_json"},
		{"invalid UTF-8", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: []byte("{\"type\": \"pa\xffss\"}"), Raw: true}, 400, "malformed_json"},
		{"wrong content type", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: `{"type": "pass"}`, Header: map[string]string{"Content-Type": "text/plain"}, Raw: true}, 415, "unsupported_media_type"},
		{"body too large", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: `{"type": "` + strings.Repeat("x", 70_000) + `"}`, Raw: true}, 413, "body_too_large"},
		{"unknown card token", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: map[string]any{"type": "play", "cards": []string{"S3", "X11"}}, Raw: true}, 400, "invalid_card"},
		{"play during bidding", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: map[string]any{"type": "play", "cards": []string{notMine}}}, 409, "wrong_phase"},
		{"unknown action", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: map[string]any{"type": "shuffle"}, Raw: true}, 422, "unknown_action"},
		{"bid out of range", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: map[string]any{"type": "bid", "bid": 4}, Raw: true}, 422, ""},
		{"stale If-Match", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: map[string]any{"type": "pass"}, Header: map[string]string{"If-Match": ifMatch}}, 412, "precondition_failed"},
		{"bad If-Match", apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: map[string]any{"type": "pass"}, Header: map[string]string{"If-Match": "yesterday"}}, 400, "invalid_if_match"},
		{"auditor acting", apitest.Request{Method: "POST", Path: path, Token: auditorToken, Body: map[string]any{"type": "pass"}}, 403, "auditor_read_only"},
		{"unknown table", apitest.Request{Method: "POST", Path: "/v1/tables/NOPE/actions", Token: actor.Token, Body: map[string]any{"type": "pass"}}, 404, "table_not_found"},
		{"seat taken", apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: e.newPlayer("dave").Token, Body: map[string]any{"seat": 0}}, 409, "seat_taken"},
		{"table full", apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: e.newPlayer("erin").Token}, 409, "table_full"},
		{"no such seat", apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: e.newPlayer("finn").Token, Body: map[string]any{"seat": 7}}, 422, "no_such_seat"},
		{"already seated", apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: actor.Token}, 409, "already_seated"},
		{"not seated", apitest.Request{Method: "POST", Path: path, Token: e.newPlayer("gus").Token, Body: map[string]any{"type": "pass"}}, 403, "not_seated"},
		{"unknown game", apitest.Request{Method: "POST", Path: "/v1/tables", Token: actor.Token, Body: map[string]any{"game": "poker", "variant": "texas"}, Raw: true}, 422, "unknown_game"},
		{"unknown variant", apitest.Request{Method: "POST", Path: "/v1/tables", Token: actor.Token, Body: map[string]any{"game": "doudizhu", "variant": "moon"}, Raw: true}, 422, "unknown_variant"},
		{"stake below 1", apitest.Request{Method: "POST", Path: "/v1/tables", Token: actor.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 0}, Raw: true}, 422, "invalid_option"},
		{"bad player name", apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]any{"name": "   "}}, 422, "invalid_name"},
		{"negative after", apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events?after=-1", Token: actor.Token, Raw: true}, 400, "invalid_query"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := e.head()
			r := e.c.Do(tc.req)
			if r.Status != tc.status {
				t.Fatalf("got %d, want %d; body %s", r.Status, tc.status, r.Body)
			}
			code := r.Problem(t)
			if tc.code != "" && code != tc.code {
				t.Fatalf("code %q, want %q", code, tc.code)
			}
			if after := e.head(); after != before {
				t.Fatalf("the store moved from position %d to %d on a rejected request", before, after)
			}
			// The request id is random text that may spell a card by chance.
			var problem map[string]any
			if err := json.Unmarshal(r.Body, &problem); err != nil {
				t.Fatal(err)
			}
			delete(problem, "request_id")
			body, _ := json.Marshal(problem)
			if strings.Contains(string(body), notMine) && tc.req.Token != "" {
				t.Fatalf("the error names %s, another seat's card", notMine)
			}
		})
	}
}

// TestCardNotInHand plays a card the seat does not hold once play has begun.
func TestCardNotInHand(t *testing.T) {
	e := newEnv(t, 3)
	id, ps := e.openFull()
	for e.view(id, ps[0].Token).Phase == "bidding" {
		e.step(id, ps)
	}
	v := e.view(id, ps[0].Token)
	actor, other := ps[*v.Turn], ps[(*v.Turn+1)%3]
	notMine := e.view(id, other.Token).Hand[0]
	before := e.head()
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: actor.Token, Body: map[string]any{"type": "play", "cards": []string{notMine}}})
	if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "card_not_in_hand" {
		t.Fatalf("playing a card not in hand: %d %s, want 422 card_not_in_hand", r.Status, r.Body)
	}
	if e.head() != before {
		t.Fatal("a rejected play changed the store")
	}
}

// TestIdempotencyAndIfMatch: a retried command with the same key answers the
// same and appends nothing; the same key with another body is a 422; a
// correct If-Match succeeds.
func TestIdempotencyAndIfMatch(t *testing.T) {
	e := newEnv(t, 4)
	id, ps := e.openFull()
	v := e.view(id, ps[0].Token)
	actor := ps[*v.Turn]
	path := "/v1/tables/" + id + "/actions"
	req := apitest.Request{Method: "POST", Path: path, Token: actor.Token, Body: map[string]any{"type": "pass"},
		Header: map[string]string{"Idempotency-Key": "k-1", "If-Match": fmt.Sprintf(`"%d"`, v.Version)}}
	first := e.c.Do(req)
	if first.Status != http.StatusOK {
		t.Fatalf("first call: %d %s", first.Status, first.Body)
	}
	if got := first.Header.Get("ETag"); got != fmt.Sprintf(`"%d"`, v.Version+1) {
		t.Fatalf("ETag %s after one event on version %d", got, v.Version)
	}
	head := e.head()
	again := e.c.Do(req)
	if again.Status != http.StatusOK || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry: %d replayed=%q %s", again.Status, again.Header.Get("Idempotent-Replayed"), again.Body)
	}
	var a, b commandResp
	first.Decode(t, &a)
	again.Decode(t, &b)
	if a.Version != b.Version || len(a.Events) != len(b.Events) || a.Events[0].Version != b.Events[0].Version {
		t.Fatalf("retry answered %+v, first answer %+v", b, a)
	}
	if e.head() != head {
		t.Fatal("a retried command appended again")
	}
	other := req
	other.Body = map[string]any{"type": "bid", "bid": 1}
	r := e.c.Do(other)
	if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "idempotency_key_reused" {
		t.Fatalf("same key, other body: %d %s, want 422 idempotency_key_reused", r.Status, r.Body)
	}
	if e.head() != head {
		t.Fatal("a reused key appended")
	}
}

// TestPreferMinimal: with Prefer: return=minimal a command answers with its
// version and events only (RFC 7240), says so in Preference-Applied, and
// still shows the caller only what it may see.
func TestPreferMinimal(t *testing.T) {
	e := newEnv(t, 5)
	id, ps := e.openFull()
	v := e.view(id, ps[0].Token)
	actor := ps[*v.Turn]
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: actor.Token,
		Body: map[string]any{"type": "pass"}, Header: map[string]string{"Prefer": "respond-async, return=minimal"}})
	if r.Status != http.StatusOK || r.Header.Get("Preference-Applied") != "return=minimal" {
		t.Fatalf("minimal pass: %d, Preference-Applied %q: %s", r.Status, r.Header.Get("Preference-Applied"), r.Body)
	}
	var body map[string]json.RawMessage
	r.Decode(t, &body)
	if _, ok := body["table"]; ok || body["events"] == nil || string(body["version"]) != fmt.Sprint(v.Version+1) {
		t.Fatalf("minimal answer %s: want version %d and events, no table", r.Body, v.Version+1)
	}
	if r.Header.Get("ETag") != fmt.Sprintf(`"%d"`, v.Version+1) {
		t.Fatalf("ETag %s", r.Header.Get("ETag"))
	}
	// The minimal answer still says whose turn it is: the seat the view
	// names.
	after := e.view(id, ps[0].Token)
	if got := r.Header.Values("Awaited-Seats"); after.Turn == nil || len(got) != 1 || got[0] != fmt.Sprint(*after.Turn) {
		t.Fatalf("Awaited-Seats %q after a bid's pass, want the view's turn %v", got, after.Turn)
	}
	full := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[(*v.Turn+1)%3].Token,
		Body: map[string]any{"type": "pass"}})
	var cr commandResp
	full.Decode(t, &cr)
	if full.Header.Get("Preference-Applied") != "" || cr.Table.ID != id {
		t.Fatalf("an answer without the preference lacks the table: %s", full.Body)
	}
	if got := full.Header.Get("Awaited-Seats"); cr.Table.Turn == nil || got != fmt.Sprint(*cr.Table.Turn) {
		t.Fatalf("Awaited-Seats %q beside the view's turn %v", got, cr.Table.Turn)
	}
}

// TestConditionalGet: a client that names the version it last saw in
// If-None-Match gets 304 and no body while the table stays there (RFC 9110),
// and the whole answer once it has moved on. 牛牛's legal actions depend on
// the clock, so its /legal always answers in full.
func TestConditionalGet(t *testing.T) {
	e := newEnv(t, 6)
	id, ps := e.openFull()
	v := e.view(id, ps[0].Token)
	for _, path := range []string{"/v1/tables/" + id, "/v1/tables/" + id + "/legal"} {
		// The view's ETag is the version; /legal's also names the seat
		// and the selection (TestLegalConditional).
		etag := e.c.Do(apitest.Request{Method: "GET", Path: path, Token: ps[0].Token}).Header.Get("ETag")
		if !strings.HasPrefix(etag, fmt.Sprintf(`"%d`, v.Version)) {
			t.Fatalf("GET %s: ETag %s at version %d", path, etag, v.Version)
		}
		for _, inm := range []string{etag, `"1", ` + etag, "W/" + etag, "*"} {
			r := e.c.Do(apitest.Request{Method: "GET", Path: path, Token: ps[0].Token, Header: map[string]string{"If-None-Match": inm}})
			if r.Status != http.StatusNotModified || len(r.Body) != 0 || r.Header.Get("ETag") != etag {
				t.Fatalf("GET %s If-None-Match %s: %d, ETag %s, body %q; want 304 with ETag %s and no body", path, inm, r.Status, r.Header.Get("ETag"), r.Body, etag)
			}
		}
		r := e.c.Do(apitest.Request{Method: "GET", Path: path, Token: ps[0].Token, Header: map[string]string{"If-None-Match": `"1"`}})
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s with an old version: %d, want 200", path, r.Status)
		}
	}
	etag := fmt.Sprintf(`"%d"`, v.Version)
	actor := ps[*v.Turn]
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: actor.Token, Body: map[string]any{"type": "pass"}}); r.Status != http.StatusOK {
		t.Fatalf("pass: %d %s", r.Status, r.Body)
	}
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token, Header: map[string]string{"If-None-Match": etag}})
	if r.Status != http.StatusOK || r.Header.Get("ETag") == etag {
		t.Fatalf("after a move, If-None-Match %s: %d ETag %s, want 200 with the new version", etag, r.Status, r.Header.Get("ETag"))
	}

	nid, nps := e.openTable(map[string]any{"game": "niuniu", "variant": "classic", "options": map[string]any{"seats": 2, "arrange_seconds": 5}}, 2)
	nv := e.view(nid, nps[0].Token)
	r = e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + nid + "/legal", Token: nps[0].Token, Header: map[string]string{"If-None-Match": fmt.Sprintf(`"%d"`, nv.Version)}})
	if r.Status != http.StatusOK {
		t.Fatalf("牛牛 /legal with If-None-Match: %d, want 200 (its legal actions change with the clock)", r.Status)
	}
}
