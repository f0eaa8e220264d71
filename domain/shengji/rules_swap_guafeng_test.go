package shengji

import (
	"errors"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// swapSticker is seat 0's whole hand in the kitty swap deals: a joker and
// two heart pairs (H10 H10 HJ HJ) or two spade pairs (SQ SQ SK SK) to stick
// with, and side 7, 8 and 9 (S7 C8 D9), nothing else of those ranks.
const swapSticker = "BJ H10 H10 HJ HJ SQ SQ SK SK S7 C8 D9 S4 S4 S6 S6 C10 C10 CJ CJ CQ CQ DQ DQ DK DK"

// swapBurier is seat 1's whole hand: the dealer, who buries RJ H7 H8 H9
// (its only joker, which it must bury).
const swapBurier = "RJ H7 H8 H9 HQ HQ HK HK HA HA H4 H4 C4 C4 D4 D4 C6 C6 D6 D6 CK CK CA CA DA DA"

// swapDeal is a later hand dealt by seat 1 at level, where seat 3 declares
// BJ S2 S2 and seat 0 sticks with stick; seat 1 buries RJ H7 H8 H9 and the
// sticker gives back BJ S2 S2 (all three trumps).
func swapDeal(t *testing.T, r *Rules, level int, stick string) *table.State {
	t.Helper()
	st := deal{first: [4]string{swapSticker, swapBurier, "", "BJ S2 S2"}, kitty: "S8 S8 S9 S9", match: &matchAt{dealer: 1, levels: [2]int{3, level}}}.build(t, r)
	drawRounds(t, st, 9)
	gametest.MustAct(t, st, 3, declareA("BJ S2 S2"))
	gametest.MustAct(t, st, 0, stickA(stick))
	closeWindow(t, st)
	if g := gametest.Game[State](st); g.dealer != 1 || g.burier != 1 {
		t.Fatalf("dealer %d burier %d, want seat 1 for both (a later hand: the dealer does not change)", g.dealer, g.burier)
	}
	gametest.MustAct(t, st, 1, buryA("RJ H7 H8 H9"))
	gametest.MustAct(t, st, 0, exchangeA("BJ"))
	gametest.MustAct(t, st, 0, exchangeA("S2"))
	evs := gametest.MustAct(t, st, 0, exchangeA("S2"))
	if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"CardGiven", "KittySwapOpened"}) {
		t.Fatalf("the last give: %v, want CardGiven KittySwapOpened", got)
	}
	return st
}

// TestGuafengKittySwap is seed 003's example (shengji.md, 粘牌 kitty swap:
// "莊家A 埋了大王 紅桃789，主花色是紅桃，級牌是6…如果級牌是7 那只能拿89，如果
// 主花色不是紅桃，則一張底也不能拿"): the kitty holds RJ H7 H8 H9; with ♥ trump
// and level 6 the sticker may take H7 H8 H9 for its side S7 C8 D9; with
// level 7 only H8 H9; with ♠ trump none. Legal lists exactly those swaps
// and pass.
func TestGuafengKittySwap(t *testing.T) {
	r := guafeng(t)
	cases := []struct {
		name  string
		level int
		stick string
		want  []string
	}{
		{"trump_hearts_level_6", 6, "BJ H10 H10 HJ HJ", []string{"swap H9 D9", "swap H8 C8", "swap H7 S7", "pass"}},
		{"trump_hearts_level_7", 7, "BJ H10 H10 HJ HJ", []string{"swap H9 D9", "swap H8 C8", "pass"}},
		{"trump_spades", 6, "BJ SQ SQ SK SK", []string{"pass"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := swapDeal(t, r, c.level, c.stick)
			g := gametest.Game[State](st)
			if g.phase != phaseExchanging || g.turn != 0 || g.swapper != 0 || len(g.owed) != 0 {
				t.Fatalf("phase %s turn %d swapper %d owed %v, want the sticker 0 in the kitty swap", g.phase, g.turn, g.swapper, g.owed)
			}
			var got []string
			for _, a := range r.Legal(g, 0) {
				got = append(got, gametest.DescribeAction(a))
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("kitty RJ H7 H8 H9, level %d, trump %s: Legal %v, want %v (shengji.md, 粘牌 kitty swap)", c.level, g.order.Trump.Letter(), got, c.want)
			}
			for seat := 1; seat < seats; seat++ {
				if l := r.Legal(g, seat); len(l) != 0 {
					t.Fatalf("seat %d may %v in the sticker's kitty swap", seat, l)
				}
			}
		})
	}
}

// TestGuafengKittySwapRules: the refusals of the kitty swap and its course
// (shengji.md, 粘牌 kitty swap; trump ♥, level 6, kitty RJ H7 H8 H9): one
// swap per action, a plain trump-suit card of the kitty for a side card of
// its rank, never a joker or a side card of the kitty, only by the sticker,
// until it passes; then the dealer leads and the kitty keeps its points.
func TestGuafengKittySwapRules(t *testing.T) {
	r := guafeng(t)
	st := swapDeal(t, r, 6, "BJ H10 H10 HJ HJ")
	pts := points(gametest.Game[State](st).buried)
	refused := []struct {
		seat int
		a    table.Action
		err  error
		why  string
	}{
		{1, swapA("H7 S7"), ErrNotSticker, "only the sticker swaps"},
		{2, passA(), ErrNotSticker, "only the sticker ends the swap"},
		{0, swapA("H7"), ErrBadSwap, "a swap is two cards"},
		{0, swapA("H7 S7 H8 C8"), ErrBadSwap, "one swap per action"},
		{0, swapA("S7 H7"), ErrBadSwap, "the kitty's card comes first: the kitty holds no S7"},
		{0, swapA("RJ S7"), ErrBadSwap, "never a joker"},
		{0, swapA("H7 C8"), ErrBadSwap, "a side card of the same rank"},
		{0, swapA("H7 H10"), ErrBadSwap, "a side card, not a trump"},
		{0, swapA("H7 H7"), table.ErrCardNotInHand, "a card the sticker holds"},
		{0, exchangeA("S7"), ErrBadExchange, "every card is given back"},
		{0, playA("S7"), table.ErrWrongPhase, "no trick before the swap ends"},
	}
	for _, c := range refused {
		if _, err := gametest.Act(st, c.seat, c.a); !errors.Is(err, c.err) {
			t.Fatalf("seat %d %s: %v, want %v: %s (shengji.md, 粘牌 kitty swap)", c.seat, gametest.DescribeAction(c.a), err, c.err, c.why)
		}
	}
	h0 := gametest.Game[State](st).held[0]
	evs := gametest.MustAct(t, st, 0, swapA("H7 S7"))
	if e, ok := evs[0].(KittySwapped); len(evs) != 1 || !ok || e.Seat != 0 || cards.Format(e.Cards) != "H7 S7" {
		t.Fatalf("swap H7 S7: %v", evs)
	}
	g := gametest.Game[State](st)
	h0.Remove(cards.MustParse("S7"))
	h0.Add(cards.MustParse("H7")...)
	if g.held[0] != h0 || canon(g.buried) != canon(cards.MustParse("RJ S7 H8 H9")) || g.phase != phaseExchanging {
		t.Fatalf("after the swap the sticker holds %s, the kitty %s, phase %s", cards.Format(g.held[0].Cards()), cards.Format(g.buried), g.phase)
	}
	if _, err := gametest.Act(st, 0, swapA("S7 H7")); !errors.Is(err, ErrBadSwap) {
		t.Fatalf("taking back the side S7 given: %v, want invalid_swap (side cards stay in the kitty)", err)
	}
	gametest.MustAct(t, st, 0, swapA("H9 D9"))
	var got []string
	for _, a := range r.Legal(gametest.Game[State](st), 0) {
		got = append(got, gametest.DescribeAction(a))
	}
	if !slices.Equal(got, []string{"swap H8 C8", "pass"}) {
		t.Fatalf("after two swaps Legal %v, want swap H8 C8 and pass", got)
	}
	evs = gametest.MustAct(t, st, 0, passA())
	g = gametest.Game[State](st)
	if _, ok := evs[0].(KittySwapClosed); len(evs) != 1 || !ok || g.phase != phasePlaying || g.turn != 1 {
		t.Fatalf("the sticker passes: %v, phase %s turn %d; want the dealer 1 to lead", evs, g.phase, g.turn)
	}
	if points(g.buried) != pts || guafengKittyWorth(g.order.Level, g.buried) != guafengKittyWorth(g.order.Level, cards.MustParse("RJ H7 H8 H9")) {
		t.Fatalf("the kitty %s after the swaps is worth other points than RJ H7 H8 H9", cards.Format(g.buried))
	}
	if _, err := gametest.Act(st, 0, swapA("H8 C8")); !errors.Is(err, table.ErrWrongPhase) {
		t.Fatalf("a swap after the pass: %v, want wrong_phase", err)
	}
	if _, err := gametest.Act(st, 0, passA()); !errors.Is(err, table.ErrWrongPhase) {
		t.Fatalf("a second pass: %v, want wrong_phase", err)
	}
}

// TestGuafengExchangeShortOfTrumps: when the stuck declaration is in the
// final trump suit, its plain cards are trumps taken too; a sticker holding
// fewer jokers, level cards, 2s, 3s and 5s than it owes may pay with a
// trump-suit card, and once it holds as many as it owes, only with those
// (shengji.md, 粘牌 Decision: a trump for every trump taken; and its turn 3
// Decision, confirming exchangeShort in the rules' words: "a plain card of
// the final trump suit counts as a trump given back only while the sticker
// holds fewer jokers, level cards and 2/3/5 than it still owes").
func TestGuafengExchangeShortOfTrumps(t *testing.T) {
	r := guafeng(t)
	// Seat 0 holds nothing of 2, 3, 5, A (the level) or jokers but its BJ.
	sticker := "BJ S10 S10 SJ SJ H4 H4 H6 H6 H7 H7 H8 H8 H9 H9 H10 H10 HJ HJ HQ HQ HK HK C4 C4 C6"
	st := deal{first: [4]string{sticker, "BJ S9 S9"}}.build(t, r)
	drawRounds(t, st, 5)
	gametest.MustAct(t, st, 1, declareA("BJ S9 S9"))
	gametest.MustAct(t, st, 0, stickA("BJ S10 S10 SJ SJ"))
	closeWindow(t, st)
	g := gametest.Game[State](st)
	evs := gametest.MustAct(t, st, g.burier, table.Action{Type: ActionBury, Cards: g.guafengBuries(g.burier)[0]})
	if tk := evs[len(evs)-1].(DeclarationTaken); tk.Trumps != 3 {
		t.Fatalf("took %s under ♠ owing %d trumps, want 3", cards.Format(tk.Cards), tk.Trumps)
	}
	// Two exchange trumps held (the jokers) for three owed: a plain spade
	// pays one, a side card none.
	if _, err := gametest.Act(st, 0, exchangeA("H4")); !errors.Is(err, ErrBadExchange) {
		t.Fatalf("a side card for a trump taken: %v, want invalid_exchange", err)
	}
	gametest.MustAct(t, st, 0, exchangeA("S10"))
	if g := gametest.Game[State](st); g.trumpsOwed != 2 || g.gives != 2 {
		t.Fatalf("after S10: %d trumps owed of %d gives, want 2 of 2", g.trumpsOwed, g.gives)
	}
	// Now as many jokers as trumps owed: only they pay.
	if _, err := gametest.Act(st, 0, exchangeA("S9")); !errors.Is(err, ErrBadExchange) {
		t.Fatalf("a plain spade with the jokers enough: %v, want invalid_exchange", err)
	}
	var got []string
	for _, a := range r.Legal(gametest.Game[State](st), 0) {
		got = append(got, gametest.DescribeAction(a))
	}
	if !slices.Equal(got, []string{"exchange BJ"}) {
		t.Fatalf("Legal %v, want exchange BJ only", got)
	}
	gametest.MustAct(t, st, 0, exchangeA("BJ"))
	gametest.MustAct(t, st, 0, exchangeA("BJ"))
	if g := gametest.Game[State](st); !g.swapStep() || g.held[1].Count(cards.BJ) != 2 {
		t.Fatalf("after the exchange: swap step %v, seat 1 holds %s", g.swapStep(), cards.Format(g.held[1].Cards()))
	}
}

// TestGuafengKittySwapHidden: the kitty is hidden (doc.go, Hidden
// information): the sticker sees it once the swap opens, and its own swaps;
// the burier sees the kitty as it buried it; the other seats and spectators
// see only that swaps were made. Twins differing only in the card swapped
// (H7 for S7, or H8 for C8) look alike to seats 1, 2, 3 and a spectator.
func TestGuafengKittySwapHidden(t *testing.T) {
	r := guafeng(t)
	var st [2]*table.State
	var evs [2][]table.Payload
	for k, swap := range []string{"H7 S7", "H8 C8"} {
		st[k] = swapDeal(t, r, 6, "BJ H10 H10 HJ HJ")
		evs[k] = gametest.MustAct(t, st[k], 0, swapA(swap))
	}
	opened := KittySwapOpened{Seat: 0, Kitty: cards.MustParse("RJ H7 H8 H9")}
	for _, seat := range []int{0, 1, 2, 3, table.Spectator} {
		if got := r.Redact(opened, seat, false).(KittySwapOpened); (got.Kitty != nil) != (seat == 0) {
			t.Fatalf("seat %d sees the kitty opened as %v, want the sticker only", seat, got.Kitty)
		}
		if got := r.Redact(opened, seat, true).(KittySwapOpened); got.Kitty == nil {
			t.Fatalf("seat %d after the hand sees no kitty", seat)
		}
		gv := r.View(gametest.Game[State](st[0]), seat).Game.(GameView)
		want := ""
		switch seat {
		case 0:
			want = "RJ S7 H8 H9"
		case 1:
			want = "RJ H7 H8 H9"
		}
		if canon(gv.Kitty) != canon(cards.MustParse(want)) || gv.Swapper == nil || *gv.Swapper != 0 {
			t.Fatalf("seat %d sees the kitty %v after the swap H7 S7 (swapper %v), want %q", seat, gv.Kitty, gv.Swapper, want)
		}
	}
	for _, seat := range []int{1, 2, 3, table.Spectator} {
		var got [2]string
		for k := range st {
			var redacted []table.Payload
			for _, p := range evs[k] {
				redacted = append(redacted, table.Redact(r.untyped(), p, seat, false))
			}
			got[k] = mustJSON(t, r.View(st[k].G.(*State), seat)) + "\n" + mustJSON(t, redacted) + "\n" + mustJSON(t, r.Legal(st[k].G.(*State), seat))
		}
		if got[0] != got[1] {
			t.Fatalf("seat %d tells one kitty swap from another:\n%s\n%s", seat, got[0], got[1])
		}
	}
	if e := r.Redact(evs[0][0], 0, false).(KittySwapped); cards.Format(e.Cards) != "H7 S7" {
		t.Fatalf("the sticker sees its swap as %v", e.Cards)
	}
}

func swapA(cs string) table.Action { return table.Action{Type: ActionSwap, Cards: cards.MustParse(cs)} }
