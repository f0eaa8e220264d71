package api_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/audit"
	"paiju/games"
	"paiju/service"
)

// liveView is the part of the Table schema the live-table tests read.
type liveView struct {
	Version int    `json:"version"`
	Phase   string `json:"phase"`
	Turn    *int   `json:"turn"`
	Closed  bool   `json:"closed"`
	Clock   *struct {
		TurnSeconds   int `json:"turn_seconds"`
		DelegateAfter int `json:"delegate_after"`
	} `json:"clock"`
	Seats []struct {
		Seat      int     `json:"seat"`
		PlayerID  *string `json:"player_id"`
		Bot       bool    `json:"bot"`
		Delegated bool    `json:"delegated"`
		Deadline  *string `json:"deadline"`
	} `json:"seats"`
}

func (e *env) liveView(id, token string) liveView {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token})
	if r.Status != http.StatusOK {
		e.t.Fatalf("get table: %d %s", r.Status, r.Body)
	}
	var v liveView
	r.Decode(e.t, &v)
	return v
}

type liveLegal struct {
	Actions  []map[string]any `json:"actions"`
	Deadline *string          `json:"deadline"`
}

func (e *env) liveLegal(id, token string) liveLegal {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal", Token: token})
	if r.Status != http.StatusOK {
		e.t.Fatalf("legal: %d %s", r.Status, r.Body)
	}
	var l liveLegal
	r.Decode(e.t, &l)
	return l
}

func hasType(actions []map[string]any, typ string) bool {
	return slices.ContainsFunc(actions, func(a map[string]any) bool { return a["type"] == typ })
}

// verifyStream re-decides the table's whole stream with the auditor.
func (e *env) verifyStream(id string) {
	e.t.Helper()
	evs, err := e.store.Load(context.Background(), service.StreamID(id), 0)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := audit.VerifyTable(games.All().Rules, evs); err != nil {
		e.t.Fatalf("verify: %v", err)
	}
}

// TestLiveTableOverREST: a 斗地主 table with a 10-second clock, delegation
// after one timeout, and a bot in seat 2. Every seat and a spectator see the
// same deadline for the seat to act; the caller's /legal says it too and
// offers delegate; when the deadline passes the server times the seat out
// and hands it to the bot; the player's own plays are then refused until it
// resumes; the hand reaches its settlement with nobody but the bot, the
// clock and one player acting, and nobody ever sees a card hidden from them.
func TestLiveTableOverREST(t *testing.T) {
	// Bots think a second, so that the crawl below sees every server move.
	e := newEnvThinking(t, 11, time.Second, func(*api.Deps) {})
	ctx := context.Background()
	body := map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1, "clock": map[string]any{"turn_seconds": 10, "delegate_after": 1}, "bots": 1}
	id, ps := e.openTable(body, 2)
	spectator := e.newPlayer("sam")
	v := e.liveView(id, ps[0].Token)
	if v.Clock == nil || v.Clock.TurnSeconds != 10 || v.Clock.DelegateAfter != 1 {
		t.Fatalf("clock %+v, want 10 s and delegation after 1", v.Clock)
	}
	if !v.Seats[2].Bot || v.Seats[0].Bot || v.Seats[1].Bot || v.Seats[2].PlayerID == nil {
		t.Fatalf("seats %+v: want a bot in seat 2 only", v.Seats)
	}
	if v.Phase == "waiting_for_players" {
		t.Fatal("two players and a bot did not start the hand")
	}
	// The bot may be first to bid: let it.
	e.clock.Advance(time.Second)
	e.svc.RunDue(ctx)
	v = e.liveView(id, ps[0].Token)
	turn := *v.Turn
	if turn == 2 {
		t.Fatal("the bot's turn was not played at once")
	}
	deadline := v.Seats[turn].Deadline
	if deadline == nil {
		t.Fatalf("seat %d is to act and shows no deadline", turn)
	}
	want := e.clock.Now().Add(10 * time.Second).UTC().Format(time.RFC3339Nano)
	if *deadline != want {
		t.Fatalf("deadline %s, want %s (10 s after the seat's turn began)", *deadline, want)
	}
	for i, p := range []player{ps[0], ps[1], spectator} {
		if got := e.liveView(id, p.Token).Seats[turn].Deadline; got == nil || *got != *deadline {
			t.Fatalf("viewer %d sees deadline %v, want %s for everyone", i, got, *deadline)
		}
	}
	l := e.liveLegal(id, ps[turn].Token)
	if l.Deadline == nil || *l.Deadline != *deadline || !hasType(l.Actions, "delegate") {
		t.Fatalf("the seat to act: legal deadline %v and actions %v, want %s and delegate", l.Deadline, l.Actions, *deadline)
	}
	if other := e.liveLegal(id, ps[1-turn].Token); other.Deadline != nil {
		t.Fatalf("a seat not to act shows a deadline %s in /legal", *other.Deadline)
	}

	e.clock.Advance(10 * time.Second)
	if n := e.svc.RunDue(ctx); n == 0 {
		t.Fatal("nothing happened at the deadline")
	}
	v = e.liveView(id, ps[0].Token)
	if !v.Seats[turn].Delegated {
		t.Fatalf("seat %d not delegated after one timeout with delegate_after 1", turn)
	}
	feed := e.auditorEvents(id)
	var types []string
	for _, ev := range feed {
		types = append(types, ev.Type)
	}
	if !slices.Contains(types, "TurnTimedOut") || !slices.Contains(types, "SeatDelegated") {
		t.Fatalf("events %v lack TurnTimedOut and SeatDelegated", types)
	}
	l = e.liveLegal(id, ps[turn].Token)
	if !hasType(l.Actions, "resume") || len(l.Actions) != 2 {
		t.Fatalf("legal of a delegated seat %v, want resume and escape", l.Actions)
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[turn].Token, Body: map[string]any{"type": "pass"}})
	if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), `"seat_delegated"`) {
		t.Fatalf("a delegated seat posts pass: %d %s, want 409 seat_delegated", r.Status, r.Body)
	}
	r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[turn].Token, Body: map[string]any{"type": "resume"}})
	if r.Status != http.StatusOK {
		t.Fatalf("resume: %d %s", r.Status, r.Body)
	}
	if e.liveView(id, ps[0].Token).Seats[turn].Delegated {
		t.Fatal("still delegated after resume")
	}
	r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[turn].Token, Body: map[string]any{"type": "resume"}})
	if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), `"not_delegated"`) {
		t.Fatalf("resume again: %d %s, want 409 not_delegated", r.Status, r.Body)
	}
	// Seat 0 hands itself over; from then on only the bots and the clock play.
	r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[0].Token, Body: map[string]any{"type": "delegate"}})
	if r.Status != http.StatusOK {
		t.Fatalf("delegate: %d %s", r.Status, r.Body)
	}
	viewers := []player{ps[0], ps[1], spectator}
	moves := 0
	for step := 0; step < 1000; step++ {
		v = e.liveView(id, ps[0].Token)
		if v.Closed || strings.Contains(fmt.Sprint(types), "HandSettled") {
			break
		}
		// A second at a time: one bot or 托管 move per table, or a timeout.
		e.clock.Advance(time.Second)
		e.svc.RunDue(ctx)
		tr := e.auditorTruth(id)
		for i, p := range viewers {
			seat := i
			who := fmt.Sprintf("seat %d", i)
			if i == 2 {
				seat, who = -1, "a spectator"
			}
			secret := tr.secrets(seat)
			// With no deal running (the hand ended and everyone left it to
			// the bot, so the next one waits) there is nothing hidden.
			for _, path := range []string{"", "/legal", fmt.Sprintf("/events?after=%d", max(tr.dealAt-1, 0))} {
				r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + path, Token: p.Token})
				checkNoLeak(t, who, "GET "+path, r.Body, secret, tr.seed)
			}
		}
		before := len(types)
		types = types[:0]
		for _, ev := range e.auditorEvents(id) {
			types = append(types, ev.Type)
		}
		if len(types) > before {
			moves++
		}
	}
	if !slices.Contains(types, "HandSettled") {
		t.Fatalf("the hand did not end with the bot, the clock and 托管 playing: %v", types[len(types)-10:])
	}
	if moves < 10 {
		t.Fatalf("the crawl saw %d server moves one by one, want the whole hand's", moves)
	}
	e.verifyStream(id)
}

// TestLiveTableBadInput: clock and bot bounds are refused with a clear error
// and nothing is stored.
func TestLiveTableBadInput(t *testing.T) {
	e := newEnv(t, 3)
	p := e.newPlayer("ann")
	before := e.head()
	for _, c := range []struct {
		body   map[string]any
		status int
		code   string
	}{
		{map[string]any{"game": "doudizhu", "variant": "classic", "clock": map[string]any{"turn_seconds": 4}}, 422, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "clock": map[string]any{"turn_seconds": 3601}}, 422, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "clock": map[string]any{"delegate_after": 11}}, 422, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "clock": map[string]any{"delegate_after": -1}}, 422, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "clock": map[string]any{"turn_seconds": "30"}}, 400, "malformed_json"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "clock": map[string]any{"seconds": 30}}, 400, "malformed_json"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "bots": 4, "max_hands": 1}, 422, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "bots": 3}, 422, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "max_hands": -1}, 422, "invalid_option"},
	} {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: c.body, Raw: true})
		if r.Status != c.status || !strings.Contains(string(r.Body), `"`+c.code+`"`) {
			t.Errorf("open %v: %d %s, want %d %s", c.body, r.Status, r.Body, c.status, c.code)
		}
	}
	if after := e.head(); after != before {
		t.Fatalf("refused opens moved the store from %d to %d", before, after)
	}
	// turn_seconds 0 turns the clock off: no deadline anywhere.
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "classic", "clock": map[string]any{"turn_seconds": 0}}, 3)
	v := e.liveView(id, ps[0].Token)
	for _, s := range v.Seats {
		if s.Deadline != nil {
			t.Fatalf("seat %d has a deadline at a table without a clock", s.Seat)
		}
	}
	if _, ok := e.svc.Due(id); ok {
		t.Fatal("a table without a clock is scheduled")
	}
}

// TestBotTableOverREST: a table of bots only plays itself to its end and
// its stream verifies.
func TestBotTableOverREST(t *testing.T) {
	e := newEnv(t, 4)
	p := e.newPlayer("host")
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: map[string]any{"game": "shuangkou", "variant": "classic", "bots": 4, "max_hands": 2}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var v liveView
	var created struct {
		ID string `json:"id"`
	}
	r.Decode(t, &created)
	e.svc.RunDue(context.Background())
	v = e.liveView(created.ID, p.Token)
	if !v.Closed {
		t.Fatalf("a table of four bots is not closed after two hands: %+v", v)
	}
	e.verifyStream(created.ID)
}
