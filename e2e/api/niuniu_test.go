package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/games"
	"paiju/service"
)

// niuniuTruth is what the auditor knows of a 牛牛 table's running hand.
type niuniuTruth struct {
	hands  [][]string
	seed   string
	dealAt int // version of the running hand's HandDealt; 0 between hands
}

func (e *env) niuniuTruth(id string) niuniuTruth {
	e.t.Helper()
	var tr niuniuTruth
	for _, ev := range e.auditorEvents(id) {
		switch ev.Type {
		case "HandDealt":
			var d struct {
				Hands [][]string `json:"hands"`
			}
			mustUnmarshal(e.t, ev.Data, &d)
			tr = niuniuTruth{hands: d.Hands, dealAt: ev.Version}
		case "DealSecret":
			var d struct {
				Seed string `json:"seed"`
			}
			mustUnmarshal(e.t, ev.Data, &d)
			tr.seed = d.Seed
		case "HandSettled":
			tr = niuniuTruth{}
		}
	}
	return tr
}

// crawlNiuniu checks, as every seat and a spectator, that nobody sees another
// seat's cards, another seat's arrangement, or the seed of the running hand
// (niuniu.md; DESIGN.md, HTTP API: a seat sees only what it may).
func (e *env) crawlNiuniu(id string, viewers []player, last *apitest.Response, lastSeat int) {
	t := e.t
	t.Helper()
	tr := e.niuniuTruth(id)
	if tr.dealAt == 0 {
		t.Fatalf("no hand is running")
	}
	for seat, p := range viewers {
		who := fmt.Sprintf("seat %d", seat)
		if seat == len(viewers)-1 {
			who, seat = "a spectator", -1
		}
		secret := map[string]bool{}
		for i, h := range tr.hands {
			for _, c := range h {
				secret[c] = i != seat
			}
		}
		for _, path := range []string{"", "/legal", fmt.Sprintf("/events?after=%d", tr.dealAt-1)} {
			r := e.tableGet(id, path, p.Token)
			if r.Status != 200 {
				t.Fatalf("%s GET %s: %d %s", who, path, r.Status, r.Body)
			}
			body := r.Body
			if path == "" {
				body = withoutEndedHand(t, body)
			}
			checkNoLeak(t, who, "GET "+path, body, secret, tr.seed)
		}
		// Other seats' arrangements show only that they arranged.
		r := e.eventsSince(id, p.Token, tr.dealAt-1)
		var feed struct {
			Events []struct {
				Type string         `json:"type"`
				Data map[string]any `json:"data"`
			} `json:"events"`
		}
		r.Decode(t, &feed)
		for _, ev := range feed.Events {
			if ev.Type == "HandArranged" && int(ev.Data["seat"].(float64)) != seat {
				if want := map[string]any{"seat": ev.Data["seat"], "hidden": true}; !reflect.DeepEqual(ev.Data, want) {
					t.Fatalf("%s sees another seat's running arrangement as %v, want only that it arranged (niuniu.md, doc.go Hidden information)", who, ev.Data)
				}
			}
		}
		var v struct {
			Hand      []string `json:"hand"`
			Turn      *int     `json:"turn"`
			GameState struct {
				Arranged     []bool           `json:"arranged"`
				Arrangement  *json.RawMessage `json:"arrangement"`
				Hands        any              `json:"hands"`
				Arrangements any              `json:"arrangements"`
			} `json:"game_state"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: p.Token}).Decode(t, &v)
		if seat >= 0 && (len(v.Hand) != 5 || !sameCards(v.Hand, tr.hands[seat])) {
			t.Fatalf("%s sees hand %v, was dealt %v", who, v.Hand, tr.hands[seat])
		}
		if seat < 0 && (len(v.Hand) != 0 || v.GameState.Arrangement != nil) {
			t.Fatalf("a spectator sees hand %v, arrangement %s", v.Hand, *v.GameState.Arrangement)
		}
		if v.Turn != nil || v.GameState.Hands != nil || v.GameState.Arrangements != nil || len(v.GameState.Arranged) != len(tr.hands) {
			t.Fatalf("%s sees turn %v and game state %+v", who, v.Turn, v.GameState)
		}
		if last != nil && seat == lastSeat {
			checkNoLeak(t, who, "its command's response", withoutEndedHand(t, runningDealPart(t, last.Body, tr.dealAt)), secret, tr.seed)
		}
	}
}

// withoutEndedHand drops from a table view (or a command response holding
// one) the last reveal and the last settlement, after checking they belong to
// a hand that has ended: their cards are public, and may be the same cards
// as the running hand's, dealt again from a new shuffle.
func withoutEndedHand(t *testing.T, body []byte) []byte {
	t.Helper()
	var doc map[string]any
	mustUnmarshal(t, body, &doc)
	tv := doc
	if inner, ok := doc["table"].(map[string]any); ok {
		tv = inner
	}
	running := tv["hand_number"].(float64)
	if gs, ok := tv["game_state"].(map[string]any); ok {
		if rev, ok := gs["last_reveal"].(map[string]any); ok && rev["hand"].(float64) >= running {
			t.Fatalf("game_state.last_reveal shows hand %v while hand %v runs", rev["hand"], running)
		}
		delete(gs, "last_reveal")
	}
	if ls, ok := tv["last_settlement"].(map[string]any); ok && ls["hand"].(float64) >= running {
		t.Fatalf("last_settlement of hand %v while hand %v runs", ls["hand"], running)
	}
	delete(tv, "last_settlement")
	return mustJSON(t, doc)
}

func sameCards(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestNiuniuOverREST plays 牛牛 hands to their settlements over REST at
// tables of 4 seats (banker 0) and 2 seats (banker 1), crawling every
// endpoint as every seat and a spectator after every action, then proves
// the stored stream with the audit re-execution.
func TestNiuniuOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	for _, tc := range []struct {
		seats, banker int
		seed          uint64
	}{{4, 0, 11}, {2, 1, 12}} {
		t.Run(fmt.Sprintf("%d seats", tc.seats), func(t *testing.T) {
			e := newEnv(t, tc.seed)
			id, ps := e.openTable(map[string]any{"game": "niuniu", "variant": "classic", "stake": 3,
				"options": map[string]any{"seats": tc.seats, "banker": tc.banker}}, tc.seats)
			v := e.view(id, ps[0].Token)
			if v.Phase != "arranging" || v.HandNumber != 1 || len(v.Hand) != 5 || v.Turn != nil {
				t.Fatalf("after the last join: phase %q hand %d with %d cards, turn %v; want arranging, hand 1, 5 cards, no turn (niuniu.md)", v.Phase, v.HandNumber, len(v.Hand), v.Turn)
			}
			viewers := append(slices.Clone(ps), e.newPlayer("spectator"))
			e.crawlNiuniu(id, viewers, nil, -1)
			totals := make([]int, tc.seats)
			hands := 0
			for step := 0; hands < 3; step++ {
				if step > 300 {
					t.Fatalf("only %d hands settled in 300 actions", hands)
				}
				seat, raw := e.niuniuStep(id, ps)
				var cr commandResp
				raw.Decode(t, &cr)
				for _, ev := range cr.Events {
					if ev.Type != "HandSettled" {
						continue
					}
					hands++
					s := cr.Table.LastSettlement
					var res struct {
						End    string `json:"end"`
						Banker int    `json:"banker"`
						Bouts  []any  `json:"bouts"`
					}
					if err := json.Unmarshal(s.Result, &res); err != nil {
						t.Fatal(err)
					}
					sum := 0
					for i, d := range s.Deltas {
						sum += d
						totals[i] += d
					}
					if sum != 0 || len(s.Deltas) != tc.seats || len(s.Seed) != 64 {
						t.Fatalf("hand %d settles %v with seed %q: want %d deltas summing to 0 and the seed (niuniu.md, Settlement)", s.Hand, s.Deltas, s.Seed, tc.seats)
					}
					if res.End != "revealed" || res.Banker != tc.banker || len(res.Bouts) != tc.seats-1 {
						t.Fatalf("hand %d result %s: want a reveal with a bout per player against banker %d", s.Hand, s.Result, tc.banker)
					}
					if !strings.Contains(string(raw.Body), `"HandsRevealed"`) {
						t.Fatalf("the settling command shows no HandsRevealed")
					}
				}
				e.crawlNiuniu(id, viewers, raw, seat)
			}
			v = e.view(id, ps[0].Token)
			for i, s := range v.Seats {
				if s.Total != totals[i] {
					t.Errorf("seat %d total %d, want the sum of its settlements %d", i, s.Total, totals[i])
				}
			}
			evs, err := e.store.Load(context.Background(), service.StreamID(id), 0)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := audit.VerifyTable(games.All().Rules, evs)
			if err != nil {
				t.Fatalf("the stream of a 牛牛 table played over REST does not verify: %v", err)
			}
			if rep.Deals < 4 {
				t.Fatalf("verified %d deals, want at least 4", rep.Deals)
			}
		})
	}
}

// niuniuStep has a random seat post a random one of its legal actions
// (escape excluded) and returns the seat and the raw response: every seat
// arranges at once, so any seat may act.
func (e *env) niuniuStep(id string, ps []player) (int, *apitest.Response) {
	e.t.Helper()
	seat := e.rng.IntN(len(ps))
	var choices []map[string]any
	for _, a := range e.legal(id, ps[seat].Token) {
		if a["type"] != "escape" && a["type"] != "delegate" {
			choices = append(choices, a)
		}
	}
	if len(choices) == 0 {
		e.t.Fatalf("seat %d has no legal action while the hand is arranged (niuniu.md, Arranging)", seat)
	}
	a := choices[e.rng.IntN(len(choices))]
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[seat].Token, Body: a})
	if r.Status != 200 {
		e.t.Fatalf("seat %d posting its legal action %v: %d %s", seat, a, r.Status, r.Body)
	}
	return seat, r
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNiuniuErrorsOverREST sends invalid arrangements and checks each gets
// its status and stable code, changes nothing, and names no other seat's card.
func TestNiuniuErrorsOverREST(t *testing.T) {
	e := newEnv(t, 13)
	id, ps := e.openTable(map[string]any{"game": "niuniu", "variant": "classic", "options": map[string]any{"seats": 2}}, 2)
	mine := e.view(id, ps[0].Token).Hand
	theirs := e.view(id, ps[1].Token).Hand
	path := "/v1/tables/" + id + "/actions"
	// Three of seat 0's cards that do not sum to a multiple of 10, if any.
	var notBull []string
	value := func(c string) int {
		switch r := c[1:]; r {
		case "A":
			return 1
		case "J", "Q", "K", "10":
			return 10
		default:
			if c == "BJ" || c == "RJ" {
				return 10
			}
			return int(r[0] - '0')
		}
	}
	for i := 0; i < 5 && notBull == nil; i++ {
		for j := i + 1; j < 5 && notBull == nil; j++ {
			for k := j + 1; k < 5 && notBull == nil; k++ {
				if (value(mine[i])+value(mine[j])+value(mine[k]))%10 != 0 {
					notBull = []string{mine[i], mine[j], mine[k]}
				}
			}
		}
	}
	cases := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"two cards", map[string]any{"type": "arrange", "cards": mine[:2]}, 422, "invalid_action"},
		{"a card twice", map[string]any{"type": "arrange", "cards": []string{mine[0], mine[0], mine[1]}}, 422, "invalid_action"},
		{"another seat's card", map[string]any{"type": "arrange", "cards": []string{mine[0], mine[1], theirs[0]}}, 422, "card_not_in_hand"},
		{"no_bull with cards", map[string]any{"type": "no_bull", "cards": mine[:1]}, 422, "invalid_action"},
		{"a pass", map[string]any{"type": "pass"}, 422, "unknown_action"},
		{"bad seats option", nil, 422, "invalid_option"},
	}
	if notBull != nil {
		cases = append(cases, struct {
			name   string
			body   any
			status int
			code   string
		}{"not a bull", map[string]any{"type": "arrange", "cards": notBull}, 422, "not_a_bull"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := e.head()
			// Raw: openapi.yaml already says what is wrong with these
			// bodies; the server must say it too.
			req := apitest.Request{Method: "POST", Path: path, Token: ps[0].Token, Body: tc.body, Raw: true}
			if tc.body == nil {
				req = apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[0].Token, Body: map[string]any{"game": "niuniu", "variant": "classic", "options": map[string]any{"seats": 5}}, Raw: true}
			}
			r := e.c.Do(req)
			if r.Status != tc.status {
				t.Fatalf("got %d, want %d; body %s", r.Status, tc.status, r.Body)
			}
			if code := r.Problem(t); code != tc.code {
				t.Fatalf("code %q, want %q", code, tc.code)
			}
			if after := e.head(); after != before {
				t.Fatalf("the store moved on a rejected request")
			}
			for _, c := range theirs[1:] {
				if strings.Contains(string(r.Body), `"`+c+`"`) || strings.Contains(string(r.Body), " "+c) {
					t.Fatalf("the error names %s, another seat's card: %s", c, r.Body)
				}
			}
		})
	}
}

// TestNiuniuDeadlineOverREST: at a table with a deadline, the reveal may be
// called once the table's clock has passed it, and not before (niuniu.md,
// Arranging: "or when the table's clock runs out"); the seats that had not
// arranged are 没牛. The time is the server's: a client cannot send one.
func TestNiuniuDeadlineOverREST(t *testing.T) {
	e := newEnv(t, 14)
	dealt := e.clock.Now()
	id, ps := e.openTable(map[string]any{"game": "niuniu", "variant": "classic", "stake": 2,
		"options": map[string]any{"seats": 3, "arrange_seconds": 30}}, 3)
	path := "/v1/tables/" + id + "/actions"
	var g struct {
		Game struct {
			Deadline *time.Time `json:"deadline"`
		} `json:"game_state"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[1].Token}).Decode(t, &g)
	due := dealt.Add(30 * time.Second)
	if g.Game.Deadline == nil || !g.Game.Deadline.Equal(due) {
		t.Fatalf("view deadline %v, want %s (the deal's time + arrange_seconds)", g.Game.Deadline, due)
	}
	hasReveal := func(seat int) bool {
		return slices.ContainsFunc(e.legal(id, ps[seat].Token), func(a map[string]any) bool { return a["type"] == "reveal" })
	}
	first := e.legal(id, ps[0].Token)[0]
	if r := e.c.Do(apitest.Request{Method: "POST", Path: path, Token: ps[0].Token, Body: first}); r.Status != 200 {
		t.Fatalf("seat 0 arranges %v: %d %s", first, r.Status, r.Body)
	}

	e.clock.Advance(30*time.Second - time.Millisecond)
	if hasReveal(1) {
		t.Fatal("reveal listed before the deadline")
	}
	before := e.head()
	r := e.c.Do(apitest.Request{Method: "POST", Path: path, Token: ps[1].Token, Body: map[string]any{"type": "reveal"}})
	if r.Status != 409 || r.Problem(t) != "deadline_not_reached" {
		t.Fatalf("reveal a millisecond early: %d %s, want 409 deadline_not_reached", r.Status, r.Body)
	}
	forged := map[string]any{"type": "reveal", "at": due.Add(time.Hour).Format(time.RFC3339)}
	if r := e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: path, Token: ps[1].Token, Body: forged}); r.Status != 400 {
		t.Fatalf("a reveal carrying its own time: %d %s, want 400", r.Status, r.Body)
	}
	if e.head() != before {
		t.Fatal("the store moved on a rejected reveal")
	}

	e.clock.Advance(time.Millisecond)
	if !hasReveal(1) || !hasReveal(2) {
		t.Fatal("reveal not listed at the deadline")
	}
	r = e.c.Do(apitest.Request{Method: "POST", Path: path, Token: ps[2].Token, Body: map[string]any{"type": "reveal"}})
	if r.Status != 200 {
		t.Fatalf("reveal at the deadline: %d %s", r.Status, r.Body)
	}
	var cr commandResp
	r.Decode(t, &cr)
	var types []string
	for _, ev := range cr.Events {
		types = append(types, ev.Type)
	}
	if len(types) < 3 || !slices.Equal(types[:3], []string{"RevealCalled", "HandsRevealed", "HandSettled"}) {
		t.Fatalf("the reveal appends %v", types)
	}
	var res struct {
		End      string   `json:"end"`
		Readings []string `json:"readings"`
	}
	mustUnmarshal(t, cr.Table.LastSettlement.Result, &res)
	if res.End != "deadline" || res.Readings[1] != "no_bull" || res.Readings[2] != "no_bull" {
		t.Fatalf("result %s: want end deadline, seats 1 and 2 没牛 (niuniu.md: 不拼牌,按无牛处理)", cr.Table.LastSettlement.Result)
	}
	evs, err := e.store.Load(context.Background(), service.StreamID(id), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := audit.VerifyTable(games.All().Rules, evs); err != nil {
		t.Fatalf("a table with a called reveal does not verify: %v", err)
	}
}
