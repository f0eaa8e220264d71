package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"paiju/api/apitest"
)

// betweenView is the part of the Table schema the between-hands tests read.
type betweenView struct {
	Version          int    `json:"version"`
	HandNumber       int    `json:"hand_number"`
	Phase            string `json:"phase"`
	WaitBetweenHands bool   `json:"wait_between_hands"`
	BetweenHands     bool   `json:"between_hands"`
	LastSettlement   *struct {
		Hand   int             `json:"hand"`
		Result json.RawMessage `json:"result"`
	} `json:"last_settlement"`
	Seats []struct {
		Ready    bool       `json:"ready"`
		Deadline *time.Time `json:"deadline"`
	} `json:"seats"`
}

func (e *env) betweenView(id, token string) betweenView {
	e.t.Helper()
	var v betweenView
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token})
	if r.Status != http.StatusOK {
		e.t.Fatalf("get table: %d %s", r.Status, r.Body)
	}
	r.Decode(e.t, &v)
	return v
}

func eventTypes(cr commandResp) []string {
	var out []string
	for _, ev := range cr.Events {
		out = append(out, ev.Type)
	}
	return out
}

// TestWaitBetweenHandsOverREST: a table opened with wait_between_hands
// settles hand 1 and deals nothing; the view says who is ready and until
// when; each player's continue is a SeatReady, a second one is 409
// already_ready; the last seat's clock makes it ready and deals hand 2;
// continue during a hand is 409 not_between_hands; the stream verifies.
func TestWaitBetweenHandsOverREST(t *testing.T) {
	e := newEnv(t, 39)
	ctx := context.Background()
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1,
		"clock": map[string]any{"turn_seconds": 10, "delegate_after": 2}, "wait_between_hands": true}, 3)
	path := "/v1/tables/" + id + "/actions"
	cont := map[string]any{"type": "continue"}
	if r := e.c.Do(apitest.Request{Method: "POST", Path: path, Token: ps[0].Token, Body: cont}); r.Status != http.StatusConflict || r.Problem(t) != "not_between_hands" {
		t.Fatalf("continue during hand 1: %d %s, want 409 not_between_hands", r.Status, r.Body)
	}
	e.playHand(id, ps)
	settledAt := e.clock.Now()
	v := e.betweenView(id, ps[1].Token)
	if !v.WaitBetweenHands || !v.BetweenHands || v.HandNumber != 1 || v.LastSettlement == nil || v.LastSettlement.Hand != 1 {
		t.Fatalf("after hand 1: %+v; want the table waiting with hand 1's settlement", v)
	}
	for seat, s := range v.Seats {
		if s.Ready || s.Deadline == nil || !s.Deadline.Equal(settledAt.Add(10*time.Second)) {
			t.Fatalf("seat %d between hands: ready %v deadline %v, want not ready until %s", seat, s.Ready, s.Deadline, settledAt.Add(10*time.Second))
		}
	}
	if l := e.liveLegal(id, ps[0].Token); len(l.Actions) != 2 || l.Actions[0]["type"] != "continue" || l.Actions[1]["type"] != "leave" || l.Deadline == nil {
		t.Fatalf("legal between hands: %+v, want continue and leave with a deadline", l)
	}
	for _, seat := range []int{0, 1} {
		r := e.c.Do(apitest.Request{Method: "POST", Path: path, Token: ps[seat].Token, Body: cont})
		var cr commandResp
		r.Decode(t, &cr)
		if r.Status != http.StatusOK || !slices.Equal(eventTypes(cr), []string{"SeatReady"}) {
			t.Fatalf("seat %d continues: %d %v, want SeatReady alone", seat, r.Status, eventTypes(cr))
		}
	}
	if r := e.c.Do(apitest.Request{Method: "POST", Path: path, Token: ps[0].Token, Body: cont}); r.Status != http.StatusConflict || r.Problem(t) != "already_ready" {
		t.Fatalf("continue twice: %d %s, want 409 already_ready", r.Status, r.Body)
	}
	v = e.betweenView(id, ps[2].Token)
	if !v.Seats[0].Ready || !v.Seats[1].Ready || v.Seats[2].Ready || v.HandNumber != 1 {
		t.Fatalf("after two continues: %+v; want seats 0 and 1 ready, hand 2 not dealt", v)
	}
	e.clock.Advance(10*time.Second - time.Millisecond)
	e.svc.RunDue(ctx)
	if v = e.betweenView(id, ps[2].Token); v.HandNumber != 1 {
		t.Fatal("hand 2 dealt before seat 2's deadline")
	}
	e.clock.Advance(time.Millisecond)
	e.svc.RunDue(ctx)
	v = e.betweenView(id, ps[2].Token)
	if v.HandNumber != 2 || v.BetweenHands || slices.ContainsFunc(v.Seats, func(s struct {
		Ready    bool       `json:"ready"`
		Deadline *time.Time `json:"deadline"`
	}) bool {
		return s.Ready
	}) {
		t.Fatalf("after seat 2's deadline: %+v; want hand 2 dealt, nobody marked ready", v)
	}
	var types []string
	for _, ev := range e.auditorEvents(id) {
		types = append(types, ev.Type)
	}
	i := slices.Index(types, "HandSettled")
	if want := []string{"HandSettled", "SeatReady", "SeatReady", "TurnTimedOut", "SeatReady", "HandDealt"}; i < 0 || len(types) < i+len(want) || !slices.Equal(types[i:i+len(want)], want) {
		t.Fatalf("events after the settlement: %v, want %v", types[i:], want)
	}
	e.verifyStream(id)
}

// TestWaitBetweenHandsDefaultOff: an API client that does not ask for the
// wait gets the next deal at once, and quick play keeps tables that wait
// apart from tables that do not.
func TestWaitBetweenHandsDefaultOff(t *testing.T) {
	e := newEnv(t, 40)
	id, ps := e.openFull()
	if v := e.betweenView(id, ps[0].Token); v.WaitBetweenHands || v.BetweenHands {
		t.Fatalf("a table opened without the flag: %+v", v)
	}
	e.playHand(id, ps)
	if v := e.betweenView(id, ps[0].Token); v.HandNumber != 2 || v.BetweenHands {
		t.Fatalf("after hand 1 at a table without the flag: hand %d, between hands %v; want hand 2 at once", v.HandNumber, v.BetweenHands)
	}
	quick := func(p player, wait bool) (int, string) {
		var tv tableView
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: p.Token,
			Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 5, "wait_between_hands": wait}})
		r.Decode(t, &tv)
		return r.Status, tv.ID
	}
	st, waiting := quick(e.newPlayer("q1"), true)
	if st != http.StatusCreated {
		t.Fatalf("first quick play with the wait: %d, want a table opened", st)
	}
	if v := e.betweenView(waiting, ps[0].Token); !v.WaitBetweenHands {
		t.Fatal("quick play opened a table without the wait it was asked for")
	}
	if st, other := quick(e.newPlayer("q2"), false); st != http.StatusCreated || other == waiting {
		t.Fatalf("quick play without the wait: %d %s, want a table of its own", st, other)
	}
	if st, same := quick(e.newPlayer("q3"), true); st != http.StatusOK || same != waiting {
		t.Fatalf("quick play with the wait: %d %s, want a seat at %s", st, same, waiting)
	}
}

// TestNiuniuRevealsAtDeadlineWithoutClients: 牛牛 with arrange_seconds and
// no turn clock. Nobody posts anything, yet at the deadline the server
// times out every unarranged seat (没牛, niuniu.md: 不拼牌,按无牛处理) and
// the hand is revealed and settled: no client drives the reveal.
func TestNiuniuRevealsAtDeadlineWithoutClients(t *testing.T) {
	e := newEnv(t, 41)
	ctx := context.Background()
	id, ps := e.openTable(map[string]any{"game": "niuniu", "variant": "classic", "stake": 1,
		"options": map[string]any{"seats": 3, "arrange_seconds": 20}, "clock": map[string]any{"turn_seconds": 0}}, 3)
	dealt := e.clock.Now()
	v := e.liveView(id, ps[0].Token)
	for seat, s := range v.Seats {
		if want := dealt.Add(20 * time.Second).UTC().Format(time.RFC3339Nano); s.Deadline == nil || *s.Deadline != want {
			t.Fatalf("seat %d's deadline %v, want the arrange deadline %s", seat, s.Deadline, want)
		}
	}
	e.clock.Advance(20*time.Second - time.Millisecond)
	if n := e.svc.RunDue(ctx); n != 0 {
		t.Fatalf("%d server moves before the deadline", n)
	}
	e.clock.Advance(time.Millisecond)
	e.svc.RunDue(ctx)
	b := e.betweenView(id, ps[0].Token)
	if b.LastSettlement == nil || b.LastSettlement.Hand != 1 {
		t.Fatalf("at the arrange deadline with no client acting: %+v, want hand 1 revealed and settled", b)
	}
	var res struct {
		Readings []string `json:"readings"`
	}
	mustUnmarshal(t, b.LastSettlement.Result, &res)
	if !slices.Equal(res.Readings, []string{"no_bull", "no_bull", "no_bull"}) {
		t.Fatalf("readings %v, want every unarranged seat 没牛", res.Readings)
	}
	e.verifyStream(id)
}
