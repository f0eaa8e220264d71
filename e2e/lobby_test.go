package e2e

import (
	"net/http"
	"testing"

	"paiju/api/apitest"
)

// TestFindYourGameAgain: a client that lost everything but its token finds
// who it is and the table it sits at, through the served binary, before and
// after the server restarts; quick play seats a newcomer at an open table
// the directory lists.
func TestFindYourGameAgain(t *testing.T) {
	dir := t.TempDir()
	base, _, stop := startServer(t, dir)
	tv, ps := seatThree(t, apitest.New(t, base))
	c := apitest.New(t, base)
	var open struct {
		ID string `json:"id"`
	}
	c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[0].Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 4}}).Decode(t, &open)
	if r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + open.ID + "/join", Token: ps[0].Token}); r.Status != http.StatusOK {
		t.Fatalf("join: %d %s", r.Status, r.Body)
	}

	type page struct {
		Tables []struct {
			ID      string `json:"id"`
			Status  string `json:"status"`
			Players []struct {
				Seat     int    `json:"seat"`
				PlayerID string `json:"player_id"`
			} `json:"players"`
		} `json:"tables"`
	}
	find := func(base string) {
		t.Helper()
		fresh := apitest.New(t, base) // nothing but the token
		var me struct {
			ID string `json:"id"`
		}
		if r := fresh.Do(apitest.Request{Method: "GET", Path: "/v1/me", Token: ps[0].Token}); r.Status != http.StatusOK {
			t.Fatalf("GET /v1/me: %d %s", r.Status, r.Body)
		} else {
			r.Decode(t, &me)
		}
		if me.ID != ps[0].ID {
			t.Fatalf("GET /v1/me answers player %q, want %q", me.ID, ps[0].ID)
		}
		r := fresh.Do(apitest.Request{Method: "GET", Path: "/v1/me/tables", Token: ps[0].Token})
		if r.Status != http.StatusOK {
			t.Fatalf("GET /v1/me/tables: %d %s", r.Status, r.Body)
		}
		var p page
		r.Decode(t, &p)
		if len(p.Tables) != 2 || p.Tables[0].ID != tv.ID || p.Tables[0].Status != "running" || p.Tables[1].ID != open.ID || p.Tables[1].Status != "open" {
			t.Fatalf("ann's tables: %s, want the running %s, then the open %s", r.Body, tv.ID, open.ID)
		}
		if s := p.Tables[0].Players[0]; s.Seat != 0 || s.PlayerID != ps[0].ID {
			t.Fatalf("ann's seat at %s: %+v, want seat 0", tv.ID, s)
		}
	}
	find(base)

	// The open table was opened by POST /v1/tables: quick play finds it
	// through the directory, which /v1/me/tables has just waited for.
	var dan rootPlayer
	c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "dan"}}).Decode(t, &dan)
	r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: dan.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 4}})
	var joined struct {
		ID string `json:"id"`
	}
	r.Decode(t, &joined)
	if r.Status != http.StatusOK || joined.ID != open.ID {
		t.Fatalf("dan's quick play: %d %s, want 200 at %s", r.Status, r.Body, open.ID)
	}

	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	base, _, stop = startServer(t, dir)
	defer func() {
		if err := stop(); err != nil {
			t.Errorf("serve returned %v", err)
		}
	}()
	find(base)
}
