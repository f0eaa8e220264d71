package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"paiju/api"
	"paiju/api/apitest"
)

// standingsBody mirrors the TournamentStandings schema as far as the test
// compares it with GET /v1/tournaments/{id}.
type standingsBody struct {
	Tournament struct {
		ID         string  `json:"id"`
		Status     string  `json:"status"`
		Registered int     `json:"registered"`
		Round      int     `json:"round"`
		Winner     *string `json:"winner"`
	} `json:"tournament"`
	Standings []struct {
		PlayerID          string   `json:"player_id"`
		Name              string   `json:"name"`
		Status            string   `json:"status"`
		Round             int      `json:"round"`
		Points            int      `json:"points"`
		TableID           *string  `json:"table_id"`
		EliminatedInRound *int     `json:"eliminated_in_round"`
		Matchpoints       *float64 `json:"matchpoints"`
	} `json:"standings"`
	Position int64 `json:"position"`
}

// viewStandings is GET /v1/tournaments/{id}'s standings in full.
type viewStandings struct {
	Status    string  `json:"status"`
	Winner    *string `json:"winner"`
	Standings []struct {
		PlayerID string  `json:"player_id"`
		Name     string  `json:"name"`
		Status   string  `json:"status"`
		Round    int     `json:"round"`
		Points   int     `json:"points"`
		TableID  *string `json:"table_id"`
	} `json:"standings"`
}

// TestTournamentStandingsProjection: after a 9-player elimination played
// over REST, the standings the projection serves (fed through NATS) are
// those GET /v1/tournaments/{id} folds from the tournament's stream, and the
// tournament is listed among the ended ones.
func TestTournamentStandingsProjection(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	p := newProjEnv(t, 902)
	if r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tournaments/nope/standings", Token: auditorToken}); r.Status != http.StatusNotFound {
		t.Fatalf("standings of no tournament: %d %s", r.Status, r.Body)
	}
	// A tournament still registering: two of its three places taken.
	a, b := p.newPlayer("early0"), p.newPlayer("early1")
	r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: a.Token, Body: map[string]any{
		"game": "doudizhu", "variant": "classic", "format": "elimination", "players": 3,
	}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var early tournamentView
	r.Decode(t, &early)
	for _, pl := range []player{a, b} {
		if r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + early.ID + "/join", Token: pl.Token}); r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
	}
	compare(t, p, early.ID, a.Token, "registering", 2)

	tv, byID := playTournament(t, p.env, 9, matchHands())
	var caller string
	for id := range byID {
		caller = byID[id].Token
		break
	}
	got, want := compare(t, p, tv.ID, caller, "ended", 9)
	if got.Tournament.Round != 2 || got.Tournament.Winner == nil || want.Winner == nil || *got.Tournament.Winner != *want.Winner {
		t.Fatalf("projected tournament %+v, the tournament's own winner %v", got.Tournament, want.Winner)
	}
	eliminated := 0
	for _, g := range got.Standings {
		if g.EliminatedInRound != nil {
			eliminated++
		}
		if g.Matchpoints != nil {
			t.Fatalf("an elimination has matchpoints: %+v", g)
		}
	}
	if eliminated != 8 {
		t.Fatalf("%d players eliminated in a 9-player elimination, want 8", eliminated)
	}
	// Listed by status, newest first, a page at a time.
	type tournamentPage struct {
		Tournaments []struct {
			ID string `json:"id"`
		} `json:"tournaments"`
		Next string `json:"next_cursor"`
	}
	var page tournamentPage
	for status, id := range map[string]string{"ended": tv.ID, "registering": early.ID} {
		page = tournamentPage{}
		p.get("/v1/tournaments?status="+status, caller).Decode(t, &page)
		if len(page.Tournaments) != 1 || page.Tournaments[0].ID != id || page.Next != "" {
			t.Fatalf("%s tournaments: %+v", status, page)
		}
	}
	page = tournamentPage{}
	p.get("/v1/tournaments?status=running&limit=5", caller).Decode(t, &page)
	if len(page.Tournaments) != 0 {
		t.Fatalf("running tournaments: %+v", page)
	}
	page = tournamentPage{}
	p.get("/v1/tournaments?limit=1", caller).Decode(t, &page)
	if len(page.Tournaments) != 1 || page.Tournaments[0].ID != tv.ID || page.Next == "" {
		t.Fatalf("first page: %+v", page)
	}
	next := page.Next
	page = tournamentPage{}
	p.get("/v1/tournaments?limit=1&cursor="+next, caller).Decode(t, &page)
	if len(page.Tournaments) != 1 || page.Tournaments[0].ID != early.ID || page.Next != "" {
		t.Fatalf("second page: %+v", page)
	}
	if r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tournaments?status=over", Token: caller, Raw: true}); r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_query" {
		t.Fatalf("a bad status: %d %s", r.Status, r.Body)
	}
	if r := p.get("/v1/tournaments?cursor=zz", caller); r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_cursor" {
		t.Fatalf("a bad cursor: %d %s", r.Status, r.Body)
	}
}

// compare reads a tournament's projected standings (once the projections
// have applied the log's head) and its own, and requires the same players
// in the same order with the same status, round, points and table.
func compare(t *testing.T, p *projEnv, id, token, status string, n int) (standingsBody, viewStandings) {
	t.Helper()
	r := p.get("/v1/tournaments/"+id+"/standings", token)
	if r.Status != http.StatusOK {
		t.Fatalf("standings: %d %s", r.Status, r.Body)
	}
	var got standingsBody
	r.Decode(t, &got)
	r = p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tournaments/" + id, Token: token})
	var want viewStandings
	r.Decode(t, &want)
	if got.Tournament.ID != id || got.Tournament.Status != status || want.Status != status || got.Tournament.Registered != n {
		t.Fatalf("projected tournament %+v, the tournament's own status %s; want %s with %d registered", got.Tournament, want.Status, status, n)
	}
	if len(got.Standings) != n || len(want.Standings) != n {
		t.Fatalf("%d standings projected, %d in the tournament, want %d", len(got.Standings), len(want.Standings), n)
	}
	for i, g := range got.Standings {
		w := want.Standings[i]
		gt, wt := "", ""
		if g.TableID != nil {
			gt = *g.TableID
		}
		if w.TableID != nil {
			wt = *w.TableID
		}
		if g.PlayerID != w.PlayerID || g.Name != w.Name || g.Status != w.Status || g.Round != w.Round || g.Points != w.Points || gt != wt {
			gj, _ := json.Marshal(got.Standings)
			wj, _ := json.Marshal(want.Standings)
			t.Fatalf("standing %d differs:\nprojected %s\ntournament %s", i, gj, wj)
		}
	}
	return got, want
}

// TestTournamentStandingsWithoutProjections: a server without the
// projections answers the projected routes 503 and the tournament itself
// as ever.
func TestTournamentStandingsWithoutProjections(t *testing.T) {
	e := newEnvWith(t, 37, func(d *api.Deps) { d.Projections, d.Directory = nil, nil })
	ann := e.newPlayer("ann")
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: ann.Token, Body: map[string]any{
		"game": "doudizhu", "variant": "classic", "format": "elimination", "players": 3,
	}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var tv tournamentView
	r.Decode(t, &tv)
	for _, path := range []string{"/v1/tournaments", "/v1/tournaments/" + tv.ID + "/standings"} {
		if r := e.c.Do(apitest.Request{Method: "GET", Path: path, Token: ann.Token}); r.Status != http.StatusServiceUnavailable || r.Problem(t) != "projections_unavailable" {
			t.Errorf("GET %s: %d %s, want 503 projections_unavailable", path, r.Status, r.Body)
		}
	}
	if v := e.tournament(tv.ID, ann.Token); v.Status != "registering" {
		t.Fatalf("the tournament: %+v", v)
	}
}

// TestTournamentLeave: a registered player may withdraw while the
// tournament registers, and join again at the end of the order; nobody
// else may withdraw, nor anyone once the field is full. The projected
// standings follow the withdrawals.
func TestTournamentLeave(t *testing.T) {
	p := newProjEnv(t, 903)
	a, b, c := p.newPlayer("leaver"), p.newPlayer("stayer"), p.newPlayer("late")
	r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: a.Token, Body: map[string]any{
		"game": "doudizhu", "variant": "classic", "format": "elimination", "players": 3, "hands_per_table": 1,
	}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var tv tournamentView
	r.Decode(t, &tv)
	do := func(pl player, verb string, header map[string]string) *apitest.Response {
		t.Helper()
		return p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + tv.ID + "/" + verb, Token: pl.Token, Header: header})
	}
	for _, pl := range []player{a, b} {
		if r := do(pl, "join", nil); r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
	}
	if r := do(a, "leave", map[string]string{"Idempotency-Key": "k1"}); r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_condition" {
		t.Fatalf("a leave with an Idempotency-Key: %d %s, want 400 invalid_condition", r.Status, r.Body)
	}
	r = do(a, "leave", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("leave: %d %s", r.Status, r.Body)
	}
	var after struct {
		Entrants []struct {
			PlayerID string `json:"player_id"`
		} `json:"entrants"`
		YourStatus *string `json:"your_status"`
	}
	r.Decode(t, &after)
	if len(after.Entrants) != 1 || after.Entrants[0].PlayerID != b.ID || after.YourStatus != nil {
		t.Fatalf("after the leave: %+v, want the stayer alone and no status for the leaver", after)
	}
	for _, pl := range []player{a, c} {
		if r := do(pl, "leave", nil); r.Status != http.StatusConflict || r.Problem(t) != "not_registered" {
			t.Fatalf("%s leaving unregistered: %d %s, want 409 not_registered", pl.ID, r.Status, r.Body)
		}
	}
	if r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/NOPE/leave", Token: a.Token}); r.Status != http.StatusNotFound {
		t.Fatalf("leaving an unknown tournament: %d %s", r.Status, r.Body)
	}
	compare(t, p, tv.ID, b.Token, "registering", 1)
	// The leaver comes back after the stayer; the late one fills the field.
	for _, pl := range []player{a, c} {
		if r := do(pl, "join", nil); r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
	}
	tv = p.tournament(tv.ID, b.Token)
	if tv.Status != "running" || len(tv.Rounds) != 1 || !slices.Equal(tv.Rounds[0].Field, []string{b.ID, a.ID, c.ID}) {
		t.Fatalf("the field after a leave and a join again: %+v, want running with b, a, c", tv)
	}
	compare(t, p, tv.ID, b.Token, "running", 3)
	if r := do(a, "leave", nil); r.Status != http.StatusConflict || r.Problem(t) != "tournament_full" {
		t.Fatalf("leaving a running tournament: %d %s, want 409 tournament_full", r.Status, r.Body)
	}
}
