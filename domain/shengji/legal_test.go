package shengji

import (
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestPerft: the number of legal plays at fixed positions, each counted by
// hand (shengji.md, Plays, ningyang; level 7, trump ♠).
func TestPerft(t *testing.T) {
	o := Order{Level: 7, Trump: cards.Spades}
	cases := []struct {
		hand, lead string // lead "" = the seat leads
		want       int
		why        string
	}{
		// Singles S6 S8 H7 S7 BJ RJ C3 (7), pairs S6 S8 H7 BJ (4), the
		// tractor S6 S6 S8 S8 (the level gap closes): 12. H7 H7 and BJ BJ
		// are not consecutive (S7 between).
		{"S6 S6 S8 S8 H7 H7 S7 BJ BJ RJ C3", "", 12, "leads"},
		// Tractors: SA SA H7 H7, H7 H7 S7 S7, S7 S7 BJ BJ, SA..S7 (3 pairs),
		// H7..BJ, SA..BJ (4 pairs), plus D7 D7 in place of H7 H7 in each
		// that holds it: 3+3 = 6 with H7, 4 with D7 … counted: SA-H7, SA-D7,
		// H7-S7, D7-S7, S7-BJ, SA-H7-S7, SA-D7-S7, H7-S7-BJ, D7-S7-BJ,
		// SA-H7-S7-BJ, SA-D7-S7-BJ = 11; singles 5, pairs 5: 21.
		{"SA SA H7 H7 D7 D7 S7 S7 BJ BJ", "", 21, "leads with equal level cards"},
		{"BJ H7 D7 S3 C4 C5", "S9 S9", 2, "no trump pair: BJ and either level card"},
		{"H2 H3 H4 C5 C5", "H9 H9", 3, "no heart pair: any two hearts"},
		{"H2 H2 H3 H3 H4 C5", "H9 H9", 2, "a pair of hearts, either"},
		{"H2 H2 H4 H5 H6 C3", "H9 H9 H10 H10", 3, "one pair and any two hearts"},
		{"S2 S2 BJ H7 S3 S4 C5", "S9 S9 S10 S10", 1, "the pair and the two highest trumps"},
		{"S3 H4 H4 C5", "D9", 3, "void: any card"},
		{"D3 D4 S5 H6 H6", "D9 D9 D10 D10", 2, "both diamonds and any two"},
		{"S3 S3 H4 C5", "D9 D9", 4, "void: any two"},
		{"H2 H2 H3 H3 H4 H4", "H9 H9 H10 H10", 3, "choose two of three pairs"},
		{"RJ RJ BJ S2 S2 H5", "SA SA", 2, "two trump pairs"},
		{"H9", "H8", 1, "the last card"},
	}
	for _, c := range cases {
		var got [][]cards.Card
		if c.lead == "" {
			got = o.leads(ms(c.hand))
		} else {
			got = o.follows(ms(c.hand), cards.MustParse(c.lead))
			crossCheck(t, o, ms(c.hand), cards.MustParse(c.lead))
		}
		if len(got) != c.want {
			var names []string
			for _, g := range got {
				names = append(names, cards.Format(g))
			}
			t.Errorf("hand %s, lead %q: %d plays %v, want %d: %s (shengji.md, Plays)", c.hand, c.lead, len(got), names, c.want, c.why)
		}
	}
}

// TestFollowsBruteForce: on 3,000 random small positions (a deck cut down
// so that pairs and voids are common), the constructed follows are exactly
// the sub-multisets checkFollow accepts, and every lead listed reads as a
// combination while every other sub-multiset of up to 6 cards does not.
func TestFollowsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	pool := cards.MustParse("S2 S3 S4 S5 S7 H5 H6 H7 H8 C7 C9 D7 BJ RJ")
	for i := range 3000 {
		o := Order{Level: 7, Trump: cards.Suit(rng.IntN(4))}
		var hand, leader cards.Multiset
		for range 4 + rng.IntN(8) {
			c := pool[rng.IntN(len(pool))]
			if hand.Count(c)+leader.Count(c) < 2 {
				hand.Add(c)
			}
		}
		for range 6 {
			c := pool[rng.IntN(len(pool))]
			if hand.Count(c)+leader.Count(c) < 2 {
				leader.Add(c)
			}
		}
		leads := o.leads(leader)
		listed := map[string]bool{}
		for _, l := range leads {
			listed[canon(l)] = true
		}
		for k := 1; k <= 6; k++ {
			subMultisets(leader, k, func(pick []cards.Card) {
				_, ok := o.read(pick)
				if ok != listed[canon(pick)] {
					t.Fatalf("position %d: %s reads as a lead %v, listed %v", i, cards.Format(pick), ok, listed[canon(pick)])
				}
			})
		}
		if len(leads) == 0 {
			continue
		}
		lead := leads[rng.IntN(len(leads))]
		if hand.Len() < len(lead) {
			continue
		}
		crossCheck(t, o, hand, lead)
	}
}

// TestLegalMatchesDecide: at every turn of random hands, Decide accepts every
// action Legal lists, and rejects every play of the lead's size that Legal
// does not list (all sub-multisets of the hand for follows of up to 4
// cards); the other phases' actions likewise.
func TestLegalMatchesDecide(t *testing.T) {
	r := ningyang(t)
	for id := range uint64(6) {
		rt := newRandomTable(t, r, 500+id, false)
		for rt.Settled < 2 {
			g := rt.g()
			if g.phase == phasePlaying {
				seat := g.turn
				legal := r.Legal(g, seat)
				listed := map[string]bool{}
				for _, a := range legal {
					if _, err := r.Decide(g, seat, a); err != nil {
						t.Fatalf("Legal offers %s, Decide says %v", gametest.DescribeAction(a), err)
					}
					listed[canon(a.Cards)] = true
				}
				size := 0
				if len(g.trick) > 0 {
					size = len(g.trick[0].cards)
				}
				if size > 0 && size <= 4 {
					subMultisets(g.held[seat], size, func(pick []cards.Card) {
						_, err := r.Decide(g, seat, table.Action{Type: ActionPlay, Cards: slices.Clone(pick)})
						if (err == nil) != listed[canon(pick)] {
							t.Fatalf("follow %s to %s: Decide %v, Legal lists it: %v", cards.Format(pick), cards.Format(g.trick[0].cards), err, listed[canon(pick)])
						}
					})
				}
				for other := range seats {
					if other != seat && r.Legal(g, other) != nil {
						t.Fatalf("seat %d may act on seat %d's turn", other, seat)
					}
				}
			}
			if g.phase == phaseDrawing || g.phase == phaseWindow {
				for seat := range seats {
					for _, a := range r.Legal(g, seat) {
						if _, err := r.Decide(g, seat, a); err != nil {
							t.Fatalf("Legal offers seat %d %s, Decide says %v", seat, gametest.DescribeAction(a), err)
						}
					}
				}
			}
			rt.Step()
		}
	}
}

// TestLegalDeclarations: every declaration the seat can make with its drawn
// cards, and only those (shengji.md, ningyang declarations).
func TestLegalDeclarations(t *testing.T) {
	r := ningyang(t)
	st := deal{first: [4]string{"BJ RJ H9 H9 H10 H10 HJ HJ H7 H7 C2 C2", "BJ D3 D3 D5 D5 C4 C6 C8 CJ H2 H4 H6", "S2", "S3"}}.build(t, r)
	drawRounds(t, st, 12)
	g := gametest.Game[State](st)
	// Seat 0, level A: pairs H7 H9 H10 HJ C2 (5); tractors H9-H10,
	// H10-HJ, H9-HJ (3): 8 sets × two jokers = 16.
	got := r.Legal(g, 0)
	if len(got) != 17 || got[0].Type != ActionDraw {
		t.Fatalf("seat 0 may draw and declare 16 ways, got %d: %v", len(got)-1, got)
	}
	for _, a := range got[1:] {
		if _, err := r.Decide(g, 0, a); err != nil {
			t.Fatalf("%s: %v", gametest.DescribeAction(a), err)
		}
	}
	// Seat 1: D3 D3 and D5 D5, not consecutive: 2 declarations.
	if n := len(r.Legal(g, 1)) - 1; n != 2 {
		t.Fatalf("seat 1: %d declarations, want 2", n)
	}
	gametest.MustAct(t, st, 1, declareA("BJ D3 D3"))
	// Now only tractors from seat 0 (3 × 2), none from seat 1 (its own).
	if n := len(r.Legal(g, 0)) - 1; n != 6 {
		t.Fatalf("seat 0 after seat 1's pair: %d overrides, want 6", n)
	}
	if n := len(r.Legal(g, 1)) - 1; n != 0 {
		t.Fatalf("the declarer may not override itself: %d", n)
	}
}

// TestLegalBury: the dealer may bury any 4 of its 30 cards, each multiset
// once; nobody else may act.
func TestLegalBury(t *testing.T) {
	r := ningyang(t)
	st := deal{first: [4]string{"S2", "S3", "S4", "S5"}, kitty: "H2 H2 H3 H4", fallback: 1}.build(t, r)
	closeWindow(t, st)
	g := gametest.Game[State](st)
	want := 0
	subMultisets(g.held[1], 4, func([]cards.Card) { want++ })
	if got := len(r.Legal(g, 1)); got != want || want < 1000 {
		t.Fatalf("dealer's burials: %d, want %d", got, want)
	}
	for _, seat := range []int{0, 2, 3} {
		if r.Legal(g, seat) != nil {
			t.Fatalf("seat %d may act while the dealer buries", seat)
		}
	}
}
