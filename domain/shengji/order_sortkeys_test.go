package shengji

import (
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
)

// TestSortKeysSortAsSort: the numbers Legal sorts by give Order.Sort's
// order, for every level, trump (a suit, none) and fixed ranks (guafeng),
// on random hands of two decks.
func TestSortKeysSortAsSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 41))
	deck := cards.Deck(2)
	for level := cards.Rank(2); level <= cards.Ace; level++ {
		for _, trump := range []cards.Suit{cards.Spades, cards.Hearts, cards.Clubs, cards.Diamonds, cards.Joker} {
			for _, fixed := range []bool{false, true} {
				o := Order{Level: level, Trump: trump, Fixed: fixed}
				k := o.sortKeys()
				for range 20 {
					rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
					hand := slices.Clone(deck[:1+rng.IntN(30)])
					want, got := slices.Clone(hand), slices.Clone(hand)
					o.Sort(want)
					k.sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("%+v: sorted by keys %v, Sort gives %v", o, got, want)
					}
				}
			}
		}
	}
}
