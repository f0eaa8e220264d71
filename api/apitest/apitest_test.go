package apitest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A table view as the server sends it, with one field replaced per case.
const goodTable = `{"id":"T1","game":"doudizhu","variant":"classic","stake":1,"options":{},
"rules_version":"doudizhu/classic/1","version":4,"phase":"bidding","turn":0,"seat":null,
"hand_number":1,"hand":[],"seats":[{"seat":0,"player_id":"p0","name":"东","total":0,"bot":false,"delegated":false,"deadline":null,"ready":false}],
"game_state":{"hand":1,"deal":1,"first_bidder":0,"bids":null,"landlord":null,"bid":0,"multiplier":1,
"kitty":null,"last_play":null,"passes":0,"cards_left":[17,17,17],"plays":[0,0,0]},
"last_settlement":null,"closed":false,"clock":null,"max_hands":0,"spectators":"public","watchers":true,"wait_between_hands":false,"between_hands":false}`

// TestValidatorEnforcesTheSpec serves bodies that break openapi.yaml in the
// ways OpenAPI 3.1 expresses (type arrays with null, const, a oneOf chosen
// by a discriminating const) and checks that the client rejects each, and
// accepts the body they were made from.
func TestValidatorEnforcesTheSpec(t *testing.T) {
	cases := []struct {
		name, path, body string
		ok               bool
	}{
		{"a valid table", "/v1/tables/T1", goodTable, true},
		{"a number where the type is [string, null]", "/v1/tables/T1", strings.Replace(goodTable, `"player_id":"p0"`, `"player_id":7`, 1), false},
		{"null where the type is integer alone", "/v1/tables/T1", strings.Replace(goodTable, `"stake":1`, `"stake":null`, 1), false},
		{"a game no table schema has", "/v1/tables/T1", strings.Replace(goodTable, `"game":"doudizhu"`, `"game":"poker"`, 1), false},
		{"another game's variant", "/v1/tables/T1", strings.Replace(goodTable, `"variant":"classic"`, `"variant":"ningyang"`, 1), false},
		{"an option the game does not take", "/v1/tables/T1", strings.Replace(goodTable, `"options":{}`, `"options":{"seats":3}`, 1), false},
		{"a phase of another game", "/v1/tables/T1", strings.Replace(goodTable, `"phase":"bidding"`, `"phase":"drawing"`, 1), false},
		{"the game state without a required field", "/v1/tables/T1", strings.Replace(goodTable, `"multiplier":1,`, ``, 1), false},
		{"valid events", "/v1/tables/T1/events", `{"version":5,"more":false,"next":5,"events":[
			{"version":5,"position":9,"type":"BidMade","recorded_at":"2026-01-01T00:00:00Z","data":{"seat":0,"bid":2}}]}`, true},
		{"an event type no game has", "/v1/tables/T1/events", `{"version":5,"more":false,"next":5,"events":[
			{"version":5,"position":9,"type":"BidMaed","recorded_at":"2026-01-01T00:00:00Z","data":{"seat":0,"bid":2}}]}`, false},
		{"an event's data of another type", "/v1/tables/T1/events", `{"version":5,"more":false,"next":5,"events":[
			{"version":5,"position":9,"type":"BidMade","recorded_at":"2026-01-01T00:00:00Z","data":{"seat":0}}]}`, false},
		{"valid legal actions", "/v1/tables/T1/legal", `{"version":5,"actions":[{"type":"bid","bid":3},{"type":"pass"},{"type":"play","cards":["S3"]}],"complete":true,"selected":[],"extend":[]}`, true},
		{"a bid that is a string", "/v1/tables/T1/legal", `{"version":5,"actions":[{"type":"bid","bid":"3"}],"complete":true,"selected":[],"extend":[]}`, false},
		{"a play without cards", "/v1/tables/T1/legal", `{"version":5,"actions":[{"type":"play"}],"complete":true,"selected":[],"extend":[]}`, false},
		{"a card in no notation", "/v1/tables/T1/legal", `{"version":5,"actions":[{"type":"play","cards":["S1"]}],"complete":true,"selected":[],"extend":[]}`, false},
	}
	var (
		mu   sync.Mutex
		body string // what the server answers next
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		b := body
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"5"`)
		_, _ = w.Write([]byte(b))
	}))
	defer srv.Close()
	c := New(t, srv.URL)
	c.checkBodies = true // the checks themselves are tested, under -race too
	for _, tc := range cases {
		mu.Lock()
		body = tc.body
		mu.Unlock()
		_, err := c.do(Request{Method: "GET", Path: tc.path, Token: "x"})
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: rejected: %v", tc.name, err)
		case !tc.ok && err == nil:
			t.Errorf("%s: accepted, want it rejected", tc.name)
		}
	}
}

// TestVerdictsKeptOnlyWhenPassed: the client skips kin-openapi's check of a
// request or an answer it has passed before, never of one it refused, and
// the schema check it keeps (CheckSchemaOnce) likewise.
func TestVerdictsKeptOnlyWhenPassed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"5"`)
		_, _ = w.Write([]byte(goodTable))
	}))
	defer srv.Close()
	c := New(t, srv.URL)
	c.checkBodies = true
	for i := range 2 {
		if _, err := c.do(Request{Method: "GET", Path: "/v1/tables/T1/events?after=x", Token: "x"}); err == nil {
			t.Fatalf("read %d: a non-integer after accepted", i+1)
		}
		if _, err := c.do(Request{Method: "GET", Path: "/v1/tables/T1", Token: "x"}); err != nil {
			t.Fatalf("read %d: a valid request and answer refused: %v", i+1, err)
		}
	}
	bad := []byte(`{"version":5,"position":9,"type":"BidMaed","recorded_at":"2026-01-01T00:00:00Z","data":{"seat":0,"bid":2}}`)
	good := []byte(`{"version":5,"position":9,"type":"BidMade","recorded_at":"2026-01-01T00:00:00Z","data":{"seat":0,"bid":2}}`)
	calls := 0
	check := func(data []byte) func() error {
		return func() error { calls++; return c.bodies.Schema("Event", data) }
	}
	for i := range 2 {
		if err := passOnce(c.validData, "bad", check(bad)); err == nil {
			t.Fatalf("check %d: an event of no type passed", i+1)
		}
		if err := passOnce(c.validData, "good", check(good)); err != nil {
			t.Fatalf("check %d: a valid event refused: %v", i+1, err)
		}
	}
	if calls != 3 {
		t.Fatalf("%d checks run, want 3: the refused event twice, the valid one once", calls)
	}
	c.CheckSchemaOnce("Event", good)
	c.CheckSchemaOnce("Event", good)
}

// TestClientsShareTheSpec: every client checks against the one document
// loaded and compiled for the test binary, and clients of tests running side
// by side check their bodies at once (the race detector watches the shared
// router and schemas), each accepting what matches and refusing what does
// not.
func TestClientsShareTheSpec(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"5"`)
		b := goodTable
		if r.URL.Path == "/v1/tables/T2" {
			b = strings.Replace(goodTable, `"stake":1`, `"stake":null`, 1)
		}
		_, _ = w.Write([]byte(b))
	}))
	defer srv.Close()
	first := New(t, srv.URL)
	var wg sync.WaitGroup
	errs := make(chan string, 8*5*3)
	for g := range 8 {
		wg.Go(func() {
			c := New(t, srv.URL)
			c.checkBodies = true
			if c.router != first.router || c.bodies != first.bodies {
				errs <- "a client with a document of its own"
				return
			}
			for i := range 5 {
				if _, err := c.do(Request{Method: "GET", Path: "/v1/tables/T1", Token: "x"}); err != nil {
					errs <- fmt.Sprintf("goroutine %d, read %d: a valid table refused: %v", g, i, err)
				}
				if _, err := c.do(Request{Method: "GET", Path: "/v1/tables/T2", Token: "x"}); err == nil {
					errs <- fmt.Sprintf("goroutine %d, read %d: a table with a null stake accepted", g, i)
				}
				if err := c.bodies.Schema("Event", []byte(`{"version":5,"position":9,"type":"BidMade","recorded_at":"2026-01-01T00:00:00Z","data":{"seat":0,"bid":2}}`)); err != nil {
					errs <- fmt.Sprintf("goroutine %d: a valid event refused: %v", g, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
