package shengji

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestGuafengOptions: guafeng's normalized options and its own option
// (shengji.md, Scoring, guafeng Decision: the kitty deduction is a table
// option, default on); ningyang's kitty_multiplier default, by_shape, is
// not among guafeng's (Table options, kitty_multiplier).
func TestGuafengOptions(t *testing.T) {
	r := guafeng(t)
	if string(r.Options()) != `{"match":true,"kitty_deduction":true}` || r.Version() != "shengji/guafeng/3" {
		t.Fatalf("guafeng options %s, version %s", r.Options(), r.Version())
	}
	off := variantRules(t, "guafeng", `{"kitty_deduction":false,"match":false}`)
	if string(off.Options()) != `{"match":false,"kitty_deduction":false}` {
		t.Fatalf("options %s", off.Options())
	}
	for _, bad := range []string{`{"kitty_multiplier":"by_shape"}`, `{"kitty_deduction":"yes"}`} {
		if _, err := New().Rules("guafeng", json.RawMessage(bad)); !errors.Is(err, table.ErrBadOption) {
			t.Errorf("guafeng options %s: got %v, want invalid_option", bad, err)
		}
	}
	if _, err := New().Rules("ningyang", json.RawMessage(`{"kitty_deduction":true}`)); !errors.Is(err, table.ErrBadOption) {
		t.Errorf("ningyang takes no kitty_deduction: got %v", err)
	}
}

// TestGuafengTrumpOrder: shengji.md, Worked examples, guafeng level 7,
// trump ♠: S7 > H7 = C7 = D7 > S5 > S3 > S2 > H5 = C5 = D5 > H3 = … > H2 =
// … > SA > … > S4; HA is a side card and loses to every trump. And Levels:
// with level 5 the 5s rank as level cards above the other fixed trumps.
func TestGuafengTrumpOrder(t *testing.T) {
	o := Order{Level: 7, Trump: cards.Spades, Fixed: true}
	chain := [][]string{{"RJ"}, {"BJ"}, {"S7"}, {"H7", "C7", "D7"}, {"S5"}, {"S3"}, {"S2"}, {"H5", "C5", "D5"}, {"H3", "C3", "D3"}, {"H2", "C2", "D2"}, {"SA"}, {"SK"}, {"S8"}, {"S6"}, {"S4"}}
	for i, group := range chain {
		for _, a := range group {
			ca := cards.MustParse(a)[0]
			if !o.IsTrump(ca) {
				t.Fatalf("%s is not a trump (shengji.md, guafeng: fixed trumps, level cards, trump suit)", a)
			}
			for _, b := range group {
				if pa, pb := o.Pos(ca), o.Pos(cards.MustParse(b)[0]); pa != pb {
					t.Errorf("%s and %s rank %d and %d, want equal (shengji.md, Trump order, guafeng)", a, b, pa, pb)
				}
			}
			if i+1 < len(chain) {
				lower := cards.MustParse(chain[i+1][0])[0]
				if o.Pos(ca) <= o.Pos(lower) {
					t.Errorf("%s (pos %d) must outrank %s (pos %d) (shengji.md, Trump order, guafeng)", a, o.Pos(ca), chain[i+1][0], o.Pos(lower))
				}
			}
		}
	}
	for _, c := range cards.MustParse("HA H4 DK C10") {
		if o.IsTrump(c) {
			t.Errorf("%s is a side card (shengji.md, guafeng: side suits A … 4)", c)
		}
	}
	five := Order{Level: 5, Trump: cards.Hearts, Fixed: true}
	if !(five.Pos(cards.MustParse("C5")[0]) > five.Pos(cards.MustParse("H3")[0])) || five.isFixedRank(5) {
		t.Errorf("level 5: C5 must rank as a level card above H3 (shengji.md, Levels: level 2, 3 or 5)")
	}
	// Kitty values (seed 003 note 3, Decision 20 for a level card).
	for _, c := range []struct {
		card string
		want int
	}{{"RJ", 100}, {"BJ", 50}, {"H7", 20}, {"SK", 10}, {"D10", 10}, {"C5", 5}, {"S4", 0}} {
		if got := o.guafengKittyValue(cards.MustParse(c.card)[0]); got != c.want {
			t.Errorf("kitty value of %s at level 7: %d, want %d (shengji.md, Kitty, guafeng)", c.card, got, c.want)
		}
	}
	if got := five.guafengKittyValue(cards.MustParse("S5")[0]); got != 20 {
		t.Errorf("a 5 that is a level card is worth 20 in the kitty, got %d (seed 003 note 3)", got)
	}
}

// TestGuafengCombinations: the worked examples of shengji.md (guafeng, level
// 7, trump ♠) for 风, 雨 and 雷, and the shapes they read as.
func TestGuafengCombinations(t *testing.T) {
	o := Order{Level: 7, Trump: cards.Spades, Fixed: true}
	cases := []struct {
		play  string
		shape string // "" = not a combination
		why   string
	}{
		{"S6 S6", "pair", "风: a pair"},
		{"S2 S2 S3 S3", "tractor2", "风: the trump suit's own 2 and 3 link"},
		{"S4 S4 S5 S5", "tractor2", "风: the trump suit's 4 and 5 link"},
		{"S4 S4 S6 S6", "", "风: the trump suit's 5 sits between its 4 and 6"},
		{"H3 H3 H4 H4", "", "风: H3 is a fixed trump, H4 a side card"},
		{"D5 D5 D6 D6 D7 D7", "", "风: D5 a fixed trump, D7 a level card"},
		{"H6 H6 H8 H8", "tractor2", "风: the level rank left out closes the gap (Decision)"},
		{"H7 H7 S7 S7", "", "风: one suit only"},
		{"BJ BJ", "pair", "a pair of jokers"},
		{"H3 H4 H4 H5 H6 H7", "", "雨: a side suit's 3 and 5 are fixed trumps"},
		{"D6 D7 D8 D8 D9 D10", "", "雨: D7 is a level card"},
		{"S8 S9 S9 S10 SJ SQ", "rain6_1", "雨: trump rain, 6 cards, 1 pair"},
		{"S3 S4 S5 S6 S6 S8 S8 S9", "rain8_2", "雨: the trump suit's 3 and 5 join its run"},
		{"D8 D9 D10 DJ DQ", "rain5_0", "雨: five singles"},
		{"D8 D9 D10 DJ", "", "雨: five ranks at least"},
		{"D8 D8 D9 D9 D10 D10 DJ DJ DQ DQ", "tractor5", "all pairs: a wind"},
		{"S5 H5 C5 D5", "thunder", "雷: 5s of four suits"},
		{"S5 S5 H5 C5", "", "雷: a suit missing"},
		{"S9 H9 C9 D9", "", "雷: 9 is no thunder rank at level 7"},
		{"S7 H7 C7 D7", "thunder", "雷: level cards"},
	}
	for _, c := range cases {
		rd, ok := o.read(cards.MustParse(c.play))
		got := ""
		if ok {
			got = rd.shape.String()
		}
		if got != c.shape {
			t.Errorf("%s reads as %q, want %q: %s (shengji.md, guafeng combinations)", c.play, got, c.shape, c.why)
		}
	}
	nine := Order{Level: 9, Trump: cards.Spades, Fixed: true}
	if rd, ok := nine.read(cards.MustParse("S9 H9 C9 D9")); !ok || rd.shape.Kind != kindThunder {
		t.Errorf("S9 H9 C9 D9 is a thunder when the level is 9 (shengji.md, 雷)")
	}
}

// TestGuafengTrickWinner: comparisons of guafeng plays (shengji.md, Plays,
// guafeng): rains only with the same count and pairs, trump above side;
// thunders by the single-card order of their rank; equal plays to the first.
func TestGuafengTrickWinner(t *testing.T) {
	o := Order{Level: 7, Trump: cards.Spades, Fixed: true}
	cases := []struct {
		plays [4]string
		win   int
		why   string
	}{
		{[4]string{"D8 D9 D10 DJ DQ", "D4 D6 DK DA H4", "S6 S8 S9 S10 SJ", "C4 C6 C8 C9 C10"}, 2, "a trump rain of the same count beats a side rain"},
		{[4]string{"D8 D9 D10 DJ DQ", "D9 D10 DJ DQ DK", "H4 H6 H8 H9 H10", "C4 C6 C8 C9 C10"}, 1, "the higher top card"},
		{[4]string{"D8 D9 D10 DJ DQ", "S4 S6 S8 S8 S9", "H4 H6 H8 H9 H10", "C4 C6 C8 C9 C10"}, 0, "a rain with a pair does not match a rain of singles"},
		{[4]string{"S2 H2 C2 D2", "S5 H5 C5 D5", "S3 H3 C3 D3", "RJ BJ S7 SA"}, 1, "thunder of 5s beats thunder of 2s and 3s; four high trumps are no thunder"},
		{[4]string{"H6 H6 H8 H8", "S8 S8 S9 S9", "S2 S2 S3 S3", "H9 H9 H10 H10"}, 2, "trump winds ruff; ♠2233 tops ♠8899, the trump suit's 3 ranking above its 9"},
		{[4]string{"H6 H6 H8 H8", "S2 S2 S3 S3", "S4 S4 S5 S5", "S4 S4 S6 S6"}, 2, "♠4455 (its top, ♠5, above ♠3) tops ♠2233; ♠4466 is no wind, ♠5 sitting between"},
	}
	for _, c := range cases {
		var plays []trickPlay
		for i, p := range c.plays {
			plays = append(plays, trickPlay{seat: i, cards: cards.MustParse(p)})
		}
		if w, _, _ := o.trickWinner(plays); w != c.win {
			t.Errorf("trick %v: seat %d wins, want %d: %s (shengji.md, Plays, guafeng)", c.plays, w, c.win, c.why)
		}
	}
}

// TestGuafengFollowRules: the follow errors of guafeng's own combinations
// (shengji.md, Plays, guafeng: 有雷出雷, 没雷 the four highest trumps; rain
// pairs first).
func TestGuafengFollowRules(t *testing.T) {
	o := Order{Level: 7, Trump: cards.Spades, Fixed: true}
	cases := []struct {
		hand, lead, play string
		err              error
	}{
		{"S2 H2 C2 D2 BJ RJ", "S5 H5 C5 D5", "S2 H2 C2 D2", nil},
		{"S2 H2 C2 D2 BJ RJ", "S5 H5 C5 D5", "S2 H2 BJ RJ", ErrMustPlayThunder},
		{"RJ BJ S7 H7 C7 S4 HA", "S5 H5 C5 D5", "RJ BJ S7 C7", nil},
		{"RJ BJ S7 H7 C7 S4 HA", "S5 H5 C5 D5", "RJ BJ S7 S4", ErrMustPlayHighest},
		{"S4 S6 HA C4", "S5 H5 C5 D5", "S4 S6 HA C4", nil},
		{"D4 D4 D8 D9 D10 DJ DQ C4", "D4 D6 D6 D8 D9 D10", "D8 D9 D10 DJ DQ C4", ErrMustFollowSuit},
		{"D4 D4 D8 D9 D10 DJ DQ C4", "D4 D6 D6 D8 D9 D10", "D4 D8 D9 D10 DJ DQ", ErrMustPlayPairs},
		{"D4 D4 D8 D9 D10 DJ DQ C4", "D4 D6 D6 D8 D9 D10", "D4 D4 D9 D10 DJ DQ", nil},
	}
	for _, c := range cases {
		err := o.checkFollow(ms(c.hand), cards.MustParse(c.lead), cards.MustParse(c.play))
		if (c.err == nil) != (err == nil) || (c.err != nil && !errors.Is(err, c.err)) {
			t.Errorf("hand %s, lead %s, follow %s: got %v, want %v (shengji.md, Plays, guafeng)", c.hand, c.lead, c.play, err, c.err)
		}
	}
}

// stickDeal is seed 003's 粘牌 example: seat 1 (B) holds BJ H5 H5 H6 H6,
// seat 0 (A) one joker and C6 C6 C7 C7 C8 C8; seat 2 holds RJ, which it
// must bury when it buries for its partner.
var stickDeal = deal{first: [4]string{"BJ C6 C6 C7 C7 C8 C8", "BJ H5 H5 H6 H6 S9", "RJ S4", "D3 D3"}, kitty: "S10 SK D4 D6"}

// TestGuafengDeclarations: shengji.md, guafeng declarations: a joker and a
// pair; 沖主 only with 2+ jokers over one joker; 續牌 with the twin joker or
// a pair extending the tractor (A links both ways), until another seat
// declares; 粘牌 with one pair more and as many jokers (seed 003's example).
func TestGuafengDeclarations(t *testing.T) {
	r := guafeng(t)
	t.Run("stick", func(t *testing.T) {
		st := stickDeal.build(t, r)
		drawRounds(t, st, 7)
		if _, err := gametest.Act(st, 1, declareA("BJ H5 H5")); err != nil {
			t.Fatal(err)
		}
		gametest.MustAct(t, st, 1, reinforceA("H6 H6"))
		if d := gametest.Game[State](st).decls[0]; d.pairs != 2 || d.jokers != 1 {
			t.Fatalf("after 續牌 H6 H6: %d pairs %d jokers, want 2 and 1", d.pairs, d.jokers)
		}
		if _, err := gametest.Act(st, 0, stickA("BJ C6 C6 C7 C7")); !errors.Is(err, ErrCannotStick) {
			t.Fatalf("stick with two pairs over two: %v, want cannot_stick (seed 003: with only C6 C6 C7 C7, A may not)", err)
		}
		evs := gametest.MustAct(t, st, 0, stickA("BJ C6 C6 C7 C7 C8 C8"))
		if e := evs[0].(TrumpDeclared); e.Kind != kindStick || !slices.Equal(e.Stuck, []int{1}) || e.Suit != "C" {
			t.Fatalf("stick: %+v", e)
		}
		if _, err := gametest.Act(st, 1, reinforceA("BJ")); !errors.Is(err, ErrCannotReinforce) {
			t.Fatalf("續牌 after a stick: %v, want cannot_reinforce", err)
		}
		closeWindow(t, st)
		g := gametest.Game[State](st)
		if g.dealer != 0 || g.burier != 2 || g.order.Trump != cards.Clubs {
			t.Fatalf("dealer %d burier %d trump %v: want seat 0 (the final declarer deals), its partner 2 buries, clubs (shengji.md, guafeng)", g.dealer, g.burier, g.order.Trump)
		}
		if _, err := gametest.Act(st, 0, buryA("C6 C6 C7 C7")); !errors.Is(err, ErrNotDealer) {
			t.Fatalf("the dealer buries: %v, want not_dealer (shengji.md, Kitty: the partner buries when the dealer declared)", err)
		}
		if _, err := gametest.Act(st, 2, buryA("S10 SK D4 D6")); !errors.Is(err, ErrMustBuryJokers) {
			t.Fatalf("bury without the RJ held: %v, want must_bury_jokers (shengji.md, Kitty, guafeng)", err)
		}
		evs = gametest.MustAct(t, st, 2, buryA("RJ SK D4 D6"))
		if gametest.EventTypes(evs)[1] != "TrumpRevealed" || gametest.Game[State](st).phase != phaseExchanging || gametest.Game[State](st).turn != 0 {
			t.Fatalf("after the bury: %v, phase %s turn %d; want the sticker to exchange", gametest.EventTypes(evs), gametest.Game[State](st).phase, gametest.Game[State](st).turn)
		}
		// The bury takes the stuck declaration into the sticker's hand:
		// public, with three trumps owed: under ♣ and level A the joker and
		// H5 H5 (fixed trumps) are trumps, H6 H6 are not (shengji.md, 粘牌
		// Decision: seed 003's "3張任意主牌（5為常主+1小王）加上兩張其他花色的任意牌").
		tk, ok := evs[2].(DeclarationTaken)
		if len(evs) != 3 || !ok || tk.Seat != 0 || tk.From != 1 || tk.Trumps != 3 || canon(tk.Cards) != canon(cards.MustParse("BJ H5 H5 H6 H6")) {
			t.Fatalf("the bury's events %v, want the declaration BJ H5 H5 H6 H6 taken from seat 1 with 3 trumps owed", evs)
		}
		for seat := range seats {
			if got := r.Redact(tk, seat, false).(DeclarationTaken); canon(got.Cards) != canon(tk.Cards) {
				t.Fatalf("seat %d sees the declaration taken as %+v (doc.go: public)", seat, got)
			}
		}
		if g := gametest.Game[State](st); g.held[0].Count(cards.BJ) < 2 || g.held[1].Count(cards.BJ) != 0 || g.held[1].Len() != handSize-5 {
			t.Fatalf("after the take seat 0 holds %s, seat 1 %d cards", cards.Format(g.held[0].Cards()), g.held[1].Len())
		}
		for seat, trumps := range []int{3, 3, 0, 0} {
			// How many trumps are still owed only the two seats of the
			// exchange see (doc.go: the cards given are theirs).
			if gv := r.View(gametest.Game[State](st), seat).Game.(GameView); gv.OwedCards != 5 || gv.OwedTrumps != trumps || !slices.Equal(gv.Owed, []int{1}) {
				t.Fatalf("seat %d sees %v owed, %d cards, %d trumps; want seat 1, 5 and %d", seat, gv.Owed, gv.OwedCards, gv.OwedTrumps, trumps)
			}
		}
		// One card per exchange (doc.go, Actions).
		if _, err := gametest.Act(st, 0, exchangeA("C8 C8")); !errors.Is(err, ErrBadExchange) {
			t.Fatalf("two cards in one exchange: %v, want invalid_exchange", err)
		}
		if _, err := gametest.Act(st, 1, exchangeA("C8")); !errors.Is(err, ErrNotSticker) {
			t.Fatalf("the stuck seat exchanges: %v, want not_sticker", err)
		}
		h0, h1 := gametest.Game[State](st).held[0], gametest.Game[State](st).held[1]
		// Two cards of five for the side pair: any cards (here a trump-suit
		// C8, which pays no trump while the sticker holds jokers, level
		// cards, 2s, 3s or 5s enough) while three gives are left for the
		// three trumps.
		for i, c := range []string{"C8", "H6"} {
			evs = gametest.MustAct(t, st, 0, exchangeA(c))
			if g, ok := evs[0].(CardGiven); len(evs) != 1 || !ok || g.To != 1 || g.Left != 4-i || g.Cards[0] != cards.MustParse(c)[0] {
				t.Fatalf("give %s: %v", c, evs)
			}
			// The given card only the two seats see (doc.go, Hidden
			// information).
			for seat := range seats {
				got := r.Redact(evs[0], seat, false).(CardGiven)
				if (got.Cards != nil) != (seat == 0 || seat == 1) || got.Left != 4-i {
					t.Fatalf("seat %d sees the give as %+v", seat, got)
				}
			}
		}
		// Three trumps taken, three gives left: only a joker, level card,
		// 2, 3 or 5 (seed 003: 主必須給大小王、級牌、2、3、5), not a side
		// card nor a plain trump-suit card.
		for _, c := range []string{"C7", "H6"} {
			if _, err := gametest.Act(st, 0, exchangeA(c)); !errors.Is(err, ErrBadExchange) {
				t.Fatalf("a give owed for a trump taken, %s: %v, want invalid_exchange (shengji.md, 粘牌)", c, err)
			}
		}
		if gv := r.View(gametest.Game[State](st), 1).Game.(GameView); gv.OwedCards != 3 || gv.OwedTrumps != 3 {
			t.Fatalf("seat 1 sees %d cards, %d trumps owed; want 3 and 3", gv.OwedCards, gv.OwedTrumps)
		}
		g = gametest.Game[State](st)
		legal := r.Legal(g, 0)
		var want []string
		for _, c := range slices.Compact(g.handCards(0, g.order)) {
			if c.IsJoker() || c.Rank == cards.Ace || c.Rank == 2 || c.Rank == 3 || c.Rank == 5 {
				want = append(want, ActionExchange+" "+c.String())
			}
		}
		var got []string
		for _, a := range legal {
			got = append(got, gametest.DescribeAction(a))
		}
		if !slices.Contains(want, ActionExchange+" H5") || !slices.Equal(got, want) {
			t.Fatalf("Legal with three trumps owed and three gives left: %v, want the exchange trumps held %v", got, want)
		}
		gametest.MustAct(t, st, 0, exchangeA("BJ"))
		gametest.MustAct(t, st, 0, exchangeA("H5"))
		evs = gametest.MustAct(t, st, 0, exchangeA("H5"))
		if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"CardGiven", "KittySwapOpened"}) || evs[0].(CardGiven).Left != 0 {
			t.Fatalf("the last give: %v, want CardGiven then KittySwapOpened", evs)
		}
		// The kitty swap follows (shengji.md, 粘牌 kitty swap): the kitty
		// holds no club, so the sticker may only pass; then the dealer
		// leads.
		if g := gametest.Game[State](st); g.phase != phaseExchanging || g.turn != 0 || g.swapper != 0 {
			t.Fatalf("after the last give: phase %s turn %d swapper %d, want the sticker 0 in the kitty swap", g.phase, g.turn, g.swapper)
		}
		if _, err := gametest.Act(st, 0, exchangeA("C7")); !errors.Is(err, ErrBadExchange) {
			t.Fatalf("a sixth give: %v, want invalid_exchange", err)
		}
		if got := r.Legal(gametest.Game[State](st), 0); len(got) != 1 || got[0].Type != ActionPass {
			t.Fatalf("the kitty swap over RJ SK D4 D6 with ♣ trump: Legal %v, want pass only", got)
		}
		evs = gametest.MustAct(t, st, 0, passA())
		if _, ok := evs[0].(KittySwapClosed); len(evs) != 1 || !ok || gametest.Game[State](st).phase != phasePlaying || gametest.Game[State](st).turn != 0 {
			t.Fatalf("the sticker passes the swap: %v, phase %s turn %d; want the dealer to lead", evs, gametest.Game[State](st).phase, gametest.Game[State](st).turn)
		}
		h0.Remove(cards.MustParse("C8 H6 BJ H5 H5"))
		h1.Add(cards.MustParse("C8 H6 BJ H5 H5")...)
		if gametest.Game[State](st).held[0] != h0 || gametest.Game[State](st).held[1] != h1 || h1.Len() != handSize || h0.Len() != handSize {
			t.Fatalf("after the exchange seat 0 holds %s, seat 1 %s", cards.Format(gametest.Game[State](st).held[0].Cards()), cards.Format(gametest.Game[State](st).held[1].Cards()))
		}
		if _, err := gametest.Act(st, 0, exchangeA("C7")); !errors.Is(err, table.ErrWrongPhase) {
			t.Fatalf("a sixth give: %v, want wrong_phase", err)
		}
	})
	t.Run("two_stuck", func(t *testing.T) {
		// Seed 003 粘牌 note 2: a stick over a stick takes both stuck
		// declarations; the stuck burier keeps its declared cards out of
		// the kitty and still buries its other joker.
		st := deal{first: [4]string{"BJ C6 C6 C7 C7", "BJ H5 H5 RJ", "S4", "RJ D8 D8 D9 D9 D10 D10"}}.build(t, r)
		drawRounds(t, st, 7)
		gametest.MustAct(t, st, 1, declareA("BJ H5 H5"))
		gametest.MustAct(t, st, 0, stickA("BJ C6 C6 C7 C7"))
		evs := gametest.MustAct(t, st, 3, stickA("RJ D8 D8 D9 D9 D10 D10"))
		if e := evs[0].(TrumpDeclared); !slices.Equal(e.Stuck, []int{0, 1}) {
			t.Fatalf("a stick over seat 0's stick of seat 1: stuck %v, want [0 1]", e.Stuck)
		}
		closeWindow(t, st)
		g := gametest.Game[State](st)
		if g.dealer != 3 || g.burier != 1 {
			t.Fatalf("dealer %d burier %d, want 3 and its partner 1", g.dealer, g.burier)
		}
		if _, err := gametest.Act(st, 1, table.Action{Type: ActionBury, Cards: append(cards.MustParse("BJ RJ"), g.kitty[:2]...)}); !errors.Is(err, ErrDeclaredCards) {
			t.Fatalf("burying the declared BJ: %v, want declared_cards_owed (seed 003: 亮的幾張牌是不能被埋的)", err)
		}
		buries := g.guafengBuries(1)
		for _, b := range buries {
			if !slices.Contains(b, cards.RJ) || slices.Contains(b, cards.BJ) {
				t.Fatalf("seat 1 may bury %s: every bury holds its RJ and not its declared BJ", cards.Format(b))
			}
		}
		gametest.MustAct(t, st, 1, table.Action{Type: ActionBury, Cards: buries[0]})
		if g := gametest.Game[State](st); g.phase != phaseExchanging || g.turn != 3 || len(g.owed) != 2 {
			t.Fatalf("phase %s turn %d owed %d, want the sticker 3 to exchange twice", g.phase, g.turn, len(g.owed))
		}
		// Seat 0 first (TrumpDeclared.stuck): under ♦ only its joker is a
		// trump; a joker given first meets the obligation, so the last give
		// may be any card; it takes seat 1's declaration.
		for _, c := range []string{"BJ", "C6", "C6", "C7"} {
			if g := gametest.MustAct(t, st, 3, exchangeA(c))[0].(CardGiven); g.To != 0 {
				t.Fatalf("give %s to seat %d, want 0", c, g.To)
			}
		}
		evs = gametest.MustAct(t, st, 3, exchangeA("C7"))
		if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"CardGiven", "DeclarationTaken"}) {
			t.Fatalf("the last give to seat 0: %v, want CardGiven DeclarationTaken", got)
		}
		if tk := evs[1].(DeclarationTaken); tk.From != 1 || tk.Trumps != 3 || canon(tk.Cards) != canon(cards.MustParse("BJ H5 H5")) {
			t.Fatalf("second take %+v, want seat 1's BJ H5 H5, all three trumps (a joker and fixed 5s)", tk)
		}
		// Every give to seat 1 is owed for a trump: a joker, level card,
		// 2, 3 or 5; a plain ♦ (trump suit) or a side card is refused while
		// the sticker holds enough of those (shengji.md, 粘牌).
		for _, c := range []string{"D8", "D10"} {
			if _, err := gametest.Act(st, 3, exchangeA(c)); !errors.Is(err, ErrBadExchange) {
				t.Fatalf("seat 1's give, owed for a trump, a %s: %v, want invalid_exchange (shengji.md, 粘牌)", c, err)
			}
		}
		gametest.MustAct(t, st, 3, exchangeA("H5"))
		gametest.MustAct(t, st, 3, exchangeA("RJ"))
		evs = gametest.MustAct(t, st, 3, exchangeA("H5"))
		if g := evs[0].(CardGiven); len(evs) != 2 || g.To != 1 || g.Left != 0 || gametest.Game[State](st).phase != phaseExchanging || gametest.Game[State](st).swapper != 3 {
			t.Fatalf("the last give %v, phase %s; want the kitty swap of the sticker 3", evs, gametest.Game[State](st).phase)
		}
		gametest.MustAct(t, st, 3, passA())
		if g := gametest.Game[State](st); g.phase != phasePlaying || g.turn != 3 {
			t.Fatalf("after the kitty swap: phase %s turn %d, want the dealer 3 to lead", g.phase, g.turn)
		}
		for seat := range seats {
			if n := gametest.Game[State](st).held[seat].Len(); n != handSize {
				t.Fatalf("after the exchanges seat %d holds %d cards", seat, n)
			}
		}
	})
	t.Run("override", func(t *testing.T) {
		st := deal{first: [4]string{"BJ H9 H9", "BJ RJ S4 S4", "RJ D8 D8", "S2"}}.build(t, r)
		drawRounds(t, st, 4)
		gametest.MustAct(t, st, 0, declareA("BJ H9 H9"))
		if _, err := gametest.Act(st, 2, declareA("RJ D8 D8")); !errors.Is(err, ErrDeclarationWeak) {
			t.Fatalf("one joker over one joker: %v, want declaration_too_weak (shengji.md, 沖主: 2+ jokers)", err)
		}
		evs := gametest.MustAct(t, st, 1, declareA("BJ RJ S4 S4"))
		if e := evs[0].(TrumpDeclared); e.Kind != kindOverride || e.Jokers != 2 {
			t.Fatalf("沖主: %+v", e)
		}
		if _, err := gametest.Act(st, 0, reinforceA("H10 H10")); !errors.Is(err, ErrCannotReinforce) {
			t.Fatalf("續牌 after 沖主: %v, want cannot_reinforce (seed 003 續牌 note 1)", err)
		}
		if len(r.Legal(gametest.Game[State](st), 2)) != 1 {
			t.Fatalf("seat 2 may not override a two-joker declaration: %v", r.Legal(gametest.Game[State](st), 2))
		}
		closeWindow(t, st)
		if g := gametest.Game[State](st); g.dealer != 1 || g.burier != 3 || g.order.Trump != cards.Spades {
			t.Fatalf("first hand after 沖主: dealer %d burier %d: the overrider's side deals (shengji.md, 沖主)", g.dealer, g.burier)
		}
	})
	t.Run("reinforce", func(t *testing.T) {
		st := deal{first: [4]string{"BJ HA HA BJ H2 H2 HK HK H4 H4 RJ", "S3", "S4", "S5"}}.build(t, r)
		drawRounds(t, st, 11)
		if _, err := gametest.Act(st, 0, reinforceA("BJ")); !errors.Is(err, ErrCannotReinforce) {
			t.Fatalf("續牌 before declaring: %v, want cannot_reinforce", err)
		}
		gametest.MustAct(t, st, 0, declareA("BJ HA HA"))
		if _, err := gametest.Act(st, 0, reinforceA("RJ")); !errors.Is(err, ErrCannotReinforce) {
			t.Fatalf("續牌 with RJ on a BJ: %v, want cannot_reinforce (seed 003: 與亮主用的王相同)", err)
		}
		gametest.MustAct(t, st, 0, reinforceA("BJ"))
		gametest.MustAct(t, st, 0, reinforceA("H2 H2"))
		gametest.MustAct(t, st, 0, reinforceA("HK HK")) // K-A
		if _, err := gametest.Act(st, 0, reinforceA("H4 H4")); !errors.Is(err, ErrCannotReinforce) {
			t.Fatalf("H4 H4 does not touch K A 2: %v, want cannot_reinforce", err)
		}
		if d := gametest.Game[State](st).decls[0]; d.jokers != 2 || d.pairs != 3 {
			t.Fatalf("declaration %+v: want 2 jokers, 3 pairs (shengji.md, 續牌)", d)
		}
		if _, err := gametest.Act(st, 0, reinforceA("RJ")); !errors.Is(err, ErrCannotReinforce) {
			t.Fatalf("a joker on two: %v, want cannot_reinforce", err)
		}
	})
}

// TestGuafengMenPai: 悶牌 (shengji.md, guafeng; seed 003): a first hand
// nobody declares is dealt again; in a later one the dealer side drops a
// level (not below A) and the kitty is flipped.
func TestGuafengMenPai(t *testing.T) {
	r := guafeng(t)
	st := deal{first: [4]string{"S2", "S3", "S4", "S5"}, kitty: "H2 H3 H4 H6"}.build(t, r)
	evs := closeWindow(t, st)
	if i := slices.Index(gametest.EventTypes(evs), "DealVoided"); i < 0 || evs[i].(table.DealVoided).Reason != "no_declaration" {
		t.Fatalf("first hand without a declaration: %v, want DealVoided no_declaration", gametest.EventTypes(evs))
	}
	for _, c := range []struct{ level, want int }{{5, 4}, {1, 1}} {
		st = deal{first: [4]string{"S2", "S3", "S4", "S5"}, kitty: "BJ H3 H4 H6"}.build(t, r)
		g := gametest.Game[State](st)
		g.matchDealer, g.dealer, g.levels = 1, 1, [2]int{3, c.level}
		g.order.Level = levelRank(c.level)
		evs = closeWindow(t, st)
		if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"DeclarePassed", "LevelDropped", "KittyFlipped", "KittyTaken"}) {
			t.Fatalf("悶牌: %v", got)
		}
		if g := gametest.Game[State](st); g.levels[1] != c.want || g.order.Level != levelRank(c.want) || g.order.Trump != cards.Hearts || evs[3].(KittyTaken).Level != levelName(c.want) {
			t.Fatalf("悶牌 at %s: side 1 at %s, trump %v; want %s and hearts (the kitty's first card that is not a joker)", levelName(c.level), levelName(g.levels[1]), g.order.Trump, levelName(c.want))
		}
	}
}

// TestGuafengScoring: seed 003's table row by row with its negative rows
// (shengji.md, Scoring and levels, guafeng), and the kitty: the last
// trick's card count as multiplier, only when won with trumps, deducted for
// the dealer side when the option is on.
func TestGuafengScoring(t *testing.T) {
	r := guafeng(t)
	rows := []struct {
		x, pts, dealerUp, defUp int
		onStage                 bool
	}{
		{-85, 6, 6, 0, false}, {-80, 5, 5, 0, false}, {-40, 4, 4, 0, false}, {-5, 4, 4, 0, false}, {0, 3, 3, 0, false},
		{5, 2, 2, 0, false}, {35, 2, 2, 0, false}, {40, 1, 1, 0, false}, {75, 1, 1, 0, false},
		{80, -1, 0, 0, true}, {115, -1, 0, 0, true}, {120, -2, 0, 1, true}, {160, -3, 0, 2, true},
		{200, -4, 0, 3, true}, {235, -4, 0, 3, true}, {240, -5, 0, 4, true},
	}
	for _, row := range rows {
		s := newState(r.v, r.o)
		s.Stake, s.dealer, s.levels, s.order = 1, 0, [2]int{2, 3}, Order{Level: 2, Trump: cards.Hearts, Fixed: true}
		// Trick points x, no kitty.
		evs := settledOut(t, s, 1, Shape{}, true, row.x)
		hs, res := gametest.SettledOf[Result](t, evs)
		next := 2
		if row.onStage {
			next = 1
		}
		want := []string{levelName(2 + row.dealerUp), levelName(3 + row.defUp)}
		if hs.Deltas[0] != row.pts || hs.Deltas[1] != -row.pts || *res.NextDealer != next || !slices.Equal(res.Levels, want) {
			t.Errorf("X = %d: deltas %v next %d levels %v; want dealer %+d, next %d, levels %v (shengji.md, Scoring, guafeng)", row.x, hs.Deltas, *res.NextDealer, res.Levels, row.pts, next, want)
		}
	}
	kitty := cards.MustParse("RJ S2 SK D4") // 100 + 20 (level 2) + 10 + 0
	cases := []struct {
		opt   string
		last  int
		shape Shape
		trump bool
		x     int
	}{
		{"", 1, Shape{Pairs: 1}, true, 40 + 130*2}, // defenders, a trump pair: ×2
		{"", 1, Shape{Pairs: 1}, false, 40},        // not trumps: no kitty
		{"", 0, Shape{}, true, 40 - 130},           // dealer side, trumps: deducted
		{`{"kitty_deduction":false}`, 0, Shape{}, true, 40},
		{"", 3, Shape{Kind: kindRain, Len: 6, Pairs: 1}, true, 40 + 130*6},
	}
	for _, c := range cases {
		rr := variantRules(t, "guafeng", c.opt)
		s := newState(rr.v, rr.o)
		s.Stake, s.dealer, s.levels, s.order = 1, 0, [2]int{2, 3}, Order{Level: 2, Trump: cards.Hearts, Fixed: true}
		s.buried = kitty
		_, res := gametest.SettledOf[Result](t, settledOut(t, s, c.last, c.shape, c.trump, 40))
		if res.DefenderPoints != c.x || res.KittyPoints != 130 {
			t.Errorf("options %q, last trick seat %d with a trump %v %s: X %d kitty %d, want %d and 130 (shengji.md, Kitty, guafeng; seed 003 notes 3, 4, 6)", c.opt, c.last, c.trump, c.shape, res.DefenderPoints, res.KittyPoints, c.x)
		}
	}
}

// TestGuafengActionValidation: guafeng's own actions take cards and belong
// to their phases; ningyang has none of them (doc.go, Actions).
func TestGuafengActionValidation(t *testing.T) {
	st := stickDeal.build(t, guafeng(t))
	drawRounds(t, st, 7)
	cases := []struct {
		seat int
		a    table.Action
		code string
	}{
		{0, table.Action{Type: ActionStick}, "invalid_action"},
		{0, exchangeA("BJ"), "wrong_phase"},
		{0, stickA("BJ C6 C6"), "cannot_stick"},
		{1, reinforceA("H6 H6"), "cannot_reinforce"},
		// "swap" is the 粘牌 kitty swap's (shengji.md); "trade" is no action.
		{0, table.Action{Type: "trade"}, "unknown_action"},
		{0, table.Action{Type: ActionSwap}, "invalid_action"},
		{0, swapA("H7 S7"), "wrong_phase"},
	}
	for _, c := range cases {
		if _, err := gametest.Act(st, c.seat, c.a); !hasCode(err, c.code) {
			t.Errorf("seat %d %s: %v, want %s", c.seat, gametest.DescribeAction(c.a), err, c.code)
		}
	}
	ny := deal{first: [4]string{"BJ H5 H5"}}.build(t, ningyang(t))
	drawRounds(t, ny, 3)
	for _, a := range []table.Action{stickA("BJ H5 H5"), reinforceA("BJ"), exchangeA("BJ"), swapA("H5 S5")} {
		if _, err := gametest.Act(ny, 0, a); !hasCode(err, "unknown_action") {
			t.Errorf("ningyang %s: %v, want unknown_action (no 粘牌 or 續牌 in seed 000)", gametest.DescribeAction(a), err)
		}
	}
}

// TestGuafengOverrideInFinalWindow: the final declaration window is part of
// the deal (shengji.md, The deal and trump declaration, turn 3 Decision), so
// 沖主, allowed "before the deal ends" (seed 003: 在發牌結束前), is allowed
// there too, after the last card is drawn.
func TestGuafengOverrideInFinalWindow(t *testing.T) {
	r := guafeng(t)
	st := deal{first: [4]string{"BJ H9 H9", "BJ RJ S4 S4", "RJ D8 D8", "S2"}}.build(t, r)
	drawRounds(t, st, handSize)
	if g := gametest.Game[State](st); g.phase != phaseWindow {
		t.Fatalf("after %d draw rounds the hand is %s, want the final window", handSize, g.phase)
	}
	gametest.MustAct(t, st, 0, declareA("BJ H9 H9"))
	evs := gametest.MustAct(t, st, 1, declareA("BJ RJ S4 S4"))
	if e := evs[0].(TrumpDeclared); e.Kind != kindOverride || e.Jokers != 2 {
		t.Fatalf("沖主 in the final window: %+v, want an override with 2 jokers (shengji.md, turn 3: the final window is part of the deal)", e)
	}
	closeWindow(t, st)
	if g := gametest.Game[State](st); g.dealer != 1 || g.order.Trump != cards.Spades {
		t.Fatalf("after 沖主 in the final window: dealer %d, trump %v; want the overrider dealing ♠", g.dealer, g.order.Trump)
	}
}
