package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

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
	p := newProjEnv(t, 902)
	if r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tournaments/nope/standings", Token: auditorToken}); r.Status != http.StatusNotFound {
		t.Fatalf("standings of no tournament: %d %s", r.Status, r.Body)
	}
	tv, byID := playTournament(t, p.env, 9, 5)
	var caller string
	for id := range byID {
		caller = byID[id].Token
		break
	}
	r := p.get("/v1/tournaments/"+tv.ID+"/standings", caller)
	if r.Status != http.StatusOK {
		t.Fatalf("standings: %d %s", r.Status, r.Body)
	}
	var got standingsBody
	r.Decode(t, &got)
	r = p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tournaments/" + tv.ID, Token: caller})
	var want viewStandings
	r.Decode(t, &want)
	if got.Tournament.ID != tv.ID || got.Tournament.Status != "ended" || want.Status != "ended" || got.Tournament.Registered != 9 || got.Tournament.Round != 2 ||
		got.Tournament.Winner == nil || want.Winner == nil || *got.Tournament.Winner != *want.Winner {
		t.Fatalf("projected tournament %+v, the tournament's own: status %s winner %v", got.Tournament, want.Status, want.Winner)
	}
	if len(got.Standings) != 9 || len(want.Standings) != 9 {
		t.Fatalf("%d standings projected, %d in the tournament", len(got.Standings), len(want.Standings))
	}
	eliminated := 0
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
	// Listed among the ended tournaments, not among the running ones.
	var page struct {
		Tournaments []struct {
			ID string `json:"id"`
		} `json:"tournaments"`
	}
	p.get("/v1/tournaments?status=ended", caller).Decode(t, &page)
	if len(page.Tournaments) != 1 || page.Tournaments[0].ID != tv.ID {
		t.Fatalf("ended tournaments: %+v", page)
	}
	p.get("/v1/tournaments?status=running&limit=5", caller).Decode(t, &page)
	if len(page.Tournaments) != 0 {
		t.Fatalf("running tournaments: %+v", page)
	}
	if r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tournaments?status=over", Token: caller, Raw: true}); r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_query" {
		t.Fatalf("a bad status: %d %s", r.Status, r.Body)
	}
	if r := p.get("/v1/tournaments?cursor=zz", caller); r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_cursor" {
		t.Fatalf("a bad cursor: %d %s", r.Status, r.Body)
	}
}
