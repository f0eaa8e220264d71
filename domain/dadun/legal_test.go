package dadun

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// onlyOnce returns a card hand holds exactly once, for a turned card that
// makes its seat the banker without both copies; "" if there is none.
func onlyOnce(hand string) string {
	cs := cards.MustParse(hand)
	m := cards.Of(cs)
	for _, c := range cs {
		if m.Count(c) == 1 {
			return c.String()
		}
	}
	return ""
}

// leadPosition deals hand to seat 0 and, when lead is set, has seat 3 (the
// banker) lead it, so that seat 0 answers it. Without a lead, hand must hold
// some card once (the turned card, seat 0 the banker).
func leadPosition(t testing.TB, r *Rules, hand, lead string) *table.State {
	t.Helper()
	p := position{hands: [seats]string{hand, "S3", "S3", "S3"}, turned: onlyOnce(hand)}
	if lead != "" {
		p.hands[3] = lead + " D9"
		p.banker, p.turned = 3, "D9"
	}
	p.hands[1] = p.turned
	st := p.playing(t, r)
	if lead != "" {
		gametest.MustAct(t, st, 3, playA(lead))
	}
	return st
}

// TestLegalCounts are perft-style counts of the actions Legal lists at fixed
// positions, counted by hand (doc.go, Legal).
func TestLegalCounts(t *testing.T) {
	r := rulesFor(t)
	for _, c := range []struct {
		hand, lead string
		want       int
		why        string
	}{
		{"S3 H3 C3 S4", "", 4, "3, 4; 33; 333+4 as the last four cards (not a bare trio: a card would be left)"},
		{"S5 S10 SK H5", "", 6, "5, 10, K; 55; the pure 510K (♠) and a plain one (♥5 ♠10 ♠K)"},
		{"H7 D7 H7 D7 S7", "S3 H3 C3 D3", 4, "7777 with and without 四红; 77777; pass"},
		{"S3 H3 C3 S4 H4 C4 S9 H9 SJ HQ", "S5 H10 SK", 1, "nothing beats a 510K but a 510K or a bomb: pass"},
		{"BJ BJ RJ RJ S2", "", 8, "BJ, RJ, 2; BJ BJ, RJ RJ; BJ BJ RJ, BJ RJ RJ, BJ BJ RJ RJ"},
		{"S3 H3 C3 S4 H4 C4 S5", "", 11, "3, 4, 5; 33, 44; 3344; 333+44, 333+45, 444+33, 444+35; 333444+5 as the last cards"},
		{"S5 H5 C5 D5", "", 4, "5; 55; 5555 as a bomb, or as the last four a trio + one (each with \"as\")"},
		{"S9 H9 C9", "S8 H8 C8 SA H2", 2, "999 as the last cards on a trio + two (dadun.md, Rulings); pass"},
		{"S9 H9 C9 S4", "S8 H8 C8 SA H2", 2, "999 + 4 as the last cards on a trio + two (dadun.md, Rulings); pass"},
		{"S9 H9 C9 S10 H10 C10 S3", "S7 H7 C7 S8 H8 C8 SA HA C2 D2", 2, "999TTT + 3 as the last cards on a full trio run (dadun.md, Rulings); pass"},
	} {
		st := leadPosition(t, r, c.hand, c.lead)
		got := r.Legal(st.G.(*State), 0)
		if len(got) != c.want {
			var names []string
			for _, a := range got {
				names = append(names, gametest.DescribeAction(a))
			}
			t.Errorf("%s on %q: %d actions %q, want %d (%s)", c.hand, c.lead, len(got), names, c.want, c.why)
		}
	}
}

// playKey identifies a play up to what Legal leaves out (doc.go, Legal):
// its rank pattern, its reading, its awards, and what its cards order
// under v's options (a pure 510K's suit under pure_suits "suit").
func playKey(v variant, cs []cards.Card, rd Reading, awards int) string {
	c := climb.CountsOf(cs)
	return fmt.Sprintf("%x/%s/%d/%d", c.Key(), rd.Name(), awards, v.refine(rd, cs).sub)
}

// TestLegalMatchesDecide checks both directions on random small hands and
// random plays to beat: every play Legal lists is accepted by Decide, and
// every sub-multiset of the hand that Decide accepts under some reading is
// listed by Legal with that reading and the same awards (up to suits that
// change neither, doc.go, Legal).
func TestLegalMatchesDecide(t *testing.T) {
	checkLegalMatchesDecide(t, rulesFor(t), legalLeads, 1500)
}

// legalLeads are the plays TestLegalMatchesDecide answers ("": leading).
var legalLeads = []string{"", "", "", "S3", "S9", "SA", "S2", "BJ", "S4 H4", "SK HK", "BJ BJ", "S3 H3 S4 H4",
	"S6 H6 C6 S3 S4", "S6 H6 C6 S7 H7 C7 S3 S4 S8 S9", "S3 S4 S5 S6 S7", "S8 S9 S10 SJ SQ",
	"S5 H10 SK", "S5 S10 SK", "S5 H5 C5 D5", "SK HK CK DK SK", "S5 H5 C5 S10 H10 C10 SK HK CK", "BJ BJ RJ"}

// TestLegalMatchesDecideOptions is TestLegalMatchesDecide under the table
// options that change what beats what (dadun.md, Table options), with leads
// they make: two-joker bombs and pure 510Ks of every suit.
func TestLegalMatchesDecideOptions(t *testing.T) {
	leads := append(slices.Clone(legalLeads), "BJ RJ", "RJ RJ", "H5 H10 HK", "C5 C10 CK", "D5 D10 DK", "S8 H8 C8 D8 S8 H8 C8 D8")
	for _, opts := range []string{
		`{"bomb_order":"high","pure_suits":"suit","joker_bombs":2}`,
		`{"pure_suits":"suit","joker_bombs":2,"dun_awards":false}`,
	} {
		t.Run(opts, func(t *testing.T) { checkLegalMatchesDecide(t, rulesWith(t, opts), leads, 400) })
	}
}

// checkLegalMatchesDecide checks Legal against Decide under r on n random
// hands, each answering one of leads.
func checkLegalMatchesDecide(t *testing.T, r *Rules, leads []string, n int) {
	rng := rand.New(rand.NewPCG(5, 6))
	deck := cards.Deck(2)
	// Hands lean on few ranks one time in two, so that trios, runs, bombs and
	// 510Ks come up.
	for i := range n {
		var hand []cards.Card
		n := 3 + rng.IntN(9)
		if i%2 == 0 {
			ranks := rng.Perm(13)[:3+rng.IntN(3)]
			for len(hand) < n {
				r := ranks[rng.IntN(len(ranks))]
				c := cards.FromIndex(rng.IntN(4)*13 + r)
				if m := cards.Of(hand); m.Count(c) < 2 {
					hand = append(hand, c)
				}
			}
		} else {
			for _, k := range rng.Perm(len(deck))[:n] {
				hand = append(hand, deck[k])
			}
		}
		lead := leads[rng.IntN(len(leads))]
		if lead == "" && onlyOnce(cards.Format(hand)) == "" {
			continue
		}
		st := leadPosition(t, r, cards.Format(hand), lead)
		legal := r.Legal(st.G.(*State), 0)
		want := map[string]bool{}
		for _, a := range legal {
			if a.Type != ActionPlay {
				continue
			}
			evs, err := r.Decide(st.G.(*State), 0, a)
			if err != nil {
				t.Fatalf("hand %s on %q: Legal's %s is refused: %v", cards.Format(hand), lead, gametest.DescribeAction(a), err)
			}
			cp := evs[0].(CardsPlayed)
			k := playKey(r.v, cp.Cards, cp.Reading, cp.Awards)
			if want[k] {
				t.Fatalf("hand %s on %q: Legal lists %s twice", cards.Format(hand), lead, k)
			}
			want[k] = true
		}
		if (lead != "") != (legal[len(legal)-1].Type == ActionPass) {
			t.Fatalf("pass listed %v when leading %v", legal[len(legal)-1].Type == ActionPass, lead == "")
		}
		// Every sub-multiset, under every reading Decide accepts.
		got := map[string]bool{}
		m := cards.Of(hand)
		distinct := slices.Compact(m.Cards())
		var sub []cards.Card
		var rec func(i int)
		rec = func(i int) {
			if i == len(distinct) {
				if len(sub) == 0 {
					return
				}
				for _, rd := range r.v.classify(sub, len(sub) == len(hand)) {
					a := table.Action{Type: ActionPlay, Cards: sub, As: rd.Name()}
					if evs, err := r.Decide(st.G.(*State), 0, a); err == nil {
						cp := evs[0].(CardsPlayed)
						got[playKey(r.v, cp.Cards, cp.Reading, cp.Awards)] = true
					}
				}
				return
			}
			n := m.Count(distinct[i])
			for range n + 1 {
				rec(i + 1)
				sub = append(sub, distinct[i])
			}
			sub = sub[:len(sub)-n-1]
		}
		rec(0)
		for k := range got {
			if !want[k] {
				t.Fatalf("hand %s on %q: Decide accepts %s, Legal does not list it", cards.Format(hand), lead, k)
			}
		}
		for k := range want {
			if !got[k] {
				t.Fatalf("hand %s on %q: Legal lists %s, no sub-hand is accepted so", cards.Format(hand), lead, k)
			}
		}
	}
}

// TestLegalDeclaring: in the declaring round the seat on turn may go alone
// or pass, and nobody else may act (dadun.md, Going alone).
func TestLegalDeclaring(t *testing.T) {
	r := rulesFor(t)
	st := friendPosition.build(t, r)
	if got := r.Legal(st.G.(*State), 0); len(got) != 2 || got[0].Type != ActionAlone || got[1].Type != ActionPass {
		t.Fatalf("the banker may %v, want alone and pass", got)
	}
	for _, s := range []int{1, 2, 3, table.Spectator} {
		if got := r.Legal(st.G.(*State), s); got != nil {
			t.Fatalf("seat %d may %v out of turn", s, got)
		}
	}
}
