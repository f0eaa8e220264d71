package doudizhu

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestPerft counts the legal actions at fixed positions against numbers
// worked out by hand (in the comments).
func TestPerft(t *testing.T) {
	const rule = "doudizhu.md, Card types and Beating"
	r := classic(t)
	tests := []struct {
		name string
		hand string
		lead string // the play to beat, made by the seat before; "" to lead
		want int
	}{
		// 4 singles; pairs C(3,2) = 3; 1 trio; 333+4: 1.
		{"trio and a kicker", "S3 H3 C3 D4", "", 9},
		// 6 singles; C(4,2) = 6 pairs; C(4,3) = 4 trios; trio+single: 4 trios × 2 jokers = 8;
		// bomb 1; rocket 1; 3333+BJ+RJ is not four+two (the kickers would be the rocket).
		{"bomb and rocket", "S3 H3 C3 D3 BJ RJ", "", 26},
		// 6 singles; pair 77; straight 3-7 with S7 or H7: 2.
		{"straight with a choice of suits", "S3 S4 S5 S6 S7 H7", "", 9},
		// pair 66; the rocket; pass.
		{"follow a pair", "S6 H6 S7 BJ RJ", "S5 H5", 3},
		// 8 singles; pairs 3+3+1 = 7; 2 trios; trio+single 5+5; trio+pair 4+4;
		// pair straights 33-44-55: 3×3×1 = 9; airplane 333444: 1; 333444+S5H5: 1.
		{"airplane and pair straights", "S3 H3 C3 S4 H4 C4 S5 H5", "", 46},
		// TTT + S3 or one of 4 J: 5; JJJ (4 ways) + one of ST HT CT S3: 16; bomb JJJJ; pass.
		{"follow a trio with a single", "ST HT CT S3 SJ HJ CJ DJ", "S9 H9 C9 D3", 23},
		// 7 singles; pairs 33, 77; straights 3-7: 2×2 = 4.
		{"straights times suits", "S3 H3 S4 S5 S6 S7 H7", "", 13},
		// 4 bombs of higher rank than 5 … none here; the rocket does not exist; only pass.
		{"nothing beats", "S3 S4 H4", "S2 H2 C2 D2", 1},
		// 666777888 + T T T (three kicker singles may share one rank: doudizhu.md,
		// Kickers Decision): 1; pass.
		{"three kickers of one rank", "S6 H6 C6 S7 H7 C7 S8 H8 C8 ST HT CT", "S3 H3 C3 S4 H4 C4 S5 H5 C5 S9 SJ SQ", 2},
		// on a bomb of 5: bomb 6666, rocket, pass.
		{"follow a bomb", "S6 H6 C6 D6 BJ RJ S3", "S5 H5 C5 D5", 3},
	}
	for _, tc := range tests {
		pos := position{hands: []string{tc.hand, "SA", "HA"}, kitty: "CA DA SK"}
		st := pos.build(t, r)
		g := gametest.Game[State](st)
		g.phase, g.turn, g.landlord = phasePlaying, 0, 1
		if tc.lead != "" {
			cs := cards.MustParse(tc.lead)
			g.last = &play{seat: 2, cards: cs, reading: Classify(cs)[0]}
		}
		if got := r.Legal(g, 0); len(got) != tc.want {
			var names []string
			for _, a := range got {
				names = append(names, gametest.DescribeAction(a))
			}
			t.Errorf("%s: %s has %d legal actions, want %d (%s):\n%v", tc.name, tc.hand, len(got), tc.want, rule, names)
		}
	}
}

// TestLegalPatterns compares Legal with a brute force over every sub-multiset
// of ranks of the hand, read by the classifier, at positions of random games,
// and has Decide accept every action Legal lists.
func TestLegalPatterns(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"classic", "hubei", "fourplayer"} {
		rt := newRandomTable(t, variant, 20260101)
		rng := rand.New(rand.NewPCG(1, 2))
		checked := 0
		for checked < 100 {
			rt.Step()
			g := gametest.Game[State](rt.St)
			if g.phase != phasePlaying || rng.IntN(3) != 0 {
				continue
			}
			h := newHolding(&g.hands[g.turn])
			if subPatterns(&h.c) > 40000 {
				continue
			}
			checked++
			checkPatterns(rt.Fatalf, rt.r, g)
		}
	}
	// Two decks: identical copies, bombs of 4 to 8, joker pairs, the rocket.
	four := rulesOf(t, "fourplayer", "")
	for _, tc := range []struct{ hand, lead string }{
		{"S3 S3 H3 H3 C3 D3 D3 S4 S4 H4 BJ BJ RJ RJ", ""},
		{"S3 S3 H3 H3 C3 D3 D3 S4 S4 H4 BJ BJ RJ RJ", "S2 H2 C2 D2 S2"},
		{"S3 S3 H3 C3 S4 S4 H4 C4 S5 S5 H5 S9 S9 BJ RJ", ""},
		{"S3 S3 H3 C3 S4 S4 H4 C4 S5 S5 H5 S9 S9 BJ RJ", "S7 S7 H7 S8 S8 H8 S10 SJ"},
		{"S3 S3 H3 C3 S4 S4 H4 C4 S5 S5 H5 S9 S9 BJ BJ", "S7 S7 H7 S8 S8 H8 S10 S10 SJ SJ"},
	} {
		pos := position{hands: []string{tc.hand, "SK", "HK", "CK"}, kitty: "DK SQ HQ CQ DQ SJ HJ CJ"}
		g := gametest.Game[State](pos.build(t, four))
		g.phase, g.turn, g.landlord = phasePlaying, 0, 0
		if tc.lead != "" {
			cs := cards.MustParse(tc.lead)
			g.last = &play{seat: 2, cards: cs, reading: four.Classify(cs)[0]}
		}
		checkPatterns(t.Fatalf, four, g)
	}
	r := classic(t)
	// Hands rich in trios and fours, as random deals seldom make them.
	for _, tc := range []struct{ hand, lead string }{
		{"S3 H3 C3 S4 H4 C4 S5 H5 C5 S8 H8 C8 S9 BJ RJ", ""},
		{"S3 H3 C3 D3 S4 H4 C4 S5 H5 C5 D5 S6 H6 C6 S7 H7 C7 S2 H2 C2", ""},
		{"S3 H3 C3 D3 S4 H4 C4 S5 H5 C5 D5 S6 H6 C6 S7 H7 C7 S2 H2 C2", "S9 H9 C9 S10 H10 C10 S3 S4"},
		{"S3 H3 C3 D3 S4 H4 C4 S5 H5 C5 D5 S6 H6 C6 S7 H7 C7 S2 H2 C2", "S9 H9 C9 SJ HJ CJ S10 H10 C10 S3 S4 S5"},
		{"S3 H3 C3 D3 S4 H4 C4 S5 H5 C5 D5 S6 H6 C6 S7 H7 C7 S2 H2 C2", "S9 H9 C9 S10 H10 C10 S3 H3 SA HA"},
		{"S3 H3 C3 D3 S4 H4 C4 S5 H5 C5 D5 S6 H6 C6 S7 H7 C7 S2 H2 C2", "S9 H9 C9 D9 S3 H3 SA HA"},
		{"S3 H3 C3 D3 S4 H4 S5 H5 C5 D5 S6 H6 S7 H7 S8 H8 S9 H9 BJ RJ", ""},
	} {
		pos := position{hands: []string{tc.hand, "SK", "HK"}, kitty: "CK DK SQ"}
		g := gametest.Game[State](pos.build(t, r))
		g.phase, g.turn, g.landlord = phasePlaying, 0, 0
		if tc.lead != "" {
			cs := cards.MustParse(tc.lead)
			g.last = &play{seat: 2, cards: cs, reading: Classify(cs)[0]}
		}
		checkPatterns(t.Fatalf, r, g)
	}
}

func subPatterns(c *climb.Counts) int {
	n := 1
	for _, k := range c {
		n *= int(k) + 1
	}
	return n
}

func checkPatterns(fatalf func(string, ...any), r *Rules, g *State) {
	seat := g.turn
	h := newHolding(&g.hands[seat])
	var lead *Reading
	if g.last != nil {
		lead = &g.last.reading
	}
	// want: for each playable pattern, the number of actions Legal must list.
	want := map[uint64]int{}
	var p climb.Counts
	var walk func(r int)
	walk = func(rk int) {
		if rk == climb.NumRanks {
			types := map[Type]bool{}
			for _, rd := range r.v.cardTypes().classify(&p, p.Total(), nil) {
				if lead == nil || rd.Beats(*lead) {
					types[rd.Type] = true
				}
			}
			if len(types) > 0 {
				n := h.choices(&p)
				if len(types) > 1 {
					n *= len(types)
				}
				want[p.Key()] = n
			}
			return
		}
		for k := uint8(0); k <= h.c[rk]; k++ {
			p[rk] = k
			walk(rk + 1)
		}
		p[rk] = 0
	}
	walk(0)

	got := map[uint64]int{}
	seen := map[string]bool{}
	passes := 0
	for _, a := range r.Legal(g, seat) {
		if a.Type == ActionPass {
			passes++
			continue
		}
		if a.Type == ActionOpen {
			continue
		}
		id := cards.Format(a.Cards) + "/" + a.As
		if seen[id] {
			fatalf("Legal lists %s twice", id)
		}
		seen[id] = true
		if !g.hands[seat].Contains(a.Cards) {
			fatalf("Legal offers %s, not in the hand", cards.Format(a.Cards))
		}
		c := climb.CountsOf(a.Cards)
		got[c.Key()]++
		evs, err := r.Decide(g, seat, a)
		if err != nil {
			fatalf("Legal offers %s, Decide says %v", gametest.DescribeAction(a), err)
		}
		if a.As != "" && evs[0].(CardsPlayed).Reading.Type.String() != a.As {
			fatalf("Legal offers %s, Decide reads it as %v", gametest.DescribeAction(a), evs[0].(CardsPlayed).Reading)
		}
	}
	wantPass := 0
	if lead != nil {
		wantPass = 1
	}
	if passes != wantPass {
		fatalf("Legal offers %d passes with lead %v (doudizhu.md, Beating: pass unless leading)", passes, lead)
	}
	for k, n := range want {
		if got[k] != n {
			fatalf("hand %s on %v: Legal has %d actions of a pattern (key %x), the brute force %d",
				cards.Format(h.all()), lead, got[k], k, n)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			fatalf("Legal offers pattern %x that the brute force rejects", k)
		}
	}
}

func newHolding(m *cards.Multiset) *holding {
	h := &holding{}
	h.fill(m)
	return h
}

func (h *holding) all() []cards.Card {
	var out []cards.Card
	for r := range climb.NumRanks {
		out = append(out, h.of(r)...)
	}
	return out
}

// TestLegalMatchesDecide checks, at positions of random games where the seat
// holds at most 10 cards, that Decide accepts exactly what Legal lists: every
// subset of the hand, with and without "as".
func TestLegalMatchesDecide(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"classic", "hubei", "fourplayer"} {
		rt := newRandomTable(t, variant, 777)
		checked := 0
		for checked < 40 {
			rt.Step()
			g := gametest.Game[State](rt.St)
			if g.phase != phasePlaying || g.hands[g.turn].Len() > 10 {
				continue
			}
			checked++
			checkDecideEqualsLegal(rt, rt.r, g)
		}
	}
}

func checkDecideEqualsLegal(rt *randomTable, r *Rules, g *State) {
	seat := g.turn
	legal := map[string][]string{} // cards → the "as" values listed
	canPass, canOpen := false, false
	for _, a := range r.Legal(g, seat) {
		if a.Type == ActionPass {
			canPass = true
			continue
		}
		if a.Type == ActionOpen {
			canOpen = true
			continue
		}
		k := cards.Format(a.Cards)
		legal[k] = append(legal[k], a.As)
	}
	if _, err := r.Decide(g, seat, passA()); (err == nil) != canPass {
		rt.Fatalf("pass: Decide says %v, Legal lists it: %v", err, canPass)
	}
	if _, err := r.Decide(g, seat, openA()); (err == nil) != canOpen {
		rt.Fatalf("open: Decide says %v, Legal lists it: %v", err, canOpen)
	}
	hand := g.hands[seat].Cards()
	climb.Sort(hand)
	for mask := 1; mask < 1<<len(hand); mask++ {
		var cs []cards.Card
		for i, c := range hand {
			if mask&(1<<i) != 0 {
				cs = append(cs, c)
			}
		}
		k := cards.Format(cs)
		listed, ok := legal[k]
		evs, err := r.Decide(g, seat, table.Action{Type: ActionPlay, Cards: cs})
		if (err == nil) != ok {
			rt.Fatalf("play %s: Decide says %v, Legal lists it: %v", k, err, ok)
		}
		if err != nil && !errors.Is(err, table.ErrInvalidCombo) && !errors.Is(err, table.ErrDoesNotBeat) {
			rt.Fatalf("play %s: %v, want invalid_combination or does_not_beat", k, err)
		}
		// "as" naming each type the cards read as, and one they do not.
		var types []Type
		for _, rd := range r.Classify(cs) {
			types = append(types, rd.Type)
		}
		types = append(types, Type(1+mask%int(Rocket)))
		for _, ty := range types {
			_, err := r.Decide(g, seat, table.Action{Type: ActionPlay, Cards: cs, As: ty.String()})
			want := slices.Contains(listed, ty.String()) ||
				(ok && listed[0] == "" && evs[0].(CardsPlayed).Reading.Type == ty)
			if (err == nil) != want {
				rt.Fatalf("play %s as %s: Decide says %v, Legal lists %q", k, ty, err, listed)
			}
		}
	}
}
