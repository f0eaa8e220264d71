package niuniu

import (
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestPerft counts the legal actions of fixed hands against numbers worked
// out by hand (in the comments): every bull, then no_bull.
func TestPerft(t *testing.T) {
	const rule = "niuniu.md, Arranging"
	tests := []struct {
		hand string
		want int
	}{
		// All five worth 10: any three of them, C(5,3) = 10 bulls.
		{"S10 HJ CQ DK RJ", 11},
		// 3+7+K is the only bull (3+7+4, 3+4+K, … are not multiples of 10).
		{"S3 H7 CK D2 S4", 2},
		// No three sum to a multiple of 10 (seed 004's 没牛 example).
		{"S10 H3 C2 DQ S6", 1},
		// 1037Q5: 3+7+10, 3+7+Q: 2 bulls.
		{"S10 H3 C7 DQ S5", 3},
		// Values 1 1 8 9 10: A+A+8, and A+9+K with either ace: 3 bulls.
		{"SA HA C8 D9 SK", 4},
	}
	r := rulesWith(t, `{"seats":2}`)
	for _, tc := range tests {
		st := position(t, r, 1, tc.hand, "BJ D3 D4 D5 D7")
		got := r.Legal(st.G.(*State), 0)
		if len(got) != tc.want || got[len(got)-1].Type != ActionNoBull {
			var names []string
			for _, a := range got {
				names = append(names, gametest.DescribeAction(a))
			}
			t.Errorf("%s has %d legal actions, want %d (%s): %v", tc.hand, len(got), tc.want, rule, names)
		}
	}
}

// TestLegalMatchesDecide: at positions of random deals, Decide accepts
// exactly the actions Legal lists, in both directions: every subset of the
// seat's hand (in any order) and cards it does not hold, as arrange; no_bull;
// and nothing between hands.
func TestLegalMatchesDecide(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		seats := 2 + trial%3
		r := rulesWith(t, `{"seats":`+string(rune('0'+seats))+`}`)
		st := openTable(t, r, 1, &gametest.SeedSeq{ID: uint64(trial)})
		// Some seats arrange first: re-arranging stays legal.
		for seat := range seats - 1 {
			if rng.IntN(2) == 0 {
				l := r.Legal(st.G.(*State), seat)
				gametest.MustAct(t, st, seat, l[rng.IntN(len(l))])
			}
		}
		seat := rng.IntN(seats)
		hand := gametest.Game[State](st).hands[seat]
		legal := r.Legal(st.G.(*State), seat)
		listed := map[cards.Multiset]bool{}
		noBull := 0
		for _, a := range legal {
			switch a.Type {
			case ActionArrange:
				listed[cards.Of(a.Cards)] = true
			case ActionNoBull:
				noBull++
			default:
				t.Fatalf("Legal lists %s", gametest.DescribeAction(a))
			}
		}
		if noBull != 1 || len(listed) != len(legal)-1 {
			t.Fatalf("Legal %v lists no_bull %d times or a bull twice", legal, noBull)
		}
		var tries [][]cards.Card
		for mask := range 1 << HandSize {
			var cs []cards.Card
			for i, c := range hand {
				if mask&(1<<i) != 0 {
					cs = append(cs, c)
				}
			}
			rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
			tries = append(tries, cs)
		}
		for range 10 { // with a card of another seat or the undealt rest
			c := cards.FromIndex(rng.IntN(cards.DeckSize))
			if !slices.Contains(hand, c) {
				tries = append(tries, []cards.Card{hand[0], hand[1], c})
			}
		}
		for _, cs := range tries {
			a := table.Action{Type: ActionArrange, Cards: cs}
			_, err := r.Decide(st.G.(*State), seat, a)
			if accepted := err == nil; accepted != listed[cards.Of(cs)] {
				t.Fatalf("trial %d seat %d hand %s: %s accepted %v (%v), listed %v: Legal must be what Decide accepts",
					trial, seat, cards.Format(hand), gametest.DescribeAction(a), accepted, err, listed[cards.Of(cs)])
			}
		}
		if _, err := r.Decide(st.G.(*State), seat, noBullA()); err != nil {
			t.Fatalf("no_bull rejected: %v", err)
		}
	}
	r := rulesWith(t, "")
	if got := r.Legal(r.NewState(), 0); got != nil {
		t.Fatalf("Legal between hands: %v, want nil", got)
	}
	st := openTable(t, r, 1, &gametest.SeedSeq{ID: 1})
	for _, seat := range []int{-1, 4, table.Spectator, table.Auditor} {
		if got := r.Legal(st.G.(*State), seat); got != nil {
			t.Fatalf("Legal of seat %d: %v, want nil", seat, got)
		}
	}
}
