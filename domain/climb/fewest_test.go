package climb

import (
	"testing"

	"paiju/domain/cards"
)

var ddzShapes = Shapes{MinRun: [4]int{0, 5, 3, 2}, Kickers: KickerOne, JokerGroup: 2}

// Plays counts the fewest plays of a hand under doudizhu.md's card types
// (straights of 5, pair straights of 3, airplanes, trio + kicker, rocket)
// and dadun.md's (trio + two cards).
func TestShapesPlays(t *testing.T) {
	dadun := Shapes{MinRun: [4]int{0, 5, 2, 2}, Kickers: KickerTwo, JokerGroup: 3}
	wild := Shapes{MinRun: [4]int{0, 5, 3, 2}, JokerGroup: 4, WildJokers: true}
	for _, tc := range []struct {
		name  string
		sh    Shapes
		hand  string
		plays int
	}{
		{"one straight", ddzShapes, "S3 H4 C5 D6 S7", 1},
		{"straight and a single", ddzShapes, "S3 H4 C5 D6 S7 S9", 2},
		{"trio takes a single kicker", ddzShapes, "S3 H3 C3 D9", 1},
		{"trio takes a pair kicker", ddzShapes, "S3 H3 C3 D9 S9", 1},
		{"pair straight", ddzShapes, "S3 H3 S4 H4 S5 H5", 1},
		{"airplane with two kickers", ddzShapes, "S3 H3 C3 S4 H4 C4 S9 SJ", 1},
		{"rocket is one play", ddzShapes, "BJ RJ", 1},
		{"singles stay singles", ddzShapes, "S3 S5 S7 S9", 4},
		{"bomb", ddzShapes, "S3 H3 C3 D3 S9", 2},
		{"empty", ddzShapes, "", 0},
		{"dadun trio takes two singles", dadun, "S3 H3 C3 S9 SJ", 1},
		{"dadun pair run of two", dadun, "S3 H3 S4 H4", 1},
		{"wild jokers cost nothing", wild, "S3 BJ RJ", 1},
	} {
		c := CountsOf(cards.MustParse(tc.hand))
		if got := tc.sh.Plays(&c); got != tc.plays {
			t.Errorf("%s: Plays(%s) = %d, want %d", tc.name, tc.hand, got, tc.plays)
		}
	}
}

// Choose: play out when possible; let a partner's play win; lead the play
// that leaves the fewest plays, lowest first; keep a bomb unless an
// opponent is about to go out.
func TestChoose(t *testing.T) {
	opt := func(i int, cs string, bomb bool) Option {
		return Option{Index: i, Take: CountsOf(cards.MustParse(cs)), Bomb: bomb}
	}
	hand := CountsOf(cards.MustParse("S3 H4 C5 D6 S7 S9 SK HK CK DK"))
	for _, tc := range []struct {
		name string
		sit  Situation
		opts []Option
		want int
	}{
		{"lead the straight, not a single of it", Situation{Hand: hand, Pass: -1},
			[]Option{opt(0, "S3", false), opt(1, "S3 H4 C5 D6 S7", false), opt(2, "S9", false), opt(3, "SK HK CK DK", true)}, 1},
		{"partner wins: pass", Situation{Hand: hand, Pass: 2, PartnerWinning: true},
			[]Option{opt(0, "S9", false), opt(1, "SK HK CK DK", true)}, 2},
		{"keep the bomb", Situation{Hand: hand, Pass: 1, OpponentLow: 9, Danger: 2},
			[]Option{opt(0, "SK HK CK DK", true)}, 1},
		{"bomb to stop an opponent going out", Situation{Hand: hand, Pass: 1, OpponentLow: 1, Danger: 2},
			[]Option{opt(0, "SK HK CK DK", true)}, 0},
		{"play out", Situation{Hand: CountsOf(cards.MustParse("S9")), Pass: 1, PartnerWinning: true},
			[]Option{opt(0, "S9", false)}, 0},
	} {
		if got := ddzShapes.Choose(tc.sit, tc.opts); got != tc.want {
			t.Errorf("%s: Choose = %d, want %d", tc.name, got, tc.want)
		}
	}
}
