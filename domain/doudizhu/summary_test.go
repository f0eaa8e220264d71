package doudizhu

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// bruteSummary is LegalSummary from LegalSeq: every action walked.
func bruteSummary(r *Rules, s *State, seat int, sel cards.Multiset) table.HoldingSummary {
	var sum table.HoldingSummary
	n := 0
	for _, k := range sel {
		n += int(k)
	}
	for a := range r.LegalSeq(s, seat) {
		if len(a.Cards) == 0 {
			sum.Short = append(sum.Short, a)
			continue
		}
		got := cards.Of(a.Cards)
		holds := true
		for i, k := range sel {
			if got[i] < k {
				holds = false
				break
			}
		}
		if !holds {
			continue
		}
		sum.Matching++
		for i, k := range got {
			if k > sel[i] {
				sum.Extend[i] = 1
			}
		}
		if len(a.Cards) == n {
			a.Cards = slices.Clone(a.Cards)
			sum.Short = append(sum.Short, a)
		}
	}
	return sum
}

// selections are the selections the test summarizes at a position: none,
// cards of the hand, cards of legal plays (whole and in part), and cards
// the hand does not hold.
func selections(rng *rand.Rand, r *Rules, s *State, seat int) []cards.Multiset {
	hand := s.hands[seat]
	held := hand.Cards()
	out := []cards.Multiset{{}}
	for range 3 {
		var m cards.Multiset
		for range 1 + rng.IntN(3) {
			m[held[rng.IntN(len(held))].Index()]++
		}
		out = append(out, m)
	}
	legal := r.Legal(s, seat)
	for range 4 {
		a := legal[rng.IntN(len(legal))]
		if len(a.Cards) == 0 {
			continue
		}
		whole := cards.Of(a.Cards)
		part := cards.Of(a.Cards[:1+rng.IntN(len(a.Cards))])
		out = append(out, whole, part)
	}
	var other cards.Multiset
	other[rng.IntN(cards.DeckSize)] = 3
	out = append(out, other)
	return out
}

// TestLegalSummary holds LegalSummary to the actions LegalSeq yields, at
// every play position of random games of each variant, for selections of
// every kind.
func TestLegalSummary(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, v := range []string{"classic", "hubei", "fourplayer"} {
		t.Run(v, func(t *testing.T) {
			r := rulesOf(t, v, "")
			rng := rand.New(rand.NewPCG(21, 11))
			seeds := &gametest.SeedSeq{ID: 11}
			st := table.New(r.untyped())
			evs, err := table.Open(r.untyped(), "t", "doudizhu", v, 1, "p0")
			if err != nil {
				t.Fatal(err)
			}
			gametest.ApplyAll(st, evs)
			for i := range r.v.seats {
				evs, err := table.Join(st, fmt.Sprintf("p%d", i), fmt.Sprintf("Player %d", i), -1, seeds)
				if err != nil {
					t.Fatal(err)
				}
				gametest.ApplyAll(st, evs)
			}
			var pl plan
			positions := 0
			for positions < 400 {
				g := gametest.Game[State](st)
				if g.phase == phasePlaying {
					positions++
					for _, sel := range selections(rng, r, g, g.turn) {
						got, ok := r.LegalSummary(g, g.turn, sel)
						if !ok {
							t.Fatalf("no summary during the play")
						}
						want := bruteSummary(r, g, g.turn, sel)
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("hand %s, selection %s: summary %+v, from the actions %+v",
								cards.Format(g.hands[g.turn].Cards()), cards.Format(sel.Cards()), got, want)
						}
					}
					other := (g.turn + 1) % r.v.seats
					if _, ok := r.LegalSummary(g, other, cards.Multiset{}); ok {
						t.Fatalf("a summary for a seat not on turn")
					}
				}
				evs, err := table.Act(st, g.turn, benchAction(r, g, rng, &pl), seeds)
				if err != nil {
					t.Fatal(err)
				}
				gametest.ApplyAll(st, evs)
			}
		})
	}
}
