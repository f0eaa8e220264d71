package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
)

func (e *env) watch(by player, id string, watcher string) *apitest.Response {
	e.t.Helper()
	return e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/watchers", Token: by.Token, Body: map[string]any{"player_id": watcher}})
}

func (e *env) unwatch(by player, id string, watcher string) *apitest.Response {
	e.t.Helper()
	return e.c.Do(apitest.Request{Method: "DELETE", Path: "/v1/tables/" + id + "/watchers/" + watcher, Token: by.Token})
}

// TestWatchers: who may let whom watch, and what a watcher may do (nothing
// but look).
func TestWatchers(t *testing.T) {
	e := newEnv(t, 61)
	id, ps := e.openFull()
	w1, sam := e.newPlayer("w1"), e.newPlayer("sam")
	for _, c := range []struct {
		who     string
		by      player
		watcher string
		status  int
		code    string
	}{
		{"a spectator", sam, w1.ID, http.StatusForbidden, "not_seated"},
		{"a seat, for a seated player", ps[0], ps[1].ID, http.StatusForbidden, "watcher_seated"},
		{"a seat, for an unknown player", ps[0], "P9999", http.StatusNotFound, "player_not_found"},
	} {
		if r := e.watch(c.by, id, c.watcher); r.Status != c.status || r.Problem(t) != c.code {
			t.Errorf("%s adds a watcher: %d %s, want %d %s", c.who, r.Status, r.Body, c.status, c.code)
		}
	}
	if r := e.watch(ps[1], id, w1.ID); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"WatcherAdded"`) {
		t.Fatalf("seat 1 adds w1: %d %s", r.Status, r.Body)
	}
	if r := e.watch(ps[0], id, w1.ID); r.Status != http.StatusConflict || r.Problem(t) != "already_watching" {
		t.Errorf("seat 0 adds seat 1's watcher: %d %s, want 409 already_watching", r.Status, r.Body)
	}
	if r := e.unwatch(ps[0], id, w1.ID); r.Status != http.StatusNotFound || r.Problem(t) != "not_watching" {
		t.Errorf("seat 0 removes seat 1's watcher: %d %s, want 404 not_watching", r.Status, r.Body)
	}
	// A watcher sees the seat's cards and cannot play them.
	v := e.view(id, w1.Token)
	if seat1 := e.view(id, ps[1].Token); strings.Join(v.Hand, ",") != strings.Join(seat1.Hand, ",") || len(v.Hand) == 0 {
		t.Fatalf("w1's hand %v, want seat 1's %v", v.Hand, seat1.Hand)
	}
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: w1.Token, Body: map[string]any{"type": "pass"}}); r.Status != http.StatusForbidden || r.Problem(t) != "not_seated" {
		t.Errorf("a watcher acts: %d %s, want 403 not_seated", r.Status, r.Body)
	}
	// Taking it back makes a spectator of the watcher.
	if r := e.unwatch(ps[1], id, w1.ID); r.Status != http.StatusOK {
		t.Fatalf("seat 1 removes w1: %d %s", r.Status, r.Body)
	}
	if v := e.view(id, w1.Token); len(v.Hand) != 0 || v.Seat != nil {
		t.Errorf("a former watcher's view has hand %v seat %v, want a spectator's", v.Hand, v.Seat)
	}
	// A watcher who takes a seat watches no more; a seat that changes hands
	// loses its watchers.
	if r := e.unwatch(ps[1], id, w1.ID); r.Status != http.StatusNotFound {
		t.Errorf("removing a removed watcher: %d, want 404", r.Status)
	}
	e.verifyStream(id)
}

// TestHiddenInformationWatchers is TestHiddenInformation's crawl for each
// kind of watcher: after every event of whole hands, a watcher of seat 1
// sees exactly seat 1's view of the running deal (the table, /events) and
// never another seat's cards or the seed; a watcher whose watching was
// taken back, and a plain spectator, see what any spectator sees.
func TestHiddenInformationWatchers(t *testing.T) {
	crawlerSkipsUnderRace(t)
	e := newEnv(t, 62)
	id, ps := e.openFull()
	w1, w2, sam := e.newPlayer("w1"), e.newPlayer("w2"), e.newPlayer("sam")
	if r := e.watch(ps[1], id, w1.ID); r.Status != http.StatusOK {
		t.Fatal(r.Status, string(r.Body))
	}
	if r := e.watch(ps[2], id, w2.ID); r.Status != http.StatusOK {
		t.Fatal(r.Status, string(r.Body))
	}
	w2seat := 2 // until seat 2 takes it back, after the first hand
	crawl := func() {
		tr := e.auditorTruth(id)
		for _, w := range []struct {
			who  string
			p    player
			seat int
		}{{"seat 1's watcher", w1, 1}, {fmt.Sprintf("w2 (watching seat %d)", w2seat), w2, w2seat}, {"a spectator", sam, -1}} {
			secret := tr.secrets(w.seat)
			for _, path := range []string{"", "/legal", fmt.Sprintf("/events?after=%d", tr.dealAt-1)} {
				r := e.tableGet(id, path, w.p.Token)
				if r.Status != http.StatusOK {
					t.Fatalf("%s GET %s: %d %s", w.who, path, r.Status, r.Body)
				}
				checkNoLeak(t, w.who, "GET "+path, r.Body, secret, tr.seed)
				if w.seat >= 0 && path != "/legal" {
					// Exactly the seat's view of the running deal.
					own := e.tableGet(id, path, ps[w.seat].Token)
					if string(own.Body) != string(r.Body) {
						t.Fatalf("%s GET %s differs from seat %d's:\n%s\n%s", w.who, path, w.seat, r.Body, own.Body)
					}
				}
			}
			r := e.c.Unchecked().Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: w.p.Token})
			checkNoLeak(t, w.who, "GET /events", r.Body, nil, tr.seed)
			checkExport(t, e, id, w.who, w.p.Token, false, tr)
		}
	}
	crawl()
	hands := 0
	for step := 0; hands < 2 && step < 1000; step++ {
		cr := e.step(id, ps)
		crawl()
		if slices.ContainsFunc(cr.Events, func(ev eventView) bool { return ev.Type == "HandSettled" }) {
			hands++
			if hands == 1 {
				if r := e.unwatch(ps[2], id, w2.ID); r.Status != http.StatusOK {
					t.Fatalf("seat 2 takes w2's watching back: %d %s", r.Status, r.Body)
				}
				w2seat = -1
				crawl()
			}
		}
	}
	if hands < 2 {
		t.Fatalf("only %d hands finished", hands)
	}
	e.verifyStream(id)
}

// TestWatcherStream: a watcher's live stream sends what its /events shows,
// which is the watched seat's view, and never another seat's cards of the
// running deal; when the watching is taken back, what follows is a
// spectator's.
func TestWatcherStream(t *testing.T) {
	e, _ := newLiveEnv(t, 63, time.Hour)
	id, ps := e.openFull()
	w := e.newPlayer("w")
	if r := e.watch(ps[1], id, w.ID); r.Status != http.StatusOK {
		t.Fatal(r.Status, string(r.Body))
	}
	c := e.openStream(id, w.Token, "", "")
	defer c.close()
	seat := 1
	for step := range 30 {
		cr := e.step(id, ps)
		if step == 20 {
			if r := e.unwatch(ps[1], id, w.ID); r.Status != http.StatusOK {
				t.Fatal(r.Status, string(r.Body))
			}
			seat = -1
			cr.Version++
		}
		got := c.waitFor("the watcher's stream", cr.Version)
		tr := e.auditorTruth(id)
		for _, ev := range got {
			if ev.id >= tr.dealAt && ev.id > cr.Version-1 {
				checkNoLeak(t, "the watcher's stream", fmt.Sprintf("event %d", ev.id), []byte(ev.data), tr.secrets(seat), tr.seed)
			}
		}
		var page struct {
			Events []json.RawMessage `json:"events"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/events?after=%d", id, cr.Version-1), Token: w.Token}).Decode(t, &page)
		last := got[len(got)-1]
		if len(page.Events) == 0 || !bytes.Equal(compact(t, page.Events[len(page.Events)-1]), compact(t, []byte(last.data))) {
			t.Fatalf("the stream's event %d = %s, the watcher's /events shows %s", last.id, last.data, page.Events)
		}
	}
}

// TestWatcherTakesASeat: a watcher who takes a seat at the table watches no
// more (its view is its own seat's), and a seated player cannot be let
// watch another seat: 403 watcher_seated (issue #35).
func TestWatcherTakesASeat(t *testing.T) {
	e := newEnv(t, 64)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "classic"}, 2)
	w := e.newPlayer("w")
	if r := e.watch(ps[0], id, w.ID); r.Status != http.StatusOK {
		t.Fatalf("seat 0 lets w watch: %d %s", r.Status, r.Body)
	}
	if v := e.view(id, w.Token); v.Seat == nil || *v.Seat != 0 {
		t.Fatalf("w watches seat 0 but its view's seat is %v", v.Seat)
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: w.Token, Body: map[string]any{"seat": 2}})
	if r.Status != http.StatusOK {
		t.Fatalf("w takes seat 2: %d %s", r.Status, r.Body)
	}
	v := e.view(id, w.Token)
	seat0 := e.view(id, ps[0].Token)
	if v.Seat == nil || *v.Seat != 2 || len(v.Hand) == 0 || strings.Join(v.Hand, ",") == strings.Join(seat0.Hand, ",") {
		t.Fatalf("w took seat 2: view seat %v hand %v, want seat 2's own hand (seat 0 holds %v)", v.Seat, v.Hand, seat0.Hand)
	}
	for _, by := range []player{ps[0], ps[1]} {
		if r := e.watch(by, id, w.ID); r.Status != http.StatusForbidden || r.Problem(t) != "watcher_seated" {
			t.Errorf("%s lets seated w watch: %d %s, want 403 watcher_seated", by.Name, r.Status, r.Body)
		}
	}
	if r := e.unwatch(ps[0], id, w.ID); r.Status != http.StatusNotFound || r.Problem(t) != "not_watching" {
		t.Errorf("seat 0 takes back a watching its taking a seat ended: %d %s, want 404 not_watching", r.Status, r.Body)
	}
}

// TestWatcherOfSameDuplicateRound: the tables of a duplicate tournament's
// round deal the same cards, so a player seated at one of them cannot be
// let watch a seat of another (403 watcher_seated, issue #35); a player
// of no table of the round can.
func TestWatcherOfSameDuplicateRound(t *testing.T) {
	e := newEnv(t, 65)
	tv, byID, _ := e.duplicateRound(1)
	tabA, tabB := tv.Rounds[0].Tables[0], tv.Rounds[0].Tables[1]
	seatA := byID[tabA.Players[0]]
	if r := e.watch(seatA, tabA.TableID, tabB.Players[1]); r.Status != http.StatusForbidden || r.Problem(t) != "watcher_seated" {
		t.Fatalf("a player of table A lets a player of table B watch: %d %s, want 403 watcher_seated", r.Status, r.Body)
	}
	outsider := e.newPlayer("friend")
	if r := e.watch(seatA, tabA.TableID, outsider.ID); r.Status != http.StatusOK {
		t.Fatalf("a player of table A lets a player of no table watch: %d %s", r.Status, r.Body)
	}
}
