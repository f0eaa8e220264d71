package shengji

import (
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestGuafengLegalMatchesDecide: at every step of random 刮风 hands, Decide
// accepts every action Legal lists for every seat; on a follow of up to 4
// cards it accepts exactly the listed sub-multisets of the hand; in the
// first buries met, it accepts exactly the listed ones among all
// sub-multisets of the hand (shengji.md, Kitty, guafeng); in every exchange,
// exactly the listed single cards of the 54, never two cards, and only
// exchange trumps (or, short of them, trumps) when the gives left are all
// owed for trumps taken (粘牌); in every kitty swap, exactly the listed
// ordered pairs of the 54 cards, and pass only by the sticker; and a
// declaration, stick or reinforcement of up to 5 cards of the seat's drawn
// cards is accepted exactly when listed. Random tables of two hands are
// played until two kitty swaps were listed; with -short (make test's race
// pass) until one was.
func TestGuafengLegalMatchesDecide(t *testing.T) {
	gametest.SkipUnderRace(t)
	r := guafeng(t)
	swaps := 2
	if testing.Short() {
		swaps = 1
	}
	var buries, exchanges, declChecks, maxExchange, swapSteps, swapsListed int
	for id := uint64(0); id < 4 || exchanges < 2 || swapsListed < swaps; id++ {
		if id == 200 {
			break
		}
		rt := newRandomTable(t, r, 700+id, false)
		for rt.Settled < 2 {
			g := rt.g()
			for seat := range seats {
				legal := r.Legal(g, seat)
				listed := map[string]bool{}
				for _, a := range legal {
					if _, err := r.Decide(g, seat, a); err != nil {
						t.Fatalf("Legal offers seat %d %s (%s), Decide says %v", seat, gametest.DescribeAction(a), g.phase, err)
					}
					listed[a.Type+" "+canon(a.Cards)] = true
				}
				brute := func(typ string, size int) {
					subMultisets(g.held[seat], size, func(pick []cards.Card) {
						_, err := r.Decide(g, seat, table.Action{Type: typ, Cards: slices.Clone(pick)})
						if (err == nil) != listed[typ+" "+canon(pick)] {
							t.Fatalf("seat %d %s %s (%s): Decide %v, Legal lists it: %v", seat, typ, cards.Format(pick), g.phase, err, listed[typ+" "+canon(pick)])
						}
					})
				}
				switch {
				case g.phase == phasePlaying && seat == g.turn && len(g.trick) > 0 && len(g.trick[0].cards) <= 4:
					brute(ActionPlay, len(g.trick[0].cards))
				case g.phase == phaseBurying && seat == g.burier && buries < 3:
					buries++
					brute(ActionBury, kittyLen)
				case g.swapStep():
					// Every ordered pair of cards of the 54, by every seat:
					// a swap is accepted exactly when listed, [kitty card,
					// hand card] (shengji.md, 粘牌 kitty swap); pass only
					// by the sticker; no exchange any more.
					swapSteps++
					swaps := map[string]bool{}
					for _, a := range legal {
						if a.Type == ActionSwap {
							swaps[cards.Format(a.Cards)] = true
							swapsListed++
						}
					}
					var every cards.Multiset
					for i := range every {
						for j := range every {
							cs := []cards.Card{cards.FromIndex(i), cards.FromIndex(j)}
							_, err := r.Decide(g, seat, table.Action{Type: ActionSwap, Cards: cs})
							if (err == nil) != swaps[cards.Format(cs)] {
								t.Fatalf("seat %d swap %s (kitty %s, trump %s, level %s): Decide %v, listed %v", seat, cards.Format(cs), cards.Format(g.buried), g.order.Trump.Letter(), g.order.Level, err, swaps[cards.Format(cs)])
							}
						}
					}
					if _, err := r.Decide(g, seat, table.Action{Type: ActionPass}); (err == nil) != listed[ActionPass+" "] || (err == nil) != (seat == g.swapper) {
						t.Fatalf("seat %d passes the kitty swap of seat %d: Decide %v, listed %v", seat, g.swapper, err, listed[ActionPass+" "])
					}
					brute(ActionExchange, 1)
				case g.phase == phaseExchanging:
					// Every card, held or not, by every seat: one listed
					// entry per card the sticker may give (shengji.md,
					// 粘牌), each a single card.
					exchanges++
					var every cards.Multiset
					for i := range every {
						c := cards.FromIndex(i)
						_, err := r.Decide(g, seat, table.Action{Type: ActionExchange, Cards: []cards.Card{c}})
						if (err == nil) != listed[ActionExchange+" "+c.String()] {
							t.Fatalf("seat %d exchange %s: Decide %v, listed %v", seat, c, err, listed[ActionExchange+" "+c.String()])
						}
					}
					if seat == g.turn {
						brute(ActionExchange, 2)
						// With every give left owed for a trump: a joker,
						// level card, 2, 3 or 5, or any trump while the
						// sticker holds fewer of those than it owes.
						forced := g.gives == g.trumpsOwed
						held := 0
						for _, c := range g.held[seat].Cards() {
							if gfExchangeTrump(g.order.Level, c) {
								held++
							}
						}
						for _, a := range legal {
							c := a.Cards[0]
							ok := gfExchangeTrump(g.order.Level, c) || (held < g.trumpsOwed && gfTrump(g.order.Level, g.order.Trump, c))
							if forced && !ok {
								t.Fatalf("%d gives left, %d trumps owed, %d held: Legal offers %s", g.gives, g.trumpsOwed, held, gametest.DescribeAction(a))
							}
						}
						maxExchange = max(maxExchange, len(legal))
					}
				case (g.phase == phaseDrawing || g.phase == phaseWindow) && g.round%5 == 0 && declChecks < 60:
					declChecks++
					for size := 1; size <= 5; size++ {
						for _, typ := range []string{ActionDeclare, ActionStick, ActionReinforce} {
							brute(typ, size)
						}
					}
				}
			}
			rt.Step()
		}
	}
	if buries == 0 || exchanges == 0 || swapSteps == 0 || swapsListed == 0 {
		t.Fatalf("checked %d buries, %d exchanges, %d kitty swap steps with %d swaps listed: the seeds must reach them all", buries, exchanges, swapSteps, swapsListed)
	}
	// One entry per distinct card: GET /legal stays short.
	if maxExchange == 0 || maxExchange > 40 {
		t.Fatalf("the longest exchange list has %d actions, want 1..40", maxExchange)
	}
}

// TestGuafengPerft: the number of legal plays at fixed positions, each
// counted by hand (shengji.md, Plays, guafeng; level 7, trump ♠).
func TestGuafengPerft(t *testing.T) {
	o := Order{Level: 7, Trump: cards.Spades, Fixed: true}
	cases := []struct {
		hand, lead string
		want       int
		why        string
	}{
		// Singles S2 S3 S4 (3), pairs S2 S3 (2), the wind S2 S2 S3 S3 (1).
		{"S2 S2 S3 S3 S4", "", 6, "the trump suit's 2 and 3 link"},
		// Singles H3 H4 (2), pairs (2); H3 H3 H4 H4 is no wind.
		{"H3 H3 H4 H4", "", 4, "a side suit's 3 is a fixed trump"},
		// Singles 5, rains: D4 D6 D8 D9 D10 (ranks 4 6 8 9 10: 5 and 7
		// left out close the gap) = 1.
		{"D4 D6 D8 D9 D10", "", 6, "a side rain over the left-out 5 and 7"},
		// Singles 4 (S5 H5 C5 D5) + thunder 1.
		{"S5 H5 C5 D5", "", 5, "a thunder of 5s"},
		// Thunder led, one held: it must be played.
		{"S2 H2 C2 D2 BJ RJ", "S5 H5 C5 D5", 1, "有雷出雷"},
		// No thunder: the four highest trumps: RJ BJ S7 and one of H7 C7.
		{"RJ BJ S7 H7 C7 S4 HA", "S5 H5 C5 D5", 2, "没雷 the four highest"},
		// A rain of 6 with 1 pair led; 7 diamonds with one pair: the pair
		// and any 4 of the 5 others (5).
		{"D4 D4 D8 D9 D10 DJ DQ C4", "D4 D6 D6 D8 D9 D10", 5, "rain: pairs first"},
		// A rain of singles led, 6 diamonds: any 5 (6).
		{"DJ D4 D6 D8 D9 D10 C3", "D4 D6 D8 D9 D10", 6, "rain of singles: any cards of the suit"},
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
			t.Errorf("hand %s, lead %q: %d plays %v, want %d: %s (shengji.md, Plays, guafeng)", c.hand, c.lead, len(got), names, c.want, c.why)
		}
	}
}

// TestGuafengFollowsBruteForce: on 3,000 random small positions of the
// guafeng order, every listed lead reads as a combination and every other
// sub-multiset of up to 6 cards does not, and the follows listed are
// exactly what checkFollow accepts (shengji.md, Plays, guafeng).
func TestGuafengFollowsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	pool := cards.MustParse("S2 S3 S4 S5 S6 S7 H2 H5 H6 H7 H8 H9 H10 C5 C7 D5 D7 BJ RJ")
	for i := range 3000 {
		o := Order{Level: 7, Trump: cards.Suit(rng.IntN(4)), Fixed: true}
		var hand, leader cards.Multiset
		for range 4 + rng.IntN(10) {
			c := pool[rng.IntN(len(pool))]
			if hand.Count(c)+leader.Count(c) < 2 {
				hand.Add(c)
			}
		}
		for range 9 {
			c := pool[rng.IntN(len(pool))]
			if hand.Count(c)+leader.Count(c) < 2 {
				leader.Add(c)
			}
		}
		leads := o.leads(leader)
		listed := map[string]bool{}
		for _, l := range leads {
			if listed[canon(l)] {
				t.Fatalf("position %d: lead %s listed twice", i, canon(l))
			}
			listed[canon(l)] = true
		}
		for k := 1; k <= 6; k++ {
			subMultisets(leader, k, func(pick []cards.Card) {
				_, ok := o.read(pick)
				if ok != listed[canon(pick)] {
					t.Fatalf("position %d (trump %s): %s reads as a lead %v, listed %v", i, o.Trump.Letter(), cards.Format(pick), ok, listed[canon(pick)])
				}
			})
		}
		if len(leads) == 0 {
			continue
		}
		lead := leads[rng.IntN(len(leads))]
		if hand.Len() < len(lead) || len(lead) > 7 {
			continue
		}
		crossCheck(t, o, hand, lead)
	}
}
