package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/games"
)

// export fetches GET /export as token and checks the answer's form.
func (e *env) export(id, token string) *apitest.Response {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/export", Token: token})
	if r.Status == http.StatusOK {
		if ct := r.Header.Get("Content-Type"); ct != audit.ContentType {
			e.t.Fatalf("export content type %q, want %s", ct, audit.ContentType)
		}
	}
	return r
}

// TestExportRandomGames: the export of random games verifies offline, for
// the auditor (the whole log, a deal running) and for every player who sat at
// the table (the log up to the running deal: every deal in it ended); nobody
// else may export (docs/AUDIT.md, Getting the log).
func TestExportRandomGames(t *testing.T) {
	crawlerSkipsUnderRace(t)
	for seed := range uint64(3) {
		e := newEnv(t, 100+seed)
		id, ps := e.openFull()
		// Playing skips the OpenAPI checks (other tests make them); the
		// exports are checked.
		checked := e.c
		e.c = e.c.Unchecked()
		for range 1 + seed%2 {
			e.playHand(id, ps)
		}
		for range 3 {
			e.step(id, ps)
		}
		v := e.view(id, ps[0].Token)
		e.c = checked

		full := e.export(id, auditorToken)
		if full.Status != http.StatusOK {
			t.Fatalf("seed %d: auditor export: %d %s", seed, full.Status, full.Body)
		}
		rep, err := audit.VerifyExport(games.All().Rules, bytes.NewReader(full.Body))
		if err != nil {
			t.Fatalf("seed %d: the auditor's export of a legal game does not verify: %v", seed, err)
		}
		if rep.Events != v.Version || !rep.Open || full.Header.Get("ETag") != fmt.Sprintf(`"%d"`, v.Version) {
			t.Fatalf("seed %d: auditor export: %+v, ETag %s; the table is at version %d with a deal running", seed, rep, full.Header.Get("ETag"), v.Version)
		}

		tr := e.auditorTruth(id)
		for seat, p := range ps {
			r := e.export(id, p.Token)
			if r.Status != http.StatusOK {
				t.Fatalf("seed %d: seat %d export: %d %s", seed, seat, r.Status, r.Body)
			}
			rep, err := audit.VerifyExport(games.All().Rules, bytes.NewReader(r.Body))
			if err != nil {
				t.Fatalf("seed %d: seat %d's export does not verify: %v", seed, seat, err)
			}
			// The running deal's HandDealt is at version tr.dealAt: the
			// player's export stops right before it.
			if rep.Events != tr.dealAt-1 || rep.Open {
				t.Fatalf("seed %d: seat %d's export holds %d events (open %v), want the %d before the running deal (docs/AUDIT.md)", seed, seat, rep.Events, rep.Open, tr.dealAt-1)
			}
			if !bytes.HasPrefix(full.Body, r.Body[:bytes.LastIndexByte(r.Body[:len(r.Body)-1], '\n')+1]) {
				t.Fatalf("seed %d: seat %d's export is not a prefix of the full log", seed, seat)
			}
			if strings.Contains(string(r.Body), tr.seed) {
				t.Fatalf("seed %d: seat %d's export shows the running deal's seed", seed, seat)
			}
		}

		stranger := e.newPlayer("stranger")
		if r := e.export(id, stranger.Token); r.Status != http.StatusForbidden || r.Problem(t) != "export_not_seated" {
			t.Fatalf("seed %d: a player who never sat exports: %d %s", seed, r.Status, r.Body)
		}
	}
}

// TestExportErrors: unknown tables and missing tokens.
func TestExportErrors(t *testing.T) {
	e := newEnv(t, 1)
	id, ps := e.openFull()
	if r := e.export("NOPE", auditorToken); r.Status != http.StatusNotFound || r.Problem(t) != "table_not_found" {
		t.Fatalf("unknown table: %d %s", r.Status, r.Body)
	}
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/export"}); r.Status != http.StatusUnauthorized {
		t.Fatalf("no token: %d %s", r.Status, r.Body)
	}
	// A player who escaped is still one who sat; the table then waits for a
	// player, no deal runs, and the export is the whole log.
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[0].Token, Body: map[string]any{"type": "escape"}}); r.Status != http.StatusOK {
		t.Fatalf("escape: %d %s", r.Status, r.Body)
	}
	r := e.export(id, ps[0].Token)
	if r.Status != http.StatusOK {
		t.Fatalf("the escaped player's export: %d %s", r.Status, r.Body)
	}
	rep, err := audit.VerifyExport(games.All().Rules, bytes.NewReader(r.Body))
	if v := e.view(id, auditorToken).Version; err != nil || rep.Events != v || rep.Open {
		t.Fatalf("the escaped player's export: %+v %v, want all %d events verified", rep, err, v)
	}
}

// TestStateAt: GET /state?at=N is exactly the view the caller was shown
// right after event N (docs/AUDIT.md, Time travel): recorded live for every
// seat, a spectator and the auditor after every action of whole hands, then
// compared with what time travel answers.
func TestStateAt(t *testing.T) {
	e := newEnv(t, 9)
	id, ps := e.openFull()
	viewers := []string{ps[0].Token, ps[1].Token, ps[2].Token, e.newPlayer("sam").Token, auditorToken}
	type snap struct {
		version int
		token   string
		body    string
	}
	var seen []snap
	record := func() {
		for _, tok := range viewers {
			r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: tok})
			var v tableView
			r.Decode(t, &v)
			// Less the seats' ratings, the read model's (GET
			// /v1/tables/{id} only): time travel gives the table back.
			seen = append(seen, snap{v.Version, tok, canonical(t, withoutRatings(t, r.Body))})
		}
	}
	// A whole hand and the start of the next; the many requests skip the
	// OpenAPI checks but for every seventh time travel.
	checked := e.c
	e.c = e.c.Unchecked()
	record()
	for hands, after := 0, 0; after < 4; {
		cr := e.step(id, ps)
		record()
		for _, ev := range cr.Events {
			if ev.Type == "HandSettled" {
				hands++
			}
		}
		if hands > 0 {
			after++
		}
	}
	for i, s := range seen {
		c := e.c
		if i%7 == 0 {
			c = checked
		}
		r := c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/state?at=%d", id, s.version), Token: s.token})
		if r.Status != http.StatusOK {
			t.Fatalf("state at %d: %d %s", s.version, r.Status, r.Body)
		}
		if got := canonical(t, r.Body); got != s.body {
			t.Fatalf("state at %d differs from what the caller was shown then (docs/AUDIT.md, Time travel):\n got %s\nwant %s", s.version, got, s.body)
		}
	}
	e.c = checked
	now := e.view(id, auditorToken)
	// GET /v1/tables/{id} adds the seated players' ratings, which are the
	// read model's, not the table's: /state shows them null.
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/state", Token: ps[0].Token}); r.Status != http.StatusOK || canonical(t, r.Body) != canonical(t, withoutRatings(t, e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token}).Body)) {
		t.Fatalf("state without at is not the table now: %d %s", r.Status, r.Body)
	}
	for _, tc := range []struct {
		at     string
		raw    bool
		status int
		code   string
	}{
		{"0", false, http.StatusUnprocessableEntity, "at_out_of_range"},
		{"-3", false, http.StatusUnprocessableEntity, "at_out_of_range"},
		{fmt.Sprint(now.Version + 1), false, http.StatusNotFound, "version_not_found"},
		{"x", true, http.StatusBadRequest, "invalid_query"},
	} {
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/state?at=" + tc.at, Token: ps[0].Token, Raw: tc.raw})
		if r.Status != tc.status || r.Problem(t) != tc.code {
			t.Fatalf("at=%s: %d %s, want %d %s", tc.at, r.Status, r.Body, tc.status, tc.code)
		}
	}
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/NOPE/state?at=1", Token: ps[0].Token}); r.Status != http.StatusNotFound || r.Problem(t) != "table_not_found" {
		t.Fatalf("unknown table: %d %s", r.Status, r.Body)
	}
}

// canonical re-encodes a JSON document so that equal documents compare equal.
func canonical(t *testing.T, body []byte) string {
	t.Helper()
	var v any
	mustUnmarshal(t, body, &v)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withoutRatings is a table view with its seats' ratings null.
func withoutRatings(t *testing.T, body []byte) []byte {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	seats, _ := v["seats"].([]any)
	for _, s := range seats {
		if m, ok := s.(map[string]any); ok {
			m["rating"] = nil
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
