package shuangkou

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestLegalCounts are perft-style counts of the plays Legal lists at fixed
// positions, counted by hand (one play per rank pattern and joker choice,
// one per reading when a pattern has several; doc.go, Legal).
func TestLegalCounts(t *testing.T) {
	for _, c := range []struct {
		variant, hand, lead string
		want                int
		why                 string
	}{
		{"baibian", "S3 H3 BJ", "", 5, "3, BJ; 33, 3+BJ; 3 3 BJ"},
		{"classic", "S3 H3 BJ", "", 3, "3, BJ; 33"},
		{"baibian", "S5 S6 S7 BJ RJ", "", 17, "5 singles; 6 pairs (5 6 7 each with BJ or RJ); 3 trios; the straight read to 7, 8 or 9"},
		{"classic", "S5 S6 S7 BJ RJ", "", 5, "5 singles"},
		{"baibian", "S5 S6 S7 BJ RJ", "S3 S4 S5 S6 S7", 2 + 1, "the straight read to 8 or 9 (to 7 does not beat); pass"},
		{"baibian", "S7 H7 C7 D7 BJ", "S9 H9 C9 D9", 1 + 1, "the 5-card bomb 7777+BJ (4-card bombs of 7s do not beat 9s); pass"},
		{"baibian", "S2 H2 C2 D2 BJ BJ RJ RJ", "S3 H3 C3 D3 S3 H3 C3 D3", 1 + 1 + 1, "2222 + four wilds, an 8-card bomb of 2s; the joker bomb; pass"},
		{"classic", "S9 H9 SA HA", "BJ BJ RJ RJ", 1, "nothing beats the joker bomb: pass"},
	} {
		r := rulesFor(t, c.variant)
		hands := [4]string{c.hand, "S3", "S3", "S3"}
		first := 0
		if c.lead != "" {
			hands[3], first = c.lead+" S3", 3
		}
		st := position{hands: hands, first: first}.build(t, r)
		if c.lead != "" {
			gametest.MustAct(t, st, 3, playA(c.lead))
		}
		got := r.Legal(st.G.(*State), 0)
		if len(got) != c.want {
			var names []string
			for _, a := range got {
				names = append(names, gametest.DescribeAction(a))
			}
			t.Errorf("%s %s on %q: %d actions %q, want %d (%s)", c.variant, c.hand, c.lead, len(got), names, c.want, c.why)
		}
	}
}

// legalSet is Legal's plays as "pattern key/reading name" strings.
func legalSet(t *testing.T, legal []table.Action, wild Wild, lead *Reading) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, a := range legal {
		if a.Type != ActionPlay {
			continue
		}
		s := climb.CountsOf(a.Cards)
		name := a.As
		if name == "" {
			rd, ok := climb.Pick(Classify(a.Cards, wild), lead)
			if !ok {
				t.Fatalf("Legal lists %s, which has no playable reading", cards.Format(a.Cards))
			}
			name = rd.Name()
		}
		k := fmt.Sprintf("%x/%s", s.Key(), name)
		if out[k] {
			t.Fatalf("Legal lists %s as %s twice", cards.Format(a.Cards), name)
		}
		out[k] = true
	}
	return out
}

// TestLegalMatchesDecide checks both directions on random small hands and
// random plays to beat: every play Legal lists is accepted by Decide with its
// "as", and every sub-multiset of the hand that Decide accepts under some
// reading is listed by Legal with that reading (up to suits, doc.go, Legal).
func TestLegalMatchesDecide(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	deck := cards.Deck(2)
	leads := []string{"", "", "S3", "S9", "SA", "S2", "BJ", "S4 H4", "SK HK", "BJ BJ", "S6 H6 C6",
		"S3 S4 S5 S6 S7", "S8 S9 S10 SJ SQ", "S3 S4 S5 S6 S7 S8", "S5 H5 S6 H6 S7 H7", "S3 H3 C3 S4 H4 C4",
		"S5 H5 C5 D5", "SK HK CK DK SK", "BJ BJ RJ RJ"}
	// Both variants, and the wild jokers of the option "wild": RJ alone
	// (shuangkou.md, Table options).
	for _, variant := range []string{"baibian", "classic", `classic {"wild":"big"}`} {
		name, raw, _ := strings.Cut(variant, " ")
		r := rulesWith(t, name, raw)
		for i := range 1000 {
			// 9 to 11 cards, with extra jokers one time in two.
			var hand []cards.Card
			for _, k := range rng.Perm(len(deck))[:9+rng.IntN(3)] {
				hand = append(hand, deck[k])
			}
			if i%2 == 0 {
				hand = slices.DeleteFunc(hand, cards.Card.IsJoker)
				hand = hand[:min(7, len(hand))]
				js := []cards.Card{cards.BJ, cards.BJ, cards.RJ, cards.RJ}
				rng.Shuffle(len(js), func(i, j int) { js[i], js[j] = js[j], js[i] })
				hand = append(hand, js[:1+rng.IntN(4)]...)
			}
			lead := leads[rng.IntN(len(leads))]
			hands := [4]string{cards.Format(hand), "S3", "S3", lead + " S3"}
			first := 0
			if lead != "" {
				first = 3
			}
			st := position{hands: hands, first: first}.build(t, r)
			if lead != "" {
				gametest.MustAct(t, st, 3, playA(lead))
			}
			g := gametest.Game[State](st)
			var leadR *Reading
			if g.last != nil {
				leadR = &g.last.reading
			}
			legal := r.Legal(st.G.(*State), 0)
			want := legalSet(t, legal, r.v.wild, leadR)
			for _, a := range legal {
				if _, err := r.Decide(st.G.(*State), 0, a); err != nil {
					t.Fatalf("%s: hand %s on %q: Legal's %s is refused: %v", variant, cards.Format(hand), lead, gametest.DescribeAction(a), err)
				}
			}
			if (leadR != nil) != (legal[len(legal)-1].Type == ActionPass) {
				t.Fatalf("pass listed %v when leading %v", legal[len(legal)-1].Type == ActionPass, leadR == nil)
			}
			// Every sub-multiset, under every reading Decide accepts.
			got := map[string]bool{}
			m := cards.Of(hand)
			distinct := m.Cards()
			distinct = slices.Compact(distinct)
			var sub []cards.Card
			var rec func(i int)
			rec = func(i int) {
				if i == len(distinct) {
					if len(sub) == 0 {
						return
					}
					for _, rd := range Classify(sub, r.v.wild) {
						a := table.Action{Type: ActionPlay, Cards: sub, As: rd.Name()}
						if _, err := r.Decide(st.G.(*State), 0, a); err == nil {
							got[fmt.Sprintf("%x/%s", func() uint64 { s := climb.CountsOf(sub); return s.Key() }(), rd.Name())] = true
						}
					}
					return
				}
				n := m.Count(distinct[i])
				for k := 0; k <= n; k++ {
					rec(i + 1)
					sub = append(sub, distinct[i])
				}
				sub = sub[:len(sub)-n-1]
			}
			rec(0)
			for k := range got {
				if !want[k] {
					t.Fatalf("%s: hand %s on %q: Decide accepts %s, Legal does not list it", variant, cards.Format(hand), lead, k)
				}
			}
			for k := range want {
				if !got[k] {
					t.Fatalf("%s: hand %s on %q: Legal lists %s, no sub-hand is accepted so", variant, cards.Format(hand), lead, k)
				}
			}
		}
	}
}
