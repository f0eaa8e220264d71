package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/domain/cards"
	"paiju/games"
	"paiju/service"
)

// nnShownDefaults is every 牛牛 option at its default, as the lobby and the
// table view show it.
const nnShownDefaults = `{"seats":4,"banker":0,"arrange_seconds":0,"banker_mode":"fixed","multipliers":{"bull_7":2,"bull_8":3,"bull_9":4,"bull_bull":5},"special_hands":{},"jokers":true}`

// nnClasses are 牛牛's classes, lowest first (niuniu.md, Comparing; Table
// options, special_hands: five_small > bomb > five_face > 牛牛).
var nnClasses = []string{"no_bull", "bull_1", "bull_2", "bull_3", "bull_4", "bull_5", "bull_6", "bull_7", "bull_8", "bull_9", "bull_bull", "five_face", "bomb", "five_small"}

// nnRevealed is a seat's hand at the reveal, as HandsRevealed shows it.
type nnRevealed struct {
	Seat    int      `json:"seat"`
	Cards   []string `json:"cards"`
	Reading string   `json:"reading"`
	High    string   `json:"high"`
}

// nnHand is a hand played over REST to its settlement.
type nnHand struct {
	revealed []nnRevealed
	deltas   []int
	seed     string
	banker   int // the result's
}

// nnOrder is a card's order as the highest single card (niuniu.md,
// Comparing): RJ > BJ > K > … > A, then ♠ > ♥ > ♣ > ♦.
func nnOrder(c string) int {
	switch c {
	case "RJ":
		return 100
	case "BJ":
		return 99
	}
	rank := map[string]int{"A": 1, "J": 11, "Q": 12, "K": 13}[c[1:]]
	if rank == 0 {
		fmt.Sscan(c[1:], &rank)
	}
	return rank*4 + 3 - map[byte]int{'S': 0, 'H': 1, 'C': 2, 'D': 3}[c[0]]
}

// nnFour is the rank order (A 1 … K 13) a bomb holds four of.
func nnFour(hand []string) int {
	count := map[string]int{}
	for _, c := range hand {
		count[c[1:]]++
	}
	for _, c := range hand {
		if count[c[1:]] == 4 {
			return nnOrder(c) / 4
		}
	}
	return 0
}

// nnDelta is a player's delta against the banker at stake under the pay
// table (niuniu.md, Comparing and Settlement; Table options): the higher
// class wins; in a bull or no-bull class the banker's edge when both
// highest cards are Q or lower, else the higher card; equal special classes
// have no edge, bombs comparing the four's rank.
func nnDelta(stake int, pay map[string]int, banker, player nnRevealed) int {
	b, p := slices.Index(nnClasses, banker.Reading), slices.Index(nnClasses, player.Reading)
	bankerWins := b > p
	if b == p {
		switch {
		case banker.Reading == "bomb":
			bankerWins = nnFour(banker.Cards) > nnFour(player.Cards)
		case b > 10:
			bankerWins = nnOrder(banker.High) > nnOrder(player.High)
		default:
			edge := nnOrder(banker.High) < 13*4 && nnOrder(player.High) < 13*4
			bankerWins = edge || nnOrder(banker.High) > nnOrder(player.High)
		}
	}
	mult := func(class string) int {
		if m, ok := pay[class]; ok {
			return m
		}
		return 1
	}
	if bankerWins {
		return -stake * mult(banker.Reading)
	}
	return stake * mult(player.Reading)
}

// nnPlayHand plays the running hand to its settlement over REST, every
// seat arranging its first legal bull or declaring no bull, in seat order.
func (e *env) nnPlayHand(id string, ps []player) nnHand {
	e.t.Helper()
	for seat, p := range ps {
		var a map[string]any
		for _, l := range e.legal(id, p.Token) {
			if l["type"] == "arrange" || l["type"] == "no_bull" && a == nil {
				a = l
				if l["type"] == "arrange" {
					break
				}
			}
		}
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: p.Token, Body: a})
		if r.Status != http.StatusOK {
			e.t.Fatalf("seat %d posting %v: %d %s", seat, a, r.Status, r.Body)
		}
		var cr struct {
			Events []struct {
				Type string          `json:"type"`
				Data json.RawMessage `json:"data"`
			} `json:"events"`
		}
		r.Decode(e.t, &cr)
		var h nnHand
		for _, ev := range cr.Events {
			switch ev.Type {
			case "HandsRevealed":
				var rev struct {
					Hands []nnRevealed `json:"hands"`
				}
				nnDecode(e.t, ev.Data, &rev)
				h.revealed = rev.Hands
			case "HandSettled":
				var hs struct {
					Deltas []int           `json:"deltas"`
					Seed   string          `json:"seed"`
					Result json.RawMessage `json:"result"`
				}
				nnDecode(e.t, ev.Data, &hs)
				var res struct {
					Banker int `json:"banker"`
				}
				nnDecode(e.t, hs.Result, &res)
				h.deltas, h.seed, h.banker = hs.Deltas, hs.Seed, res.Banker
				return h
			}
		}
	}
	e.t.Fatalf("the hand did not settle when every seat had arranged (niuniu.md, Arranging)")
	return nnHand{}
}

// nnDecode decodes data into v or fails the test.
func nnDecode(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
}

// nnDeal restates doc.go, Dealing: the seed's Fisher–Yates over the 54
// cards (or the 52 without jokers), card i to seat i mod n, then the
// stream for a further draw.
func nnDeal(t *testing.T, seedHex string, n int, jokers bool) ([][]string, *cards.Stream) {
	t.Helper()
	seed, err := cards.ParseSeed(seedHex)
	if err != nil {
		t.Fatal(err)
	}
	deck := cards.Deck(1)
	if !jokers {
		deck = deck[:52]
	}
	st := cards.NewStream(seed)
	cards.Shuffle(st, deck)
	hands := make([][]string, n)
	for i, c := range deck[:5*n] {
		hands[i%n] = append(hands[i%n], c.String())
	}
	return hands, st
}

// TestNiuniuOptionsOverREST opens 牛牛 tables with each house rule of
// niuniu.md, Table options, through POST /v1/tables, plays hands to their
// settlements and checks each against the rules file's arithmetic: the
// hand's banker (banker_mode), the pay (multipliers, special_hands), the
// deck (jokers); then the stored stream and the auditor's export verify
// under the recorded options (paiju verify).
func TestNiuniuOptionsOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	const allSpecial = `"special_hands":{"five_small":8,"bomb":7,"five_face":6}`
	for _, tc := range []struct {
		name    string
		envSeed uint64
		options string
		hands   int
		// banker is hand h's banker, given the stream after the shuffle.
		banker  func(h int, st *cards.Stream) int
		jokers  bool
		pay     map[string]int
		special map[int]string // seat → the special class the first deal gives it
	}{
		{"banker_mode rotate", 61, `{"seats":3,"banker":1,"banker_mode":"rotate"}`, 4,
			func(h int, _ *cards.Stream) int { return (1 + h - 1) % 3 }, true, nil, nil},
		{"banker_mode random", 62, `{"seats":2,"banker_mode":"random"}`, 4,
			func(_ int, st *cards.Stream) int { return int(st.Below(2)) }, true, nil, nil},
		// niuniu.md, Table options, multipliers, Example's table.
		{"multipliers", 63, `{"multipliers":{"bull_7":1,"bull_8":2,"bull_9":2,"bull_bull":3}}`, 3,
			func(int, *cards.Stream) int { return 0 }, true, map[string]int{"bull_7": 1, "bull_8": 2, "bull_9": 2, "bull_bull": 3}, nil},
		// The env seeds deal a special class in the first hand.
		{"special_hands five_small", 497, `{` + allSpecial + `}`, 1,
			func(int, *cards.Stream) int { return 0 }, true, map[string]int{"five_small": 8, "bomb": 7, "five_face": 6}, map[int]string{0: "five_small"}},
		{"special_hands five_face", 689, `{` + allSpecial + `}`, 1,
			func(int, *cards.Stream) int { return 0 }, true, map[string]int{"five_small": 8, "bomb": 7, "five_face": 6}, map[int]string{1: "five_face"}},
		{"special_hands bomb", 1180, `{` + allSpecial + `,"banker":3}`, 1,
			func(int, *cards.Stream) int { return 3 }, true, map[string]int{"five_small": 8, "bomb": 7, "five_face": 6}, map[int]string{3: "bomb"}},
		{"jokers false", 64, `{"jokers":false,"banker":2}`, 4,
			func(int, *cards.Stream) int { return 2 }, false, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.envSeed)
			var options map[string]any
			nnDecode(t, []byte(tc.options), &options)
			n := 4
			if s, ok := options["seats"].(float64); ok {
				n = int(s)
			}
			pay := map[string]int{"bull_7": 2, "bull_8": 3, "bull_9": 4, "bull_bull": 5}
			for k, v := range tc.pay {
				pay[k] = v
			}
			id, ps := e.openTable(map[string]any{"game": "niuniu", "variant": "classic", "stake": 3, "options": options}, n)
			for h := 1; h <= tc.hands; h++ {
				var state struct {
					GameState struct {
						Banker int `json:"banker"`
					} `json:"game_state"`
				}
				e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token}).Decode(t, &state)
				hand := e.nnPlayHand(id, ps)
				dealt, stream := nnDeal(t, hand.seed, n, tc.jokers)
				want := tc.banker(h, stream)
				if hand.banker != want || state.GameState.Banker != want {
					t.Fatalf("hand %d: banker %d (the view showed %d before the reveal), want %d (niuniu.md, Table options, banker_mode)", h, hand.banker, state.GameState.Banker, want)
				}
				deltas := make([]int, n)
				for _, rh := range hand.revealed {
					if !sameCards(rh.Cards, dealt[rh.Seat]) {
						t.Fatalf("hand %d: seat %d holds %v, the seed deals %v (doc.go, Dealing; jokers %v)", h, rh.Seat, rh.Cards, dealt[rh.Seat], tc.jokers)
					}
					if c, ok := tc.special[rh.Seat]; ok && h == 1 && rh.Reading != c {
						t.Fatalf("seat %d's %v reads %s, want %s (niuniu.md, Table options, special_hands)", rh.Seat, rh.Cards, rh.Reading, c)
					}
					if rh.Seat != want {
						deltas[rh.Seat] = nnDelta(3, pay, hand.revealed[want], rh)
						deltas[want] -= deltas[rh.Seat]
					}
				}
				if !slices.Equal(hand.deltas, deltas) {
					t.Fatalf("hand %d of %v settles %v, want %v (niuniu.md, Settlement; Table options)", h, hand.revealed, hand.deltas, deltas)
				}
			}
			evs, err := e.store.Load(context.Background(), service.StreamID(id), 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := audit.VerifyTable(games.All().Rules, evs); err != nil {
				t.Fatalf("the stream of a table with %s does not verify: %v", tc.options, err)
			}
			x := e.export(id, auditorToken)
			rep, err := audit.VerifyExport(games.All().Rules, bytes.NewReader(x.Body))
			if err != nil || rep.Deals < tc.hands {
				t.Fatalf("the export of a table with %s: %+v, %v; want %d deals verified", tc.options, rep, err, tc.hands)
			}
		})
	}
}

// TestNiuniuOptionsShownAndRefused: the table view and the lobby show a
// 牛牛 table's options with the defaults filled in, the recorded
// TableOpened leaves the defaults out, and a bad value is 422
// invalid_option naming the key, opening nothing (rules README, Table
// options).
func TestNiuniuOptionsShownAndRefused(t *testing.T) {
	p := newProjEnv(t, 65)
	ann := p.newPlayer("ann")
	plain := p.open(ann, map[string]any{"game": "niuniu", "variant": "classic"})
	house := p.open(ann, map[string]any{"game": "niuniu", "variant": "classic", "options": map[string]any{
		"seats": 3, "banker_mode": "random", "multipliers": map[string]any{"bull_bull": 6}, "jokers": false}})
	const houseShown = `{"seats":3,"arrange_seconds":0,"banker_mode":"random","multipliers":{"bull_7":2,"bull_8":3,"bull_9":4,"bull_bull":6},"special_hands":{},"jokers":false}`
	want := map[string]string{plain: nnShownDefaults, house: houseShown}
	for id, shown := range want {
		if got := string(optionsOf(t, p.get("/v1/tables/"+id, ann.Token))); got != shown {
			t.Errorf("the view of %s shows the options %s, want %s", id, got, shown)
		}
	}
	for _, e := range p.page("/v1/tables?game=niuniu", ann.Token).Tables {
		if shown, ok := want[e.ID]; ok && string(e.Options) != shown {
			t.Errorf("the lobby shows %s's options as %s, want %s", e.ID, e.Options, shown)
		}
	}
	opened := map[string]string{}
	for _, ev := range p.auditorEvents(house) {
		if ev.Type == "TableOpened" {
			var o struct {
				Options json.RawMessage `json:"options"`
			}
			nnDecode(t, ev.Data, &o)
			opened[house] = string(o.Options)
		}
	}
	if got := opened[house]; got != `{"seats":3,"banker_mode":"random","multipliers":{"bull_7":2,"bull_8":3,"bull_9":4,"bull_bull":6},"jokers":false}` {
		t.Errorf("TableOpened records the options %s, want the defaults left out", got)
	}

	for _, c := range []struct {
		name, option string
		options      map[string]any
	}{
		{"banker_mode unknown", "banker_mode", map[string]any{"banker_mode": "grab"}},
		{"banker with random", "banker", map[string]any{"banker_mode": "random", "banker": 1}},
		{"a multiplier above 20", "multipliers", map[string]any{"multipliers": map[string]any{"bull_bull": 21}}},
		{"multipliers decreasing", "multipliers", map[string]any{"multipliers": map[string]any{"bull_7": 5}}},
		{"a special below 牛牛", "special_hands", map[string]any{"special_hands": map[string]any{"bomb": 4}}},
		{"an unknown special", "special_hands", map[string]any{"special_hands": map[string]any{"straight": 6}}},
		{"jokers not a boolean", "jokers", map[string]any{"jokers": "no"}},
	} {
		before := p.head()
		r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ann.Token, Body: map[string]any{"game": "niuniu", "variant": "classic", "options": c.options}, Raw: true})
		var pr struct {
			Code   string `json:"code"`
			Option string `json:"option"`
		}
		r.Decode(t, &pr)
		if r.Status != http.StatusUnprocessableEntity || pr.Code != "invalid_option" || pr.Option != c.option {
			t.Errorf("opening with %s: %d %s, want 422 invalid_option naming %q", c.name, r.Status, r.Body, c.option)
		}
		if p.head() != before {
			t.Errorf("opening with %s appended to the store", c.name)
		}
	}
}

// TestNiuniuQuickPlayOptions: quick play matches 牛牛 tables by their
// normalized options, so asking a default explicitly meets a table opened
// without options, and a house rule meets only its like.
func TestNiuniuQuickPlayOptions(t *testing.T) {
	p := newProjEnv(t, 66)
	ann, ben, cat, dan := p.newPlayer("ann"), p.newPlayer("ben"), p.newPlayer("cat"), p.newPlayer("dan")
	quick := func(pl player, options map[string]any) (int, string) {
		t.Helper()
		st, tv, r := p.quick(pl, map[string]any{"game": "niuniu", "variant": "classic", "options": options}, nil)
		if st != http.StatusOK && st != http.StatusCreated {
			t.Fatalf("%s's quick play with %v: %d %s", pl.Name, options, st, r.Body)
		}
		return st, tv.ID
	}
	_, rotating := quick(ann, map[string]any{"banker_mode": "rotate", "jokers": false})
	if st, id := quick(ben, map[string]any{"jokers": false, "banker_mode": "rotate", "banker": 0}); st != http.StatusOK || id != rotating {
		t.Errorf("ben's quick play with the same house rules: %d table %s, want ann's %s", st, id, rotating)
	}
	_, plain := quick(cat, map[string]any{})
	if plain == rotating {
		t.Errorf("a quick play without options met the table of house rules")
	}
	if st, id := quick(dan, map[string]any{"banker_mode": "fixed", "special_hands": map[string]any{}, "jokers": true}); st != http.StatusOK || id != plain {
		t.Errorf("dan's quick play with the defaults asked: %d table %s, want cat's %s", st, id, plain)
	}
}
