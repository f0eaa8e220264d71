package niuniu

import (
	"slices"
	"testing"

	"paiju/domain/cards"
)

// fuzzHand reads up to five distinct cards from data (byte mod 54 in
// canonical deck order); ok is false when data is short or repeats a card.
func fuzzHand(data []byte) ([]cards.Card, bool) {
	if len(data) < HandSize {
		return nil, false
	}
	var hand []cards.Card
	for _, b := range data[:HandSize] {
		c := cards.FromIndex(int(b) % cards.DeckSize)
		if slices.Contains(hand, c) {
			return nil, false
		}
		hand = append(hand, c)
	}
	return hand, true
}

// FuzzEvaluate reads a hand from the first five bytes and checks the hand
// evaluator against the rule's words (bruteBull): Best, Bulls and Arrange
// agree with it, the order of the cards does not matter, and Highest is the
// top card by niuniu.md's order. With five more bytes it reads a second hand
// and checks Compare as niuniu.md (Comparing) states it.
func FuzzEvaluate(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		hand, ok := fuzzHand(data)
		if !ok {
			return
		}
		want, nBulls, same := bruteBull(hand)
		if !same {
			t.Fatalf("%s: two bulls make different classes", cards.Format(hand))
		}
		if got := Best(hand); got != want {
			t.Fatalf("%s: Best %v, want %v (niuniu.md, Arranging)", cards.Format(hand), got, want)
		}
		bulls := Bulls(hand)
		if len(bulls) != nBulls {
			t.Fatalf("%s: %d bulls, want %d", cards.Format(hand), len(bulls), nBulls)
		}
		for _, b := range bulls {
			if got, ok := Arrange(hand, b); !ok || got != want {
				t.Fatalf("%s arranged with %s: %v %v, want %v", cards.Format(hand), cards.Format(b), got, ok, want)
			}
		}
		rot := append(slices.Clone(hand[2:]), hand[:2]...)
		slices.Reverse(rot)
		if Best(rot) != want || Highest(rot) != Highest(hand) || !slices.EqualFunc(Bulls(rot), bulls, slices.Equal) {
			t.Fatalf("%s and %s read differently: the order of cards must not matter", cards.Format(hand), cards.Format(rot))
		}
		high := Highest(hand)
		for _, c := range hand {
			if Higher(c, high) {
				t.Fatalf("%s: Highest %s, but %s is higher (niuniu.md, Comparing)", cards.Format(hand), high, c)
			}
		}
		other, ok := fuzzHand(data[HandSize:])
		if !ok {
			return
		}
		b, p := Reading{Bull: Best(hand), High: high}, Reading{Bull: Best(other), High: Highest(other)}
		bankerWins, by := Compare(b, p)
		switch {
		case b.Bull != p.Bull:
			if bankerWins != (b.Bull > p.Bull) || by != ByClass {
				t.Fatalf("%v against %v: banker wins %v by %s; the higher class wins (niuniu.md, Comparing)", b, p, bankerWins, by)
			}
		case rankOrder(b.High) <= rankOrder(cards.Card{Suit: cards.Spades, Rank: cards.Queen}) &&
			rankOrder(p.High) <= rankOrder(cards.Card{Suit: cards.Spades, Rank: cards.Queen}):
			if !bankerWins || by != ByBankerEdge {
				t.Fatalf("%v against %v: banker wins %v by %s; the banker's edge applies (niuniu.md, Comparing)", b, p, bankerWins, by)
			}
		case b.High != p.High:
			if bankerWins != Higher(b.High, p.High) || by != ByHighCard {
				t.Fatalf("%v against %v: banker wins %v by %s; the higher card wins (niuniu.md, Comparing)", b, p, bankerWins, by)
			}
		}
	})
}
