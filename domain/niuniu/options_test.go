package niuniu

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// shownDefaults is every option at its default, as the lobby shows it.
const shownDefaults = `{"seats":4,"banker":0,"arrange_seconds":0,"banker_mode":"fixed","multipliers":{"bull_7":2,"bull_8":3,"bull_9":4,"bull_bull":5},"special_hands":{},"jokers":true}`

// TestHouseOptions: the house rules of niuniu.md, Table options, are read
// into the normalized options with every key at its default left out (a
// table opened without them records what it did before them), and shown
// with the defaults filled in; a bad value is invalid_option naming its key
// (rules README, Table options: Validated).
func TestHouseOptions(t *testing.T) {
	ok := []struct{ in, norm string }{
		{`{"banker_mode":"fixed","multipliers":{},"special_hands":{},"jokers":true}`, `{"seats":4,"banker":0}`},
		{`{"multipliers":{"bull_7":2,"bull_8":3,"bull_9":4,"bull_bull":5}}`, `{"seats":4,"banker":0}`},
		{`{"banker_mode":"rotate","banker":2}`, `{"seats":4,"banker":2,"banker_mode":"rotate"}`},
		{`{"banker_mode":"random","seats":3}`, `{"seats":3,"banker_mode":"random"}`},
		// Missing multipliers take the seed's value (Decision); recorded whole.
		{`{"multipliers":{"bull_bull":8}}`, `{"seats":4,"banker":0,"multipliers":{"bull_7":2,"bull_8":3,"bull_9":4,"bull_bull":8}}`},
		{`{"multipliers":{"bull_7":1,"bull_8":2,"bull_9":2,"bull_bull":3}}`, `{"seats":4,"banker":0,"multipliers":{"bull_7":1,"bull_8":2,"bull_9":2,"bull_bull":3}}`},
		{`{"special_hands":{"five_small":8}}`, `{"seats":4,"banker":0,"special_hands":{"five_small":8}}`},
		{`{"multipliers":{"bull_bull":3,"bull_9":3},"special_hands":{"bomb":3,"five_face":50}}`, `{"seats":4,"banker":0,"multipliers":{"bull_7":2,"bull_8":3,"bull_9":3,"bull_bull":3},"special_hands":{"bomb":3,"five_face":50}}`},
		{`{"jokers":false,"arrange_seconds":30,"seats":2,"banker":1}`, `{"seats":2,"banker":1,"arrange_seconds":30,"jokers":false}`},
	}
	for _, tc := range ok {
		r, err := New().Rules("classic", json.RawMessage(tc.in))
		if err != nil {
			t.Fatalf("options %s: %v", tc.in, err)
		}
		if got := string(r.Options()); got != tc.norm {
			t.Errorf("options %s normalize to %s, want %s", tc.in, got, tc.norm)
		}
		// A replay reads the recorded options back to the same rules.
		again, err := New().RulesAt(r.Version(), "classic", r.Options())
		if err != nil || string(again.Options()) != tc.norm || string(table.ShownOptions(again)) != string(table.ShownOptions(r)) {
			t.Errorf("recorded options %s read back as %v, %v", tc.norm, again, err)
		}
	}
	shown := []struct{ in, want string }{
		{``, shownDefaults},
		{`{"banker_mode":"random","seats":2,"special_hands":{"bomb":6},"jokers":false}`,
			`{"seats":2,"arrange_seconds":0,"banker_mode":"random","multipliers":{"bull_7":2,"bull_8":3,"bull_9":4,"bull_bull":5},"special_hands":{"bomb":6},"jokers":false}`},
	}
	for _, tc := range shown {
		if got := string(table.ShownOptions(rulesWith(t, tc.in).untyped())); got != tc.want {
			t.Errorf("options %q are shown as %s, want %s", tc.in, got, tc.want)
		}
	}
	bad := []struct{ in, key string }{
		{`{"seats":5}`, "seats"},
		{`{"banker":4}`, "banker"},
		{`{"arrange_seconds":-1}`, "arrange_seconds"},
		{`{"stake":1}`, "stake"},
		{`{"banker_mode":"dealer"}`, "banker_mode"},
		{`{"banker_mode":2}`, "banker_mode"},
		// niuniu.md, Table options, banker_mode: "banker with it is 422".
		{`{"banker_mode":"random","banker":0}`, "banker"},
		{`{"multipliers":{"bull_6":2}}`, "multipliers"},
		{`{"multipliers":{"bull_7":0}}`, "multipliers"},
		{`{"multipliers":{"bull_bull":21}}`, "multipliers"},
		{`{"multipliers":{"bull_8":2.5}}`, "multipliers"},
		{`{"multipliers":[2,3,4,5]}`, "multipliers"},
		// Non-decreasing after the seed fills the missing keys (Decision).
		{`{"multipliers":{"bull_7":4}}`, "multipliers"},
		{`{"multipliers":{"bull_9":6}}`, "multipliers"},
		{`{"multipliers":{"bull_bull":3}}`, "multipliers"},
		{`{"special_hands":{"five_small":4}}`, "special_hands"},
		{`{"special_hands":{"five_small":51}}`, "special_hands"},
		{`{"special_hands":{"bull_bull":6}}`, "special_hands"},
		{`{"special_hands":true}`, "special_hands"},
		{`{"multipliers":{"bull_bull":10},"special_hands":{"bomb":9}}`, "special_hands"},
		{`{"jokers":"no"}`, "jokers"},
		{`{"jokers":0}`, "jokers"},
	}
	for _, tc := range bad {
		_, err := New().Rules("classic", json.RawMessage(tc.in))
		var e *table.Error
		if !errors.Is(err, table.ErrBadOption) || !errors.As(err, &e) || e.Option != tc.key {
			t.Errorf("options %s: got %v, want invalid_option naming %q (niuniu.md, Table options)", tc.in, err, tc.key)
		}
	}
}

// settle plays a position of two seats (the banker first) where the player
// arranges as given (nil: its first bull, else no bull; an empty action:
// nothing, the banker then arranges last) and returns the player's delta
// and the result.
func settle(t *testing.T, options string, stake int, banker, player string, a *table.Action) (int, Result) {
	t.Helper()
	r := rulesWith(t, options)
	st := position(t, r, stake, banker, player)
	switch {
	case a == nil:
		arrangeBest(t, st, 1)
	default:
		gametest.MustAct(t, st, 1, *a)
	}
	evs := arrangeBest(t, st, 0)
	hs, res := gametest.SettledOf[Result](t, evs)
	if hs.Deltas[0]+hs.Deltas[1] != 0 {
		t.Fatalf("deltas %v do not sum to zero (niuniu.md, Settlement)", hs.Deltas)
	}
	return hs.Deltas[1], res
}

// TestMultipliersExample is niuniu.md, Table options, multipliers, Example:
// with {"bull_7":1,"bull_8":2,"bull_9":2,"bull_bull":3} the banker's 牛8
// beats a player's 牛3 at stake 10: today the player pays 30; now 20.
func TestMultipliersExample(t *testing.T) {
	const banker8, player3 = "H3 C7 SK D4 H4", "S10 HJ CQ DA H2"
	for _, tc := range []struct {
		options string
		want    int
	}{
		{`{"seats":2}`, -30},
		{`{"seats":2,"multipliers":{"bull_7":1,"bull_8":2,"bull_9":2,"bull_bull":3}}`, -20},
	} {
		got, res := settle(t, tc.options, 10, banker8, player3, nil)
		if got != tc.want || res.Readings[0] != 8 || res.Readings[1] != 3 || res.Bouts[0].Multiplier != -tc.want/10 {
			t.Errorf("options %s: the player's 牛3 against the banker's 牛8 at stake 10 pays %d (result %+v), want %d (niuniu.md, Table options, multipliers, Example)", tc.options, got, res, tc.want)
		}
	}
	// 牛1–牛6 and 没牛 stay ×1, and the table prices 牛7 and 牛9 too.
	got, _ := settle(t, `{"seats":2,"multipliers":{"bull_7":6,"bull_8":6,"bull_9":7,"bull_bull":7}}`, 1, "H3 C7 SK D4 H4", "S10 HJ CQ D3 H4", nil)
	if got != -6 {
		t.Errorf("a player's 牛7 against the banker's 牛8 with bull_8 6 pays %d, want -6 (niuniu.md, Table options, multipliers)", got)
	}
}

// TestSpecialHandsExample is niuniu.md, Table options, special_hands,
// Example: player ♠A ♥A ♣2 ♦3 ♠2 (sum 9) against the banker's 牛牛, stake 1,
// {"five_small":8}: today 没牛, pays 5; now wins 8 — whether it declared no
// bull or never arranged (Decision: found at the reveal from its five cards).
func TestSpecialHandsExample(t *testing.T) {
	const bankerBull, playerSmall = "S10 HJ CQ DK HQ", "SA HA C2 D3 S2"
	noBull := noBullA()
	for _, tc := range []struct {
		options string
		a       *table.Action
		want    int
		reading Bull
	}{
		{`{"seats":2}`, nil, -5, NoBull},
		{`{"seats":2,"special_hands":{"five_small":8}}`, nil, 8, FiveSmall},
		{`{"seats":2,"special_hands":{"five_small":8}}`, &noBull, 8, FiveSmall},
		// A class the table does not play is not found.
		{`{"seats":2,"special_hands":{"bomb":8,"five_face":8}}`, nil, -5, NoBull},
	} {
		got, res := settle(t, tc.options, 1, bankerBull, playerSmall, tc.a)
		if got != tc.want || res.Readings[1] != tc.reading {
			t.Errorf("options %s: the player's %s against the banker's 牛牛 settles %d read %v, want %d read %v (niuniu.md, Table options, special_hands, Example)", tc.options, playerSmall, got, res.Readings[1], tc.want, tc.reading)
		}
	}
	// The reading is written by name at the reveal.
	r := rulesWith(t, `{"seats":2,"special_hands":{"five_small":8}}`)
	st := position(t, r, 1, bankerBull, playerSmall)
	arrangeBest(t, st, 1)
	evs := arrangeBest(t, st, 0)
	b, _ := json.Marshal(evs[1].(HandsRevealed).Hands[1])
	if want := `{"seat":1,"cards":["HA","SA","C2","S2","D3"],"reading":"five_small","high":"D3"}`; string(b) != want {
		t.Errorf("the reveal shows %s, want %s", b, want)
	}
}

// TestSpecialClasses reads the special classes by niuniu.md, Table options,
// special_hands: five_small (every card A–4, sum ≤ 10), bomb (four of a
// rank), five_face (all J/Q/K; a joker is not a face card); a hand takes its
// highest class the table plays, five_small > bomb > five_face.
func TestSpecialClasses(t *testing.T) {
	all := PayTable{FiveFace: 6, Bomb: 7, FiveSmall: 8}
	for _, tc := range []struct {
		hand string
		pay  PayTable
		want Bull
	}{
		{"SA HA C2 D3 S2", all, FiveSmall},
		{"SA HA C4 D4 S2", all, NoBull},    // sum 12
		{"SA HA C2 D3 S5", all, NoBull},    // a 5
		{"SA HA CA DA S4", all, FiveSmall}, // also a bomb: the higher class
		{"SA HA CA DA S4", PayTable{Bomb: 7}, Bomb},
		{"S9 H9 C9 D9 BJ", all, Bomb},
		{"SJ HQ CK DK SQ", all, FiveFace},
		{"SJ HQ CK DK BJ", all, NoBull},  // a joker is not a face card
		{"SJ HQ CK DK S10", all, NoBull}, // a 10 is not either
		{"SK HK CK DK SQ", all, Bomb},    // a bomb above five_face
		{"SK HK CK DK SQ", PayTable{FiveFace: 5}, FiveFace},
		{"SJ HQ CK DK SQ", PayTable{}, NoBull}, // the seed plays none
	} {
		if got := Special(cards.MustParse(tc.hand), tc.pay); got != tc.want {
			t.Errorf("%s with %v: %v, want %v (niuniu.md, Table options, special_hands)", tc.hand, tc.pay, got, tc.want)
		}
	}
}

// TestSpecialHandsCompare: special classes outrank 牛牛 in the order
// five_small > bomb > five_face; equal specials compare bombs by the four's
// rank (K high), the others by highest card then suit, with no banker's edge
// (niuniu.md, Table options, special_hands, Decisions).
func TestSpecialHandsCompare(t *testing.T) {
	const every = `{"seats":2,"special_hands":{"five_small":9,"bomb":8,"five_face":7}}`
	for _, tc := range []struct {
		name, banker, player string
		want                 int // the player's delta at stake 1
		by                   string
	}{
		{"five_face beats 牛牛", "S10 HJ CQ DK H10", "SJ HQ CK DJ SQ", 7, ByClass},
		{"bomb beats five_face", "SJ HQ CK DJ SQ", "S9 H9 C9 D9 SA", 8, ByClass},
		{"five_small beats bomb", "SA HA C2 D3 S2", "S9 H9 C9 D9 HK", -9, ByClass},
		{"the higher bomb wins: K over 9", "S9 H9 C9 D9 SA", "SK HK CK DK H2", 8, ByBombRank},
		{"the higher bomb wins: 2 over A", "S2 H2 C2 D2 S5", "SA HA CA DA H5", -8, ByBombRank},
		{"no banker's edge in five_small: ♠3 over ♥3", "SA HA S2 H2 H3", "CA DA C2 D2 S3", 9, ByHighCard},
		{"five_face by the highest card", "SJ HJ CQ DQ SK", "CJ DJ SQ HQ HK", -7, ByHighCard},
	} {
		got, res := settle(t, every, 1, tc.banker, tc.player, nil)
		if got != tc.want || res.Bouts[0].By != tc.by {
			t.Errorf("%s: the player settles %d by %s, want %d by %s (niuniu.md, Table options, special_hands)", tc.name, got, res.Bouts[0].By, tc.want, tc.by)
		}
	}
}

// TestHouseRulesEscape: escapes pay by the table's multipliers and value the
// seats by the special classes too; a seat that escaped stays 没牛
// (niuniu.md, Table options, multipliers and special_hands, Decisions).
func TestHouseRulesEscape(t *testing.T) {
	const options = `{"seats":3,"multipliers":{"bull_bull":6},"special_hands":{"five_small":9}}`
	esc := table.Action{Type: table.ActionEscape}
	for _, tc := range []struct {
		name  string
		hands []string
		steps []int // the seats that escape in turn; the others then arrange
		want  []int
	}{
		// The banker holds a five_small: the escaping player pays ×9.
		{"a player escapes from a banker's five_small", []string{"SA HA C2 D3 S2", "S10 HJ CQ DK HQ", "H3 C7 SK D4 H4"}, []int{1}, []int{9 + 9, -9, -9}},
		// The banker escapes: the player with the five_small gets ×9, the
		// one with 牛牛 ×6 (bull_bull 6), neither having arranged.
		{"the banker escapes", []string{"H3 C7 SK D4 H4", "SA HA C2 D3 S2", "S10 HJ CQ DK HQ"}, []int{0}, []int{-15, 9, 6}},
		// A player with a five_small escapes: 没牛, it pays the banker's 牛8 ×3.
		{"a five_small escapes", []string{"H3 C7 SK D4 H4", "SA HA C2 D3 S2", "S10 HJ CQ DK HQ"}, []int{1}, []int{3 - 6, -3, 6}},
	} {
		r := rulesWith(t, options)
		st := position(t, r, 1, tc.hands...)
		var evs []table.Payload
		for _, seat := range tc.steps {
			evs = gametest.MustAct(t, st, seat, esc)
		}
		for seat := range 3 {
			if st.InDeal && gametest.Game[State](st).forfeit[seat] == nil && seat != tc.steps[0] {
				evs = arrangeBest(t, st, seat)
			}
		}
		hs, _ := gametest.SettledOf[Result](t, evs)
		if !slices.Equal(hs.Deltas, tc.want) {
			t.Errorf("%s: deltas %v, want %v", tc.name, hs.Deltas, tc.want)
		}
	}
}

// TestDealHouseOptions deals as doc.go, Dealing, states under the options
// jokers and banker_mode: 52 cards by the same Fisher–Yates over the
// canonical order without BJ, RJ; the banker of hand h the banker seat +
// h − 1 (rotate), or the next draw after the shuffle (random).
func TestDealHouseOptions(t *testing.T) {
	for _, tc := range []struct {
		options string
		jokers  bool
		banker  func(h int, stream *cards.Stream) int
	}{
		{`{"seats":3,"banker":1,"jokers":false}`, false, func(int, *cards.Stream) int { return 1 }},
		{`{"seats":3,"banker":2,"banker_mode":"rotate"}`, true, func(h int, _ *cards.Stream) int { return (2 + h - 1) % 3 }},
		{`{"seats":4,"banker_mode":"random"}`, true, func(_ int, st *cards.Stream) int { return int(st.Below(4)) }},
		{`{"seats":2,"banker_mode":"random","jokers":false}`, false, func(_ int, st *cards.Stream) int { return int(st.Below(2)) }},
	} {
		r := rulesWith(t, tc.options)
		n := r.Seats()
		bankers := map[int]bool{}
		jokers := 0
		for h := 1; h <= 40; h++ {
			seed := cards.Seed{7, byte(h), byte(n)}
			evs, err := r.Deal(r.NewState(), table.DealNumber{Hand: h, Deal: 1}, seed)
			if err != nil {
				t.Fatal(err)
			}
			d := evs[0].(table.HandDealt)
			deck := cards.Deck(1)
			if !tc.jokers {
				deck = deck[:52]
			}
			st := cards.NewStream(seed)
			cards.Shuffle(st, deck)
			for i, c := range deck[:n*HandSize] {
				if !slices.Contains(d.Hands[i%n], c) {
					t.Fatalf("%s hand %d: the seed deals %s to seat %d, the deal has it elsewhere (doc.go, Dealing)", tc.options, h, c, i%n)
				}
				if c.IsJoker() {
					jokers++
				}
			}
			if want := tc.banker(h, st); d.FirstSeat != want {
				t.Fatalf("%s hand %d: banker %d, want %d (niuniu.md, Table options, banker_mode)", tc.options, h, d.FirstSeat, want)
			}
			bankers[d.FirstSeat] = true
		}
		if !tc.jokers && jokers > 0 || tc.jokers && jokers == 0 {
			t.Errorf("%s: %d jokers dealt in 40 hands (niuniu.md, Table options, jokers)", tc.options, jokers)
		}
		if r.opts.BankerMode != BankerFixed && len(bankers) != n {
			t.Errorf("%s: bankers %v in 40 hands, want every seat", tc.options, bankers)
		}
	}
}

// TestMovingBanker plays hands at tables whose banker moves: the state,
// the view, the settlement and the forfeit's redaction follow the hand's
// banker (HandDealt.first_seat), public before anyone arranges.
func TestMovingBanker(t *testing.T) {
	for _, mode := range []string{BankerRotate, BankerRandom} {
		options := fmt.Sprintf(`{"seats":3,"banker_mode":%q}`, mode)
		r := rulesWith(t, options)
		seeds := &gametest.SeedSeq{ID: 77}
		st := openTable(t, r, 1, seeds)
		players := []gametest.Player{gametest.BotPlayer, gametest.TimeoutPlayer, gametest.BotPlayer}
		for range 12 {
			b := gametest.Game[State](st).banker
			if v := r.View(st.G.(*State), 1).Game.(GameView); v.Banker != b {
				t.Fatalf("%s: the view shows banker %d, the deal %d", mode, v.Banker, b)
			}
			hs := playHand(t, st, seeds, time.Time{}, players)
			_, res := gametest.SettledOf[Result](t, []table.Payload{hs})
			if res.Banker != b || len(res.Bouts) != 2 || slices.ContainsFunc(res.Bouts, func(bt Bout) bool { return bt.Seat == b }) {
				t.Fatalf("%s: result %+v, want banker %d playing the two others", mode, res, b)
			}
		}
		// A player's escape: only the hand's banker sees the forfeit whole.
		st = positionAt(t, r, 2, 2, hand0, hand1, hand2)
		evs := gametest.MustAct(t, st, 0, table.Action{Type: table.ActionEscape})
		f := evs[1].(BoutForfeited)
		if f.Banker == nil || *f.Banker != 2 || f.Multiplier != 3 {
			t.Fatalf("%s: %+v, want the forfeit at the banker's 牛8 naming banker 2", mode, f)
		}
		for seat, want := range map[int]table.Payload{2: f, 0: BoutForfeited{Seat: 0, Hidden: true}, 1: BoutForfeited{Seat: 0, Hidden: true}} {
			if got := table.Redact(r.untyped(), f, seat, false); got != want {
				t.Errorf("%s: seat %d sees %+v, want %+v (doc.go, Hidden information)", mode, seat, got, want)
			}
		}
	}
	// Under fixed the event keeps its shape.
	st := position(t, rulesWith(t, ""), 2, hand0, hand1, hand2, hand3)
	evs := gametest.MustAct(t, st, 3, table.Action{Type: table.ActionEscape})
	if b, _ := json.Marshal(evs[1]); string(b) != `{"seat":3,"multiplier":1,"delta":-2}` {
		t.Errorf("a fixed banker's forfeit is %s, want no banker member", b)
	}
}

// TestHouseRulesBotsAndTimeouts: at tables with house rules, the bot's
// choices are legal and hands of bots, timeouts and random play settle,
// summing to zero.
func TestHouseRulesBotsAndTimeouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for _, options := range []string{
		`{"banker_mode":"rotate","banker":3,"special_hands":{"five_small":8,"bomb":7,"five_face":6},"jokers":false}`,
		`{"seats":2,"banker_mode":"random","multipliers":{"bull_7":3,"bull_8":3,"bull_9":9,"bull_bull":9},"special_hands":{"bomb":20}}`,
	} {
		r := rulesWith(t, options)
		seeds := &gametest.SeedSeq{ID: 5}
		st := openTable(t, r, 2, seeds)
		players := []gametest.Player{gametest.BotPlayer, gametest.TimeoutPlayer, gametest.RandomPlayer(rng), gametest.BotPlayer}
		for range 40 {
			hs := playHand(t, st, seeds, time.Time{}, players)
			sum := 0
			for _, d := range hs.Deltas {
				sum += d
			}
			if sum != 0 {
				t.Fatalf("%s: deltas %v do not sum to zero", options, hs.Deltas)
			}
		}
	}
}
