package doudizhu

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// The table options of doudizhu.md, section "Table options (house rules) —
// turn 3", and the rules README's conventions: validated by key, defaults
// left out of the recorded options, shown with defaults filled in.
func TestOptionsParsed(t *testing.T) {
	g := New()
	for _, tc := range []struct {
		variant, opts, norm, shown string
	}{
		{"classic", ``, `{}`, `{"bomb_double":false,"double":false,"show_counts":true,"spring":2}`},
		{"hubei", `{}`, `{}`, `{"double":false,"show_counts":true,"spring":4}`},
		{"fourplayer", `{"hands":3}`, `{"hands":3}`, `{"double":false,"hands":3,"show_counts":true,"spring":4}`},
		// A key at its default is left out of the recorded options.
		{"classic", `{"bomb_double":false,"double":false,"show_counts":true,"spring":2}`, `{}`, `{"bomb_double":false,"double":false,"show_counts":true,"spring":2}`},
		{"hubei", `{"spring":4,"show_counts":true}`, `{}`, `{"double":false,"show_counts":true,"spring":4}`},
		{"classic", `{"spring":4,"cap":3,"hands":5,"bomb_double":true,"double":true,"show_counts":false}`,
			`{"bomb_double":true,"cap":3,"double":true,"hands":5,"show_counts":false,"spring":4}`,
			`{"bomb_double":true,"cap":3,"double":true,"hands":5,"show_counts":false,"spring":4}`},
		{"hubei", `{"spring":2,"cap":1000000}`, `{"cap":1000000,"spring":2}`, `{"cap":1000000,"double":false,"show_counts":true,"spring":2}`},
		{"fourplayer", `{"spring":1}`, `{"spring":1}`, `{"double":false,"show_counts":true,"spring":1}`},
	} {
		r, err := g.Rules(tc.variant, json.RawMessage(tc.opts))
		if err != nil {
			t.Errorf("%s %s: %v", tc.variant, tc.opts, err)
			continue
		}
		if string(r.Options()) != tc.norm || string(table.ShownOptions(r)) != tc.shown {
			t.Errorf("%s %s: recorded %s shown %s, want %s and %s (rules README, Table options: defaults left out, shown filled in)",
				tc.variant, tc.opts, r.Options(), table.ShownOptions(r), tc.norm, tc.shown)
		}
		// The audit path reads the recorded options back to the same rules.
		again, err := g.RulesAt(r.Version(), tc.variant, r.Options())
		if err != nil || string(again.Options()) != tc.norm {
			t.Errorf("%s: RulesAt under %s: %v, %v", tc.variant, tc.norm, err, again)
		}
	}
	for _, tc := range []struct{ variant, opts, key string }{
		{"classic", `{"cap":2}`, "cap"}, // Decision: never below a bid
		{"classic", `{"cap":1000001}`, "cap"},
		{"classic", `{"cap":"8"}`, "cap"},
		{"classic", `{"cap":null}`, "cap"},
		{"hubei", `{"bomb_double":true}`, "bomb_double"}, // classic only
		{"fourplayer", `{"bomb_double":false}`, "bomb_double"},
		{"classic", `{"bomb_double":1}`, "bomb_double"},
		{"classic", `{"spring":0}`, "spring"},
		{"hubei", `{"spring":5}`, "spring"},
		{"classic", `{"double":"yes"}`, "double"},
		{"classic", `{"show_counts":0}`, "show_counts"},
		{"classic", `{"hands":0}`, "hands"},
		{"classic", `{"cap":8,"jokers":2}`, "jokers"},
	} {
		_, err := g.Rules(tc.variant, json.RawMessage(tc.opts))
		var te *table.Error
		if !errors.Is(err, table.ErrBadOption) || !errors.As(err, &te) || te.Option != tc.key {
			t.Errorf("%s %s: %v, want invalid_option naming %q (rules README, Table options, Validated)", tc.variant, tc.opts, err, tc.key)
		}
	}
}

// step is one action of a seat in a scripted hand.
type step struct {
	seat int
	a    table.Action
}

func doubleA() table.Action { return table.Action{Type: ActionDouble} }

func sameType(a, b table.Action) bool { return a.Type == b.Type }

// playSteps acts the steps in order and returns the events of the last.
func playSteps(t *testing.T, st *table.State, steps []step) []table.Payload {
	t.Helper()
	var evs []table.Payload
	for _, s := range steps {
		evs = gametest.MustAct(t, st, s.seat, s.a)
	}
	return evs
}

// hubeiExample is doudizhu.md's cap example up to the bomb: hubei, stake 10,
// seat 0 calls 3, seats 1 and 2 grab (×4), seat 0 does not grab back, so
// seat 2 is landlord at 12; it plays a bomb (24).
func hubeiExample(t *testing.T, opts string) *table.State {
	t.Helper()
	r := rulesOf(t, "hubei", opts)
	st := position{hands: []string{"S4 S6", "S7 S8", "S3 H3 C3 D3 S5"}, kitty: "SK HK CK", stake: 10}.build(t, r)
	playSteps(t, st, []step{{0, bidA(3)}, {1, grabA()}, {2, grabA()}, {0, passA()}, {2, playA("S3 H3 C3 D3")}})
	if m := r.View(st.G.(*State), 0).Game.(GameView).Multiplier; m != 24 {
		t.Fatalf("current multiplier %d after the bomb, want 24 (3 × 4 × 2)", m)
	}
	return st
}

// doudizhu.md, Table options, cap: the example (hubei, stake 10, bid 3, two
// grabs, one bomb, spring: M = 96), played out and escaped at 24.
func TestOptionCapExample(t *testing.T) {
	springOut := []step{{0, passA()}, {1, passA()}, {2, playA("S5")}, {0, passA()}, {1, passA()}, {2, playA("SK HK CK")}}
	for _, tc := range []struct {
		opts           string
		out, escape    []int
		settled        []int
		cap, multOfOut int
	}{
		{``, []int{-960, -960, 1920}, []int{1920, 1920, -3840}, nil, 0, 96},
		{`{"cap":8}`, []int{-80, -80, 160}, []int{640, 640, -1280}, []int{8, 8, 16}, 8, 96},
	} {
		hs, res := gametest.SettledOf[Result](t, playSteps(t, hubeiExample(t, tc.opts), springOut))
		if !slices.Equal(hs.Deltas, tc.out) || res.Multiplier != tc.multOfOut || !res.Spring || !slices.Equal(res.Settled, tc.settled) || res.Cap != tc.cap {
			t.Errorf("%s: landlord wins with spring: %v %+v, want %v, multiplier %d, settled %v (doudizhu.md, Table options, cap example)",
				tc.opts, hs.Deltas, res, tc.out, tc.multOfOut, tc.settled)
		}
		hs, res = gametest.SettledOf[Result](t, gametest.MustAct(t, hubeiExample(t, tc.opts), 2, table.Action{Type: table.ActionEscape}))
		if !slices.Equal(hs.Deltas, tc.escape) || res.Multiplier != 24 || res.Cap != tc.cap {
			t.Errorf("%s: landlord escapes at 24: %v %+v, want %v: the 16 is a penalty, never capped (doudizhu.md, Table options, cap)", tc.opts, hs.Deltas, res, tc.escape)
		}
	}
	// The view shows the uncapped running multiplier and the cap.
	st := hubeiExample(t, `{"cap":8}`)
	if gv := rulesOf(t, "hubei", `{"cap":8}`).View(st.G.(*State), 1).Game.(GameView); gv.Multiplier != 24 || gv.Cap != 8 {
		t.Errorf("view multiplier %d cap %d, want 24 and 8", gv.Multiplier, gv.Cap)
	}
}

// doudizhu.md, Table options, bomb_double: the example (classic, bid 2, a
// bomb and the rocket, farmers win, stake 1): +2 +2 −4 today, +8 +8 −16.
func TestOptionBombDoubleExample(t *testing.T) {
	steps := []step{
		{0, playA("S3")}, {1, passA()}, {2, playA("C7")}, {0, playA("SK")},
		{1, playA("S4 H4 C4 D4")}, {2, passA()}, {0, passA()}, {1, playA("S8")}, {2, playA("BJ RJ")},
	}
	pos := position{hands: []string{"S3 S5 S6", "S4 H4 C4 D4 S8 S9", "C7 BJ RJ"}, kitty: "SK HK CK"}
	for _, tc := range []struct {
		opts          string
		deltas        []int
		mult, escMult int
		bombs         int
	}{
		{``, []int{-4, 2, 2}, 2, 2, 0},
		{`{"bomb_double":true}`, []int{-16, 8, 8}, 8, 4, 1},
	} {
		r := rulesOf(t, "classic", tc.opts)
		hs, res := gametest.SettledOf[Result](t, playSteps(t, pos.playing(t, r, 0, 2), steps))
		if !slices.Equal(hs.Deltas, tc.deltas) || res.Multiplier != tc.mult || res.Bombs != tc.bombs || res.Rockets != tc.bombs || res.AntiSpring {
			t.Errorf("%s: %v %+v, want %v at %d with %d bomb and rocket (doudizhu.md, Table options, bomb_double example)", tc.opts, hs.Deltas, res, tc.deltas, tc.mult, tc.bombs)
		}
		// Each bomb counts into the current multiplier at once, so an
		// escape pays it: the landlord after the bomb, 16 × stake × current.
		st := pos.playing(t, r, 0, 2)
		playSteps(t, st, steps[:5])
		hs, _ = gametest.SettledOf[Result](t, gametest.MustAct(t, st, 0, table.Action{Type: table.ActionEscape}))
		if hs.Deltas[0] != -16*tc.escMult {
			t.Errorf("%s: landlord escapes after a bomb: %v, want %d", tc.opts, hs.Deltas, -16*tc.escMult)
		}
	}
}

// doudizhu.md, Table options, spring: classic, bid 3, spring, stake 1:
// −6 −6 +12 today, −9 −9 +18 at 3; 1 = no bonus; classic's 反春 takes the
// factor too, hubei keeps its 反春 at ×2.
func TestOptionSpringExample(t *testing.T) {
	spring := []step{{0, playA("S3")}, {1, passA()}, {2, passA()}, {0, playA("S5")}, {1, passA()}, {2, passA()}, {0, playA("SK HK CK")}}
	springPos := position{hands: []string{"S3 S5", "S4 H4", "C4 D4"}, kitty: "SK HK CK"}
	anti := []step{{0, playA("S3")}, {1, playA("S4")}, {2, passA()}, {0, passA()}, {1, playA("SA")}}
	antiPos := position{hands: []string{"S3 S5 S6", "S4 SA", "C4 C7"}, kitty: "SK HK CK"}
	for _, tc := range []struct {
		variant, opts string
		pos           position
		bid           int
		steps         []step
		deltas        []int
	}{
		{"classic", ``, springPos, 3, spring, []int{12, -6, -6}},
		{"classic", `{"spring":3}`, springPos, 3, spring, []int{18, -9, -9}},
		{"classic", `{"spring":1}`, springPos, 3, spring, []int{6, -3, -3}},
		{"classic", `{"spring":4}`, antiPos, 2, anti, []int{-16, 8, 8}}, // 002 treats 反春 alike
		{"hubei", `{"spring":1}`, antiPos, 2, anti, []int{-8, 4, 4}},    // 004 keeps 反春 ×2
		{"hubei", `{"spring":2}`, springPos, 3, spring, []int{12, -6, -6}},
	} {
		r := rulesOf(t, tc.variant, tc.opts)
		hs, _ := gametest.SettledOf[Result](t, playSteps(t, tc.pos.playing(t, r, 0, tc.bid), tc.steps))
		if !slices.Equal(hs.Deltas, tc.deltas) {
			t.Errorf("%s %s: %v, want %v (doudizhu.md, Table options, spring)", tc.variant, tc.opts, hs.Deltas, tc.deltas)
		}
	}
}

// doudizhu.md, Table options, double: the example (classic, bid 2, stake 1,
// A doubles, B passes, the landlord doubles back, the landlord wins):
// A −8, B −2, landlord +10; with cap 4: −4, −2, +6.
func TestOptionDoubleExample(t *testing.T) {
	pos := position{hands: []string{"S3 S5", "S4 H7", "C4 C7"}, kitty: "SK HK CK"}
	play := []step{{0, playA("S3")}, {1, playA("S4")}, {2, passA()}, {0, playA("S5")}, {1, passA()}, {2, passA()}, {0, playA("SK HK CK")}}
	for _, tc := range []struct {
		opts             string
		deltas, settled  []int
		factors          []int
		landlordDoubleOK bool
	}{
		{`{"double":true}`, []int{10, -8, -2}, []int{10, 8, 2}, []int{0, 4, 1}, true},
		{`{"double":true,"cap":4}`, []int{6, -4, -2}, []int{6, 4, 2}, []int{0, 4, 1}, true},
	} {
		r := rulesOf(t, "classic", tc.opts)
		st := pos.playing(t, r, 0, 2)
		s := st.G.(*State)
		if s.phase != phaseDoubling || s.turn != 1 || !slices.EqualFunc(r.Legal(s, 1), []table.Action{doubleA(), passA()}, sameType) || r.Legal(s, 0) != nil {
			t.Fatalf("after LandlordChosen: phase %s turn %d legal %v; want doubling, seat 1 (the landlord's next seat) to double or pass", s.phase, s.turn, r.Legal(s, 1))
		}
		evs := playSteps(t, st, []step{{1, doubleA()}, {2, passA()}})
		if _, ok := evs[0].(DoublePassed); !ok || gametest.Game[State](st).turn != 0 {
			t.Fatalf("B passes: %v, then the landlord speaks (a farmer doubled)", evs)
		}
		evs = gametest.MustAct(t, st, 0, doubleA())
		if e, ok := evs[0].(DoubleMade); !ok || !e.Back || e.Seat != 0 {
			t.Fatalf("the landlord doubles back: %v, want DoubleMade with back", evs)
		}
		gv := r.View(st.G.(*State), 2).Game.(GameView)
		if !slices.Equal(gv.Factors, tc.factors) || len(gv.Doubles) != 3 || !gv.Doubles[2].Back || gv.Doubles[1].Double {
			t.Errorf("view factors %v doubles %+v, want %v", gv.Factors, gv.Doubles, tc.factors)
		}
		hs, res := gametest.SettledOf[Result](t, playSteps(t, st, play))
		if !slices.Equal(hs.Deltas, tc.deltas) || res.Multiplier != 2 || !slices.Equal(res.Settled, tc.settled) || !slices.Equal(res.Factors, tc.factors) {
			t.Errorf("%s: %v %+v, want %v settled %v (doudizhu.md, Table options, double example)", tc.opts, hs.Deltas, res, tc.deltas, tc.settled)
		}
	}
}

// doudizhu.md, Table options, double: no farmer doubled, the landlord does
// not speak; timeouts pass; escapes ignore the factors; 明牌 is unchanged,
// still before the landlord's first play.
func TestOptionDoublePhase(t *testing.T) {
	pos := position{hands: []string{"S3 S5", "S4 H7", "C4 C7"}, kitty: "SK HK CK"}
	r := rulesOf(t, "classic", `{"double":true}`)
	st := pos.playing(t, r, 0, 2)
	for seat := 1; seat <= 2; seat++ {
		s := st.G.(*State)
		if a := r.TimeoutAction(s, seat); a.Type != ActionPass {
			t.Fatalf("seat %d times out with %v in the doubling phase, want pass", seat, a)
		}
		if a := r.BotAction(r.View(s, seat), r.Legal(s, seat)); a.Type != ActionPass {
			t.Fatalf("the bot in seat %d chooses %v in the doubling phase, want pass", seat, a)
		}
		gametest.MustAct(t, st, seat, passA())
	}
	if s := gametest.Game[State](st); s.phase != phasePlaying || s.turn != 0 {
		t.Fatalf("nobody doubled: phase %s turn %d, want the landlord to lead", s.phase, s.turn)
	}
	if _, err := r.Decide(st.G.(*State), 0, doubleA()); !errors.Is(err, table.ErrWrongPhase) {
		t.Errorf("double during the play: %v, want wrong_phase", err)
	}
	if _, err := classic(t).Decide(st.G.(*State), 0, doubleA()); !errors.Is(err, table.ErrUnknownAction) {
		t.Errorf("double without the option: %v, want unknown_action", err)
	}

	// A doubles, the landlord doubles back, then escapes: 2 × 16, factors ignored.
	st = pos.playing(t, r, 0, 2)
	playSteps(t, st, []step{{1, doubleA()}, {2, passA()}, {0, doubleA()}})
	hs, _ := gametest.SettledOf[Result](t, gametest.MustAct(t, st, 0, table.Action{Type: table.ActionEscape}))
	if !slices.Equal(hs.Deltas, []int{-32, 16, 16}) {
		t.Errorf("landlord escape after doubles: %v, want -32 16 16 (escapes ignore the factors)", hs.Deltas)
	}

	// hubei: the landlord may still play open after the doubling phase.
	hr := rulesOf(t, "hubei", `{"double":true}`)
	st = pos.playing(t, hr, 0, 3)
	if s := gametest.Game[State](st); s.phase != phaseDoubling || hr.Legal(s, 1)[0].Type != ActionDouble {
		t.Fatalf("hubei after LandlordChosen: phase %s", s.phase)
	}
	playSteps(t, st, []step{{1, passA()}, {2, doubleA()}, {0, passA()}})
	if !slices.ContainsFunc(hr.Legal(st.G.(*State), 0), func(a table.Action) bool { return a.Type == ActionOpen }) {
		t.Errorf("the landlord may not open after the doubling phase: 明牌 is unchanged")
	}
	evs := playSteps(t, st, []step{{0, openA()}, {0, playA("S3")}, {1, passA()}, {2, passA()}, {0, playA("S5")}, {1, passA()}, {2, passA()}, {0, playA("SK HK CK")}})
	hs, res := gametest.SettledOf[Result](t, evs)
	// bid 3, open ×2, spring ×4 = 24; seat 2 doubled (×2, no double-back).
	if !slices.Equal(hs.Deltas, []int{72, -24, -48}) || res.Multiplier != 24 || !slices.Equal(res.Settled, []int{72, 24, 48}) {
		t.Errorf("hubei open spring with a farmer's double: %v %+v, want 72 -24 -48", hs.Deltas, res)
	}
}

// doudizhu.md, Table options, show_counts false: cards_left shows the
// viewer's own count and another seat's only at 2 or fewer (null else);
// the auditor sees every count.
func TestOptionShowCounts(t *testing.T) {
	pos := position{hands: []string{"S3 S5 S6 S7", "S4 H7 H8", "C4 C7 C8 C9"}, kitty: "SK HK CK"}
	r := rulesOf(t, "classic", `{"show_counts":false}`)
	st := pos.playing(t, r, 0, 2)
	counts := func(seat int) string {
		b, err := json.Marshal(r.View(st.G.(*State), seat).Game.(GameView).CardsLeft)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for seat, want := range map[int]string{0: "[7,null,null]", 1: "[null,3,null]", table.Spectator: "[null,null,null]", table.Auditor: "[7,3,4]"} {
		if got := counts(seat); got != want {
			t.Errorf("seat %d sees cards_left %s, want %s", seat, got, want)
		}
	}
	playSteps(t, st, []step{{0, playA("S3")}, {1, playA("S4")}})
	if got := counts(2); got != "[null,2,4]" {
		t.Errorf("after seat 1 is down to 2, seat 2 sees %s, want [null,2,4] (报牌)", got)
	}
	var back GameView
	if err := json.Unmarshal([]byte(`{"cards_left":[6,null,4]}`), &back); err != nil || !slices.Equal(back.CardsLeft, SeatCounts{6, -1, 4}) {
		t.Errorf("decode cards_left with null: %v %v", back.CardsLeft, err)
	}
	// The default shows every count.
	st = pos.playing(t, classic(t), 0, 2)
	if b, _ := json.Marshal(classic(t).View(st.G.(*State), 1).Game.(GameView).CardsLeft); string(b) != "[7,3,4]" {
		t.Errorf("default cards_left %s, want every count", b)
	}
}
