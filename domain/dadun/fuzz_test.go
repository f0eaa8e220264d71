package dadun

import (
	"fmt"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// FuzzClassify reads each byte as a card (byte mod 54 in canonical deck
// order; repeats allowed, as a corrupt input might hold) and checks that
// Classify never panics, that it returns exactly the readings a brute-force
// check of every type, main rank and length accepts (dadun.md,
// Combinations), with no reading twice, and that the order of the cards
// does not matter; under the default options and under joker_bombs 2
// (dadun.md, Table options), which alone of the options changes what cards
// make.
func FuzzClassify(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, last bool) {
		if len(data) > 2*cards.DeckSize {
			return
		}
		cs := make([]cards.Card, len(data))
		for i, b := range data {
			cs[i] = cards.FromIndex(int(b) % cards.DeckSize)
		}
		for _, v := range []variant{{}, {opts: options{twoJokerBombs: true}}} {
			checkClassify(t, v, cs, last)
		}
	})
}

// checkClassify checks v's classifier on cs against sound.
func checkClassify(t *testing.T, v variant, cs []cards.Card, last bool) {
	got := v.classify(cs, last)
	var want []Reading
	for ty := Single; ty <= JokerBomb; ty++ {
		for main := range climb.NumRanks {
			for length := 1; length <= max(1, len(cs)); length++ {
				rd := Reading{Type: ty, Main: climb.Rank(main), Length: length}
				if ty == Trio || ty == TrioRun {
					rd.Kickers = len(cs) - 3*length
				}
				if sound(v, cs, rd, last) == nil {
					want = append(want, rd)
				}
			}
		}
	}
	for i, rd := range got {
		if err := sound(v, cs, rd, last); err != nil {
			t.Fatalf("%s (last %v, %+v) reads as %v, but %v (dadun.md, Combinations)", cards.Format(cs), last, v.opts, rd, err)
		}
		if slices.Contains(got[:i], rd) {
			t.Fatalf("%s reads as %v twice", cards.Format(cs), rd)
		}
	}
	for _, rd := range want {
		if !slices.Contains(got, rd) {
			t.Fatalf("%s (last %v) may be read as %v, Classify misses it: %v (dadun.md, Combinations)", cards.Format(cs), last, rd, got)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%s (last %v): readings %v, want %v", cards.Format(cs), last, got, want)
	}
	rot := append(slices.Clone(cs[len(cs)/2:]), cs[:len(cs)/2]...)
	slices.Reverse(rot)
	if again := v.classify(rot, last); !slices.Equal(again, got) {
		t.Fatalf("%s reads as %v, reordered as %v: order must not matter", cards.Format(cs), got, again)
	}
}

// sound checks, by the letter of dadun.md, Combinations, and of Table
// options, joker_bombs, that cs make the combination rd under v; last: cs
// are the player's last cards.
func sound(v variant, cs []cards.Card, rd Reading, last bool) error {
	n := len(cs)
	c := climb.CountsOf(cs)
	only := func(want map[climb.Rank]int) error {
		for r := range climb.NumRanks {
			if int(c[r]) != want[climb.Rank(r)] {
				return fmt.Errorf("%d cards of rank %v, the shape wants %d", c[r], climb.Rank(r), want[climb.Rank(r)])
			}
		}
		return nil
	}
	run := func(k int, minLen int) error {
		lo := int(rd.Main) - rd.Length + 1
		if rd.Length < minLen || lo < 0 || rd.Main > climb.TopRun {
			return fmt.Errorf("no run of %d to %v", rd.Length, rd.Main)
		}
		want := map[climb.Rank]int{}
		for r := lo; r <= int(rd.Main); r++ {
			want[climb.Rank(r)] = k
		}
		return only(want)
	}
	trios := func() error {
		lo := int(rd.Main) - rd.Length + 1
		if lo < 0 || (rd.Type == TrioRun && rd.Main > climb.TopRun) || rd.Main >= climb.RankBJ {
			return fmt.Errorf("no trios of %d to %v", rd.Length, rd.Main)
		}
		for r := lo; r <= int(rd.Main); r++ {
			if c[r] < 3 {
				return fmt.Errorf("fewer than 3 of %v", climb.Rank(r))
			}
		}
		k := n - 3*rd.Length
		if rd.Kickers != k || k < 0 || k > 2*rd.Length || (k < 2*rd.Length && !last) {
			return fmt.Errorf("%d kickers for %d trios (last %v)", k, rd.Length, last)
		}
		return nil
	}
	if rd.Kickers != 0 && rd.Type != Trio && rd.Type != TrioRun {
		return fmt.Errorf("kickers on a %v", rd.Type)
	}
	if rd.Length != 1 {
		switch rd.Type {
		case Single, Pair, Trio, Plain510K, Pure510K:
			return fmt.Errorf("length %d", rd.Length)
		}
	}
	switch rd.Type {
	case Single:
		return only(map[climb.Rank]int{rd.Main: 1})
	case Pair:
		if v.opts.twoJokerBombs && rd.Main.IsJoker() {
			return fmt.Errorf("joker_bombs 2: two jokers are a bomb, no pair")
		}
		return only(map[climb.Rank]int{rd.Main: 2})
	case PairRun:
		return run(2, 2)
	case Straight:
		return run(1, 5)
	case Trio:
		return trios()
	case TrioRun:
		if rd.Length < 2 {
			return fmt.Errorf("a trio run of one trio")
		}
		return trios()
	case Plain510K, Pure510K:
		if rd.Main != climb.RankK {
			return fmt.Errorf("510K main %v", rd.Main)
		}
		if err := only(map[climb.Rank]int{climb.Rank5: 1, climb.Rank10: 1, climb.RankK: 1}); err != nil {
			return err
		}
		pure := cs[0].Suit == cs[1].Suit && cs[1].Suit == cs[2].Suit
		if pure != (rd.Type == Pure510K) {
			return fmt.Errorf("suits make it pure %v", pure)
		}
		return nil
	case Multi510K:
		if rd.Main != climb.RankK || rd.Length < 3 {
			return fmt.Errorf("multi-510K of %d sets", rd.Length)
		}
		return only(map[climb.Rank]int{climb.Rank5: rd.Length, climb.Rank10: rd.Length, climb.RankK: rd.Length})
	case Bomb:
		if rd.Main > climb.Rank2 || n < 4 || n > 8 || rd.Length != n {
			return fmt.Errorf("no bomb of %d %v", n, rd.Main)
		}
		return only(map[climb.Rank]int{rd.Main: n})
	case JokerBomb:
		if rd.Main != climb.RankRJ || n < v.jokerBombMin() || n > 4 || rd.Length != n || int(c[climb.RankBJ])+int(c[climb.RankRJ]) != n {
			return fmt.Errorf("no joker bomb")
		}
		return nil
	}
	return fmt.Errorf("unknown type %v", rd.Type)
}
