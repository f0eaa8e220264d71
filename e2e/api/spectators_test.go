package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/games"
)

// TestSpectatorsAfterDeal crawls a table of every game variant opened with
// "spectators": "after_deal", after every action of whole hands, as a
// spectator (docs/AUDIT.md, Who may read what; issue #35): every event
// before the running deal (every ended deal) is shown in full, as the
// auditor sees it, its DealSecret and seed included; of the running deal
// nothing hidden: no DealSecret, no seat's hand or kitty in HandDealt, no
// seed anywhere (/events, the table, /stream), and no card in an event the
// spectator is shown differently from the auditor unless a public event of
// the deal shows it. The doudizhu table is also checked against the
// auditor's truth of every seat's hidden cards.
func TestSpectatorsAfterDeal(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel()
	reg := games.All()
	var names []string
	for name := range reg {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		variants := reg[name].Variants()
		if testing.Short() {
			variants = variants[:1]
		}
		for _, variant := range variants {
			t.Run(name+"/"+variant, func(t *testing.T) {
				r, err := reg[name].Rules(variant, nil)
				if err != nil {
					t.Fatal(err)
				}
				crawlAfterDeal(t, name, variant, r.Seats())
			})
		}
	}
}

func crawlAfterDeal(t *testing.T, game, variant string, seats int) {
	e := newEnv(t, 81)
	id, ps := e.openTable(map[string]any{"game": game, "variant": variant, "spectators": "after_deal"}, seats)
	if v := e.view(id, ps[0].Token); v.Spectators != "after_deal" {
		t.Fatalf("the table view shows spectators %q, want after_deal", v.Spectators)
	}
	sam := e.newPlayer("sam")
	stream := e.openStream(id, sam.Token, "", "")
	defer stream.close()
	endedSeen := 0
	// The feeds are read incrementally: within a running deal, an event is
	// shown to the spectator as it was when it was new, so each check reads
	// only the events since the last one. When the running deal changes (a
	// deal ended, another began) the spectator's whole feed is read and
	// checked again: that is when an ended deal's events are shown anew, in
	// full. Reading everything after every action made a hand quadratic.
	var (
		all         []auditedEvent // the auditor's feed, which never changes once read
		byVersion   = map[int]auditedEvent{}
		lastDealAt  = -1 // the running deal at the last check
		specAfter   int  // the spectator's feed is read after this version
		specBefore  int  // the spectator's events before the running deal
		public      map[string]bool
		hidden      map[string]bool
		streamAfter int // the stream's events already scanned for the seed
	)
	check := func() {
		after := 0
		if len(all) > 0 {
			after = all[len(all)-1].Version
		}
		var fresh struct {
			Events []auditedEvent `json:"events"`
		}
		e.eventsSince(id, auditorToken, after).Decode(t, &fresh)
		all = append(all, fresh.Events...)
		for _, ev := range fresh.Events {
			byVersion[ev.Version] = ev
		}
		dealAt, seed := runningDeal(t, all)
		if dealAt != lastDealAt {
			lastDealAt, specAfter, specBefore = dealAt, 0, 0
			public = map[string]bool{} // the cards the running deal's public events show
			hidden = dealtCards(t, all, dealAt)
		}
		r := e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/events?after=%d", id, specAfter), Token: sam.Token})
		if r.Status != http.StatusOK {
			t.Fatalf("spectator /events: %d %s", r.Status, r.Body)
		}
		var page struct {
			Events []auditedEvent `json:"events"`
		}
		r.Decode(t, &page)
		var differing []auditedEvent
		for _, ev := range page.Events {
			want, ok := byVersion[ev.Version]
			if !ok {
				t.Fatalf("the spectator sees event %d, which the auditor's feed does not hold", ev.Version)
			}
			same := bytes.Equal(compact(t, ev.Data), compact(t, want.Data))
			if dealAt == 0 || ev.Version < dealAt {
				// An ended deal: in full, as the auditor sees it.
				if !same || ev.Type != want.Type {
					t.Fatalf("ended deal's event %d %s shown to the spectator as %s, want it in full: %s", ev.Version, ev.Type, ev.Data, want.Data)
				}
				if ev.Type == "HandDealt" {
					endedSeen++
				}
				specBefore++
				continue
			}
			switch {
			case ev.Type == "DealSecret":
				t.Fatalf("the spectator sees the running deal's DealSecret (event %d)", ev.Version)
			case ev.Type == "HandDealt":
				checkNoHands(t, ev.Data)
			}
			if same {
				for _, s := range jsonStrings(t, ev.Data) {
					public[s] = true
				}
			} else {
				differing = append(differing, ev)
			}
		}
		if n := len(page.Events); n > 0 {
			specAfter = page.Events[n-1].Version
		}
		// Every event before the running deal is there, in order.
		if wantN := countBefore(all, dealAt); specBefore != wantN {
			t.Fatalf("the spectator sees %d events before the running deal (at %d), the table has %d", specBefore, dealAt, wantN)
		}
		for _, ev := range differing {
			for _, s := range jsonStrings(t, ev.Data) {
				if hidden[s] && !public[s] {
					t.Fatalf("the spectator sees %s in the running deal's %s (event %d), a card no public event shows", s, ev.Type, ev.Version)
				}
			}
		}
		if seed != "" && strings.Contains(string(r.Body), seed) {
			t.Fatal("the spectator's /events holds the running deal's seed")
		}
		v := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: sam.Token})
		if seed != "" && strings.Contains(string(v.Body), seed) {
			t.Fatal("the spectator's table view holds the running deal's seed")
		}
		if game == "doudizhu" && variant == "classic" { // the truth knows one deck's 斗地主
			tr := e.auditorTruth(id)
			checkNoLeak(t, "an after_deal spectator", "GET the table", v.Body, tr.secrets(-1), tr.seed)
			ev := e.eventsSince(id, sam.Token, tr.dealAt-1)
			checkNoLeak(t, "an after_deal spectator", "GET /events of the running deal", ev.Body, tr.secrets(-1), tr.seed)
		}
		evs, _ := stream.snapshot()
		for _, ev := range evs[streamAfter:] {
			if seed != "" && strings.Contains(ev.data, seed) {
				t.Fatalf("the spectator's stream sent the running deal's seed (event %d)", ev.id)
			}
		}
		streamAfter = len(evs)
	}
	check()
	hands := 0
	// One whole hand: the check after its settling action sees the ended
	// deal in full and, where the next deal follows at once, the new one
	// hidden.
	for step := 0; hands < 1 && step < 3000; step++ {
		cr := e.actOnce(id, ps)
		check()
		if slices.ContainsFunc(cr.Events, func(ev eventView) bool { return ev.Type == "HandSettled" }) {
			hands++
		}
	}
	if hands < 1 || endedSeen == 0 {
		t.Fatalf("%d hands played, ended deals seen in full %d times: the crawl did not cover the policy", hands, endedSeen)
	}
	// The live stream ends up showing what /events shows: each ended deal
	// in full (sent again without an id once the deal ended).
	var page struct {
		Events []auditedEvent `json:"events"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: sam.Token}).Decode(t, &page)
	got := stream.waitFor("the spectator's stream", page.Events[len(page.Events)-1].Version)
	stream.mu.Lock()
	got = append(got, stream.revealed...) // sent after the events they show again
	stream.mu.Unlock()
	last := map[int]string{}
	for _, ev := range got {
		var sent auditedEvent
		mustUnmarshal(t, []byte(ev.data), &sent)
		last[sent.Version] = string(compact(t, sent.Data))
	}
	for _, ev := range page.Events {
		if last[ev.Version] != string(compact(t, ev.Data)) {
			t.Fatalf("the stream's last word on event %d is %s, /events shows %s", ev.Version, last[ev.Version], ev.Data)
		}
	}
}

// actOnce posts one legal action (never an escape or 托管) of a seat that
// has one.
func (e *env) actOnce(id string, ps []player) commandResp {
	e.t.Helper()
	for _, seat := range e.rng.Perm(len(ps)) {
		var choices []map[string]any
		for _, a := range e.legal(id, ps[seat].Token) {
			if a["type"] != "escape" && a["type"] != "delegate" {
				choices = append(choices, a)
			}
		}
		if len(choices) == 0 {
			continue
		}
		a := choices[e.rng.IntN(len(choices))]
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[seat].Token, Body: a})
		if r.Status != http.StatusOK {
			e.t.Fatalf("seat %d posting its legal action %v: %d %s", seat, a, r.Status, r.Body)
		}
		var cr commandResp
		r.Decode(e.t, &cr)
		return cr
	}
	e.t.Fatal("no seat has a legal action")
	return commandResp{}
}

// runningDeal is the version of the running deal's HandDealt (0: none) and
// its seed, from the auditor's feed.
func runningDeal(t *testing.T, all []auditedEvent) (int, string) {
	t.Helper()
	at, seed := 0, ""
	for _, ev := range all {
		switch ev.Type {
		case "HandDealt":
			at, seed = ev.Version, ""
		case "DealSecret":
			var d struct {
				Seed string `json:"seed"`
			}
			mustUnmarshal(t, ev.Data, &d)
			seed = d.Seed
		case "HandSettled", "DealVoided":
			at, seed = 0, ""
		}
	}
	return at, seed
}

// dealtCards is every card of the running deal's HandDealt (hands and
// kitty) as the auditor sees it.
func dealtCards(t *testing.T, all []auditedEvent, dealAt int) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, ev := range all {
		if ev.Version == dealAt {
			var d struct {
				Hands [][]string `json:"hands"`
				Kitty []string   `json:"kitty"`
			}
			mustUnmarshal(t, ev.Data, &d)
			for _, h := range append(d.Hands, d.Kitty) {
				for _, c := range h {
					out[c] = true
				}
			}
		}
	}
	return out
}

// checkNoHands fails if a running deal's HandDealt shows any seat's cards
// or the kitty.
func checkNoHands(t *testing.T, data []byte) {
	t.Helper()
	var d struct {
		Hands [][]string `json:"hands"`
		Kitty []string   `json:"kitty"`
	}
	mustUnmarshal(t, data, &d)
	for seat, h := range d.Hands {
		if len(h) > 0 {
			t.Fatalf("a spectator sees seat %d's hand %v of the running deal", seat, h)
		}
	}
	if len(d.Kitty) > 0 {
		t.Fatalf("a spectator sees the running deal's kitty %v", d.Kitty)
	}
}

func countBefore(evs []auditedEvent, dealAt int) int {
	n := 0
	for _, ev := range evs {
		if dealAt == 0 || ev.Version < dealAt {
			n++
		}
	}
	return n
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return buf.Bytes()
}

// TestSpectatorsOption: the spectator policy is validated (rules/README.md,
// Table options: 422 invalid_option naming the key), shown with its
// default filled in, and left out of TableOpened at its default; a new
// table asking for the delayed full broadcast is refused naming spectators.
func TestSpectatorsOption(t *testing.T) {
	e := newEnv(t, 72)
	p := e.newPlayer("ann")
	for _, body := range []map[string]any{
		{"game": "doudizhu", "variant": "classic", "spectators": "all"},
		{"game": "doudizhu", "variant": "classic", "spectators": "live"},
		{"game": "doudizhu", "variant": "classic", "broadcast_delay": 1},
		{"game": "doudizhu", "variant": "classic", "broadcast_delay": 5, "spectators": "after_deal"},
	} {
		r := e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: body})
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" || !strings.Contains(string(r.Body), "spectators") {
			t.Errorf("open %v: %d %s, want 422 invalid_option naming spectators", body, r.Status, r.Body)
		}
	}
	for _, c := range []struct {
		body     map[string]any
		want     string
		recorded bool
	}{
		{map[string]any{"game": "doudizhu", "variant": "classic"}, "public", false},
		{map[string]any{"game": "doudizhu", "variant": "classic", "spectators": "public"}, "public", false},
		{map[string]any{"game": "doudizhu", "variant": "classic", "spectators": "after_deal", "broadcast_delay": 0}, "after_deal", true},
	} {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: c.body})
		if r.Status != http.StatusCreated {
			t.Fatalf("open %v: %d %s", c.body, r.Status, r.Body)
		}
		var v tableView
		r.Decode(t, &v)
		if v.Spectators != c.want || !v.Watchers {
			t.Errorf("open %v: spectators %q watchers %v, want %q true", c.body, v.Spectators, v.Watchers, c.want)
		}
		opened := e.auditorEvents(v.ID)[0]
		if got := strings.Contains(string(opened.Data), `"spectators"`); got != c.recorded {
			t.Errorf("open %v: TableOpened %s, want spectators recorded %v (the default is left out)", c.body, opened.Data, c.recorded)
		}
		if strings.Contains(string(opened.Data), "broadcast_delay") {
			t.Errorf("open %v: TableOpened %s records a broadcast_delay", c.body, opened.Data)
		}
	}
}

// TestSpectatorsPublicShowsNoEndedDeal: at a table of the default policy a
// spectator sees no hand of a deal even after it ended, and no seed.
func TestSpectatorsPublicShowsNoEndedDeal(t *testing.T) {
	e := newEnv(t, 74)
	id, ps := e.openFull()
	sam := e.newPlayer("sam")
	e.playHand(id, ps)
	for _, ev := range e.auditorEvents(id) {
		if ev.Type == "DealSecret" {
			var d struct {
				Seed string `json:"seed"`
			}
			mustUnmarshal(t, ev.Data, &d)
			body := string(e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: sam.Token}).Body)
			if strings.Contains(body, d.Seed) {
				t.Fatalf("a public table's spectator sees an ended deal's seed")
			}
		}
	}
	var page struct {
		Events []auditedEvent `json:"events"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: sam.Token}).Decode(t, &page)
	for _, ev := range page.Events {
		if ev.Type == "HandDealt" {
			checkNoHands(t, ev.Data)
		}
	}
}

// TestSpectatorsOldBroadcastTable: a table recorded with a broadcast_delay
// (before spectators existed) replays as recorded and is served as
// spectators "public", the safer reading: its spectators never see a hand
// of the running deal, nor of an ended one (issue #35).
func TestSpectatorsOldBroadcastTable(t *testing.T) {
	e := newEnv(t, 75)
	rules, err := games.All()["doudizhu"].Rules("classic", nil)
	if err != nil {
		t.Fatal(err)
	}
	const id = "OLD1"
	opened, err := table.OpenWith(rules, table.Opening{ID: id, Game: "doudizhu", Variant: "classic", Stake: 1, OpenedBy: "P0000", BroadcastDelay: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(opened[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"broadcast_delay":1`) {
		t.Fatalf("the old table's TableOpened %s records no broadcast_delay", data)
	}
	if _, err := e.store.Append(context.Background(), "table-"+id, 0, []eventstore.NewEvent{{Type: "TableOpened", Data: data}}); err != nil {
		t.Fatal(err)
	}
	var ps []player
	for i := range 3 {
		p := e.newPlayer(fmt.Sprintf("p%d", i))
		if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: p.Token, Body: map[string]any{"seat": i}}); r.Status != http.StatusOK {
			t.Fatalf("join the old table: %d %s", r.Status, r.Body)
		}
		ps = append(ps, p)
	}
	sam := e.newPlayer("sam")
	if v := e.view(id, sam.Token); v.Spectators != "public" {
		t.Fatalf("the old table's view shows spectators %q, want public", v.Spectators)
	}
	check := func() {
		tr := e.auditorTruth(id)
		r := e.eventsSince(id, sam.Token, tr.dealAt-1)
		checkNoLeak(t, "a spectator of an old broadcast table", "GET /events", r.Body, tr.secrets(-1), tr.seed)
		var page struct {
			Events []auditedEvent `json:"events"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: sam.Token}).Decode(t, &page)
		for _, ev := range page.Events {
			if ev.Type == "HandDealt" {
				checkNoHands(t, ev.Data)
			}
			if ev.Type == "DealSecret" {
				t.Fatalf("a spectator of an old broadcast table sees a DealSecret (event %d)", ev.Version)
			}
		}
	}
	check()
	hands := 0
	for step := 0; hands < 1 && step < 500; step++ {
		cr := e.step(id, ps)
		check()
		if slices.ContainsFunc(cr.Events, func(ev eventView) bool { return ev.Type == "HandSettled" }) {
			hands++
		}
	}
	if hands < 1 {
		t.Fatal("no hand ended")
	}
	e.verifyStream(id)
}

// TestQuickPlaySpectators: the lobby shows each table's spectator policy
// and that watchers are allowed; quick play seats a player only at tables
// whose spectators see the public events only, unless the player asks for
// another policy (issue #35: quick play seated strangers at tables whose
// spectators saw their cards, without telling them).
func TestQuickPlaySpectators(t *testing.T) {
	p := newProjEnv(t, 36)
	fay, gus, hal := p.newPlayer("fay"), p.newPlayer("gus"), p.newPlayer("hal")
	after := p.open(fay, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 3, "spectators": "after_deal"})
	plain := p.open(fay, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 4})
	lobby := p.page("/v1/tables", gus.Token)
	for _, e := range lobby.Tables {
		want := map[string]string{after: "after_deal", plain: "public"}[e.ID]
		if e.Spectators != want || !e.Watchers {
			t.Errorf("lobby entry %s: spectators %q watchers %v, want %q true", e.ID, e.Spectators, e.Watchers, want)
		}
	}
	if st, tv, r := p.quick(gus, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 3}, nil); st != http.StatusCreated || tv.ID == after || tv.Spectators != "public" {
		t.Fatalf("gus's quick play at stake 3: %d %s, want a new public table, not fay's after_deal one", st, r.Body)
	}
	if st, tv, r := p.quick(hal, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 3, "spectators": "after_deal"}, nil); st != http.StatusOK || tv.ID != after {
		t.Fatalf("hal's quick play at stake 3 accepting after_deal: %d %s, want fay's table %s", st, r.Body, after)
	}
	if st, tv, r := p.quick(hal, map[string]any{"game": "doudizhu", "variant": "classic", "stake": 4, "spectators": "public"}, nil); st != http.StatusOK || tv.ID != plain {
		t.Fatalf("hal's quick play at stake 4: %d %s, want fay's public table %s", st, r.Body, plain)
	}
	r := p.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: gus.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "spectators": "all"}})
	if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" || !strings.Contains(string(r.Body), "spectators") {
		t.Errorf("quick play with spectators \"all\": %d %s, want 422 invalid_option naming spectators", r.Status, r.Body)
	}
}
