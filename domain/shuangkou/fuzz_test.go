package shuangkou

import (
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// FuzzClassify reads each byte as a card (byte mod 54 in canonical deck
// order; repeats allowed, as a corrupt input might hold) and checks, in both
// variants, that Classify never panics, that it returns exactly the readings
// a brute-force check of every type, main rank and length accepts (sound:
// the natural cards and the jokers' ranks make exactly the combination),
// with no reading twice, and that the order of the cards does not matter.
// wild true checks both wild settings with wilds (all, and big: RJ alone,
// shuangkou.md, Table options), false none; the corpus keeps its shape.
func FuzzClassify(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, wild bool) {
		if len(data) > 2*cards.DeckSize {
			return
		}
		cs := make([]cards.Card, len(data))
		for i, b := range data {
			cs[i] = cards.FromIndex(int(b) % cards.DeckSize)
		}
		modes := []Wild{WildNone}
		if wild {
			modes = []Wild{WildAll, WildBig}
		}
		for _, w := range modes {
			checkClassify(t, cs, w)
		}
	})
}

// checkClassify checks Classify(cs, wild) against the brute force.
func checkClassify(t *testing.T, cs []cards.Card, wild Wild) {
	t.Helper()
	got := Classify(cs, wild)
	var want []Reading
	for ty := Single; ty <= JokerBomb; ty++ {
		for main := range climb.NumRanks {
			for length := 1; length <= len(cs); length++ {
				rd := Reading{Type: ty, Main: climb.Rank(main), Length: length}
				if w, ok := wildsFor(cs, rd, wild); ok {
					rd.Wild = w
					if sound(cs, rd, wild) == nil {
						want = append(want, rd)
					}
				}
			}
		}
	}
	for _, rd := range got {
		if err := sound(cs, rd, wild); err != nil {
			t.Fatalf("%s (wild %v) reads as %v, but %v (shuangkou.md, Combinations)", cards.Format(cs), wild, rd, err)
		}
	}
	eq := func(a, b Reading) bool { return a.same(b) && slices.Equal(a.Wild, b.Wild) }
	for _, rd := range want {
		if !slices.ContainsFunc(got, func(g Reading) bool { return eq(g, rd) }) {
			t.Fatalf("%s (wild %v) may be read as %v, Classify misses it: %v (shuangkou.md, Combinations)", cards.Format(cs), wild, rd, got)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%s (wild %v): readings %v, want %v", cards.Format(cs), wild, got, want)
	}
	rot := append(slices.Clone(cs[len(cs)/2:]), cs[:len(cs)/2]...)
	slices.Reverse(rot)
	again := Classify(rot, wild)
	if len(again) != len(got) || !slices.EqualFunc(again, got, eq) {
		t.Fatalf("%s reads as %v, reordered as %v: order must not matter", cards.Format(cs), got, again)
	}
}

// wildsFor is, by brute force, what the jokers of cs must stand for to make
// rd: the ranks rd needs beyond the natural cards, sorted. ok is false when a
// natural card is beyond what rd needs.
func wildsFor(cs []cards.Card, rd Reading, wild Wild) ([]climb.Rank, bool) {
	s := climb.CountsOf(cs)
	if s.Total() == s.Jokers() || wild == WildNone {
		return nil, true
	}
	var need [climb.NumNatural]int
	switch rd.Type {
	case Single, Pair, Trio:
		if int(rd.Main) >= climb.NumNatural {
			return nil, false
		}
		need[rd.Main] = rd.Type.group()
	case Bomb:
		if int(rd.Main) >= climb.NumNatural {
			return nil, false
		}
		need[rd.Main] = len(cs)
	case Straight, PairRun, TrioRun:
		for r := int(rd.Main) - rd.Length + 1; r <= int(rd.Main); r++ {
			if r < 0 || r >= climb.NumNatural {
				return nil, false
			}
			need[r] = rd.Type.group()
		}
	default:
		return nil, false
	}
	var out []climb.Rank
	for r, k := range s[:climb.NumNatural] {
		if int(k) > need[r] {
			return nil, false
		}
		for range need[r] - int(k) {
			out = append(out, climb.Rank(r))
		}
	}
	return out, true
}
