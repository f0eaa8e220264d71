package api_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"paiju/api/apitest"
	"paiju/domain/table"
	"paiju/internal/app"
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

// TestBotsOffLeaderboards: server bots are on no leaderboard, by points or
// by rating (issue 38): a table of bots only leaves its game's boards
// empty, and hands two bots played with one player credit and rate the
// player alone.
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
	// Nor on a rating board: the hands rated the player alone, against
	// the bots' fixed rating.
	var rb ratingBoard
	e.projected("/v1/leaderboards/shuangkou?by=rating", host.Token).Decode(t, &rb)
	if len(rb.Rows) != 0 {
		t.Fatalf("a table of bots put rows %+v on the 双扣 rating board, want none", rb.Rows)
	}
	e.projected("/v1/leaderboards/doudizhu?by=rating", host.Token).Decode(t, &rb)
	if len(rb.Rows) != 1 || rb.Rows[0].PlayerID != ps[0].ID || rb.Rows[0].Hands != lb.Rows[0].Hands {
		t.Fatalf("斗地主 rating board %+v, want the one player's row over %d hands", rb.Rows, lb.Rows[0].Hands)
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

// ratingBoard mirrors RatingLeaderboard.
type ratingBoard struct {
	By   string                  `json:"by"`
	Rows []projections.RatingRow `json:"rows"`
	Next string                  `json:"next_cursor"`
}

// TestRatingsOverREST: three players' 斗地主 hands rate them (issue 38):
// the rating board ranks the three, each player's history moves hand by
// hand from the rating as it stood, a page at a time; the table view
// shows each one's rating; the history is what the log recomputed from
// position 0 gives, and the projection rebuilt from 0 serves the same
// bytes as it did built live.
func TestRatingsOverREST(t *testing.T) {
	p := newProjEnv(t, 380)
	tid, ps := p.openFull()
	const hands = 5
	for range hands {
		p.playHand(tid, ps)
	}
	var b ratingBoard
	p.get("/v1/leaderboards/doudizhu?by=rating&variant=classic", ps[0].Token).Decode(t, &b)
	if b.By != "rating" || len(b.Rows) != 3 {
		t.Fatalf("rating board %+v, want the three players", b)
	}
	for i, r := range b.Rows {
		if r.Hands != hands || r.Variant != "classic" || r.Rank != i+1 || r.Deviation >= 25.0/3 {
			t.Fatalf("row %+v: want %d hands of classic, rank %d, a deviation below a new player's", r, hands, i+1)
		}
	}
	if b.Rows[0].Rating-3*b.Rows[0].Deviation < b.Rows[2].Rating-3*b.Rows[2].Deviation {
		t.Fatalf("rows %+v not ranked by rating − 3 × deviation", b.Rows)
	}

	src := projections.Source(p.store)
	f, err := projections.RecomputeRatings(context.Background(), src, app.Rater())
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range ps {
		var all []projections.RatingHistoryRow
		for cursor := ""; ; {
			var pr projections.PlayerRatings
			p.get("/v1/players/"+pl.ID+"/ratings?history=true&limit=2&cursor="+cursor, ps[0].Token).Decode(t, &pr)
			all = append(all, pr.History...)
			if len(pr.Ratings) != 1 || pr.Ratings[0].Hands != hands {
				t.Fatalf("%s ratings %+v, want classic over %d hands", pl.ID, pr.Ratings, hands)
			}
			if cursor = pr.Next; cursor == "" {
				break
			}
		}
		if len(all) != hands {
			t.Fatalf("%s: %d history rows, want %d", pl.ID, len(all), hands)
		}
		for i := 1; i < len(all); i++ {
			if all[i].Before != all[i-1].After || all[i].IdleDays != 0 {
				t.Fatalf("%s hand %d starts from %+v, the previous ended at %+v", pl.ID, i, all[i].Before, all[i-1].After)
			}
		}
		if want := f.PlayerHistory(pl.ID); !reflect.DeepEqual(all, want) {
			t.Fatalf("%s: history served\n%+v\nrecomputed from the log\n%+v", pl.ID, all, want)
		}
		var tv struct {
			Seats []struct {
				PlayerID *string `json:"player_id"`
				Rating   *struct {
					Rating    float64 `json:"rating"`
					Deviation float64 `json:"deviation"`
				} `json:"rating"`
			} `json:"seats"`
		}
		p.get("/v1/tables/"+tid, pl.Token).Decode(t, &tv)
		for _, s := range tv.Seats {
			if *s.PlayerID == pl.ID && (s.Rating == nil || s.Rating.Rating != all[len(all)-1].After.Rating) {
				t.Fatalf("table view rating of %s: %+v, want %+v", pl.ID, s.Rating, all[len(all)-1].After)
			}
		}
	}

	before := string(p.get("/v1/leaderboards/doudizhu?by=rating", ps[0].Token).Body) + string(p.get("/v1/players/"+ps[1].ID+"/ratings?history=true", ps[0].Token).Body)
	p.stop()
	if err := p.pdb.Replay(context.Background(), projections.Ratings, src); err != nil {
		t.Fatal(err)
	}
	after := string(p.get("/v1/leaderboards/doudizhu?by=rating", ps[0].Token).Body) + string(p.get("/v1/players/"+ps[1].ID+"/ratings?history=true", ps[0].Token).Body)
	if before != after {
		t.Fatalf("rebuilt from 0:\n%s\nbuilt live:\n%s", after, before)
	}

	for _, path := range []string{"/v1/leaderboards/doudizhu?by=elo", "/v1/players/" + ps[0].ID + "/ratings?history=yes", "/v1/players/" + ps[0].ID + "/ratings?history=true&cursor=zz"} {
		r := p.c.Unchecked().Do(apitest.Request{Method: "GET", Path: path, Token: ps[0].Token})
		if r.Status != http.StatusBadRequest {
			t.Fatalf("GET %s: %d %s, want 400", path, r.Status, r.Body)
		}
	}
}

// TestQuickPlayPrefersCloseRatings: among open tables of the kind asked for
// with as many free seats, quick play seats a player at the one whose
// seated players' mean rating is closest to theirs (issue 38).
func TestQuickPlayPrefersCloseRatings(t *testing.T) {
	crawlerSkipsUnderRace(t)
	e := newEnv(t, 83)
	tid, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "classic", "stake": 2, "max_hands": 4}, 3)
	for range 4 {
		e.playHand(tid, ps)
	}
	var rs []projections.CurrentRating
	for _, p := range ps {
		var pr projections.PlayerRatings
		e.projected("/v1/players/"+p.ID+"/ratings", p.Token).Decode(t, &pr)
		rs = append(rs, pr.Ratings[0])
	}
	// lo, mid and hi by rating; mid quick-plays.
	order := []int{0, 1, 2}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(rs[a].Rating, rs[b].Rating) })
	lo, mid, hi := order[0], order[1], order[2]
	if rs[lo].Rating == rs[hi].Rating {
		t.Fatalf("ratings %+v: no spread to choose by", rs)
	}
	// The first table closed after its 4 hands; lo and hi each open one of
	// the quick kind (the default clock), with one human and two free
	// seats.
	// The farther one's table is opened first: without the ratings,
	// quick play would seat mid there, at the older table.
	near, far := hi, lo
	if math.Abs(rs[lo].Rating-rs[mid].Rating) < math.Abs(rs[hi].Rating-rs[mid].Rating) {
		near, far = lo, hi
	}
	tables := map[int]string{}
	for _, i := range []int{far, near} {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[i].Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1,
			"clock": map[string]any{"turn_seconds": table.DefaultTurnSeconds, "delegate_after": table.DefaultDelegateAfter}}})
		if r.Status != http.StatusCreated {
			t.Fatalf("open: %d %s", r.Status, r.Body)
		}
		var tv tableView
		r.Decode(t, &tv)
		if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: ps[i].Token, Body: map[string]any{"seat": 0}}); r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
		tables[i] = tv.ID
	}
	want := tables[near]
	e.projected("/v1/tables", ps[mid].Token) // the directory holds both tables
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: ps[mid].Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1}})
	var got tableView
	r.Decode(t, &got)
	if r.Status != http.StatusOK || got.ID != want {
		t.Fatalf("quick play with ratings lo %v mid %v hi %v: %d at %s, want the table %s of the closest rating (lo's %s, hi's %s)",
			rs[lo].Rating, rs[mid].Rating, rs[hi].Rating, r.Status, got.ID, want, tables[lo], tables[hi])
	}
}
