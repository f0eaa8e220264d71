package dadun

import (
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// TestClassify reads plays as the combinations of dadun.md, Combinations.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		cards string
		last  bool
		want  []string // Reading.String of every reading
		rule  string
	}{
		{"H7", false, []string{"single:7"}, "single: one card"},
		{"RJ", false, []string{"single:RJ"}, "single: one card"},
		{"S4 H4", false, []string{"pair:4"}, "pair: two of a rank"},
		{"BJ BJ", false, []string{"pair:BJ"}, "pair: BJ BJ is a pair"},
		{"RJ RJ", false, []string{"pair:RJ"}, "pair: RJ RJ is a pair"},
		{"BJ RJ", false, nil, "pair: BJ + RJ is not a pair"},
		{"S3 H3 S4 H4", false, []string{"pair_run:4×2"}, "pair run: 2+ consecutive pairs (3344)"},
		{"S9 H9 S8 H8 S7 H7", false, []string{"pair_run:9×3"}, "pair run: 998877"},
		{"SA HA S2 H2", false, nil, "2 never sits in a sequence"},
		{"SK HK SA HA", false, []string{"pair_run:A×2"}, "A is the top of a sequence"},
		{"S3 H3 S5 H5", false, nil, "pair run: consecutive pairs only"},
		{"S3 H3 C3 S9 HA", false, []string{"trio:3+2"}, "trio + two: a trio with any two cards"},
		{"S3 H3 C3 BJ RJ", false, []string{"trio:3+2"}, "trio + two: any two cards, jokers too"},
		{"S3 H3 C3", false, nil, "a bare trio only as a player's last 3 cards"},
		{"S3 H3 C3", true, []string{"trio:3+0"}, "a bare trio as the last 3 cards"},
		{"S3 H3 C3 S9", false, nil, "trio + one only as the last 4 cards"},
		{"S3 H3 C3 S9", true, []string{"trio:3+1"}, "trio + one as the last 4 cards"},
		{"S3 H3 C3 S4 H4 C4 S9 H9 SJ HQ", false, []string{"trio_run:4:2+4"}, "trio run: 333444 + 4 cards"},
		{"S3 H3 C3 S4 H4 C4 S9 H9", false, nil, "trio run: fewer kickers only as the last cards"},
		{"S3 H3 C3 S4 H4 C4 S9 H9", true, []string{"trio_run:4:2+2"}, "trio run: fewer kickers as the last cards"},
		{"S3 H3 C3 S4 H4 C4", true, []string{"trio_run:4:2+0"}, "trio run: no kickers as the last cards"},
		{"S3 H3 C3 S4 H4 C4 S5 H5 C5 S9", false, []string{"trio_run:5:2+4", "trio_run:4:2+4"}, "trio run: 444555 + 3339 or 333444 + 5559"},
		{"S3 H3 C3 S4 H4 C4 S5 H5 C5 S9", true, []string{"trio_run:5:2+4", "trio_run:4:2+4", "trio_run:5:3+1"}, "as the last cards also 333444555 + 9"},
		{"SK HK CK SA HA CA S2 H2 C2 D3", false, []string{"trio_run:A:2+4"}, "no 2 in a trio run: KKKAAA + 222 3"},
		{"S5 S6 S7 S8 S9", false, []string{"straight:9×5"}, "straight: 5 consecutive singles"},
		{"S10 SJ SQ SK SA", false, []string{"straight:A×5"}, "straight: A tops a sequence"},
		{"SJ SQ SK SA S2", false, nil, "straight: no 2"},
		{"S5 S6 S7 S8", false, nil, "straight: 5 or more"},
		{"S5 S10 SK", false, []string{"pure_510k"}, "510K: same suit, pure (正)"},
		{"S5 H10 SK", false, []string{"plain_510k"}, "510K: mixed suits, plain (副)"},
		{"S5 H5 S10 H10 SK HK", false, nil, "510K: never exactly two sets together"},
		{"S5 H5 C5 S10 H10 D10 SK HK CK", false, []string{"multi_510k×3"}, "510K: three sets together"},
		{"S5 H5 C5 D5 S10 H10 D10 C10 SK HK CK DK", false, []string{"multi_510k×4"}, "510K: four sets together"},
		{"S7 H7 C7 D7", false, []string{"bomb:7×4"}, "bomb: 4 of a rank"},
		{"S7 H7 C7 D7", true, []string{"bomb:7×4", "trio:7+1"}, "4 of a rank as the last 4 cards is also a trio + one"},
		{"S7 H7 C7 D7 S7 H7 C7 D7", false, []string{"bomb:7×8"}, "bomb: up to 8 cards"},
		{"S2 H2 C2 D2 S2", false, []string{"bomb:2×5", "trio:2+2"}, "5 of a rank: a bomb, or a trio with two of its own rank"},
		{"BJ BJ RJ", false, []string{"joker_bomb×3"}, "joker bomb: 3 jokers"},
		{"BJ BJ RJ RJ", false, []string{"joker_bomb×4"}, "joker bomb: 4 jokers"},
		{"S3 S4", false, nil, "no combination"},
	} {
		got := readingsOf(c.cards, c.last)
		var names []string
		for _, r := range got {
			names = append(names, r.String())
		}
		if len(names) != len(c.want) || !sameSet(names, c.want) {
			t.Errorf("%s (last %v) reads as %q, want %q (dadun.md, Combinations: %s)", c.cards, c.last, names, c.want, c.rule)
		}
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}

func read1(t *testing.T, cs string, last bool) Reading {
	t.Helper()
	rs := readingsOf(cs, last)
	if len(rs) == 0 && !last {
		rs = readingsOf(cs, true) // a trio short of kickers, as the last cards
	}
	if len(rs) == 0 {
		t.Fatalf("%s is no combination", cs)
	}
	best, _ := climb.Pick(rs, nil)
	return best
}

// TestBeats: the order between combinations (dadun.md, Combinations
// Decision).
func TestBeats(t *testing.T) {
	for _, c := range []struct {
		play, lead string
		want       bool
		rule       string
	}{
		{"S8", "S7", true, "a higher single"},
		{"S7", "H7", false, "an equal single does not beat"},
		{"S2", "SA", true, "2 above A"},
		{"BJ", "S2", true, "BJ above 2"},
		{"RJ", "BJ", true, "RJ above BJ"},
		{"S8 H8", "S7", false, "a pair on a single: same type only"},
		{"S5 H5 S6 H6", "S3 H3 S4 H4", true, "pair runs of one length by top rank"},
		{"S5 H5 S6 H6 S7 H7", "S3 H3 S4 H4", false, "pair runs of different lengths"},
		{"S9 H9 C9 S3 H4", "S8 H8 C8 SA H2", true, "trio + two by the trio's rank"},
		{"S9 H9 C9", "S8 H8 C8 SA H2", true, "Rulings: a bare trio as last cards follows a trio + two and beats it by rank"},
		{"S9 H9 C9 S3", "S8 H8 C8 SA H2", true, "Rulings: a trio + one as last cards follows a trio + two"},
		{"S7 H7 C7", "S8 H8 C8 SA H2", false, "Rulings: a bare trio beats a trio + two only by a higher rank"},
		{"S9 H9 C9 S3 H4", "S8 H8 C8", false, "a trio + two does not follow a bare trio (only the short follows the full)"},
		{"S9 H9 C9 S3", "S8 H8 C8 SA", true, "trio + one on trio + one"},
		{"S9 H9 C9", "S8 H8 C8 SA", false, "a bare trio does not follow a trio + one (only a full one)"},
		{"S9 H9 C9 S10 H10 C10 S3", "S7 H7 C7 S8 H8 C8 SA HA C2 D2", true, "Rulings: a short trio run as last cards follows a full one of as many trios"},
		{"S9 H9 C9 S10 H10 C10", "S7 H7 C7 S8 H8 C8 SA HA C2 D2", true, "Rulings: a bare trio run as last cards follows a full one"},
		{"S9 H9 C9 S10 H10 C10 SJ HJ CJ", "S7 H7 C7 S8 H8 C8 SA HA C2 D2", false, "a trio run of another length never follows"},
		{"S6 S7 S8 S9 S10", "S5 S6 S7 S8 S9", true, "straights of one length by top rank"},
		{"S6 S7 S8 S9 S10 SJ", "S5 S6 S7 S8 S9", false, "straights of different lengths"},
		{"S5 H10 SK", "S2", true, "a plain 510K beats any ordinary combination"},
		{"S5 H10 SK", "S3 H3 S4 H4 S5 H5 S6 H6 S7 H7", true, "a 510K beats a long pair run"},
		{"S5 S10 SK", "H5 D10 HK", true, "pure 510K above plain"},
		{"H5 D10 HK", "S5 S10 SK", false, "plain 510K below pure"},
		{"H5 H10 HK", "S5 S10 SK", false, "two pure 510Ks tie; a tie does not beat"},
		{"H5 D10 CK", "S5 H10 SK", false, "two plain 510Ks tie"},
		{"S3 H3 C3 D3", "S5 S10 SK", true, "4-card bomb above pure 510K"},
		{"S4 H4 C4 D4", "S3 H3 C3 D3", true, "bombs of equal size by rank"},
		{"S3 H3 C3 D3 S3", "S2 H2 C2 D2", true, "5-card bomb above 4-card bomb"},
		{"S5 H5 C5 S10 H10 C10 SK HK CK", "S2 H2 C2 D2", true, "three 510K sets above every 4-card bomb"},
		{"S5 H5 C5 S10 H10 C10 SK HK CK", "S3 H3 C3 D3 S3", false, "three 510K sets below a 5-card bomb"},
		{"S3 H3 C3 D3 S3", "S5 H5 C5 S10 H10 C10 SK HK CK", true, "a 5-card bomb above three 510K sets"},
		{"S5 H5 C5 S10 H10 C10 SK HK CK", "D5 S5 H5 C10 D10 S10 DK SK HK", false, "equal multi-510Ks tie (Decision)"},
		{"S5 H5 C5 D5 S10 H10 C10 D10 SK HK CK DK", "S2 H2 C2 D2 S2", true, "four 510K sets above every 5-card bomb"},
		{"BJ BJ RJ", "S2 H2 C2 D2 S2 H2 C2 D2", true, "3-joker bomb above 8-card bomb"},
		{"BJ BJ RJ RJ", "BJ RJ RJ", true, "4-joker bomb above 3-joker bomb"},
		{"BJ BJ RJ", "BJ RJ RJ", false, "3-joker bombs tie"},
		{"S2", "S5 H10 SK", false, "an ordinary combination never beats a special one"},
	} {
		p, l := read1(t, c.play, false), read1(t, c.lead, false)
		if got := p.Beats(l); got != c.want {
			t.Errorf("%s (%v) beats %s (%v) = %v, want %v (dadun.md, Combinations Decision: %s)", c.play, p, c.lead, l, got, c.want, c.rule)
		}
	}
}

// TestAwards: the 盾 awards each played combination earns (dadun.md, 盾
// awards).
func TestAwards(t *testing.T) {
	for _, c := range []struct {
		cards string
		want  int
		rule  string
	}{
		{"RJ RJ", 1, "RJ RJ: 1"},
		{"BJ BJ", 1, "BJ BJ: 1"},
		{"BJ BJ RJ", 3, "3 jokers: 3"},
		{"BJ RJ RJ", 3, "3 jokers: 3"},
		{"BJ BJ RJ RJ", 6, "4 jokers: 6"},
		{"S7 H7 C7 D7", 0, "a 4-card bomb of mixed colours: none"},
		{"H7 D7 H7 D7", 1, "a 4-card bomb all red (四红): 1"},
		{"S7 C7 S7 C7", 1, "a 4-card bomb all black (四黑): 1"},
		{"S7 H7 C7 D7 S7", 1, "5 of a rank: 1"},
		{"H7 D7 H7 D7 S7", 2, "5 of a rank with four red: 1 + 1"},
		{"S7 H7 C7 D7 S7 H7", 2, "6 of a rank: 2"},
		{"S7 C7 S7 C7 H7 D7", 3, "6 of a rank with four black (双刀): 2 + 1"},
		{"S7 H7 C7 D7 S7 H7 C7", 5, "revised Decision, awards stack: 7 of a rank 4 + 四红 1"},
		{"S7 C7 S7 C7 H7 D7 D7", 5, "revised Decision, awards stack: 7 of a rank 4 + 四黑 1"},
		{"S7 H7 C7 D7 S7 H7 C7 D7", 8, "revised Decision, awards stack: 8 of a rank 6 + 四红 1 + 四黑 1"},
		{"S7 H7 C7 S7 C7", 2, "revised Decision, awards stack: 5 of a rank with 四黑: 1 + 1"},
		{"S5 H5 C5 S10 H10 C10 SK HK CK", 3, "3 sets of 510K: 3"},
		{"S5 H5 C5 D5 S5 S10 H10 C10 D10 S10 SK HK CK DK SK", 5, "5 sets of 510K: 5"},
		{"S5 S10 SK", 0, "a single 510K earns nothing"},
		{"S3 H3 C3 RJ RJ", 0, "RJ RJ as kickers earn nothing (Decision)"},
		{"S9", 0, "a single earns nothing"},
	} {
		cs := cards.MustParse(c.cards)
		rd := read1(t, c.cards, false)
		if got := Awards(cs, rd); got != c.want {
			t.Errorf("%s (%v) earns %d awards, want %d (dadun.md, 盾 awards: %s)", c.cards, rd, got, c.want, c.rule)
		}
	}
}

// TestAsNames: "as" names a reading by type, main rank and, for trio runs,
// length; malformed names are refused.
func TestAsNames(t *testing.T) {
	rd := Reading{Type: TrioRun, Main: 2, Length: 2, Kickers: 4}
	for as, want := range map[string]bool{"trio_run": true, "trio_run:5": true, "trio_run:5:2": true, "trio_run:5:3": false, "trio_run:4": false, "trio": false} {
		if got := rd.matches(as); got != want {
			t.Errorf("%v matches %q = %v, want %v", rd, as, got, want)
		}
	}
	for as, want := range map[string]bool{"bomb": true, "bomb:7": true, "trio_run:5:2": true, "flush": false, "bomb:1": false, "trio_run:5:x": false, "trio_run:5:02": false, "a:b:c:d": false} {
		if got := validAs(as); got != want {
			t.Errorf("validAs(%q) = %v, want %v", as, got, want)
		}
	}
}
