package climb

import (
	"fmt"
	"testing"

	"paiju/domain/cards"
)

// RankOfIndex must agree with RankOf, the order of doudizhu.md, Card types,
// and shuangkou.md, Combinations, on every card of the deck.
func TestRankOfIndex(t *testing.T) {
	for i := range cards.DeckSize {
		if got, want := RankOfIndex(i), RankOf(cards.FromIndex(i)); got != want {
			t.Errorf("RankOfIndex(%d) = %v, want RankOf(%v) = %v", i, got, cards.FromIndex(i), want)
		}
	}
}

// shuangkou.md, Combinations (百变): the jokers of a play are counted apart
// from its natural cards, since they may stand in for them.
func TestCountsJokers(t *testing.T) {
	for _, tc := range []struct {
		hand string
		want int
	}{
		{"S3 H3", 0},
		{"BJ S2", 1},
		{"BJ BJ RJ S3", 3},
	} {
		c := CountsOf(cards.MustParse(tc.hand))
		if got := c.Jokers(); got != tc.want {
			t.Errorf("%s: Jokers = %d, want %d", tc.hand, got, tc.want)
		}
	}
}

// testReading is a reading with the shape every climbing game shares
// (doudizhu.md, Beating; shuangkou.md, Combinations): a bomb beats any
// non-bomb and a lower bomb, any other play beats only its own type with a
// higher main rank; among readings of one play, bombs first, then the higher
// main rank.
type testReading struct {
	bomb bool
	typ  string
	main Rank
}

func (r testReading) Beats(lead testReading) bool {
	if r.bomb != lead.bomb {
		return r.bomb
	}
	return (r.bomb || r.typ == lead.typ) && r.main > lead.main
}

func (r testReading) Outranks(o testReading) bool {
	if r.bomb != o.bomb {
		return r.bomb
	}
	return r.main > o.main
}

func (r testReading) String() string { return fmt.Sprintf("%s:%v", r.typ, r.main) }

func TestPick(t *testing.T) {
	// The cards 333444555666 read as an airplane of four trios or as two
	// airplanes of three trios with kickers (doudizhu.md, Card types).
	four := testReading{typ: "airplane", main: Rank6}
	up5 := testReading{typ: "airplane_singles", main: Rank5}
	up6 := testReading{typ: "airplane_singles", main: Rank6}
	bomb := testReading{bomb: true, typ: "bomb", main: Rank3}
	readings := []testReading{four, up5, up6}
	for _, tc := range []struct {
		name     string
		readings []testReading
		lead     *testReading
		want     testReading
		ok       bool
	}{
		{"leading: the reading that outranks the others", readings, nil, four, true},
		{"following: only readings that beat the lead", readings, &up5, up6, true},
		{"following: none beats the lead", readings, &up6, testReading{}, false},
		{"a bomb outranks a higher non-bomb", []testReading{up6, bomb}, nil, bomb, true},
		{"no readings", nil, nil, testReading{}, false},
	} {
		got, ok := Pick(tc.readings, tc.lead)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Pick = %v, %v, want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// The readings a does_not_beat or invalid_combo message lists (doudizhu.md,
// Beating; shuangkou.md, Combinations), joined in the order given.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		rs   []testReading
		want string
	}{
		{nil, ""},
		{[]testReading{{typ: "pair", main: Rank7}}, "pair:7"},
		{[]testReading{{typ: "pair", main: Rank7}, {typ: "bomb", main: RankA}}, "pair:7 or bomb:A"},
	} {
		if got := Describe(tc.rs); got != tc.want {
			t.Errorf("Describe(%v) = %q, want %q", tc.rs, got, tc.want)
		}
	}
}
