package climb

import (
	"testing"

	"paiju/domain/cards"
)

// The order every climbing rules file states: 3 4 5 6 7 8 9 10 J Q K A 2 BJ RJ
// (doudizhu.md, Card types; dadun.md, Combinations; shuangkou.md, Combinations).
func TestRankOrder(t *testing.T) {
	order := cards.MustParse("D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK DA D2 BJ RJ")
	for i, c := range order {
		if got := RankOf(c); got != Rank(i) {
			t.Errorf("RankOf(%v) = %v, want %v", c, got, Rank(i))
		}
		name, err := RankOf(c).MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Rank
		if err := back.UnmarshalText(name); err != nil || back != Rank(i) {
			t.Errorf("rank %d: round trip through %q gave %v, %v", i, name, back, err)
		}
	}
	if _, ok := ParseRank("1"); ok {
		t.Error(`ParseRank("1") succeeded`)
	}
}

func TestSortDisplayOrder(t *testing.T) {
	cs := cards.MustParse("RJ D2 S3 H3 SA BJ C10")
	Sort(cs)
	if got, want := cards.Format(cs), cards.Format(cards.MustParse("S3 H3 C10 SA D2 BJ RJ")); got != want {
		t.Errorf("Sort = %s, want %s", got, want)
	}
}

func TestCountsRun(t *testing.T) {
	for _, tc := range []struct {
		hand   string
		lo, hi Rank
		k      uint8
		want   bool
	}{
		{"S3 S4 S5 S6 S7", Rank3, Rank7, 1, true},
		{"S10 SJ SQ SK SA", Rank10, RankA, 1, true},
		{"SJ SQ SK SA S2", RankJ, Rank2, 1, false}, // 2 never sits in a sequence
		{"S3 H3 S4 H4", Rank3, Rank4, 2, true},
		{"S3 H3 S4 H4 S5", Rank3, Rank4, 2, false},
	} {
		c := CountsOf(cards.MustParse(tc.hand))
		if got := c.Run(tc.lo, tc.hi, tc.k); got != tc.want {
			t.Errorf("%s Run(%v, %v, %d) = %v, want %v", tc.hand, tc.lo, tc.hi, tc.k, got, tc.want)
		}
	}
	c := CountsOf(cards.MustParse("S3 H3 RJ"))
	if c.Total() != 3 || c.Key() == 0 {
		t.Errorf("Total %d, Key %x", c.Total(), c.Key())
	}
}
