package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
)

// listing mirrors the TableListing schema.
type listing struct {
	ID          string `json:"id"`
	Game        string `json:"game"`
	Variant     string `json:"variant"`
	Stake       int    `json:"stake"`
	Seats       int    `json:"seats"`
	FreeSeats   int    `json:"free_seats"`
	Status      string `json:"status"`
	HandsPlayed int    `json:"hands_played"`
	Spectators  string `json:"spectators"`
	Watchers    bool   `json:"watchers"`
	// Options are the table's options, defaults filled in.
	Options json.RawMessage `json:"options"`
	Players []struct {
		Seat     int    `json:"seat"`
		PlayerID string `json:"player_id"`
		Name     string `json:"name"`
	} `json:"players"`
}

type listingPage struct {
	Tables []listing `json:"tables"`
	Next   string    `json:"next_cursor"`
}

func listingIDs(p listingPage) []string {
	var out []string
	for _, t := range p.Tables {
		out = append(out, t.ID)
	}
	return out
}

// page reads a list route as tok once the projections have the log's head.
func (p *projEnv) page(path, tok string) listingPage {
	p.t.Helper()
	r := p.get(path, tok)
	if r.Status != http.StatusOK {
		p.t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	var lp listingPage
	r.Decode(p.t, &lp)
	return lp
}

// open opens a table as pl with body and seats pl at it.
func (p *projEnv) open(pl player, body map[string]any) string {
	p.t.Helper()
	r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: pl.Token, Body: body})
	if r.Status != http.StatusCreated {
		p.t.Fatalf("open %v: %d %s", body, r.Status, r.Body)
	}
	var tv tableView
	r.Decode(p.t, &tv)
	p.join(pl, tv.ID)
	return tv.ID
}

func (p *projEnv) join(pl player, id string) {
	p.t.Helper()
	if r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: pl.Token}); r.Status != http.StatusOK {
		p.t.Fatalf("%s joins %s: %d %s", pl.Name, id, r.Status, r.Body)
	}
}

// listingKeys are the only fields a lobby entry has: nothing hidden.
var listingKeys = []string{"created_at", "free_seats", "game", "hands_played", "id", "options", "players", "rules_version", "seats", "spectators", "stake", "status", "updated_at", "variant", "watchers"}

func TestLobby(t *testing.T) {
	p := newProjEnv(t, 31)
	running, ps := p.openFull() // 斗地主 classic, stake 2, dealt
	ann := p.newPlayer("ann")
	open := p.open(ann, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1})
	empty := p.open(p.newPlayer("bo"), map[string]any{"game": "niuniu", "variant": "classic"})

	all := p.page("/v1/tables", ann.Token)
	if got := listingIDs(all); !slices.Equal(got, []string{empty, open, running}) {
		t.Fatalf("lobby %v, want newest first [%s %s %s]", got, empty, open, running)
	}
	r := all.Tables[2]
	if r.Status != "running" || r.FreeSeats != 0 || r.Seats != 3 || r.Stake != 2 || len(r.Players) != 3 || r.Players[1].PlayerID != ps[1].ID || r.Players[1].Seat != 1 || r.Players[1].Name != ps[1].Name {
		t.Fatalf("the full table: %+v", r)
	}
	if o := all.Tables[1]; o.Status != "open" || o.FreeSeats != 2 || len(o.Players) != 1 || o.Players[0].PlayerID != ann.ID {
		t.Fatalf("ann's table: %+v", o)
	}
	// A deal is running at the full table: its entry shows no card, kitty
	// or seed, only the listed fields.
	var raw struct {
		Tables []map[string]json.RawMessage `json:"tables"`
	}
	p.get("/v1/tables", ann.Token).Decode(t, &raw)
	for _, e := range raw.Tables {
		var keys []string
		for k := range e {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, listingKeys) {
			t.Fatalf("a lobby entry has the fields %v, want only %v", keys, listingKeys)
		}
	}
	hand := p.view(running, ps[0].Token).Hand
	if body := string(p.get("/v1/tables", ann.Token).Body); strings.Contains(body, `"`+strings.Join(hand, `","`)+`"`) || strings.Contains(body, "seed") {
		t.Fatalf("the lobby shows a seat's cards or a seed: %s", body)
	}

	if got := listingIDs(p.page("/v1/tables?status=running", ann.Token)); !slices.Equal(got, []string{running}) {
		t.Fatalf("running tables %v", got)
	}
	if got := listingIDs(p.page("/v1/tables?game=doudizhu&variant=classic&status=open", ann.Token)); !slices.Equal(got, []string{open}) {
		t.Fatalf("open 斗地主 classic tables %v", got)
	}
	var paged []string
	for cursor, n := "", 0; n < 5; n++ {
		lp := p.page("/v1/tables?limit=1"+cursor, ann.Token)
		paged = append(paged, listingIDs(lp)...)
		if lp.Next == "" {
			break
		}
		cursor = "&cursor=" + lp.Next
	}
	if !slices.Equal(paged, listingIDs(all)) {
		t.Fatalf("one by one %v, want %v", paged, listingIDs(all))
	}

	for _, c := range []struct {
		path   string
		raw    bool
		status int
		code   string
	}{
		{"/v1/tables?game=poker", false, 422, "unknown_game"},
		{"/v1/tables?game=doudizhu&variant=moon", false, 422, "unknown_variant"},
		{"/v1/tables?variant=classic", false, 400, "invalid_query"},
		{"/v1/tables?status=closed", true, 400, "invalid_query"},
		{"/v1/tables?limit=0", true, 400, "invalid_query"},
		{"/v1/tables?cursor=xyz", false, 400, "invalid_cursor"},
	} {
		r := p.c.Do(apitest.Request{Method: "GET", Path: c.path, Token: ann.Token, Raw: c.raw})
		if r.Status != c.status || r.Problem(t) != c.code {
			t.Errorf("GET %s: %d %s, want %d %s", c.path, r.Status, r.Body, c.status, c.code)
		}
	}
	if r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables"}); r.Status != http.StatusUnauthorized {
		t.Errorf("the lobby without a token: %d, want 401", r.Status)
	}
}

// TestFindYourTablesAgain: a client that kept only its token learns who it
// is and finds its tables, running first, without naming a position.
func TestFindYourTablesAgain(t *testing.T) {
	p := newProjEnv(t, 32)
	ann, ben, cat := p.newPlayer("ann"), p.newPlayer("ben"), p.newPlayer("cat")
	old := p.open(ann, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 3}) // open
	running := p.open(ann, map[string]any{"game": "doudizhu", "variant": "classic"})
	p.join(ben, running)
	p.join(cat, running)
	closed := p.open(ann, map[string]any{"game": "doudizhu", "variant": "classic", "max_hands": 1})
	p.join(ben, closed)
	p.join(cat, closed)
	p.playHand(closed, []player{ann, ben, cat})
	newer := p.open(ann, map[string]any{"game": "niuniu", "variant": "classic"}) // open

	// The token only: no position, no table id.
	r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/me", Token: ann.Token})
	var me struct {
		ID        string    `json:"id"`
		Name      string    `json:"name"`
		CreatedAt time.Time `json:"created_at"`
	}
	r.Decode(t, &me)
	if r.Status != http.StatusOK || me.ID != ann.ID || me.Name != "ann" || me.CreatedAt.IsZero() || strings.Contains(string(r.Body), ann.Token) {
		t.Fatalf("GET /v1/me: %d %s", r.Status, r.Body)
	}
	mine := func(query string) listingPage {
		t.Helper()
		r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/me/tables" + query, Token: ann.Token})
		if r.Status != http.StatusOK {
			t.Fatalf("GET /v1/me/tables%s: %d %s", query, r.Status, r.Body)
		}
		var lp listingPage
		r.Decode(t, &lp)
		return lp
	}
	lp := mine("")
	if got := listingIDs(lp); !slices.Equal(got, []string{running, newer, old}) {
		t.Fatalf("ann's tables %v, want running first, then open newest first [%s %s %s]", got, running, newer, old)
	}
	if s := lp.Tables[0]; s.Status != "running" || s.Players[0].PlayerID != ann.ID || s.Players[2].PlayerID != cat.ID {
		t.Fatalf("the running table: %+v", s)
	}
	if got := listingIDs(mine("?status=closed")); !slices.Equal(got, []string{closed}) {
		t.Fatalf("ann's closed tables %v, want [%s]", got, closed)
	}
	if c := mine("?status=closed").Tables[0]; c.HandsPlayed != 1 || c.Status != "closed" {
		t.Fatalf("the closed table: %+v", c)
	}
	var paged []string
	for cursor, n := "", 0; n < 5; n++ {
		lp := mine("?limit=1" + cursor)
		paged = append(paged, listingIDs(lp)...)
		if lp.Next == "" {
			break
		}
		cursor = "&cursor=" + lp.Next
	}
	if !slices.Equal(paged, []string{running, newer, old}) {
		t.Fatalf("ann's tables one by one: %v", paged)
	}
	if got := listingIDs(mine("")); len(got) != 3 {
		t.Fatalf("ann's tables again: %v", got)
	}
	if lp := p.page("/v1/me/tables", cat.Token); !slices.Equal(listingIDs(lp), []string{running}) {
		t.Fatalf("cat's tables %v, want [%s]", listingIDs(lp), running)
	}
	for _, path := range []string{"/v1/me", "/v1/me/tables"} {
		if r := p.c.Do(apitest.Request{Method: "GET", Path: path, Token: auditorToken}); r.Status != http.StatusForbidden || r.Problem(t) != "not_a_player" {
			t.Errorf("GET %s as the auditor: %d %s, want 403 not_a_player", path, r.Status, r.Body)
		}
	}
	if r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/me/tables?cursor=xyz", Token: ann.Token}); r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_cursor" {
		t.Errorf("a bad cursor: %d %s", r.Status, r.Body)
	}
}

// quick posts a quick play as pl.
func (p *projEnv) quick(pl player, body map[string]any, header map[string]string) (int, tableView, *apitest.Response) {
	p.t.Helper()
	r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: pl.Token, Body: body, Header: header})
	var tv tableView
	if r.Status == http.StatusOK || r.Status == http.StatusCreated {
		r.Decode(p.t, &tv)
		if loc := r.Header.Get("Location"); loc != "/v1/tables/"+tv.ID {
			p.t.Fatalf("quick play answered Location %q for table %s", loc, tv.ID)
		}
		if tv.Seat == nil {
			p.t.Fatalf("quick play answered a table where %s has no seat: %s", pl.Name, r.Body)
		}
	}
	return r.Status, tv, r
}

func TestQuickPlay(t *testing.T) {
	p := newProjEnv(t, 33)
	kind := map[string]any{"game": "doudizhu", "variant": "classic"}
	var ps []player
	for _, n := range []string{"ann", "ben", "cat", "dan", "eve"} {
		ps = append(ps, p.newPlayer(n))
	}
	ann, ben, cat, dan, eve := ps[0], ps[1], ps[2], ps[3], ps[4]

	// No table yet: ann opens one. The next two join it before the
	// directory need list it.
	st, first, _ := p.quick(ann, kind, nil)
	if st != http.StatusCreated || *first.Seat != 0 || first.Phase != "waiting_for_players" {
		t.Fatalf("ann's quick play: %d %+v, want 201 at seat 0 of a new table", st, first)
	}
	for i, pl := range []player{ben, cat} {
		st, tv, r := p.quick(pl, kind, nil)
		if st != http.StatusOK || tv.ID != first.ID || *tv.Seat != i+1 {
			t.Fatalf("%s's quick play: %d %s, want 200 at seat %d of %s", pl.Name, st, r.Body, i+1, first.ID)
		}
	}
	if ph := p.view(first.ID, ann.Token).Phase; ph == "waiting_for_players" {
		t.Fatal("the table filled by quick play did not deal")
	}
	// Full: dan opens the next one; ann, seated at the full one, joins it.
	st, second, _ := p.quick(dan, kind, nil)
	if st != http.StatusCreated || second.ID == first.ID {
		t.Fatalf("dan's quick play: %d %+v, want a new table", st, second)
	}
	if st, tv, r := p.quick(ann, kind, nil); st != http.StatusOK || tv.ID != second.ID {
		t.Fatalf("ann's second quick play: %d %s, want dan's table %s", st, r.Body, second.ID)
	}
	// Another stake is another kind.
	if st, tv, _ := p.quick(eve, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 5}, nil); st != http.StatusCreated || tv.ID == second.ID {
		t.Fatalf("eve's quick play at stake 5: %d %+v, want a new table", st, tv)
	}
	// A retry with the same Idempotency-Key answers the first request.
	key := map[string]string{"Idempotency-Key": "eve-quick-1"}
	st, got, _ := p.quick(eve, kind, key)
	if st != http.StatusOK || got.ID != second.ID {
		t.Fatalf("eve's quick play: %d %+v, want dan's table %s", st, got, second.ID)
	}
	if st, again, r := p.quick(eve, kind, key); st != http.StatusOK || again.ID != got.ID || r.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("eve's retried quick play: %d %s, want the first answer", st, r.Body)
	}

	// A table opened by POST /v1/tables without options is found through
	// the directory; one with its own clock is not of the kind.
	fay, gus := p.newPlayer("fay"), p.newPlayer("gus")
	custom := p.open(fay, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 7, "clock": map[string]any{"turn_seconds": 60}})
	plain := p.open(fay, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 9})
	p.page("/v1/tables", gus.Token) // the directory has both
	if st, tv, r := p.quick(gus, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 9}, nil); st != http.StatusOK || tv.ID != plain {
		t.Fatalf("gus's quick play at stake 9: %d %s, want fay's table %s", st, r.Body, plain)
	}
	if st, tv, _ := p.quick(gus, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 7}, nil); st != http.StatusCreated || tv.ID == custom {
		t.Fatalf("gus's quick play at stake 7: %d %+v, want a new table, not fay's with its own clock", st, tv)
	}

	for _, c := range []struct {
		name   string
		tok    string
		body   any
		header map[string]string
		raw    bool
		status int
		code   string
	}{
		{"unknown game", ann.Token, map[string]any{"game": "poker", "variant": "texas"}, nil, false, 422, "unknown_game"},
		{"unknown variant", ann.Token, map[string]any{"game": "doudizhu", "variant": "moon"}, nil, false, 422, "unknown_variant"},
		{"stake 0", ann.Token, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 0}, nil, true, 422, "invalid_option"},
		{"no variant", ann.Token, map[string]any{"game": "doudizhu"}, nil, true, 400, "malformed_json"},
		{"options not an object", ann.Token, map[string]any{"game": "doudizhu", "variant": "classic", "options": []int{3}}, nil, true, 422, "invalid_option"},
		{"If-Match", ann.Token, kind, map[string]string{"If-Match": `"1"`}, true, 400, "invalid_if_match"},
		{"auditor", auditorToken, kind, nil, false, 403, "auditor_read_only"},
	} {
		r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: c.tok, Body: c.body, Header: c.header, Raw: c.raw})
		if r.Status != c.status || r.Problem(t) != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.Status, r.Body, c.status, c.code)
		}
	}
}

// TestQuickPlayTogether: players who quick-play one kind at once fill
// tables instead of each opening one, while others take seats by joining
// directly: in the end at most one of the tables has a free seat.
func TestQuickPlayTogether(t *testing.T) {
	p := newProjEnv(t, 34)
	kind := map[string]any{"game": "doudizhu", "variant": "classic"}
	first := p.newPlayer("first")
	st, tv, _ := p.quick(first, kind, nil)
	if st != http.StatusCreated {
		t.Fatalf("first quick play: %d", st)
	}
	var quick, direct []player
	for i := range 7 {
		quick = append(quick, p.newPlayer(fmt.Sprintf("q%d", i)))
	}
	for i := range 2 {
		direct = append(direct, p.newPlayer(fmt.Sprintf("d%d", i)))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	tables := map[string]bool{tv.ID: true}
	for _, pl := range quick {
		wg.Go(func() {
			r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: pl.Token, Body: kind})
			var v tableView
			if r.Status != http.StatusOK && r.Status != http.StatusCreated {
				t.Errorf("%s's quick play: %d %s", pl.Name, r.Status, r.Body)
				return
			}
			r.Decode(t, &v)
			mu.Lock()
			tables[v.ID] = true
			mu.Unlock()
		})
	}
	for _, pl := range direct {
		wg.Go(func() {
			r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: pl.Token})
			if r.Status != http.StatusOK && (r.Status != http.StatusConflict || r.Problem(t) != "table_full") {
				t.Errorf("%s's join: %d %s", pl.Name, r.Status, r.Body)
			}
		})
	}
	wg.Wait()
	seated, withFree := 0, 0
	for id := range tables {
		v := p.view(id, first.Token)
		free := 0
		for _, s := range v.Seats {
			if s.PlayerID == nil {
				free++
			} else {
				seated++
			}
		}
		if free > 0 {
			withFree++
		}
	}
	if withFree > 1 {
		t.Fatalf("%d of the %d tables have a free seat after quick play, want at most one", withFree, len(tables))
	}
	if want := (seated + 2) / 3; len(tables) != want {
		t.Fatalf("%d players sit at %d tables, want %d", seated, len(tables), want)
	}
}

// TestQuickPlayMovesOn: a table quick play remembers may have filled by
// direct joins meanwhile; quick play then tries the next table, and opens
// one only when none has a seat.
func TestQuickPlayMovesOn(t *testing.T) {
	p := newProjEnv(t, 35)
	kind := map[string]any{"game": "doudizhu", "variant": "classic", "stake": 11}
	var ps []player
	for _, n := range []string{"ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"} {
		ps = append(ps, p.newPlayer(n))
	}
	ann, ben, cat, dan, eve, fay, gus, hal := ps[0], ps[1], ps[2], ps[3], ps[4], ps[5], ps[6], ps[7]
	_, first, _ := p.quick(ann, kind, nil)
	p.join(ben, first.ID)
	p.join(cat, first.ID)
	st, second, _ := p.quick(dan, kind, nil)
	if st != http.StatusCreated || second.ID == first.ID || *second.Seat != 0 {
		t.Fatalf("dan's quick play after the remembered table filled: %d %+v, want 201 at a new table", st, second)
	}
	listed := p.open(eve, kind) // opened without quick play: only the directory knows it
	p.join(fay, second.ID)
	p.join(gus, second.ID)
	p.page("/v1/tables", hal.Token) // the directory has every table
	if st, tv, r := p.quick(hal, kind, nil); st != http.StatusOK || tv.ID != listed {
		t.Fatalf("hal's quick play: %d %s, want eve's table %s once dan's filled", st, r.Body, listed)
	}
}

// TestLobbyWithoutProjections: a server without the projections answers
// 503 for the lists, and still plays quick with the tables it opened.
func TestLobbyWithoutProjections(t *testing.T) {
	e := newEnvWith(t, 36, func(d *api.Deps) { d.Projections, d.Directory = nil, nil })
	ann, ben := e.newPlayer("ann"), e.newPlayer("ben")
	for _, path := range []string{"/v1/tables", "/v1/me/tables"} {
		if r := e.c.Do(apitest.Request{Method: "GET", Path: path, Token: ann.Token}); r.Status != http.StatusServiceUnavailable || r.Problem(t) != "projections_unavailable" {
			t.Errorf("GET %s: %d %s, want 503 projections_unavailable", path, r.Status, r.Body)
		}
	}
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/me", Token: ann.Token}); r.Status != http.StatusOK {
		t.Errorf("GET /v1/me: %d %s", r.Status, r.Body)
	}
	kind := map[string]any{"game": "niuniu", "variant": "classic"}
	var first, second tableView
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: ann.Token, Body: kind})
	r.Decode(t, &first)
	if r.Status != http.StatusCreated {
		t.Fatalf("ann's quick play: %d %s", r.Status, r.Body)
	}
	r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: ben.Token, Body: kind})
	r.Decode(t, &second)
	if r.Status != http.StatusOK || second.ID != first.ID {
		t.Fatalf("ben's quick play: %d %s, want 200 at %s", r.Status, r.Body, first.ID)
	}
}
