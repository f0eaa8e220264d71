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
// cards, the unrevealed kitty, or the seed of the running deal.
func TestHiddenInformation(t *testing.T) {
	e := newEnv(t, 5)
	id, ps := e.openFull()
	spectator := e.newPlayer("sam")
	viewers := append(slices.Clone(ps), spectator)
	crawl := func(last *apitest.Response, lastSeat int) {
		tr := e.auditorTruth(id)
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
				r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + path, Token: p.Token})
				if r.Status != 200 {
					t.Fatalf("%s GET %s: %d %s", who, path, r.Status, r.Body)
				}
				checkNoLeak(t, who, "GET "+path, r.Body, secret, tr.seed)
			}
			// The whole feed must never show the running deal's seed.
			r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: p.Token})
			checkNoLeak(t, who, "GET /events", r.Body, nil, tr.seed)
			if last != nil && seat == lastSeat {
				checkNoLeak(t, who, "its command's response", runningDealPart(t, last.Body, tr.dealAt), secret, tr.seed)
			}
		}
	}
	crawl(nil, -1)
	hands := 0
	for step := 0; hands < 3 && step < 1000; step++ {
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
	if hands < 3 {
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
