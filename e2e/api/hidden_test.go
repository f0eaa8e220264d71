package api_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
)

// truth is what the auditor knows of the running deal.
type truth struct {
	hands      [][]string // each seat's cards now
	kitty      []string
	kittyShown bool
	seed       string // the running deal's secret seed
	dealAt     int    // version of the running deal's HandDealt
}

// auditorTruth folds the auditor's full event feed.
func (e *env) auditorTruth(id string) truth {
	e.t.Helper()
	var tr truth
	for _, ev := range e.auditorEvents(id) {
		switch ev.Type {
		case "HandDealt":
			var d struct {
				Hands [][]string `json:"hands"`
				Kitty []string   `json:"kitty"`
			}
			mustUnmarshal(e.t, ev.Data, &d)
			tr = truth{hands: d.Hands, kitty: d.Kitty, dealAt: ev.Version}
		case "DealSecret":
			var d struct {
				Seed string `json:"seed"`
			}
			mustUnmarshal(e.t, ev.Data, &d)
			tr.seed = d.Seed
		case "LandlordChosen":
			var d struct {
				Seat int `json:"seat"`
			}
			mustUnmarshal(e.t, ev.Data, &d)
			tr.hands[d.Seat] = append(tr.hands[d.Seat], tr.kitty...)
			tr.kittyShown = true
		case "CardsPlayed":
			var d struct {
				Seat  int      `json:"seat"`
				Cards []string `json:"cards"`
			}
			mustUnmarshal(e.t, ev.Data, &d)
			for _, c := range d.Cards {
				i := slices.Index(tr.hands[d.Seat], c)
				if i < 0 {
					e.t.Fatalf("auditor feed: seat %d plays %s it does not hold", d.Seat, c)
				}
				tr.hands[d.Seat] = slices.Delete(tr.hands[d.Seat], i, i+1)
			}
		case "HandSettled", "DealVoided":
			tr = truth{}
		}
	}
	return tr
}

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
}

// secrets returns what seat (or -1 for a spectator) must not see now.
func (tr truth) secrets(seat int) map[string]bool {
	s := map[string]bool{}
	for i, h := range tr.hands {
		if i == seat {
			continue
		}
		for _, c := range h {
			s[c] = true
		}
	}
	// The kitty is secret until it is shown; once shown, its cards are public
	// even while they sit in the landlord's hand.
	for _, c := range tr.kitty {
		s[c] = !tr.kittyShown
	}
	return s
}

// strings collects every string in a JSON document.
func jsonStrings(t *testing.T, body []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("not JSON: %s", body)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return out
}

// checkNoLeak fails if body shows any secret card or the seed.
func checkNoLeak(t *testing.T, who, what string, body []byte, secret map[string]bool, seed string) {
	t.Helper()
	for _, s := range jsonStrings(t, body) {
		if secret[s] {
			t.Fatalf("%s sees %s in %s, a card hidden from them (DESIGN.md, HTTP API: a seat sees only what it may)", who, s, what)
		}
	}
	if seed != "" && strings.Contains(string(body), seed) {
		t.Fatalf("%s sees the deal seed in %s before the deal ended (rules/README.md, Shuffling and dealing)", who, what)
	}
}

// TestHiddenInformation crawls every endpoint as every seat and a spectator
// after every action of whole hands, and checks nobody sees another seat's
// cards, the unrevealed kitty, or the seed of the running deal: the table,
// /legal, /events, /state?at=N for every N of the running deal, and /export.
// Three hands; one with -short (a quick run), whose crawl after
// the settling action still sees the next deal begin.
func TestHiddenInformation(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	e := newEnv(t, 5)
	id, ps := e.openFull()
	spectator := e.newPlayer("sam")
	viewers := append(slices.Clone(ps), spectator)
	stateChecked := 0 // /state?at=N is checked for every N up to here
	crawl := func(last *apitest.Response, lastSeat int) {
		tr := e.auditorTruth(id)
		version := e.view(id, auditorToken).Version
		for seat, p := range viewers {
			who := fmt.Sprintf("seat %d", seat)
			if seat == 3 {
				who, seat = "a spectator", -1
			}
			secret := tr.secrets(seat)
			// Earlier deals are over and shown in full; only the running
			// deal's events are checked against its secrets.
			paths := []string{"", "/legal", fmt.Sprintf("/events?after=%d", tr.dealAt-1)}
			for _, path := range paths {
				r := e.tableGet(id, path, p.Token)
				if r.Status != 200 {
					t.Fatalf("%s GET %s: %d %s", who, path, r.Status, r.Body)
				}
				checkNoLeak(t, who, "GET "+path, r.Body, secret, tr.seed)
			}
			// The table as this viewer saw it after each event of the running
			// deal: what was hidden then stays hidden (api/state.go). A past
			// view never changes, so each N is checked once, as soon as it
			// exists, against the secrets of that moment (the most there are:
			// cards only leave hands).
			for n := max(tr.dealAt, stateChecked+1, 1); n <= version; n++ {
				path := fmt.Sprintf("/state?at=%d", n)
				r := e.tableGet(id, path, p.Token)
				if r.Status != 200 {
					t.Fatalf("%s GET %s: %d %s", who, path, r.Status, r.Body)
				}
				checkNoLeak(t, who, "GET "+path, r.Body, secret, tr.seed)
			}
			// The whole feed must never show the running deal's seed. Its
			// shape is the windowed feed's, checked against openapi.yaml
			// above; checking the whole, ever longer feed again at every
			// step would make the crawl quadratic in schema checks.
			r := e.c.Unchecked().Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: p.Token})
			checkNoLeak(t, who, "GET /events", r.Body, nil, tr.seed)
			checkExport(t, e, id, who, p.Token, seat >= 0, tr)
			if last != nil && seat == lastSeat {
				checkNoLeak(t, who, "its command's response", runningDealPart(t, last.Body, tr.dealAt), secret, tr.seed)
			}
		}
		stateChecked = version
	}
	crawl(nil, -1)
	want := 3
	if testing.Short() {
		want = 1
	}
	hands := 0
	for step := 0; hands < want && step < 1000; step++ {
		v := e.view(id, ps[0].Token)
		seat := *v.Turn
		var choices []map[string]any
		for _, a := range e.legal(id, ps[seat].Token) {
			if a["type"] != "escape" && a["type"] != "delegate" {
				choices = append(choices, a)
			}
		}
		a := choices[e.rng.IntN(len(choices))]
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[seat].Token, Body: a})
		if r.Status != 200 {
			t.Fatalf("action %v: %d %s", a, r.Status, r.Body)
		}
		crawl(r, seat)
		if strings.Contains(string(r.Body), `"HandSettled"`) {
			hands++
		}
	}
	if hands < want {
		t.Fatalf("only %d hands finished", hands)
	}
}

// runningDealPart keeps, of a command response, the table view and the events
// of the running deal (a command that ends a deal also deals the next one; the
// ended deal's events may show its cards).
func runningDealPart(t *testing.T, body []byte, dealAt int) []byte {
	t.Helper()
	var cr struct {
		Version int               `json:"version"`
		Events  []json.RawMessage `json:"events"`
		Table   json.RawMessage   `json:"table"`
	}
	mustUnmarshal(t, body, &cr)
	var keep []json.RawMessage
	for _, ev := range cr.Events {
		var v struct {
			Version int `json:"version"`
		}
		mustUnmarshal(t, ev, &v)
		if v.Version >= dealAt {
			keep = append(keep, ev)
		}
	}
	cr.Events = keep
	out, err := json.Marshal(cr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkExport fails if who's export of the table shows any event of the
// running deal or its seed; a viewer who never sat at the table must get 403
// export_not_seated (docs/AUDIT.md, Who may read what).
func checkExport(t *testing.T, e *env, id, who, token string, seated bool, tr truth) {
	t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/export", Token: token})
	if !seated {
		if r.Status != 403 || r.Problem(t) != "export_not_seated" {
			t.Fatalf("%s GET /export: %d %s, want 403 export_not_seated", who, r.Status, r.Body)
		}
		return
	}
	if r.Status != 200 {
		t.Fatalf("%s GET /export: %d %s", who, r.Status, r.Body)
	}
	if tr.seed != "" && strings.Contains(string(r.Body), tr.seed) {
		t.Fatalf("%s sees the running deal's seed in its export (docs/AUDIT.md, Getting the log)", who)
	}
	for line := range strings.Lines(string(r.Body)) {
		var ev struct {
			Version int    `json:"version"`
			Type    string `json:"type"`
		}
		mustUnmarshal(t, []byte(line), &ev)
		if tr.dealAt > 0 && ev.Version >= tr.dealAt {
			t.Fatalf("%s's export holds event %d (%s) of the running deal dealt at %d", who, ev.Version, ev.Type, tr.dealAt)
		}
	}
}
