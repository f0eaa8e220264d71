package api_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/games"
	"paiju/service"
)

// skTruth is what the auditor knows of a 双扣 table's running hand.
type skTruth struct {
	hands  [][]string // each seat's cards now
	played []string   // cards played this hand: public
	seed   string
	dealAt int // version of the running hand's HandDealt
}

func (e *env) skTruth(id string) skTruth {
	e.t.Helper()
	var tr skTruth
	for _, ev := range e.auditorEvents(id) {
		switch ev.Type {
		case "HandDealt":
			var d struct {
				Hands [][]string `json:"hands"`
			}
			mustUnmarshal(e.t, ev.Data, &d)
			tr = skTruth{hands: d.Hands, dealAt: ev.Version}
		case "DealSecret":
			var d struct {
				Seed string `json:"seed"`
			}
			mustUnmarshal(e.t, ev.Data, &d)
			tr.seed = d.Seed
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
			tr.played = append(tr.played, d.Cards...)
		case "HandSettled":
			tr = skTruth{}
		}
	}
	return tr
}

// secrets is what seat (-1: a spectator) must not see: the cards of other
// seats' hands. With two decks a card may also be in the viewer's own hand
// or already played, and then its name alone gives nothing away, so such
// cards are left out; the viewer's hand is compared card for card instead.
func (tr skTruth) secrets(seat int) map[string]bool {
	s := map[string]bool{}
	for i, h := range tr.hands {
		if i != seat {
			for _, c := range h {
				s[c] = true
			}
		}
	}
	if seat >= 0 {
		for _, c := range tr.hands[seat] {
			delete(s, c)
		}
	}
	for _, c := range tr.played {
		delete(s, c)
	}
	return s
}

// crawlShuangkou checks, as every seat and a spectator, that nobody sees
// another seat's cards or the seed of the running hand (DESIGN.md, HTTP API:
// a seat sees only what it may), and that each seat sees exactly its hand.
func (e *env) crawlShuangkou(id string, viewers []player, last *apitest.Response, lastSeat int) {
	t := e.t
	t.Helper()
	tr := e.skTruth(id)
	if tr.dealAt == 0 {
		t.Fatalf("no hand is running")
	}
	for seat, p := range viewers {
		who := fmt.Sprintf("seat %d", seat)
		if seat == len(viewers)-1 {
			who, seat = "a spectator", -1
		}
		secret := tr.secrets(seat)
		for _, path := range []string{"", "/legal", fmt.Sprintf("/events?after=%d", tr.dealAt-1)} {
			r := e.tableGet(id, path, p.Token)
			if r.Status != 200 {
				t.Fatalf("%s GET %s: %d %s", who, path, r.Status, r.Body)
			}
			checkNoLeak(t, who, "GET "+path, r.Body, secret, tr.seed)
		}
		r := e.eventsSince(id, p.Token, 0)
		checkNoLeak(t, who, "GET /events", r.Body, nil, tr.seed)
		var v struct {
			Hand      []string `json:"hand"`
			GameState struct {
				Hands     any   `json:"hands"`
				CardsLeft []int `json:"cards_left"`
			} `json:"game_state"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: p.Token}).Decode(t, &v)
		if seat >= 0 && !skSameCards(v.Hand, tr.hands[seat]) {
			t.Fatalf("%s sees hand %v, holds %v", who, v.Hand, tr.hands[seat])
		}
		if seat < 0 && len(v.Hand) != 0 {
			t.Fatalf("a spectator sees hand %v", v.Hand)
		}
		if v.GameState.Hands != nil || len(v.GameState.CardsLeft) != 4 {
			t.Fatalf("%s sees game state hands %v, cards left %v; want no hands and 4 counts", who, v.GameState.Hands, v.GameState.CardsLeft)
		}
		if last != nil && seat == lastSeat {
			checkNoLeak(t, who, "its command's response", runningDealPart(t, last.Body, tr.dealAt), secret, tr.seed)
		}
	}
}

func skSameCards(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestShuangkouOverREST plays a 双扣 hand of each variant to its settlement
// over REST with random legal actions, crawling every endpoint as every seat
// and a spectator every few actions, checks the settlement (shuangkou.md,
// Result) and the totals, and proves the stored stream with the audit
// re-execution. With -short (a quick run) it plays baibian alone,
// the variant with wild cards.
func TestShuangkouOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	variants := []string{"baibian", "classic"}
	if testing.Short() {
		variants = variants[:1]
	}
	for i, variant := range variants {
		t.Run(variant, func(t *testing.T) {
			e := newEnv(t, uint64(41+i))
			id, ps := e.openTable(map[string]any{"game": "shuangkou", "variant": variant, "stake": 2}, 4)
			v := e.view(id, ps[0].Token)
			if v.Phase != "playing" || v.HandNumber != 1 || len(v.Hand) != 27 || v.Turn == nil {
				t.Fatalf("after the last join: phase %q hand %d with %d cards, turn %v; want playing, hand 1, 27 cards (shuangkou.md)", v.Phase, v.HandNumber, len(v.Hand), v.Turn)
			}
			viewers := append(slices.Clone(ps), e.newPlayer("spectator"))
			e.crawlShuangkou(id, viewers, nil, -1)
			sawWild := false
			for step := 0; ; step++ {
				if step > 1500 {
					t.Fatalf("the hand did not settle in 1500 actions")
				}
				seat, cr := e.step1(id, ps)
				settled := false
				for _, ev := range cr.Events {
					if ev.Type == "CardsPlayed" {
						if rd := ev.Data["reading"].(map[string]any); rd["wild"] != nil {
							sawWild = true
						}
					}
					if ev.Type != "HandSettled" {
						continue
					}
					settled = true
					s := cr.Table.LastSettlement
					var res struct {
						End        string `json:"end"`
						Outcome    string `json:"outcome"`
						Finish     []int  `json:"finish"`
						Winners    []int  `json:"winners"`
						Multiplier int    `json:"multiplier"`
					}
					mustUnmarshal(t, s.Result, &res)
					want := map[string]int{"shuangkou": 3, "dankou": 2, "pingkou": 1}[res.Outcome]
					if res.End != "played_out" || want == 0 || res.Multiplier != want || len(res.Finish) < 2 {
						t.Fatalf("result %s: want a hand played out to 双扣, 单扣 or 1st-and-4th (shuangkou.md, Result)", s.Result)
					}
					for seat, d := range s.Deltas {
						w := -2 * want
						if slices.Contains(res.Winners, seat) {
							w = -w
						}
						if d != w {
							t.Fatalf("seat %d wins %d, want %d (shuangkou.md, Result at stake 2); result %s", seat, d, w, s.Result)
						}
					}
					if len(s.Seed) != 64 {
						t.Fatalf("the settlement reveals seed %q", s.Seed)
					}
				}
				if settled {
					break
				}
				if step%5 == 0 {
					r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[seat].Token})
					e.crawlShuangkou(id, viewers, r, seat)
				}
			}
			if variant == "baibian" && !sawWild {
				t.Logf("no wild reading was played in this hand")
			}
			v = e.view(id, ps[0].Token)
			if v.HandNumber != 2 || v.LastSettlement == nil {
				t.Fatalf("after the settlement: hand %d; want hand 2 dealt at once", v.HandNumber)
			}
			for i, s := range v.Seats {
				if s.Total != v.LastSettlement.Deltas[i] {
					t.Errorf("seat %d total %d, want its settlement %d", i, s.Total, v.LastSettlement.Deltas[i])
				}
			}
			e.crawlShuangkou(id, viewers, nil, -1)
			evs, err := e.store.Load(context.Background(), service.StreamID(id), 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := audit.VerifyTable(games.All().Rules, evs); err != nil {
				t.Fatalf("the stream of a 双扣 table played over REST does not verify: %v", err)
			}
		})
	}
}

// step1 has the seat on turn take a random legal action other than escape,
// passing one time in two when it may, so that tricks run round the table.
func (e *env) step1(id string, ps []player) (int, commandResp) {
	e.t.Helper()
	v := e.view(id, ps[0].Token)
	if v.Turn == nil {
		e.t.Fatalf("no seat to act in phase %s", v.Phase)
	}
	seat := *v.Turn
	var plays []map[string]any
	var pass map[string]any
	for _, a := range e.legal(id, ps[seat].Token) {
		switch a["type"] {
		case "play":
			plays = append(plays, a)
		case "pass":
			pass = a
		}
	}
	a := pass
	if a == nil || (len(plays) > 0 && e.rng.IntN(2) == 0) {
		a = plays[e.rng.IntN(len(plays))]
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[seat].Token, Body: a})
	if r.Status != 200 {
		e.t.Fatalf("seat %d posting its legal action %v: %d %s", seat, a, r.Status, r.Body)
	}
	var cr commandResp
	r.Decode(e.t, &cr)
	return seat, cr
}

// TestShuangkouErrorsOverREST sends refused plays and checks each gets its
// status and stable code, changes nothing, and names no other seat's card.
func TestShuangkouErrorsOverREST(t *testing.T) {
	e := newEnv(t, 43)
	id, ps := e.openTable(map[string]any{"game": "shuangkou", "variant": "classic"}, 4)
	turn := *e.view(id, ps[0].Token).Turn
	other := (turn + 1) % 4
	mine := e.view(id, ps[turn].Token).Hand
	theirs := e.view(id, ps[other].Token).Hand
	var notHeld string
	for _, c := range theirs {
		if !slices.Contains(mine, c) {
			notHeld = c
			break
		}
	}
	path := "/v1/tables/" + id + "/actions"
	cases := []struct {
		name   string
		seat   int
		body   any
		status int
		code   string
	}{
		{"a pass on the lead", turn, map[string]any{"type": "pass"}, 422, "cannot_pass"},
		{"out of turn", other, map[string]any{"type": "play", "cards": theirs[:1]}, 409, "not_your_turn"},
		{"a card not held", turn, map[string]any{"type": "play", "cards": []string{notHeld}}, 422, "card_not_in_hand"},
		{"no combination", turn, map[string]any{"type": "play", "cards": []string{mine[0], mine[len(mine)-1]}}, 422, "invalid_combination"},
		{"a bad as", turn, map[string]any{"type": "play", "cards": mine[:1], "as": "flush"}, 422, "invalid_action"},
		{"a bid", turn, map[string]any{"type": "bid", "bid": 1}, 422, "unknown_action"},
		{"an option", turn, nil, 422, "invalid_option"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "no combination" && mine[0][1:] == mine[len(mine)-1][1:] {
				t.Skip("the hand's lowest and highest cards are a pair")
			}
			before := e.head()
			req := apitest.Request{Method: "POST", Path: path, Token: ps[tc.seat].Token, Body: tc.body}
			if tc.body == nil {
				req = apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[0].Token,
					Body: map[string]any{"game": "shuangkou", "variant": "baibian", "options": map[string]any{"wild": false}}, Raw: true}
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
			if tc.seat == turn {
				// The error may echo the cards the caller posted, never others.
				for _, c := range theirs {
					if !slices.Contains(mine, c) && c != notHeld && (strings.Contains(string(r.Body), `"`+c+`"`) || strings.Contains(string(r.Body), " "+c)) {
						t.Fatalf("the error names %s, another seat's card: %s", c, r.Body)
					}
				}
			}
		})
	}
}
