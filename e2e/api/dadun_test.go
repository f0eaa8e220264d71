package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/domain/cards"
	"paiju/domain/dadun"
	"paiju/domain/table"
	"paiju/games"
	"paiju/service"
)

// dadunDeal is the first deal a table of an env with seed base gets: the
// seed seqSeeds draws first, dealt by the rules.
func dadunDeal(t *testing.T, base uint64) (table.HandDealt, dadun.CardTurned) {
	t.Helper()
	var seed cards.Seed
	r := rand.New(rand.NewPCG(base, 1))
	for i := range seed {
		seed[i] = byte(r.Uint32())
	}
	rules, err := dadun.New().Rules("lean", nil)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := rules.Deal(rules.NewState(), table.DealNumber{Hand: 1, Deal: 1}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return evs[0].(table.HandDealt), evs[2].(dadun.CardTurned)
}

// dadunSetup is a first deal fit for the test: the banker holds one copy of
// the turned card (so the friend holds the other), and some seat holds four
// red cards of one rank (♥ ♥ ♦ ♦) not of the friend card's rank.
type dadunSetup struct {
	base   uint64
	banker int
	friend int
	card   string   // the friend card
	holder int      // the seat with four red cards of a rank
	bomb   []string // those four cards, in display order
}

func findDadunSetup(t *testing.T) dadunSetup {
	t.Helper()
	for base := uint64(1); base < 2000; base++ {
		d, ct := dadunDeal(t, base)
		s := dadunSetup{base: base, banker: ct.Banker, card: ct.Card.String(), friend: -1, holder: -1}
		for i, h := range d.Hands {
			m := cards.Of(h)
			if i != ct.Banker && m.Count(ct.Card) == 1 {
				s.friend = i
			}
			for _, rank := range []cards.Rank{3, 4, 6, 7, 8, 9, cards.Jack, cards.Queen, cards.Ace, 2} {
				h, dd := cards.Card{Suit: cards.Hearts, Rank: rank}, cards.Card{Suit: cards.Diamonds, Rank: rank}
				if s.holder < 0 && rank != ct.Card.Rank && m.Count(h) == 2 && m.Count(dd) == 2 {
					s.holder, s.bomb = i, []string{h.String(), h.String(), dd.String(), dd.String()}
				}
			}
		}
		if s.friend >= 0 && s.holder >= 0 {
			return s
		}
	}
	t.Fatal("no seed base below 2000 deals four red cards of a rank with a friend")
	return dadunSetup{}
}

// dadunGame is the part of a dadun view the test reads.
type dadunGame struct {
	Role      string  `json:"role"`
	Friend    *int    `json:"friend"`
	Sides     [][]int `json:"sides"`
	Banker    *int    `json:"banker"`
	CardsLeft []int   `json:"cards_left"`
	Hands     any     `json:"hands"`
}

// crawlDadun checks, as every seat and a spectator, that nobody sees another
// seat's cards or the running deal's seed, and — until the friend card has
// been played — that nobody but the friend can tell who the friend is: no
// view shows a friend or the sides, only the friend's own view says
// "friend", and no event of the deal names the friend (dadun.md, Deal,
// banker, friend; DESIGN.md, HTTP API).
func (e *env) crawlDadun(id string, viewers []player, s dadunSetup, revealed bool) {
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
		delete(secret, s.card) // the turned card is public (dadun.md, Deal)
		for _, path := range []string{"", "/legal", fmt.Sprintf("/events?after=%d", tr.dealAt-1)} {
			r := e.tableGet(id, path, p.Token)
			if r.Status != 200 {
				t.Fatalf("%s GET %s: %d %s", who, path, r.Status, r.Body)
			}
			checkNoLeak(t, who, "GET "+path, r.Body, secret, tr.seed)
			if !revealed && strings.Contains(path, "events") {
				var feed struct {
					Events []struct {
						Type string         `json:"type"`
						Data map[string]any `json:"data"`
					} `json:"events"`
				}
				r.Decode(t, &feed)
				for _, ev := range feed.Events {
					if _, ok := ev.Data["friend"]; ok || ev.Type == "FriendRevealed" {
						t.Fatalf("%s sees %s %v before the friend card is played (dadun.md: nobody but the friend knows)", who, ev.Type, ev.Data)
					}
				}
			}
		}
		var v struct {
			Hand      []string  `json:"hand"`
			GameState dadunGame `json:"game_state"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: p.Token}).Decode(t, &v)
		if seat >= 0 && !skSameCards(v.Hand, tr.hands[seat]) {
			t.Fatalf("%s sees hand %v, holds %v", who, v.Hand, tr.hands[seat])
		}
		g := v.GameState
		if g.Hands != nil || len(g.CardsLeft) != 4 || g.Banker == nil || *g.Banker != s.banker {
			t.Fatalf("%s sees hands %v, cards left %v, banker %v; want no hands, 4 counts, banker %d", who, g.Hands, g.CardsLeft, g.Banker, s.banker)
		}
		wantRole := map[bool]string{true: "friend", false: "opponent"}[seat == s.friend]
		switch seat {
		case -1:
			wantRole = ""
		case s.banker:
			wantRole = "banker"
		}
		if g.Role != wantRole {
			t.Fatalf("%s sees role %q, want %q", who, g.Role, wantRole)
		}
		if revealed != (g.Friend != nil) || revealed != (g.Sides != nil) || revealed && *g.Friend != s.friend {
			t.Fatalf("%s sees friend %v and sides %v; the friend card played: %v (dadun.md: the sides are public once it is played)", who, g.Friend, g.Sides, revealed)
		}
	}
}

// TestDadunOverREST plays a whole 打盾 hand over REST: the seats decline going
// alone, a seat plays four red cards of a rank as a bomb (四红, one 盾
// award) at its first chance, the friend plays the friend card at its first
// chance (revealed mid-hand), the others play random legal actions. Every
// endpoint is crawled as every seat and a spectator along the way; the
// settlement pays the award apart from the result (dadun.md, 盾 awards) and
// the stored stream verifies.
func TestDadunOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	s := findDadunSetup(t)
	e := newEnv(t, s.base)
	id, ps := e.openTable(map[string]any{"game": "dadun", "variant": "lean", "stake": 2}, 4)
	v := e.view(id, ps[0].Token)
	if v.Phase != "declaring" || v.HandNumber != 1 || len(v.Hand) != 27 || v.Turn == nil || *v.Turn != s.banker {
		t.Fatalf("after the last join: phase %q hand %d with %d cards, turn %v; want declaring, hand 1, 27 cards, the banker %d first",
			v.Phase, v.HandNumber, len(v.Hand), v.Turn, s.banker)
	}
	if d, _ := dadunDeal(t, s.base); !skSameCards(e.skTruth(id).hands[s.holder], cards.Strings(d.Hands[s.holder])) {
		t.Fatalf("the server dealt other cards than seed base %d gives", s.base)
	}
	viewers := append(slices.Clone(ps), e.newPlayer("spectator"))
	e.crawlDadun(id, viewers, s, false)
	post := func(seat int, a map[string]any) commandResp {
		t.Helper()
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[seat].Token, Body: a})
		if r.Status != 200 {
			t.Fatalf("seat %d posting %v: %d %s", seat, a, r.Status, r.Body)
		}
		var cr commandResp
		r.Decode(t, &cr)
		return cr
	}
	// Refused declarations change nothing and answer with stable codes.
	mine := e.view(id, ps[s.banker].Token).Hand
	for _, c := range []struct {
		name   string
		seat   int
		body   map[string]any
		status int
		code   string
	}{
		{"a play in the declaring round", s.banker, map[string]any{"type": "play", "cards": mine[:1]}, 409, "wrong_phase"},
		{"going alone out of turn", (s.banker + 1) % 4, map[string]any{"type": "alone"}, 409, "not_your_turn"},
		{"a call by a banker without both copies", s.banker, map[string]any{"type": "call", "cards": mine[:1]}, 409, "not_banker"},
		{"a pass with cards", s.banker, map[string]any{"type": "pass", "cards": mine[:1]}, 422, "invalid_action"},
	} {
		before := e.head()
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[c.seat].Token, Body: c.body})
		if r.Status != c.status || r.Problem(t) != c.code || e.head() != before {
			t.Fatalf("%s: %d %s, want %d %s and no event", c.name, r.Status, r.Body, c.status, c.code)
		}
	}
	for i := range 4 {
		post((s.banker+i)%4, map[string]any{"type": "pass"})
	}
	e.crawlDadun(id, viewers, s, false)

	cardsOf := func(a map[string]any) []string {
		var out []string
		for _, c := range a["cards"].([]any) {
			out = append(out, c.(string))
		}
		return out
	}
	bombPlayed, revealed := false, false
	var settled *table.HandSettled
	for step := 0; settled == nil; step++ {
		if step > 1500 {
			t.Fatalf("the hand did not settle in 1500 actions")
		}
		seat := *e.view(id, ps[0].Token).Turn
		var plays []map[string]any
		var pass, choice map[string]any
		for _, a := range e.legal(id, ps[seat].Token) {
			switch a["type"] {
			case "play":
				cs := cardsOf(a)
				switch {
				case seat == s.holder && !bombPlayed && slices.Equal(cs, s.bomb):
					choice = a
				case seat == s.friend && !revealed && slices.Contains(cs, s.card) && choice == nil:
					choice = a
				case seat == s.holder && !bombPlayed && slices.ContainsFunc(cs, func(c string) bool { return slices.Contains(s.bomb, c) }):
					// keep the four red cards together for the bomb
				default:
					plays = append(plays, a)
				}
			case "pass":
				pass = a
			}
		}
		if choice == nil {
			choice = pass
			if choice == nil || (len(plays) > 0 && e.rng.IntN(2) == 0) {
				choice = plays[e.rng.IntN(len(plays))]
			}
		}
		cr := post(seat, choice)
		for _, ev := range cr.Events {
			switch ev.Type {
			case "CardsPlayed":
				if ev.Data["seat"].(float64) == float64(s.holder) && fmt.Sprint(ev.Data["cards"]) == fmt.Sprint(s.bomb) {
					bombPlayed = true
					if ev.Data["awards"] != 1.0 || ev.Data["reading"].(map[string]any)["type"] != "bomb" {
						t.Fatalf("the 四红 bomb is recorded %v, want a bomb earning 1 award (dadun.md, 盾 awards)", ev.Data)
					}
				}
			case "FriendRevealed":
				if ev.Data["seat"].(float64) != float64(s.friend) || ev.Data["card"] != s.card {
					t.Fatalf("FriendRevealed %v, want seat %d with %s", ev.Data, s.friend, s.card)
				}
				revealed = true
			case "HandSettled":
				settled = cr.Table.LastSettlement
			}
		}
		if settled == nil && (step%4 == 0 || revealed && step < 200) {
			e.crawlDadun(id, viewers, s, revealed)
		}
	}
	if !bombPlayed || !revealed {
		t.Fatalf("the hand ended with the bomb played %v and the friend revealed %v", bombPlayed, revealed)
	}
	var res dadun.Result
	mustUnmarshal(t, settled.Result, &res)
	t.Logf("seed base %d: banker %d, friend %d (%s), 四红 bomb by seat %d; %s ×%d, finish %v, deltas %v",
		s.base, s.banker, s.friend, s.card, s.holder, res.Outcome, res.Multiplier, res.Finish, settled.Deltas)
	t.Logf("awards %+v", res.Awards)
	if res.End != "played_out" || res.Friend == nil || *res.Friend != s.friend || len(res.Awards) == 0 {
		t.Fatalf("result %s: want a hand played out with friend %d and the award", settled.Result, s.friend)
	}
	// dadun.md, 盾 awards Decision: each other player pays the earner
	// awards × base, apart from the result; the result pays the multiplier.
	award := make([]int, 4)
	for _, a := range res.Awards {
		for i := range award {
			if i == a.Seat {
				award[i] += 3 * a.Awards * 2
			} else {
				award[i] -= a.Awards * 2
			}
		}
	}
	if a := res.Awards[0]; a.Seat != s.holder || a.Awards != 1 || cards.Format(a.Cards) != strings.Join(s.bomb, " ") {
		t.Fatalf("first award %+v, want seat %d's 四红 bomb earning 1", a, s.holder)
	}
	sum := 0
	for i, d := range settled.Deltas {
		want := res.Multiplier * 2
		if !slices.Contains(res.Winners, i) {
			want = -want
		}
		if res.ResultDeltas[i] != want || res.AwardDeltas[i] != award[i] || d != want+award[i] {
			t.Fatalf("seat %d: result %d, awards %d, delta %d; want %d, %d, %d (dadun.md, Points and result; 盾 awards)",
				i, res.ResultDeltas[i], res.AwardDeltas[i], d, want, award[i], want+award[i])
		}
		sum += d
	}
	if sum != 0 || len(settled.Seed) != 64 {
		t.Fatalf("deltas %v sum to %d; seed %q", settled.Deltas, sum, settled.Seed)
	}
	v = e.view(id, ps[0].Token)
	if v.HandNumber != 2 || v.Phase != "declaring" {
		t.Fatalf("after the settlement: hand %d phase %s; want hand 2 dealt at once", v.HandNumber, v.Phase)
	}
	for i, st := range v.Seats {
		if st.Total != settled.Deltas[i] {
			t.Errorf("seat %d total %d, want its settlement %d", i, st.Total, settled.Deltas[i])
		}
	}
	evs, err := e.store.Load(context.Background(), service.StreamID(id), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := audit.VerifyTable(games.All().Rules, evs); err != nil {
		t.Fatalf("the stream of a 打盾 table played over REST does not verify: %v", err)
	}
}
