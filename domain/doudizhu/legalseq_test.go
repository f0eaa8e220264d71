package doudizhu

import (
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
	"paiju/internal/race"
)

// TestLegalSeqIsLegal plays random hands of every variant and checks, for
// every seat at every position, that LegalSeq yields exactly Legal's list
// in Legal's order, and that it stops where its consumer stops. Three
// random tables of each variant; one with -short (make test's race pass).
func TestLegalSeqIsLegal(t *testing.T) {
	t.Parallel()
	seeds := []uint64{11, 12, 13}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, variant := range []string{"classic", "hubei", "fourplayer"} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			positions, actions := 0, 0
			for _, seed := range seeds {
				rt := newRandomTable(t, variant, seed)
				for range 150 {
					rt.Step()
					g := gametest.Game[State](rt.St)
					for seat := range rt.n {
						actions += checkLegalSeq(rt, g, seat)
						checkLegalSeqHolding(rt, g, seat)
						positions++
					}
				}
			}
			t.Logf("%d positions, %d actions", positions, actions)
		})
	}
}

// checkLegalSeq compares seat's stream with its list, and stops the stream
// at a random action; it returns the length of the list.
func checkLegalSeq(rt *randomTable, g *State, seat int) int {
	want := rt.r.Legal(g, seat)
	i := 0
	for a := range rt.r.LegalSeq(g, seat) {
		if i >= len(want) {
			rt.Fatalf("seat %d: LegalSeq yields %v past Legal's %d actions", seat, a, len(want))
		}
		if !sameAction(a, want[i]) {
			rt.Fatalf("seat %d: LegalSeq's action %d is %v, Legal's is %v", seat, i, a, want[i])
		}
		i++
	}
	if i != len(want) {
		rt.Fatalf("seat %d: LegalSeq yields %d actions, Legal %d", seat, i, len(want))
	}
	if len(want) == 0 {
		return 0
	}
	// A range loop over an iterator that yields after its consumer stopped
	// panics, so breaking early checks the stop.
	stop, n := rt.Rng.IntN(len(want)), 0
	for a := range rt.r.LegalSeq(g, seat) {
		if n == stop {
			if !sameAction(a, want[stop]) {
				rt.Fatalf("seat %d: action %d is %v on a second walk, %v on the first", seat, n, a, want[stop])
			}
			break
		}
		n++
	}
	return len(want)
}

// checkLegalSeqHolding: for selections drawn from seat's plays and hand,
// the pruned stream holds exactly the actions of the full stream that a
// caller filtering by the selection keeps, in the same order.
func checkLegalSeqHolding(rt *randomTable, g *State, seat int) {
	full := rt.r.Legal(g, seat)
	var sels []cards.Multiset
	if len(full) > 0 && len(full[0].Cards) > 0 {
		a := full[rt.Rng.IntN(len(full))]
		if len(a.Cards) > 0 {
			sels = append(sels, cards.Of(a.Cards), cards.Of(a.Cards[:1+rt.Rng.IntN(len(a.Cards))]))
		}
		hand := g.hands[seat].Cards()
		for range 3 {
			sels = append(sels, cards.Of([]cards.Card{hand[rt.Rng.IntN(len(hand))], hand[rt.Rng.IntN(len(hand))]}))
		}
	}
	for _, sel := range sels {
		sc := sel.Cards()
		holds := func(a table.Action) bool {
			m := cards.Of(a.Cards)
			return len(a.Cards) == 0 || m.Contains(sc)
		}
		var want []table.Action
		for _, a := range full {
			if holds(a) {
				want = append(want, a)
			}
		}
		var got []table.Action
		for a := range rt.r.LegalSeqHolding(g, seat, sel) {
			if holds(a) {
				a.Cards = slices.Clone(a.Cards)
				got = append(got, a)
			}
		}
		if !slices.EqualFunc(got, want, sameAction) {
			rt.Fatalf("seat %d, selection %s: the pruned stream keeps %d actions, filtering Legal %d", seat, cards.Format(sel.Cards()), len(got), len(want))
		}
	}
}

func sameAction(a, b table.Action) bool {
	return a.Type == b.Type && a.As == b.As && slices.Equal(a.Cards, b.Cards) &&
		(a.Bid == nil) == (b.Bid == nil) && (a.Bid == nil || *a.Bid == *b.Bid)
}

// TestLegalSeqAllocations: streaming a lead costs a few allocations (the
// plan's and one buffer), however many plays it yields, where Legal
// allocates their cards and the list.
func TestLegalSeqAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates on its own")
	}
	hand := cards.Of(cards.MustParse("S3 S3 H3 C3 S4 H4 C4 D4 S5 H5 D5 S6 S6 S7 H7 S8 S8 S9 H10 SJ SJ HQ SK SK HK S2 S2 H2 BJ RJ RJ HA SA"))
	ct := typesOf(2)
	plays := 0
	allocs := testing.AllocsPerRun(3, func() {
		var pl plan
		pl.make(&hand, nil, ct)
		plays = 0
		pl.each(&climb.Counts{}, func(table.Action) bool { plays++; return true })
	})
	if plays < 10000 || allocs > 64 {
		t.Fatalf("streaming %d plays made %v allocations, want a few dozen for over ten thousand plays", plays, allocs)
	}
	t.Logf("%d plays, %v allocations", plays, allocs)
}
