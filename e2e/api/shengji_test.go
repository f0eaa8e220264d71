package api_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
)

// sjTruth is what the auditor knows of the running 升级 deal.
type sjTruth struct {
	dealt    [][]string // each seat's 26 cards in draw order
	round    int
	dealer   int
	kitty    []string // taken by the dealer
	buried   []string
	played   [4][]string
	revealed bool // the trump suit is public (flipped, or the kitty buried)
	declarer int  // the standing declaration's seat, -1 if none
	seed     string
	dealAt   int
}

// hand is what seat holds now: its drawn cards, the kitty if it dealt, less
// what it buried and played.
func (tr sjTruth) hand(seat int) []string {
	if seat < 0 || tr.dealt == nil {
		return nil
	}
	h := slices.Clone(tr.dealt[seat][:tr.round])
	if seat == tr.dealer {
		h = append(h, tr.kitty...)
		h = removeAll(h, tr.buried)
	}
	h = removeAll(h, tr.played[seat])
	slices.Sort(h)
	return h
}

func removeAll(h, cs []string) []string {
	for _, c := range cs {
		if i := slices.Index(h, c); i >= 0 {
			h = slices.Delete(h, i, i+1)
		}
	}
	return h
}

func (e *env) shengjiTruth(id string) sjTruth {
	e.t.Helper()
	var tr sjTruth
	for _, ev := range e.auditorEvents(id) {
		var d struct {
			Hands [][]string      `json:"hands"`
			Seed  string          `json:"seed"`
			Round int             `json:"round"`
			Seat  int             `json:"seat"`
			Cards json.RawMessage `json:"cards"`
		}
		mustUnmarshal(e.t, ev.Data, &d)
		var cs []string
		if ev.Type != "CardsDrawn" && len(d.Cards) > 0 {
			mustUnmarshal(e.t, d.Cards, &cs)
		}
		switch ev.Type {
		case "HandDealt":
			tr = sjTruth{dealt: d.Hands, dealAt: ev.Version, dealer: -1, declarer: -1}
		case "DealSecret":
			tr.seed = d.Seed
		case "CardsDrawn":
			tr.round = d.Round
		case "TrumpDeclared":
			tr.declarer = d.Seat
		case "KittyFlipped":
			tr.revealed = true
		case "KittyTaken":
			tr.dealer, tr.kitty = d.Seat, cs
		case "KittyBuried":
			tr.buried = cs
		case "TrumpRevealed":
			tr.revealed = true
		case "CardsPlayed":
			tr.played[d.Seat] = append(tr.played[d.Seat], cs...)
		case "HandSettled", "DealVoided":
			tr = sjTruth{dealer: -1, declarer: -1}
		}
	}
	return tr
}

// sjSortedWithoutTrump reports whether cs are in the display order of a hand
// with no trump suit (doc.go, Decisions): jokers and level cards first (and
// every 2, 3 and 5 when fixed, guafeng), then ♠ ♥ ♣ ♦. Before the trump is
// public this is the order every seat but the final declarer is shown its
// cards in: sorting by the hidden suit would put that suit first.
func sjSortedWithoutTrump(cs []string, level string, fixed bool) bool {
	class := func(c string) int {
		r := c[1:]
		switch {
		case c == "RJ" || c == "BJ" || r == level:
			return 0
		case fixed && (r == "2" || r == "3" || r == "5"):
			return 0
		}
		return 1 + strings.Index("SHCD", c[:1])
	}
	for i := 1; i < len(cs); i++ {
		if class(cs[i]) < class(cs[i-1]) {
			return false
		}
	}
	return true
}

// sjCheckEvents checks a running deal's events as seat (-1: a spectator)
// received them: no undrawn card, no other seat's draw, no other seat's
// declaration suit, no kitty but the dealer's own.
func sjCheckEvents(t *testing.T, who string, seat int, body []byte) {
	t.Helper()
	var feed struct {
		Events []struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		} `json:"events"`
	}
	mustUnmarshal(t, body, &feed)
	for _, ev := range feed.Events {
		d := ev.Data
		switch ev.Type {
		case "HandDealt":
			for i, h := range d["hands"].([]any) {
				if h != nil && len(h.([]any)) > 0 {
					t.Fatalf("%s sees seat %d's dealt hand in HandDealt: a seat sees only cards it has drawn (shengji.md, The deal)", who, i)
				}
			}
			if d["kitty"] != nil {
				t.Fatalf("%s sees the kitty in HandDealt", who)
			}
		case "DealSecret":
			t.Fatalf("%s sees the running deal's DealSecret", who)
		case "CardsDrawn":
			for i, c := range d["cards"].([]any) {
				if i != seat && c != nil {
					t.Fatalf("%s sees seat %d's draw %v", who, i, c)
				}
				if i == seat && c == nil {
					t.Fatalf("%s does not see its own draw", who)
				}
			}
		case "TrumpDeclared":
			if int(d["seat"].(float64)) != seat && (d["suit"] != nil || d["cards"] != nil) {
				t.Fatalf("%s sees another seat's hidden declaration %v (shengji.md: 暗亮, hidden until the kitty is buried)", who, d)
			}
		case "KittyTaken", "KittyBuried":
			if int(d["seat"].(float64)) != seat && d["cards"] != nil {
				t.Fatalf("%s sees the dealer's kitty in %s (shengji.md, Kitty: only the burier sees it)", who, ev.Type)
			}
		}
	}
}

// TestShengjiHandOverREST: four players play whole 宁阳刮风 hands over REST —
// draw, declare and override, pass, bury, every trick, settlement — and the
// next hand starts with the dealer and level the settlement named. After
// every action every seat and a spectator crawl the table, its legal
// actions and the running deal's events: nobody sees another seat's cards,
// cards not yet drawn, the buried kitty, the hidden trump suit or the seed
// before the rules reveal them. With -short (a quick run) the
// crawl follows hand 1 (up to the action that settles it) and hand 2 is
// played without it.
func TestShengjiHandOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel()       // one of the package's longest tests: they run side by side
	e := newEnv(t, 36) // a seed whose first hand has an override
	id, ps := e.openTable(map[string]any{"game": "shengji", "variant": "ningyang", "stake": 2}, 4)
	spectator := e.newPlayer("sam")
	viewers := append(slices.Clone(ps), spectator)

	crawl := func(last *apitest.Response, lastSeat int) {
		tr := e.shengjiTruth(id)
		if tr.dealt == nil {
			return
		}
		for seat, p := range viewers {
			who := fmt.Sprintf("seat %d", seat)
			if seat == 4 {
				who, seat = "a spectator", -1
			}
			r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: p.Token})
			if strings.Contains(string(r.Body), tr.seed) {
				t.Fatalf("%s sees the running deal's seed", who)
			}
			var v struct {
				Hand      []string       `json:"hand"`
				GameState map[string]any `json:"game_state"`
			}
			r.Decode(t, &v)
			got := slices.Clone(v.Hand)
			slices.Sort(got)
			if want := tr.hand(seat); !slices.Equal(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("%s sees hand %v, holds %v (shengji.md: a player has only the cards drawn)", who, got, want)
			}
			g := v.GameState
			if g["hands"] != nil {
				t.Fatalf("%s sees every hand", who)
			}
			if g["kitty"] != nil && seat != tr.dealer {
				t.Fatalf("%s sees the kitty %v (shengji.md, Kitty)", who, g["kitty"])
			}
			// Before the bury only the final declarer knows the trump,
			// and with it the trump order (shengji.md: 暗亮).
			if !tr.revealed && seat != tr.declarer && (g["trump"] != nil || g["trump_order"] != nil) {
				t.Fatalf("%s sees trump %v, order %v before the kitty is buried (shengji.md: 暗亮)", who, g["trump"], g["trump_order"])
			}
			// The hidden suit does not show through the order of the hand
			// or of the legal actions (the dealer's buries before the
			// reveal): shengji.md, 暗亮.
			level, _ := g["level"].(string)
			hidden := !tr.revealed && seat >= 0 && seat != tr.declarer
			if hidden && !sjSortedWithoutTrump(v.Hand, level, false) {
				t.Fatalf("%s sees its hand as %v before the trump is public: sorted by the hidden suit (shengji.md: 暗亮)", who, v.Hand)
			}
			if ds, _ := g["declarations"].([]any); ds != nil {
				for _, d := range ds {
					dm := d.(map[string]any)
					if int(dm["seat"].(float64)) != seat && dm["suit"] != nil && !tr.revealed {
						t.Fatalf("%s sees declaration %v before the kitty is buried", who, dm)
					}
				}
			}
			// Legal names only the seat's own cards.
			hand := tr.hand(seat)
			for _, a := range e.legal(id, p.Token) {
				cs, _ := a["cards"].([]any)
				var names []string
				for _, c := range cs {
					names = append(names, c.(string))
				}
				if len(removeAll(slices.Clone(hand), names)) != len(hand)-len(names) {
					t.Fatalf("%s is offered %v, not all in its hand %v", who, a, hand)
				}
				if hidden && !sjSortedWithoutTrump(names, level, false) {
					t.Fatalf("%s is offered %v before the trump is public: sorted by the hidden suit (shengji.md: 暗亮)", who, a)
				}
			}
			r = e.eventsSince(id, p.Token, tr.dealAt-1)
			if strings.Contains(string(r.Body), tr.seed) {
				t.Fatalf("%s sees the running deal's seed in the events", who)
			}
			sjCheckEvents(t, who, seat, r.Body)
			if last != nil && seat == lastSeat {
				sjCheckEvents(t, who+" (its command's response)", seat, last.Body)
			}
		}
	}

	type choice struct {
		seat int
		a    map[string]any
	}
	var declares, overrides, hands int
	var lastResult map[string]any
	crawl(nil, -1)
	for step := 0; hands < 2 && step < 1500; step++ {
		var decl, other []choice
		for seat, p := range ps {
			for _, a := range e.legal(id, p.Token) {
				switch a["type"] {
				case "escape", "leave", "delegate":
				case "declare":
					decl = append(decl, choice{seat, a})
				default:
					other = append(other, choice{seat, a})
				}
			}
		}
		var c choice
		switch {
		case len(decl) > 0 && e.rng.IntN(3) > 0:
			// The weakest declaration leaves room for an override.
			c = decl[e.rng.IntN(len(decl))]
			for _, d := range decl {
				if len(d.a["cards"].([]any)) < len(c.a["cards"].([]any)) {
					c = d
				}
			}
		case len(other) > 0:
			c = other[e.rng.IntN(len(other))]
		default:
			t.Fatalf("no seat may act in phase %s", e.view(id, ps[0].Token).Phase)
		}
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[c.seat].Token, Body: c.a})
		if r.Status != 200 {
			t.Fatalf("seat %d: legal %v: %d %s", c.seat, c.a, r.Status, r.Body)
		}
		var cr struct {
			Events []eventView `json:"events"`
		}
		r.Decode(t, &cr)
		crawling := hands == 0 || !testing.Short()
		for _, ev := range cr.Events {
			switch ev.Type {
			case "TrumpDeclared":
				if declares > 0 && hands == 0 {
					overrides++
				}
				if hands == 0 {
					declares++
				}
			case "HandSettled":
				hands++
				if hands == 1 {
					res := ev.Data["result"].(map[string]any)
					lastResult = res
					if res["end"] != "played_out" {
						t.Fatalf("hand 1 ended by %v", res["end"])
					}
					deltas := ev.Data["deltas"].([]any)
					sum := 0.0
					for _, d := range deltas {
						sum += d.(float64)
					}
					if sum != 0 || ev.Data["seed"] == "" {
						t.Fatalf("settlement %v: deltas must balance and the seed be revealed", ev.Data)
					}
				}
			case "KittyTaken":
				if hands == 1 {
					// Hand 2: the dealer and level hand 1's settlement named.
					next := int(lastResult["next_dealer"].(float64))
					levels := lastResult["levels"].([]any)
					if int(ev.Data["seat"].(float64)) != next || ev.Data["level"] != levels[next%2] {
						t.Fatalf("hand 2 dealt by %v at level %v; hand 1 named seat %d at %v (shengji.md, Scoring and levels)", ev.Data["seat"], ev.Data["level"], next, levels[next%2])
					}
				}
			}
		}
		if crawling {
			crawl(r, c.seat)
		}
	}
	if hands < 2 {
		t.Fatalf("only %d hands settled", hands)
	}
	if declares == 0 || overrides == 0 {
		t.Fatalf("hand 1 had %d declarations, %d overrides: the test seed must exercise both", declares, overrides)
	}
	v := e.view(id, ps[0].Token)
	if v.HandNumber != 3 {
		t.Fatalf("after two hands the table deals hand %d", v.HandNumber)
	}
}
