package doudizhu

import (
	"fmt"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// FuzzClassify reads each byte as a card (byte mod 54 in canonical deck
// order; repeats allowed, as a corrupt or two-deck input might hold) and
// checks that Classify never panics, that it returns exactly the readings an
// independent check of every possible reading accepts (so each reading
// accounts for exactly the input cards), and that the order of the cards does
// not matter.
func FuzzClassify(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 2*cards.DeckSize {
			return
		}
		cs := make([]cards.Card, len(data))
		for i, b := range data {
			cs[i] = cards.FromIndex(int(b) % cards.DeckSize)
		}
		got := Classify(cs)
		c := climb.CountsOf(cs)
		var want []Reading
		for ty := Single; ty <= Rocket; ty++ {
			for main := range climb.NumRanks {
				for length := 1; length <= 12; length++ {
					rd := Reading{Type: ty, Main: climb.Rank(main), Length: length}
					if explains(rd, &c, len(cs)) == nil {
						want = append(want, rd)
					}
				}
			}
		}
		for _, rd := range got {
			if err := explains(rd, &c, len(cs)); err != nil {
				t.Fatalf("%s reads as %v, but %v (doudizhu.md, Card types)", cards.Format(cs), rd, err)
			}
		}
		for _, rd := range want {
			if !slices.Contains(got, rd) {
				t.Fatalf("%s may be read as %v, Classify misses it: %v (doudizhu.md, Card types)", cards.Format(cs), rd, got)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%s: readings %v, want %v", cards.Format(cs), got, want)
		}
		rot := append(slices.Clone(cs[len(cs)/2:]), cs[:len(cs)/2]...)
		slices.Reverse(rot)
		if again := Classify(rot); !slices.Equal(again, got) {
			t.Fatalf("%s reads as %v, reordered as %v: order must not matter", cards.Format(cs), got, again)
		}
	})
}

// explains checks, independently of the classifier, that rd accounts for
// exactly the multiset with rank counts c and n cards: its body is there and
// the rest are kickers as doudizhu.md (Card types, Kickers Decision) allows.
func explains(rd Reading, c *climb.Counts, n int) error {
	if rd.Size() != n {
		return fmt.Errorf("%v holds %d cards, not %d", rd, rd.Size(), n)
	}
	width, minLen, chain := uint8(1), 1, false
	switch rd.Type {
	case Pair:
		width = 2
	case Trio, TrioSingle, TrioPair:
		width = 3
	case FourTwoSingles, FourTwoPairs, Bomb:
		width = 4
	case Straight:
		minLen, chain = 5, true
	case PairStraight:
		width, minLen, chain = 2, 3, true
	case Airplane, AirplaneSingles, AirplanePairs:
		width, minLen, chain = 3, 2, true
	}
	if chain && (rd.Main > climb.RankA || rd.Length < minLen) {
		return fmt.Errorf("a chain of %d up to %v", rd.Length, rd.Main)
	}
	if !chain && rd.Length != 1 {
		return fmt.Errorf("length %d of a type that is no chain", rd.Length)
	}
	if width == 4 && rd.Main > climb.Rank2 {
		return fmt.Errorf("four jokers of a rank")
	}
	lo := int(rd.Main) - rd.Length + 1
	if lo < 0 {
		return fmt.Errorf("chain below 3")
	}
	var body climb.Counts
	if rd.Type == Rocket {
		if rd.Main != climb.RankRJ {
			return fmt.Errorf("the rocket's main rank is RJ")
		}
		body[climb.RankBJ], body[climb.RankRJ] = 1, 1
	} else {
		for r := lo; r <= int(rd.Main); r++ {
			body[r] = width
		}
	}
	var kick climb.Counts
	kicks, ranks, pairs := 0, 0, 0
	for r := range climb.NumRanks {
		if c[r] < body[r] || (body[r] > 0 && c[r] != body[r]) {
			return fmt.Errorf("rank %v: %d cards, the body needs exactly %d", climb.Rank(r), c[r], body[r])
		}
		kick[r] = c[r] - body[r]
		if kick[r] > 0 {
			kicks += int(kick[r])
			ranks++
			if kick[r] == 2 {
				pairs++
			}
			if kick[r] >= 4 {
				return fmt.Errorf("four kickers of rank %v", climb.Rank(r))
			}
		}
	}
	rocket := kick[climb.RankBJ] > 0 && kick[climb.RankRJ] > 0
	switch rd.Type {
	case TrioSingle:
		if kicks != 1 {
			return fmt.Errorf("trio + %d", kicks)
		}
	case TrioPair, FourTwoPairs, AirplanePairs:
		if pairs != ranks || 2*pairs != kicks {
			return fmt.Errorf("kickers are not pairs")
		}
	case AirplaneSingles, FourTwoSingles:
		if rocket {
			return fmt.Errorf("the rocket as kickers")
		}
	default:
		if kicks != 0 {
			return fmt.Errorf("%d cards beside the body", kicks)
		}
	}
	return nil
}
