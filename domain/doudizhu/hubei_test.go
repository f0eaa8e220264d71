package doudizhu

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

func hubei(t testing.TB) *Rules { return rulesOf(t, "hubei", "") }

// hubeiPos is a deal for the grab tests; seat 1 calls first.
var hubeiPos = position{hands: []string{"S3 S4", "S5 S6", "S7 S8"}, kitty: "SJ SQ SK", first: 1}

func TestHubeiCallPhase(t *testing.T) {
	const rule = "doudizhu.md, Bidding, hubei: call phase as in classic"
	r := hubei(t)
	t.Run("a call of 3 ends the call phase at once", func(t *testing.T) {
		st := hubeiPos.build(t, r)
		evs := gametest.MustAct(t, st, 1, bidA(3))
		if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"BidMade", "CallWon"}) {
			t.Fatalf("call 3 emits %v, want BidMade, CallWon (%s)", got, rule)
		}
		if cw := evs[1].(CallWon); cw.Seat != 1 || cw.Bid != 3 {
			t.Fatalf("%+v, want seat 1 at 3", cw)
		}
		if g := gametest.Game[State](st); g.phase != phaseGrabbing || g.turn != 2 || g.landlord != -1 || g.kittyShown {
			t.Fatalf("after the call: phase %s turn %d landlord %d kitty shown %v; want the grab phase from seat 2, no landlord yet, kitty hidden (doudizhu.md, Bidding, hubei)", g.phase, g.turn, g.landlord, g.kittyShown)
		}
	})
	t.Run("highest caller after all spoke", func(t *testing.T) {
		st := hubeiPos.build(t, r)
		gametest.MustAct(t, st, 1, bidA(1))
		gametest.MustAct(t, st, 2, bidA(2))
		evs := gametest.MustAct(t, st, 0, passA())
		if cw, ok := evs[len(evs)-1].(CallWon); !ok || cw.Seat != 2 || cw.Bid != 2 {
			t.Fatalf("calls 1, 2, pass: %v, want seat 2 winning at 2 (%s)", gametest.EventTypes(evs), rule)
		}
	})
	t.Run("all pass: re-deal", func(t *testing.T) {
		st := openTable(t, r, 1, &gametest.SeedSeq{ID: 4})
		first := gametest.Game[State](st).firstSeat
		var evs []table.Payload
		for i := range 3 {
			evs = gametest.MustAct(t, st, (first+i)%3, passA())
		}
		if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"BidPassed", "DealVoided", "HandDealt", "DealSecret"}) {
			t.Fatalf("third pass emits %v, want a re-deal (%s)", got, rule)
		}
	})
}

func TestHubeiGrabPhase(t *testing.T) {
	const rule = "doudizhu.md, Bidding, hubei (004 抢地主规则)"
	r := hubei(t)
	type word struct {
		seat int
		grab bool
	}
	tests := []struct {
		name     string
		call     int   // seat 1 calls this; the others pass if below 3 (unless calls is set)
		calls    []int // the call phase from seat 1 in turn (0 = pass), when not as call says
		words    []word
		landlord int
		mult     int
		back     bool
	}{
		{"nobody grabs", 3, nil, []word{{2, false}, {0, false}}, 1, 3, false},
		{"one grab: ×2", 3, nil, []word{{2, true}, {0, false}, {1, false}}, 2, 6, false},
		{"the second grabs: ×2", 3, nil, []word{{2, false}, {0, true}, {1, false}}, 0, 6, false},
		{"two grabs: ×4", 3, nil, []word{{2, true}, {0, true}, {1, false}}, 0, 12, false},
		{"grab and grab back: ×4", 3, nil, []word{{2, true}, {0, false}, {1, true}}, 1, 12, true},
		{"every grab: the ceiling 3 × 2 × 2 × 2 = 24", 3, nil, []word{{2, true}, {0, true}, {1, true}}, 1, 24, true},
		// Decision: grabbing is allowed after any winning call, not only 3;
		// revised Decision: a seat that passed the call has given up its grab.
		{"grab after a call of 2 by the outbid caller (Decision)", 2, []int{1, 2, 0}, []word{{1, true}, {2, false}}, 1, 4, false},
		{"grab after a call of 2, then grab back (Decision)", 2, []int{1, 2, 0}, []word{{1, true}, {2, true}}, 2, 8, true},
		{"a top call after a call: the outbid seat and the silent seat may grab (revised)", 3, []int{1, 3}, []word{{0, true}, {1, true}, {2, true}}, 2, 24, true},
		{"a top call after a pass: the passer may not grab (revised)", 3, []int{0, 3}, []word{{0, true}, {2, false}}, 0, 6, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := hubeiPos.build(t, r)
			switch {
			case tc.calls != nil:
				for i, c := range tc.calls {
					a := passA()
					if c > 0 {
						a = bidA(c)
					}
					gametest.MustAct(t, st, (1+i)%3, a)
				}
			default:
				gametest.MustAct(t, st, 1, bidA(tc.call))
				if tc.call < 3 {
					gametest.MustAct(t, st, 2, passA())
					gametest.MustAct(t, st, 0, passA())
				}
			}
			var evs []table.Payload
			for i, w := range tc.words {
				if g := gametest.Game[State](st); g.turn != w.seat {
					t.Fatalf("word %d: seat %d's turn, want seat %d (%s: in turn after the caller, then the caller)", i, g.turn, w.seat, rule)
				}
				if got := r.Legal(st.G.(*State), w.seat); len(got) != 2 || got[0].Type != ActionGrab || got[1].Type != ActionPass {
					t.Fatalf("legal in the grab phase: %v, want grab and pass", got)
				}
				a := passA()
				if w.grab {
					a = grabA()
				}
				evs = gametest.MustAct(t, st, w.seat, a)
				if gm, ok := evs[0].(GrabMade); ok && gm.Back != (w.seat == gametest.Game[State](st).caller) {
					t.Errorf("%+v: back marks the caller's grab-back only", gm)
				}
			}
			lc, ok := evs[len(evs)-1].(LandlordChosen)
			if !ok {
				t.Fatalf("the last word emits %v, want the landlord chosen (%s)", gametest.EventTypes(evs), rule)
			}
			if lc.Seat != tc.landlord || lc.Multiplier != tc.mult || lc.Bid != tc.call || cards.Format(lc.Kitty) != "SJ SQ SK" {
				t.Errorf("landlord %+v, want seat %d at multiplier %d (%s: every grab ×2, the last grabber is landlord)", lc, tc.landlord, tc.mult, rule)
			}
			g := gametest.Game[State](st)
			if g.phase != phasePlaying || g.turn != tc.landlord || g.grabBack != tc.back || g.multiplier() != tc.mult {
				t.Errorf("after the grab phase: phase %s turn %d back %v multiplier %d", g.phase, g.turn, g.grabBack, g.multiplier())
			}
			if v := r.View(st.G.(*State), table.Spectator).Game.(GameView); v.Multiplier != tc.mult || len(v.Grabs) != len(tc.words) {
				t.Errorf("a spectator sees multiplier %d and %d grab words, want %d and %d (the current multiplier is public)", v.Multiplier, len(v.Grabs), tc.mult, len(tc.words))
			}
		})
	}
	t.Run("everyone else passed the call: landlord at once (revised)", func(t *testing.T) {
		for _, call := range []int{1, 2} {
			st := hubeiPos.build(t, r)
			gametest.MustAct(t, st, 1, bidA(call))
			gametest.MustAct(t, st, 2, passA())
			evs := gametest.MustAct(t, st, 0, passA())
			if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"BidPassed", "CallWon", "LandlordChosen"}) {
				t.Fatalf("call %d, pass, pass emits %v, want BidPassed, CallWon, LandlordChosen: both others gave up their grab (%s, revised Decision: 叫分不叫视放弃)", call, got, rule)
			}
			if lc := evs[2].(LandlordChosen); lc.Seat != 1 || lc.Multiplier != call {
				t.Errorf("%+v, want seat 1 landlord at multiplier %d", lc, call)
			}
			if g := gametest.Game[State](st); g.phase != phasePlaying || g.turn != 1 {
				t.Errorf("after the call: phase %s turn %d, want seat 1 to lead the play", g.phase, g.turn)
			}
		}
	})
	t.Run("a seat that passed the call may not grab (revised)", func(t *testing.T) {
		st := hubeiPos.build(t, r)
		gametest.MustAct(t, st, 1, passA())
		gametest.MustAct(t, st, 2, bidA(3))
		if got := r.Legal(st.G.(*State), 1); got != nil {
			t.Errorf("seat 1 passed the call, yet may %v in the grab phase (%s, revised Decision)", got, rule)
		}
		if _, err := r.Decide(st.G.(*State), 1, grabA()); !errors.Is(err, table.ErrNotYourTurn) {
			t.Errorf("seat 1 passed the call and grabs: %v, want not_your_turn (%s, revised Decision)", err, rule)
		}
		gametest.MustAct(t, st, 0, passA()) // seat 0 never spoke: it may grab, and declines
		if g := gametest.Game[State](st); g.phase != phasePlaying || g.landlord != 2 {
			t.Errorf("after seat 0 declines: phase %s landlord %d, want seat 2 landlord (seat 1 has no grab to make)", g.phase, g.landlord)
		}
	})
	t.Run("errors", func(t *testing.T) {
		st := hubeiPos.build(t, r)
		if _, err := r.Decide(st.G.(*State), 1, grabA()); !errors.Is(err, table.ErrWrongPhase) {
			t.Errorf("grab in the call phase: %v, want wrong_phase", err)
		}
		gametest.MustAct(t, st, 1, bidA(3))
		for _, tc := range []struct {
			seat int
			a    table.Action
			want error
		}{
			{0, grabA(), table.ErrNotYourTurn},
			{1, grabA(), table.ErrNotYourTurn},
			{2, bidA(3), table.ErrWrongPhase},
			{2, playA("S7"), table.ErrWrongPhase},
			{2, openA(), table.ErrWrongPhase},
			{2, table.Action{Type: ActionGrab, Bid: table.Seat(1)}, table.ErrBadAction},
		} {
			if _, err := r.Decide(st.G.(*State), tc.seat, tc.a); !errors.Is(err, tc.want) {
				t.Errorf("seat %d %s in the grab phase: %v, want %v", tc.seat, gametest.DescribeAction(tc.a), err, tc.want)
			}
		}
		if _, err := classic(t).Decide(gametest.Game[State](position{hands: []string{"S3", "S4", "S5"}, kitty: "S6 S7 S8"}.build(t, classic(t))), 0, grabA()); !errors.Is(err, table.ErrUnknownAction) {
			t.Errorf("grab in classic: %v, want unknown_action (classic has no grab phase)", err)
		}
	})
}

func TestHubeiOpen(t *testing.T) {
	const rule = "doudizhu.md, Bidding, hubei: 明牌"
	r := hubei(t)
	pos := position{hands: []string{"S3 S5 D9", "S4 H7", "C4 C7"}, kitty: "SK HK CK"}
	st := pos.playing(t, r, 0, 2)
	for seat := range 3 {
		if v := r.View(st.G.(*State), seat).Game.(GameView); v.Open || v.OpenHand != nil {
			t.Fatalf("seat %d sees the landlord's hand %v before 明牌", seat, v.OpenHand)
		}
	}
	if got := r.Legal(st.G.(*State), 0); got[len(got)-1].Type != ActionOpen {
		t.Fatalf("the landlord's legal actions end with %v, want open (%s)", got[len(got)-1], rule)
	}
	if _, err := r.Decide(st.G.(*State), 1, openA()); !errors.Is(err, table.ErrNotYourTurn) {
		t.Errorf("a farmer opens: %v, want not_your_turn", err)
	}
	evs := gametest.MustAct(t, st, 0, openA())
	ho, ok := evs[0].(HandOpened)
	if len(evs) != 1 || !ok || ho.Seat != 0 || cards.Format(ho.Cards) != "S3 S5 D9 SK HK CK" || ho.Multiplier != 4 {
		t.Fatalf("open emits %v %+v, want HandOpened of seat 0 with its whole hand S3 S5 D9 SK HK CK at multiplier 2 × 2 (%s)", gametest.EventTypes(evs), evs[0], rule)
	}
	if p := table.Redact(r.untyped(), ho, 1, false); p == nil {
		t.Errorf("HandOpened is hidden from seat 1, want shown to all")
	}
	for _, seat := range []int{0, 1, 2, table.Spectator} {
		v := r.View(st.G.(*State), seat).Game.(GameView)
		if !v.Open || cards.Format(v.OpenHand) != "S3 S5 D9 SK HK CK" || v.Multiplier != 4 {
			t.Errorf("viewer %d sees open %v hand %v multiplier %d after 明牌, want the landlord's hand and ×2 (%s)", seat, v.Open, v.OpenHand, v.Multiplier, rule)
		}
	}
	if g := gametest.Game[State](st); g.turn != 0 {
		t.Fatalf("after 明牌 the turn is %d's, want the landlord still to lead", g.turn)
	}
	if _, err := r.Decide(st.G.(*State), 0, openA()); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("opening twice: %v, want cannot_open", err)
	}
	gametest.MustAct(t, st, 0, playA("S3"))
	if v := r.View(st.G.(*State), 2).Game.(GameView); cards.Format(v.OpenHand) != "S5 D9 SK HK CK" {
		t.Errorf("after a play seat 2 sees the open hand %v, want the landlord's current hand", v.OpenHand)
	}
	gametest.MustAct(t, st, 1, passA())
	gametest.MustAct(t, st, 2, passA())
	if slices.ContainsFunc(r.Legal(st.G.(*State), 0), func(a table.Action) bool { return a.Type == ActionOpen }) {
		t.Errorf("the landlord may open after playing (%s: before the first play)", rule)
	}
	st2 := pos.playing(t, r, 0, 2)
	gametest.MustAct(t, st2, 0, playA("S3"))
	gametest.MustAct(t, st2, 1, passA())
	gametest.MustAct(t, st2, 2, passA())
	if _, err := r.Decide(st2.G.(*State), 0, openA()); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("opening after the first play: %v, want cannot_open (%s)", err, rule)
	}
}

func TestHubeiScoring(t *testing.T) {
	const rule = "doudizhu.md, Scoring, hubei (004 翻倍)"
	r := hubei(t)
	type step struct {
		seat int
		a    table.Action
	}
	// Seat 0 calls 3 and nobody grabs; the kitty SK HK CK joins its hand.
	tests := []struct {
		name   string
		hands  []string
		kitty  string
		open   bool
		steps  []step
		mult   int
		deltas []int
		check  func(Result) bool
	}{
		{
			name:  "a bomb ×2",
			hands: []string{"S3 H3 C3 D3 S5", "S4 H7", "C4 C7"}, kitty: "SK HK CK",
			steps: []step{{0, playA("SK HK CK")}, {1, passA()}, {2, passA()}, {0, playA("S3 H3 C3 D3")}, {1, passA()}, {2, passA()}, {0, playA("S5")}},
			mult:  3 * 2 * 4, deltas: []int{48, -24, -24}, // spring too: the farmers never played
			check: func(res Result) bool { return res.Bombs == 1 && res.Spring },
		},
		{
			name:  "a rocket ×4, the landlord went out with it",
			hands: []string{"S3 BJ RJ", "S4 H7", "C4 C7"}, kitty: "SK HK CK",
			steps: []step{{0, playA("SK HK CK S3")}, {1, passA()}, {2, passA()}, {0, playA("BJ RJ")}},
			mult:  3 * 4 * 4, deltas: []int{96, -48, -48},
			check: func(res Result) bool { return res.Rockets == 1 && res.Spring },
		},
		{
			name:  "a farmer's bomb counts too",
			hands: []string{"S3 S5 S6", "S4 H4 C4 D4 SA", "C9 C7"}, kitty: "SK HK CK",
			steps: []step{{0, playA("S3")}, {1, playA("S4 H4 C4 D4")}, {2, passA()}, {0, passA()}, {1, playA("SA")}},
			mult:  3 * 2 * 2, deltas: []int{-24, 12, 12}, // and the landlord played once
			check: func(res Result) bool { return res.Bombs == 1 && res.AntiSpring },
		},
		{
			name:  "the landlord played once and a farmer went out first ×2",
			hands: []string{"S3 S5 S6", "S4 SA", "C4 C7"}, kitty: "SK HK CK",
			steps: []step{{0, playA("S3")}, {1, playA("S4")}, {2, passA()}, {0, passA()}, {1, playA("SA")}},
			mult:  3 * 2, deltas: []int{-12, 6, 6},
			check: func(res Result) bool { return res.AntiSpring && !res.Spring },
		},
		{
			name:  "no multiplier beyond the call",
			hands: []string{"S3 S5 S6", "S4 SA", "C4 C7"}, kitty: "SK HK CK",
			steps: []step{{0, playA("S3")}, {1, playA("S4")}, {2, passA()}, {0, playA("S5")}, {1, playA("SA")}},
			mult:  3, deltas: []int{-6, 3, 3},
			check: func(res Result) bool { return !res.AntiSpring && !res.Spring && res.Bombs == 0 },
		},
		{
			name:  "spring ×4 and open ×2",
			hands: []string{"S3 S5", "S4 H4", "C4 D4"}, kitty: "SK HK CK", open: true,
			steps: []step{{0, playA("S3")}, {1, passA()}, {2, passA()}, {0, playA("S5")}, {1, passA()}, {2, passA()}, {0, playA("SK HK CK")}},
			mult:  3 * 2 * 4, deltas: []int{48, -24, -24},
			check: func(res Result) bool { return res.Open && res.Spring },
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := position{hands: tc.hands, kitty: tc.kitty}.playing(t, r, 0, 3)
			if tc.open {
				gametest.MustAct(t, st, 0, openA())
			}
			var evs []table.Payload
			for _, s := range tc.steps {
				evs = gametest.MustAct(t, st, s.seat, s.a)
			}
			hs, res := gametest.SettledOf[Result](t, evs)
			if res.Multiplier != tc.mult || !slices.Equal(hs.Deltas, tc.deltas) || !tc.check(res) || res.Multiplier != product(res) {
				t.Errorf("settles %v with %+v, want multiplier %d and deltas %v (%s)", hs.Deltas, res, tc.mult, tc.deltas, rule)
			}
		})
	}
}

func TestHubeiEscape(t *testing.T) {
	const rule = "doudizhu.md, Escape (hubei: current multiplier × 16 landlord, × 8 farmer, shared)"
	r := hubei(t)
	pos := position{hands: []string{"S3 H3 C3 D3 S5", "S4 H7", "C4 C7"}, kitty: "SK HK CK", first: 0}
	t.Run("during the call phase: a farmer at ×1", func(t *testing.T) {
		st := pos.build(t, r)
		gametest.MustAct(t, st, 0, bidA(2))
		_, res := gametest.SettledOf[Result](t, gametest.MustAct(t, st, 0, table.Action{Type: table.ActionEscape}))
		if res.Multiplier != 1 || res.Penalty != 8 {
			t.Errorf("%+v, want multiplier 1 and penalty 8 (%s)", res, rule)
		}
	})
	t.Run("during the grab phase the provisional landlord is landlord", func(t *testing.T) {
		st := pos.build(t, r)
		gametest.MustAct(t, st, 0, bidA(3))
		gametest.MustAct(t, st, 1, grabA()) // ×6, seat 1 provisional landlord
		hs, res := gametest.SettledOf[Result](t, gametest.MustAct(t, st, 1, table.Action{Type: table.ActionEscape}))
		if res.Multiplier != 6 || res.Penalty != 96 || !slices.Equal(hs.Deltas, []int{48, -96, 48}) || *res.Landlord != 1 {
			t.Errorf("%v %+v, want 6 × 16 = 96 shared (%s)", hs.Deltas, res, rule)
		}
	})
	t.Run("in the play: bombs and open count", func(t *testing.T) {
		st := pos.playing(t, r, 0, 3)
		gametest.MustAct(t, st, 0, openA())
		gametest.MustAct(t, st, 0, playA("S3 H3 C3 D3"))
		hs, res := gametest.SettledOf[Result](t, gametest.MustAct(t, st, 2, table.Action{Type: table.ActionEscape}))
		// 3 × 2 (open) × 2 (bomb) = 12; a farmer pays 12 × 8 = 96.
		if res.Multiplier != 12 || res.Penalty != 96 || !slices.Equal(hs.Deltas, []int{48, 48, -96}) || !res.Open || res.Bombs != 1 {
			t.Errorf("%v %+v, want multiplier 12 and penalty 96 shared by seats 0 and 1 (%s)", hs.Deltas, res, rule)
		}
		_, res = gametest.SettledOf[Result](t, gametest.MustAct(t, pos.playing(t, r, 0, 3), 0, table.Action{Type: table.ActionEscape}))
		if res.Penalty != 48 {
			t.Errorf("the landlord escapes at ×3: penalty %d, want 3 × 16 = 48 (%s)", res.Penalty, rule)
		}
	})
}

func TestHubeiCardTypes(t *testing.T) {
	const rule = "doudizhu.md, Card types (004: 四带二 and 飞机 may not carry the rocket; 三带对顺)"
	r := hubei(t)
	for _, tc := range []struct {
		cards string
		want  []Reading
	}{
		{"S4 H4 C4 D4 BJ RJ", nil},
		{"S4 H4 C4 D4 S5 BJ", []Reading{rd(FourTwoSingles, climb.Rank4, 1)}},
		{"S3 H3 C3 S4 H4 C4 BJ RJ", nil},
		{"S3 H3 C3 S4 H4 C4 S9 BJ", []Reading{rd(AirplaneSingles, climb.Rank4, 2)}},
		{"S3 H3 C3 S4 H4 C4 S9 H9 SK HK", []Reading{rd(AirplanePairs, climb.Rank4, 2)}},
		{"S3 H3 C3 S4 H4 C4 S9 H9 SK HK CK DK", nil}, // 333444 with 99 and KKKK: no type
	} {
		if got := r.Classify(cards.MustParse(tc.cards)); !slices.Equal(got, tc.want) {
			t.Errorf("%s reads %v, want %v (%s)", tc.cards, got, tc.want, rule)
		}
	}
}

func TestHubeiViewMultiplierAndDecode(t *testing.T) {
	r := hubei(t)
	st := position{hands: []string{"S3 H3 C3 D3 S5", "S4 H7", "C4 C7"}, kitty: "SK HK CK"}.playing(t, r, 0, 2)
	gametest.MustAct(t, st, 0, playA("S3 H3 C3 D3"))
	if v := r.View(st.G.(*State), 1).Game.(GameView); v.Multiplier != 4 || v.Bombs != 1 {
		t.Errorf("after a bomb a farmer sees multiplier %d bombs %d, want 2 × 2 = 4 (doudizhu.md, Scoring, hubei: the multiplier is public)", v.Multiplier, v.Bombs)
	}
	for _, e := range []table.Payload{
		CallWon{Seat: 1, Bid: 2},
		GrabMade{Seat: 2, Multiplier: 4},
		GrabMade{Seat: 1, Back: true, Multiplier: 8},
		GrabDeclined{Seat: 0},
		HandOpened{Seat: 1, Cards: cards.MustParse("S3 RJ"), Multiplier: 16},
		LandlordChosen{Seat: 1, Bid: 2, Kitty: cards.MustParse("S3 HQ RJ"), Multiplier: 8},
		MatchEnded{Hands: 5, Standings: []Standing{{Place: 1, Seat: 2, PlayerID: "p2", Players: []string{"p2"}, Total: 6}}},
	} {
		b, _ := json.Marshal(e)
		back, err := table.Decode(r.untyped(), e.EventType(), b)
		if err != nil {
			t.Fatalf("decode %s %s: %v", e.EventType(), b, err)
		}
		if b2, _ := json.Marshal(back); string(b) != string(b2) {
			t.Errorf("%s round-trips as %s", b, b2)
		}
	}
	// classic's LandlordChosen keeps its shape: no multiplier key.
	b, _ := json.Marshal(LandlordChosen{Seat: 1, Bid: 2, Kitty: cards.MustParse("S3")})
	if string(b) != `{"seat":1,"bid":2,"kitty":["S3"]}` {
		t.Errorf("classic LandlordChosen encodes as %s", b)
	}
}
