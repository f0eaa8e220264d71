package api_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"paiju/api/apitest"
	"paiju/projections"
)

// projected reads a projection route as tok once the projections hold the
// log's head.
func (e *env) projected(path, tok string) *apitest.Response {
	e.t.Helper()
	sep := "?"
	for _, c := range path {
		if c == '?' {
			sep = "&"
		}
	}
	return e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("%s%smin_position=%d", path, sep, e.head()), Token: tok})
}

// playAgainstBots plays hands at table id until n hands are settled: the
// humans of ps (by seat, nil entries for bot seats) take random legal
// actions, the bots move when the service runs what is due.
func (e *env) playAgainstBots(id string, ps map[int]player, n int) {
	e.t.Helper()
	ctx := context.Background()
	var viewer player
	for _, p := range ps {
		viewer = p
	}
	start := e.view(id, viewer.Token).HandNumber
	for range 2000 {
		e.svc.RunDue(ctx)
		v := e.view(id, viewer.Token)
		if v.HandNumber >= start+n || v.Closed {
			return
		}
		if v.Turn == nil {
			continue
		}
		p, ok := ps[*v.Turn]
		if !ok {
			continue
		}
		var choices []map[string]any
		for _, a := range e.legal(id, p.Token) {
			if a["type"] != "escape" && a["type"] != "delegate" && a["type"] != "leave" {
				choices = append(choices, a)
			}
		}
		if len(choices) == 0 {
			continue
		}
		a := choices[e.rng.IntN(len(choices))]
		if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: p.Token, Body: a}); r.Status != http.StatusOK {
			e.t.Fatalf("seat %d posting its legal action %v: %d %s", *v.Turn, a, r.Status, r.Body)
		}
	}
	e.t.Fatalf("table %s: %d hands not played in 2000 steps", id, n)
}

// TestBotsOffLeaderboards: server bots are on no point leaderboard (issue
// 38): a table of bots only leaves its game's board empty, and a hand two
// bots played with one player credits the player alone.
func TestBotsOffLeaderboards(t *testing.T) {
	e := newEnv(t, 38)
	host := e.newPlayer("host")
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: host.Token, Body: map[string]any{"game": "shuangkou", "variant": "classic", "bots": 4, "max_hands": 1}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open a table of bots: %d %s", r.Status, r.Body)
	}
	e.svc.RunDue(context.Background())

	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1, "bots": 2}, 1)
	e.playAgainstBots(id, map[int]player{0: ps[0]}, 2)

	var lb projections.Leaderboard
	e.projected("/v1/leaderboards/shuangkou", host.Token).Decode(t, &lb)
	if len(lb.Rows) != 0 {
		t.Fatalf("a table of bots put rows %+v on the 双扣 board, want none", lb.Rows)
	}
	e.projected("/v1/leaderboards/doudizhu", host.Token).Decode(t, &lb)
	if len(lb.Rows) != 1 || lb.Rows[0].PlayerID != ps[0].ID || lb.Rows[0].Hands < 2 {
		t.Fatalf("斗地主 board %+v, want the one player's row over 2 hands and no bot", lb.Rows)
	}
	v := e.liveView(id, ps[0].Token)
	for _, s := range v.Seats {
		if !s.Bot || s.PlayerID == nil {
			continue
		}
		if r := e.c.Unchecked().Do(apitest.Request{Method: "GET", Path: "/v1/players/" + *s.PlayerID, Token: host.Token}); r.Status != http.StatusNotFound {
			t.Fatalf("bot %s has a player page: %d %s", *s.PlayerID, r.Status, r.Body)
		}
	}
}
