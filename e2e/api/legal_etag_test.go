package api_test

import (
	"net/http"
	"sync/atomic"
	"testing"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

// countingTables is the real service, counting the legal lists it builds.
type countingTables struct {
	api.Tables
	legal *atomic.Int64
}

func (c countingTables) LegalPage(st *table.State, seat int, selected []cards.Card, b service.Bounds) (service.LegalPage, error) {
	c.legal.Add(1)
	return c.Tables.LegalPage(st, seat, selected, b)
}

// TestLegalConditional: /legal's ETag names the table's version, the
// caller's seat and the selection. Sent back in If-None-Match by the same
// seat for the same selection at the same version it is a 304 with no body,
// and no legal action is listed for it; another seat, a spectator, another
// selection or a later version gets the whole answer. A watcher sees the
// watched seat's answer, and so its tag.
func TestLegalConditional(t *testing.T) {
	var lists atomic.Int64
	e := newEnvWith(t, 21, func(d *api.Deps) { d.Tables = countingTables{Tables: d.Tables, legal: &lists} })
	id, ps := e.openFull()
	w := e.newPlayer("w")
	v := e.view(id, ps[0].Token)
	for i := 0; v.Phase != "playing"; i++ {
		if i == 50 {
			t.Fatalf("no play phase after 50 actions (%s)", v.Phase)
		}
		e.step(id, ps)
		v = e.view(id, ps[0].Token)
	}
	turn := *v.Turn
	other := (turn + 1) % 3
	if r := e.watch(ps[turn], id, w.ID); r.Status != http.StatusOK {
		t.Fatal(r.Status, string(r.Body))
	}
	v = e.view(id, ps[0].Token)
	get := func(token, query, inm string) *apitest.Response {
		t.Helper()
		req := apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal" + query, Token: token}
		if inm != "" {
			req.Header = map[string]string{"If-None-Match": inm}
		}
		return e.c.Do(req)
	}
	first := get(ps[turn].Token, "", "")
	etag := first.Header.Get("ETag")
	if first.Status != http.StatusOK || etag == "" {
		t.Fatalf("/legal of the seat to act: %d ETag %q", first.Status, etag)
	}
	var page legalPage
	first.Decode(t, &page)
	if page.Version != v.Version || len(page.Actions) == 0 {
		t.Fatalf("/legal of the seat to act: %+v at version %d", page, v.Version)
	}

	for _, inm := range []string{etag, "W/" + etag, `"1.0", ` + etag} {
		before := lists.Load()
		r := get(ps[turn].Token, "", inm)
		if r.Status != http.StatusNotModified || len(r.Body) != 0 || r.Header.Get("ETag") != etag {
			t.Fatalf("If-None-Match %s: %d ETag %s body %q; want 304, ETag %s, no body", inm, r.Status, r.Header.Get("ETag"), r.Body, etag)
		}
		if n := lists.Load() - before; n != 0 {
			t.Fatalf("a 304 listed the legal actions %d times", n)
		}
	}

	// The watcher of the seat to act reads that seat's answer, with its tag.
	r := get(w.Token, "", etag)
	if r.Status != http.StatusNotModified {
		t.Fatalf("the watcher of seat %d revalidating the seat's tag: %d", turn, r.Status)
	}
	// Another seat, a spectator, another selection: the whole answer, each
	// under a tag of its own.
	hand := e.view(id, ps[turn].Token).Hand
	seen := map[string]string{etag: "the seat to act"}
	for _, c := range []struct {
		who, token, query string
	}{
		{"another seat", ps[other].Token, ""},
		{"a spectator", e.newPlayer("sam").Token, ""},
		{"the seat to act selecting " + hand[0], ps[turn].Token, "?selected=" + hand[0]},
	} {
		before := lists.Load()
		r := get(c.token, c.query, etag)
		tag := r.Header.Get("ETag")
		if r.Status != http.StatusOK || tag == "" || lists.Load() != before+1 {
			t.Fatalf("%s with the seat to act's tag %s: %d ETag %s, %d lists; want 200 and one list", c.who, etag, r.Status, tag, lists.Load()-before)
		}
		if prev, ok := seen[tag]; ok {
			t.Fatalf("%s and %s answer under the same ETag %s", c.who, prev, tag)
		}
		seen[tag] = c.who
		if again := get(c.token, c.query, tag); again.Status != http.StatusNotModified {
			t.Fatalf("%s revalidating its own tag %s: %d", c.who, tag, again.Status)
		}
	}

	// After a move the old tag no longer matches.
	e.step(id, ps)
	before := lists.Load()
	r = get(ps[turn].Token, "", etag)
	if r.Status != http.StatusOK || r.Header.Get("ETag") == etag || lists.Load() != before+1 {
		t.Fatalf("after a move, If-None-Match %s: %d ETag %s", etag, r.Status, r.Header.Get("ETag"))
	}
}
