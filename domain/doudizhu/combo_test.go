package doudizhu

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// rd writes a reading compactly for test tables: "type/main/length".
func rd(t Type, main climb.Rank, length int) Reading {
	return Reading{Type: t, Main: main, Length: length}
}

func TestClassify(t *testing.T) {
	const types, kick = "doudizhu.md, Card types", "doudizhu.md, Card types, Kickers Decision"
	tests := []struct {
		cards string
		want  []Reading // nil: not a play
		rule  string
	}{
		{"S3", []Reading{rd(Single, climb.Rank3, 1)}, types},
		{"RJ", []Reading{rd(Single, climb.RankRJ, 1)}, types},
		{"S3 H3", []Reading{rd(Pair, climb.Rank3, 1)}, types},
		{"S2 D2", []Reading{rd(Pair, climb.Rank2, 1)}, types},
		{"S3 H4", nil, types},
		{"BJ RJ", []Reading{rd(Rocket, climb.RankRJ, 1)}, types + ": BJ+RJ is the rocket, not a pair"},
		{"BJ S2", nil, types},
		{"S3 H3 C3", []Reading{rd(Trio, climb.Rank3, 1)}, types},
		{"S3 H3 C4", nil, types},
		{"S3 H3 C3 D4", []Reading{rd(TrioSingle, climb.Rank3, 1)}, types},
		{"SA HA CA RJ", []Reading{rd(TrioSingle, climb.RankA, 1)}, types},
		{"S3 H3 C3 D3", []Reading{rd(Bomb, climb.Rank3, 1)}, types + ": the single may not be of the trio's rank"},
		{"S3 H3 C4 D4", nil, types},
		{"S3 H3 C3 S4 H4", []Reading{rd(TrioPair, climb.Rank3, 1)}, types},
		{"S3 H3 C3 BJ RJ", nil, kick + ": kicker pairs are real pairs (never BJ + RJ)"},
		{"S3 H3 C3 S4 H5", nil, types},
		{"S3 H4 C5 D6 S7", []Reading{rd(Straight, climb.Rank7, 5)}, types},
		{"D7 C6 H5 S4 S3", []Reading{rd(Straight, climb.Rank7, 5)}, types + ": order does not matter"},
		{"S10 SJ SQ SK SA", []Reading{rd(Straight, climb.RankA, 5)}, types},
		{"SJ SQ SK SA S2", nil, types + ": straights are 3..A only, no 2"},
		{"SQ SK SA S2 BJ", nil, types + ": no 2, no jokers in a straight"},
		{"S3 S4 S5 S6", nil, types + ": a straight has at least 5 cards"},
		{"S3 S4 S5 S6 S8", nil, types + ": a straight is consecutive"},
		{"S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK SA", []Reading{rd(Straight, climb.RankA, 12)}, types + ": the longest straight is 3..A"},
		{"S3 H3 S4 H4 S5 H5", []Reading{rd(PairStraight, climb.Rank5, 3)}, types},
		{"SQ HQ SK HK SA HA", []Reading{rd(PairStraight, climb.RankA, 3)}, types},
		{"SK HK SA HA S2 H2", nil, types + ": no 2 in a pair straight"},
		{"S3 H3 S4 H4", nil, types + ": a pair straight has at least 3 pairs"},
		{"S3 H3 S4 H4 S6 H6", nil, types + ": a pair straight is consecutive"},
		{"S3 H3 C3 S4 H4 C4", []Reading{rd(Airplane, climb.Rank4, 2)}, types},
		{"SK HK CK SA HA CA", []Reading{rd(Airplane, climb.RankA, 2)}, types},
		{"SA HA CA S2 H2 C2", nil, types + ": no 2 in a trio straight"},
		{"S3 H3 C3 S5 H5 C5", nil, types + ": a trio straight is consecutive"},
		{"S3 H3 C3 S4 H4 C4 S9 SK", []Reading{rd(AirplaneSingles, climb.Rank4, 2)}, types},
		{"S3 H3 C3 S4 H4 C4 S9 H9", []Reading{rd(AirplaneSingles, climb.Rank4, 2)}, kick + ": kicker singles may pair with each other"},
		{"S3 H3 C3 S4 H4 C4 BJ RJ", nil, kick + ": kickers may never be the rocket"},
		{"S3 H3 C3 S4 H4 C4 D3 S5", nil, kick + ": a kicker never shares a rank with the body"},
		{"S3 H3 C3 S4 H4 C4 S5 H5 C5 S7 S8 S9", []Reading{rd(AirplaneSingles, climb.Rank5, 3)}, types},
		{"S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6 S7 H7 C7 D7", nil, kick + ": kickers never hold four cards of one rank"},
		{"S3 H3 C3 S4 H4 C4 S5 H5 C5 S7 H7 C7", []Reading{rd(AirplaneSingles, climb.Rank5, 3)}, kick + ": three kicker singles may share one rank (333444555 + 777)"},
		{"S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6 S7 H7 C7 S8",
			[]Reading{rd(AirplaneSingles, climb.Rank6, 4), rd(AirplaneSingles, climb.Rank7, 4)},
			kick + ": 3333…7778 reads with 777 + 8 or 333 + 8 as kickers"},
		{"S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6",
			[]Reading{rd(Airplane, climb.Rank6, 4), rd(AirplaneSingles, climb.Rank5, 3), rd(AirplaneSingles, climb.Rank6, 3)},
			types + ": 333444555666 is an airplane or airplane+singles either way"},
		{"S3 H3 C3 S4 H4 C4 S9 H9 SK HK", []Reading{rd(AirplanePairs, climb.Rank4, 2)}, types},
		{"S3 H3 C3 S4 H4 C4 S5 H5 C5 D5", nil, kick + ": kickers never hold four of a rank (333444 + 5555)"},
		{"S3 H3 C3 S4 H4 C4 S9 H9 BJ RJ", nil, kick + ": kicker pairs are real pairs"},
		{"S3 H3 C3 S4 H4 C4 S5 S6 S7 S8", nil, types},
		{"S3 H3 C3 D3 S5 S6", []Reading{rd(FourTwoSingles, climb.Rank3, 1)}, types},
		{"S4 H4 C4 D4 S5 H5", []Reading{rd(FourTwoSingles, climb.Rank4, 1)}, kick + ": 4444 + 5 5 is four + two singles"},
		{"S2 H2 C2 D2 S3 BJ", []Reading{rd(FourTwoSingles, climb.Rank2, 1)}, types},
		{"S3 H3 C3 D3 BJ RJ", nil, types + ": the two singles may not be BJ+RJ"},
		{"S3 H3 C3 D3 S5 H5 S6 H6", []Reading{rd(FourTwoPairs, climb.Rank3, 1)}, types},
		{"S4 H4 C4 D4 S5 H5 C5 D5", nil, kick + ": 44445555 is not a legal play, it is two bombs"},
		{"S3 H3 C3 D3 S5 H5 BJ RJ", nil, kick + ": kicker pairs are real pairs"},
		{"S3 H3 C3 D3 S5 H5 S6 H7", nil, types},
		{"S2 H2 C2 D2", []Reading{rd(Bomb, climb.Rank2, 1)}, types},
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.cards, " ", "_"), func(t *testing.T) {
			cs := cards.MustParse(tc.cards)
			got := Classify(cs)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("%s reads as %v, want %v (%s)", tc.cards, got, tc.want, tc.rule)
			}
			for _, r := range got {
				if r.Size() != len(cs) {
					t.Errorf("%s: reading %v says %d cards, the play has %d", tc.cards, r, r.Size(), len(cs))
				}
			}
			rev := slices.Clone(cs)
			slices.Reverse(rev)
			if again := Classify(rev); !slices.Equal(again, got) {
				t.Errorf("%s reversed reads as %v, not %v: classification must not depend on order", tc.cards, again, got)
			}
		})
	}
}

func TestBeats(t *testing.T) {
	const rule = "doudizhu.md, Beating"
	one := func(cs string) Reading {
		rs := Classify(cards.MustParse(cs))
		if len(rs) != 1 {
			t.Fatalf("%s has readings %v, want one", cs, rs)
		}
		return rs[0]
	}
	tests := []struct {
		play, lead string
		want       bool
		why        string
	}{
		{"S4", "S3", true, "a higher single beats a lower one"},
		{"H3", "S3", false, "an equal rank does not beat; suits never matter"},
		{"S2", "SA", true, "2 is above A"},
		{"BJ", "S2", true, "BJ is above 2"},
		{"RJ", "BJ", true, "RJ is above BJ"},
		{"S4 H4", "S3", false, "the type must match"},
		{"S4 H4", "S3 H3", true, "pairs by rank"},
		{"S4 H5 C6 D7 S8", "S3 H4 C5 D6 S7", true, "straights by their highest card"},
		{"S4 H5 C6 D7 S8 S9", "S3 H4 C5 D6 S7", false, "a straight must have the same number of cards"},
		{"S4 H4 C4 D3", "S3 H3 C3 SA", true, "kickers never matter"},
		{"S3 H3 C3 SA", "S4 H4 C4 D3", false, "kickers never matter"},
		{"S4 H4 C4 S5 H5 C5 S3 H3", "S3 H3 C3 S4 H4 C4 S9 SK", true, "airplanes by their trios"},
		{"S4 H4 C4 S5 H5 C5 S3 H3 S6 H6", "S3 H3 C3 S4 H4 C4 S9 SK", false, "airplane + pairs is not airplane + singles"},
		{"S3 H3 C3 D3", "S3 H4 C5 D6 S7 S8 S9 S10 SJ SQ SK SA", true, "a bomb beats every non-bomb"},
		{"S3 H3 C3 D3", "RJ", true, "a bomb beats every non-bomb"},
		{"S4 H4 C4 D4", "S3 H3 C3 D3", true, "bombs compare by rank"},
		{"S3 H3 C3 D3", "S4 H4 C4 D4", false, "bombs compare by rank"},
		{"S2 H2 C2 D2 S5 S6", "S3 H3 C3 D3", false, "four + two is not a bomb"},
		{"S5 H5 C5 D5", "S2 H2 C2 D2 S3 S4", true, "four + two is not a bomb"},
		{"BJ RJ", "S2 H2 C2 D2", true, "the rocket beats everything"},
		{"S2 H2 C2 D2", "BJ RJ", false, "nothing beats the rocket"},
		{"S2", "BJ RJ", false, "nothing beats the rocket"},
	}
	for _, tc := range tests {
		if got := one(tc.play).Beats(one(tc.lead)); got != tc.want {
			t.Errorf("%s on %s: beats = %v, want %v: %s (%s)", tc.play, tc.lead, got, tc.want, tc.why, rule)
		}
	}
}

func TestPickReading(t *testing.T) {
	const rule = "doudizhu.md, Card types: a play that fits several shapes"
	cs := Classify(cards.MustParse("S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6"))
	if got, _ := climb.Pick(cs, nil); got != rd(Airplane, climb.Rank6, 4) {
		t.Errorf("leading 333444555666 reads as %v, want the highest-ranked reading airplane of 4 up to 6 (%s)", got, rule)
	}
	lead := rd(AirplaneSingles, climb.Rank5, 3)
	if got, _ := climb.Pick(cs, &lead); got != rd(AirplaneSingles, climb.Rank6, 3) {
		t.Errorf("333444555666 on %v reads as %v, want the reading that beats it, airplane_singles up to 6 (%s)", lead, got, rule)
	}
	lead = rd(AirplaneSingles, climb.Rank6, 3)
	if got, ok := climb.Pick(cs, &lead); ok {
		t.Errorf("333444555666 on %v reads as %v, want no reading: none beats it (%s)", lead, got, rule)
	}
}

func TestReadingJSON(t *testing.T) {
	// doudizhu.md / STYLE.md: enums are persisted by name.
	b, err := json.Marshal(rd(AirplanePairs, climb.Rank10, 2))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"airplane_pairs","main":"10","length":2}`; string(b) != want {
		t.Fatalf("reading encodes as %s, want %s", b, want)
	}
	var back Reading
	if err := json.Unmarshal(b, &back); err != nil || back != rd(AirplanePairs, climb.Rank10, 2) {
		t.Fatalf("reading decodes as %v, %v", back, err)
	}
	for _, bad := range []string{`{"type":"triple"}`, `{"main":"1"}`, `{"type":1}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s decodes without error, want an unknown name rejected", bad)
		}
	}
	for ty := Single; ty <= Rocket; ty++ {
		if got, ok := ParseType(ty.String()); !ok || got != ty {
			t.Errorf("ParseType(%q) = %v, %v", ty.String(), got, ok)
		}
	}
}

func TestSortDisplay(t *testing.T) {
	cs := cards.MustParse("RJ S2 D3 SA H3 BJ S10 C3")
	climb.Sort(cs)
	if got, want := cards.Format(cs), "H3 C3 D3 S10 SA S2 BJ RJ"; got != want {
		t.Fatalf("display order %s, want %s (rank 3..A, 2, BJ, RJ, then suit ♠♥♣♦)", got, want)
	}
}
