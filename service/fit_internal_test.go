package service

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// slowFit is fit as it was written first, from Marshal's output: the
// reference that fit's counted encoding must agree with.
func slowFit(page LegalPage, actions []table.Action, b Bounds) bool {
	if len(actions) > b.MaxActions {
		return false
	}
	page.Actions = []table.Action{}
	base, err := json.Marshal(page)
	if err != nil {
		panic(err)
	}
	size := len(base)
	for n, a := range actions {
		enc, err := json.Marshal(a)
		if err != nil {
			panic(err)
		}
		size += len(enc)
		if n > 0 {
			size++
		}
		if size > b.MaxBytes {
			return false
		}
	}
	return true
}

// TestFitMatchesMarshal: fit answers as the Marshal-based reference on
// random pages and actions, at every byte bound around the page's size,
// and with actions, the size it counts is that of the encoded page (a page
// without actions always fits, as it did).
func TestFitMatchesMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	randCards := func(n int) []cards.Card {
		cs := make([]cards.Card, n)
		for i := range cs {
			cs[i] = cards.FromIndex(rng.IntN(cards.DeckSize))
		}
		return cs
	}
	types := []string{"play", "pass", "bid", "escape", "kou<&>"}
	for range 300 {
		var actions []table.Action
		for range rng.IntN(12) {
			a := table.Action{Type: types[rng.IntN(len(types))], Cards: randCards(rng.IntN(8))}
			if rng.IntN(3) == 0 {
				bid := rng.IntN(4)
				a.Bid = &bid
			}
			if rng.IntN(4) == 0 {
				a.As = "airplane_pairs"
			}
			actions = append(actions, a)
		}
		page := LegalPage{Selected: randCards(rng.IntN(3)), Extend: randCards(rng.IntN(6)), Complete: rng.IntN(2) == 0}
		full := page
		full.Actions = nonNil(actions)
		enc, err := json.Marshal(full)
		if err != nil {
			t.Fatal(err)
		}
		for _, maxActions := range []int{0, len(actions) - 1, len(actions), 20} {
			for d := -40; d <= 2; d++ {
				b := Bounds{MaxActions: maxActions, MaxBytes: len(enc) + d}
				got, err := fit(page, actions, b)
				if err != nil {
					t.Fatal(err)
				}
				if want := slowFit(page, actions, b); got != want {
					t.Fatalf("fit(%s, %+v) = %v, the reference %v", enc, b, got, want)
				}
				if len(actions) > 0 && maxActions >= len(actions) && got != (d >= 0) {
					t.Fatalf("fit(%s, %+v) = %v, the page is %d bytes", enc, b, got, len(enc))
				}
			}
		}
	}
}

// TestSortByHandMatchesMap: the array-indexed sort orders as the map-based
// one, for orders with repeated, missing and invalid cards.
func TestSortByHandMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	pick := func() cards.Card {
		if rng.IntN(40) == 0 {
			return cards.Card{Suit: cards.Suit(rng.IntN(6)), Rank: cards.Rank(rng.IntN(18))}
		}
		return cards.FromIndex(rng.IntN(cards.DeckSize))
	}
	for range 2000 {
		order := make([]cards.Card, rng.IntN(40))
		for i := range order {
			order[i] = pick()
		}
		cs := make([]cards.Card, rng.IntN(12))
		for i := range cs {
			cs[i] = pick()
		}
		want := append([]cards.Card(nil), cs...)
		sortByHandMap(want, order)
		sortByHand(cs, order)
		for i := range cs {
			if cs[i] != want[i] {
				t.Fatalf("order %v: sorted %v, the map's %v", order, cs, want)
			}
		}
	}
}
