package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"paiju/api/apitest"
)

// TestVisibilityPolicy walks every path that can show an ended deal as every
// kind of viewer and checks each follows the one policy of docs/AUDIT.md,
// "Who may read what": a table's ended deals, its export and its hand
// records are readable by whoever ever sat at it and by the auditor; a
// player's history by that player and the auditor; anyone else sees public
// events only, on /stream as on /events.
func TestVisibilityPolicy(t *testing.T) {
	p := newProjEnv(t, 41)
	former := p.newPlayer("former")
	r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: former.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 2}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var tv tableView
	r.Decode(t, &tv)
	tid := tv.ID
	act := func(pl player, path string, body map[string]any) {
		t.Helper()
		if r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tid + path, Token: pl.Token, Body: body}); r.Status != http.StatusOK {
			t.Fatalf("%s %v: %d %s", path, body, r.Status, r.Body)
		}
	}
	// The former player sits down and leaves before the first deal.
	act(former, "/join", map[string]any{"seat": 0})
	act(former, "/actions", map[string]any{"type": "leave"})
	var ps []player
	for i := range 3 {
		pl := p.newPlayer(fmt.Sprintf("seated%d", i))
		act(pl, "/join", map[string]any{"seat": i})
		ps = append(ps, pl)
	}
	settled := p.playHand(tid, ps) // hand 1 ends; hand 2 is being played
	p.waitConsumed(t)
	other := p.newPlayer("other")
	if settled.Seed == "" {
		t.Fatal("hand 1 settled without its seed")
	}

	viewers := []struct {
		who   string
		token string
		table bool // may read the table's ended deals (AUDIT.md, Who may read what)
		mine  bool // may read seated0's hand history
	}{
		{"a seated player", ps[0].Token, true, true},
		{"a former player", former.Token, true, false},
		{"another registered player", other.Token, false, false},
		{"the auditor", auditorToken, true, true},
	}
	type check struct {
		path    string
		allowed func(table, mine bool) bool
		code    string // the problem when not allowed; "" for a path that answers 200 with public events only
	}
	checks := []check{
		{"/v1/tables/" + tid + "/events", func(tb, _ bool) bool { return tb }, ""},
		{"/v1/tables/" + tid, func(tb, _ bool) bool { return tb }, ""},
		{"/v1/tables/" + tid + "/stream", func(tb, _ bool) bool { return tb }, ""},
		{"/v1/tables/" + tid + "/export", func(tb, _ bool) bool { return tb }, "export_not_seated"},
		{"/v1/hands/" + tid + "-1", func(tb, _ bool) bool { return tb }, "history_not_seated"},
		{"/v1/tables/" + tid + "/hands", func(tb, _ bool) bool { return tb }, "history_not_seated"},
		{"/v1/players/" + ps[0].ID + "/hands", func(_, m bool) bool { return m }, "history_not_yours"},
	}
	for _, v := range viewers {
		for _, c := range checks {
			allowed := c.allowed(v.table, v.mine)
			switch {
			case strings.HasSuffix(c.path, "/stream"):
				// What the stream sends once it has caught up with /events.
				body := streamBody(t, p, tid, v.token)
				if got := strings.Contains(body, `"DealSecret"`); got != allowed {
					t.Errorf("%s: GET %s shows an ended deal's DealSecret: %v, want %v", v.who, c.path, got, allowed)
				}
				if got := strings.Contains(body, settled.Seed); got != allowed {
					t.Errorf("%s: GET %s shows an ended deal's seed: %v, want %v", v.who, c.path, got, allowed)
				}
			case c.code == "":
				body := string(p.get(c.path, v.token).Body)
				// The table itself shows no events: only the seed of its
				// last settlement.
				if got := strings.Contains(body, `"DealSecret"`); got != allowed && !strings.HasSuffix(c.path, tid) {
					t.Errorf("%s: GET %s shows an ended deal's DealSecret: %v, want %v", v.who, c.path, got, allowed)
				}
				if got := strings.Contains(body, settled.Seed); got != allowed {
					t.Errorf("%s: GET %s shows an ended deal's seed: %v, want %v", v.who, c.path, got, allowed)
				}
			default:
				r := p.get(c.path, v.token)
				if allowed && r.Status != http.StatusOK {
					t.Errorf("%s: GET %s = %d %s, want 200", v.who, c.path, r.Status, r.Body)
				}
				if !allowed {
					if r.Status != http.StatusForbidden || r.Problem(t) != c.code {
						t.Errorf("%s: GET %s = %d %s, want 403 %s", v.who, c.path, r.Status, r.Body, c.code)
					}
				}
			}
		}
	}
}

// streamBody opens /stream as token, waits until it has sent the last event
// /events shows that caller, and returns every event's data it sent.
func streamBody(t *testing.T, p *projEnv, tid, token string) string {
	t.Helper()
	evs := p.allEvents(tid, token)
	var last eventView
	mustUnmarshal(t, evs[len(evs)-1], &last)
	c := p.openStream(tid, token, "", "")
	defer c.close()
	got := c.waitFor("viewer", last.Version)
	c.mu.Lock()
	got = append(got, c.revealed...)
	c.mu.Unlock()
	var b strings.Builder
	for _, e := range got {
		b.WriteString(e.typ + " " + e.data + "\n")
	}
	return b.String()
}
