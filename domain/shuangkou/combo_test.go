package shuangkou

import (
	"fmt"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// cardsOfRank returns n natural cards of rank r, suits cycling ♠ ♥ ♣ ♦.
func cardsOfRank(r climb.Rank, n int) []cards.Card {
	face := cards.Rank(r + 3)
	if r == climb.Rank2 {
		face = 2
	}
	out := make([]cards.Card, n)
	for i := range out {
		out[i] = cards.Card{Suit: cards.Suit(i % 4), Rank: face}
	}
	return out
}

// jokersN returns n jokers, BJ first (at most two of each).
func jokersN(n int) []cards.Card {
	return []cards.Card{cards.BJ, cards.BJ, cards.RJ, cards.RJ}[:n]
}

// sound checks a reading against the cards it reads (independently of
// Classify): the natural cards and the ranks the jokers stand for make up
// exactly the combination, and wilds appear only in 百变 with natural cards.
func sound(cs []cards.Card, rd Reading, wild Wild) error {
	s := climb.CountsOf(cs)
	n := len(cs)
	if s.Total() == s.Jokers() {
		if len(rd.Wild) > 0 {
			return fmt.Errorf("jokers alone read as wild")
		}
		ok := false
		if rd.Length != 1 && rd.Type != JokerBomb {
			return fmt.Errorf("length %d", rd.Length)
		}
		switch rd.Type {
		case Single:
			ok = n == 1 && (rd.Main == climb.RankBJ && s[climb.RankBJ] == 1 || rd.Main == climb.RankRJ && s[climb.RankRJ] == 1)
		case Pair:
			ok = rd.Main == climb.RankBJ && s[climb.RankBJ] == 2 && n == 2 || rd.Main == climb.RankRJ && s[climb.RankRJ] == 2 && n == 2
		case JokerBomb:
			ok = s[climb.RankBJ] == 2 && s[climb.RankRJ] == 2 && n == 4 && rd.Main == climb.RankRJ && rd.Length == 4
		}
		if !ok {
			return fmt.Errorf("jokers alone are not %v", rd)
		}
		return nil
	}
	if bj, rj := wild.wilds(); len(rd.Wild) != s.Jokers() || !bj && s[climb.RankBJ] > 0 || !rj && s[climb.RankRJ] > 0 {
		return fmt.Errorf("%d jokers but %d wild ranks (wild %v)", s.Jokers(), len(rd.Wild), wild)
	}
	full := [climb.NumNatural]uint8(s[:climb.NumNatural])
	for _, w := range rd.Wild {
		if int(w) >= climb.NumNatural {
			return fmt.Errorf("a joker stands for %v", w)
		}
		full[w]++
	}
	want := [climb.NumNatural]uint8{}
	if rd.Type <= Trio || rd.Type == Bomb {
		if int(rd.Main) >= climb.NumNatural {
			return fmt.Errorf("natural cards read as %v", rd)
		}
	}
	switch rd.Type {
	case Single, Pair, Trio:
		if rd.Length != 1 {
			return fmt.Errorf("length %d", rd.Length)
		}
		want[rd.Main] = uint8(rd.Type.group())
	case Bomb:
		if rd.Length < 4 || rd.Length != n {
			return fmt.Errorf("bomb length %d of %d cards", rd.Length, n)
		}
		want[rd.Main] = uint8(n)
	case Straight, PairRun, TrioRun:
		if rd.Length < minRun(rd.Type) || rd.Main > climb.TopRun || int(rd.Main)-rd.Length+1 < 0 {
			return fmt.Errorf("run %v out of 3..A", rd)
		}
		for r := int(rd.Main) - rd.Length + 1; r <= int(rd.Main); r++ {
			want[r] = uint8(rd.Type.group())
		}
	default:
		return fmt.Errorf("type %v with natural cards", rd.Type)
	}
	if full != want {
		return fmt.Errorf("cards and wilds %v do not make %v", full, rd)
	}
	return nil
}

// TestFourJokersCompleteBombs: every natural rank 3 … 2, with 1 … 8 natural
// cards and 0 … 4 jokers, reads as that rank's bomb of all the cards (or
// pair/trio below four cards), the jokers standing for that rank
// (shuangkou.md, 百变: ♠7 ♥7 RJ BJ is a 4-card bomb of 7s; bombs reach 12).
func TestFourJokersCompleteBombs(t *testing.T) {
	for r := climb.Rank3; r <= climb.Rank2; r++ {
		for nat := 1; nat <= 8; nat++ {
			for j := 0; j <= 4; j++ {
				cs := append(cardsOfRank(r, nat), jokersN(j)...)
				n := nat + j
				want := Reading{Type: Bomb, Main: r, Length: n}
				switch n {
				case 1:
					want = Reading{Type: Single, Main: r, Length: 1}
				case 2:
					want.Type, want.Length = Pair, 1
				case 3:
					want.Type, want.Length = Trio, 1
				}
				for range j {
					want.Wild = append(want.Wild, r)
				}
				got := Classify(cs, WildAll)
				if !slices.ContainsFunc(got, func(g Reading) bool { return g.same(want) && slices.Equal(g.Wild, want.Wild) }) {
					t.Errorf("%s reads as %v, want it to include %v (shuangkou.md, 百变)", cards.Format(cs), got, want)
				}
				for _, g := range got {
					if err := sound(cs, g, WildAll); err != nil {
						t.Errorf("%s read as %v: %v", cards.Format(cs), g, err)
					}
				}
				if classic := Classify(cs, WildNone); j > 0 && classic != nil {
					t.Errorf("classic reads %s as %v, want no combination: no wilds in classic (shuangkou.md)", cards.Format(cs), classic)
				}
			}
		}
	}
}

// TestFourJokersCompleteRuns: every run (straight, pair run, trio run) of
// every length and position in 3..A, with every way of leaving out up to four
// of its cards for jokers to stand in (at least one natural card kept), reads
// as that run with exactly the left-out ranks wild, and every other reading
// of the same cards is sound (shuangkou.md, Combinations and 百变).
func TestFourJokersCompleteRuns(t *testing.T) {
	checked := 0
	for _, typ := range []Type{Straight, PairRun, TrioRun} {
		g := typ.group()
		for length := minRun(typ); length <= int(climb.TopRun)+1; length++ {
			if g*length > 36 {
				break
			}
			for first := 0; first+length-1 <= int(climb.TopRun); first++ {
				// miss[i] cards of rank first+i are left to jokers.
				miss := make([]int, length)
				var rec func(i, left int)
				rec = func(i, left int) {
					if i == length {
						j := 4 - left
						var cs []cards.Card
						var wild []climb.Rank
						for k, m := range miss {
							r := climb.Rank(first + k)
							cs = append(cs, cardsOfRank(r, g-m)...)
							for range m {
								wild = append(wild, r)
							}
						}
						if len(cs) == 0 {
							return
						}
						cs = append(cs, jokersN(j)...)
						want := Reading{Type: typ, Main: climb.Rank(first + length - 1), Length: length, Wild: wild}
						got := Classify(cs, WildAll)
						checked++
						if !slices.ContainsFunc(got, func(x Reading) bool { return x.same(want) && slices.Equal(x.Wild, want.Wild) }) {
							t.Fatalf("%s reads as %v, want it to include %v (shuangkou.md, 百变)", cards.Format(cs), got, want)
						}
						for _, x := range got {
							if err := sound(cs, x, WildAll); err != nil {
								t.Fatalf("%s read as %v: %v", cards.Format(cs), x, err)
							}
						}
						return
					}
					for m := 0; m <= min(g, left); m++ {
						miss[i] = m
						rec(i+1, left-m)
					}
					miss[i] = 0
				}
				rec(0, 4)
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("checked only %d runs", checked)
	}
}

// TestClassify is the combinations table of shuangkou.md, case by case.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		cards string
		wild  bool
		want  []string // readings as String
	}{
		{"S3", false, []string{"single:3"}},
		{"BJ", false, []string{"single:BJ"}},
		{"RJ", true, []string{"single:RJ"}},
		{"S2 H2", false, []string{"pair:2"}},
		{"BJ BJ", false, []string{"pair:BJ"}},
		{"RJ RJ", true, []string{"pair:RJ"}},
		{"BJ RJ", false, nil}, // two different jokers are no pair
		{"BJ RJ", true, nil},  // jokers alone are never wild
		{"BJ BJ RJ", true, nil},
		{"S5 H5 C5", false, []string{"trio:5"}},
		{"S5 H5 C5 D6", false, nil}, // no kickers
		{"S3 H3 S4 H4 S5 H5", false, []string{"pair_run:5×3"}},
		{"S3 H3 S4 H4", false, nil}, // pair runs need 3 pairs
		{"S3 H3 C3 S4 H4 C4", false, []string{"trio_run:4×2"}},
		{"S10 SJ SQ SK SA", false, []string{"straight:A×5"}},
		{"SJ SQ SK SA S2", false, nil}, // no 2 in a run
		{"S3 S4 S5 S6", false, nil},
		{"S9 H9 C9 D9", false, []string{"bomb:9×4"}},
		{"S9 H9 C9 D9 S9 H9 C9 D9", false, []string{"bomb:9×8"}},
		{"BJ BJ RJ RJ", false, []string{"joker_bomb:RJ"}},
		{"BJ BJ RJ RJ", true, []string{"joker_bomb:RJ"}},
		{"S7 H7 RJ BJ", true, []string{"bomb:7×4 (jokers as 7 7)"}},
		{"S7 H7 RJ BJ", false, nil},
		{"S7 BJ", true, []string{"pair:7 (jokers as 7)"}},
		{"S5 S6 S7 BJ RJ", true, []string{"straight:7×5 (jokers as 3 4)", "straight:8×5 (jokers as 4 8)", "straight:9×5 (jokers as 8 9)"}},
		{"SQ SK SA BJ RJ", true, []string{"straight:A×5 (jokers as 10 J)"}},
		{"S7 H7 BJ BJ RJ RJ", true, []string{"bomb:7×6 (jokers as 7 7 7 7)", "pair_run:7×3 (jokers as 5 5 6 6)", "pair_run:8×3 (jokers as 6 6 8 8)", "pair_run:9×3 (jokers as 8 8 9 9)", "trio_run:7×2 (jokers as 6 6 6 7)", "trio_run:8×2 (jokers as 7 8 8 8)"}},
	} {
		var got []string
		for _, r := range Classify(cards.MustParse(c.cards), wildOf(c.wild)) {
			got = append(got, r.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s (wild %v) reads as %q, want %q (shuangkou.md, Combinations)", c.cards, c.wild, got, c.want)
		}
	}
}

// TestBeats is the order of shuangkou.md, Combinations: bombs by card count
// then rank, the joker bomb over every bomb, a bomb over any non-bomb, other
// combinations only the same type and length with a higher main rank.
func TestBeats(t *testing.T) {
	rd := func(cs string) Reading {
		rs := Classify(cards.MustParse(cs), WildAll)
		if len(rs) != 1 {
			t.Fatalf("%s has readings %v", cs, rs)
		}
		return rs[0]
	}
	for _, c := range []struct {
		play, lead string
		want       bool
	}{
		{"S4", "S3", true},
		{"S3", "S4", false},
		{"S3", "H3", false}, // a tie does not beat
		{"S2", "SA", true},
		{"BJ", "S2", true},
		{"RJ", "BJ", true},
		{"BJ BJ", "S2 H2", true},
		{"RJ RJ", "BJ BJ", true},
		{"S4 H4", "S3", false}, // another type
		{"S4 S5 S6 S7 S8", "S3 S4 S5 S6 S7", true},
		{"S4 S5 S6 S7 S8 S9", "S3 S4 S5 S6 S7", false}, // another length
		{"S3 H3 C3 D3", "SA S2 SK SQ SJ", false},       // not a straight (2): see the case below
		{"S3 H3 C3 D3", "S10 SJ SQ SK SA", true},       // a bomb beats any non-bomb
		{"S3 H3 C3 D3", "S2 H2 C2", true},
		{"S3 H3 C3 D3 S3", "S2 H2 C2 D2", true}, // more cards
		{"S2 H2 C2 D2", "S3 H3 C3 D3 S3", false},
		{"S4 H4 C4 D4", "S3 H3 C3 D3", true}, // same count, higher rank
		{"BJ BJ RJ RJ", "S2 H2 C2 D2 S2 H2 C2 D2", true},
		{"S2 H2 C2 D2 S2 H2 C2 D2", "BJ BJ RJ RJ", false},
		{"S7 H7 C7 D7 S7 H7 C7 D7 BJ BJ RJ", "S2 H2 C2 D2 S2 H2 C2 D2", true}, // wilds count as cards
	} {
		p, l := cards.MustParse(c.play), cards.MustParse(c.lead)
		lr := Classify(l, WildAll)
		if len(lr) == 0 {
			if c.want {
				t.Errorf("lead %s is no combination", c.lead)
			}
			continue
		}
		if got := rd(c.play).Beats(lr[0]); got != c.want {
			t.Errorf("%s beats %s: got %v, want %v (shuangkou.md, Combinations)", cards.Format(p), cards.Format(l), got, c.want)
		}
	}
}
