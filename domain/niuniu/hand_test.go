package niuniu

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"paiju/domain/cards"
)

// TestValues: A = 1, 2–10 face value, J/Q/K = 10, jokers 10.
func TestValues(t *testing.T) {
	want := map[string]int{"SA": 1, "H2": 2, "C5": 5, "D9": 9, "S10": 10, "HJ": 10, "CQ": 10, "DK": 10, "BJ": 10, "RJ": 10}
	for c, v := range want {
		if got := Value(cards.MustParse(c)[0]); got != v {
			t.Errorf("value of %s is %d, want %d (niuniu.md, Card values; jokers by its Decision)", c, got, v)
		}
	}
}

// bruteBull is the class of a 5-card hand by the rule's words, checked
// independently of Best: try every three cards; when they sum to a multiple
// of 10 the other two's sum mod 10 is the bull (0 is 牛牛 = 10); keep the best.
// It also reports whether every bull gave the same class.
func bruteBull(hand []cards.Card) (best Bull, bulls int, same bool) {
	same = true
	var first Bull
	for i := 0; i < 5; i++ {
		for j := i + 1; j < 5; j++ {
			for k := j + 1; k < 5; k++ {
				if (Value(hand[i])+Value(hand[j])+Value(hand[k]))%10 != 0 {
					continue
				}
				rest := 0
				for x := range 5 {
					if x != i && x != j && x != k {
						rest += Value(hand[x])
					}
				}
				b := Bull(rest % 10)
				if b == 0 {
					b = BullBull
				}
				if bulls == 0 {
					first = b
				} else if b != first {
					same = false
				}
				bulls++
				best = max(best, b)
			}
		}
	}
	return best, bulls, same
}

// rankMultisets calls f with one hand (suits S, H, C, D in turn) for every
// multiset of 5 ranks one deck can deal: 13 ranks of up to 4 cards, BJ and
// RJ of one each. The class of a hand depends on its ranks only.
func rankMultisets(f func(hand []cards.Card)) int {
	kinds := []cards.Card{}
	for r := cards.Rank(2); r <= cards.Ace; r++ {
		kinds = append(kinds, cards.Card{Suit: cards.Spades, Rank: r})
	}
	kinds = append(kinds, cards.BJ, cards.RJ)
	n := 0
	hand := make([]cards.Card, 0, 5)
	var rec func(from int)
	rec = func(from int) {
		if len(hand) == 5 {
			n++
			f(slices.Clone(hand))
			return
		}
		for k := from; k < len(kinds); k++ {
			limit := 4
			if kinds[k].IsJoker() {
				limit = 1
			}
			base := len(hand)
			for m := 1; m <= limit && base+m <= 5; m++ {
				c := kinds[k]
				if !c.IsJoker() {
					c.Suit = cards.Suit(m - 1)
				}
				hand = append(hand, c)
				rec(k + 1)
			}
			hand = hand[:base]
		}
	}
	rec(0)
	return n
}

// TestBestExhaustive checks Best, Bulls and Arrange against the brute force
// for every multiset of ranks (niuniu.md, Arranging), and that every bull of a
// hand makes the same class, which the rules engine relies on (doc.go).
func TestBestExhaustive(t *testing.T) {
	n := rankMultisets(func(hand []cards.Card) {
		want, nBulls, same := bruteBull(hand)
		if !same {
			t.Fatalf("%s: two bulls make different classes", cards.Format(hand))
		}
		if got := Best(hand); got != want {
			t.Fatalf("%s: Best %v, want %v (niuniu.md, Arranging)", cards.Format(hand), got, want)
		}
		bulls := Bulls(hand)
		if len(bulls) != nBulls {
			t.Fatalf("%s: Bulls lists %d, want %d", cards.Format(hand), len(bulls), nBulls)
		}
		for _, b := range bulls {
			got, ok := Arrange(hand, b)
			if !ok || got != want {
				t.Fatalf("%s arranged with %s: %v %v, want %v (niuniu.md, Arranging)", cards.Format(hand), cards.Format(b), got, ok, want)
			}
		}
	})
	// The coefficient of x⁵ in (1+x+x²+x³+x⁴)¹³(1+x)².
	if n != 10270 {
		t.Fatalf("%d rank multisets, want 10270", n)
	}
}

// TestHigherOrder: the highest single card ranks RJ > BJ > K > Q > J > 10 >
// … > A, then ♠ > ♥ > ♣ > ♦ (niuniu.md, Comparing), checked on all pairs.
func TestHigherOrder(t *testing.T) {
	var order []string // lowest first, spelled out from the rule
	for _, r := range strings.Fields("A 2 3 4 5 6 7 8 9 10 J Q K") {
		for _, s := range "DCHS" {
			order = append(order, string(s)+r)
		}
	}
	order = append(order, "BJ", "RJ")
	for i, a := range order {
		for j, b := range order {
			ca, cb := cards.MustParse(a)[0], cards.MustParse(b)[0]
			if Higher(ca, cb) != (i > j) {
				t.Fatalf("Higher(%s, %s) = %v, want %v (niuniu.md, Comparing)", a, b, Higher(ca, cb), i > j)
			}
		}
	}
	deck := cards.Deck(1)
	Sort(deck)
	for i, c := range deck {
		if c.String() != order[i] {
			t.Fatalf("display order has %s at %d, want %s (doc.go, Dealing)", c, i, order[i])
		}
	}
	// Highest on a sample of hands.
	rng := rand.New(rand.NewPCG(3, 4))
	d := cards.Deck(1)
	for range 5000 {
		rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
		h := d[:5]
		best := 0
		for _, c := range h {
			best = max(best, slices.Index(order, c.String()))
		}
		if got := Highest(h); got.String() != order[best] {
			t.Fatalf("Highest(%s) = %s, want %s", cards.Format(h), got, order[best])
		}
	}
}

func TestBullNames(t *testing.T) {
	for b := NoBull; b <= BullBull; b++ {
		text, err := b.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Bull
		if err := back.UnmarshalText(text); err != nil || back != b {
			t.Fatalf("%v round-trips as %v, %v", b, back, err)
		}
	}
	if s := Bull(6).String(); s != "bull_6" {
		t.Fatalf("bull 6 is named %q, want bull_6", s)
	}
	var b Bull
	if err := b.UnmarshalText([]byte("bull_11")); err == nil {
		t.Fatal("bull_11 decodes")
	}
}

// TestMultipliers: 牛牛 ×5, 牛9 ×4, 牛8 ×3, 牛7 ×2, else ×1 (niuniu.md, Settlement).
func TestMultipliers(t *testing.T) {
	want := []int{1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5}
	for b := NoBull; b <= BullBull; b++ {
		if got := b.Multiplier(); got != want[b] {
			t.Errorf("%v multiplies by %d, want %d (niuniu.md, Settlement)", b, got, want[b])
		}
	}
}

func readingOf(hand string) Reading {
	cs := cards.MustParse(hand)
	return Reading{Bull: Best(cs), High: Highest(cs)}
}

// TestSeedExamples reads the seed's example hands (seed 004, 牌型).
func TestSeedExamples(t *testing.T) {
	for hand, want := range map[string]Bull{
		"S10 H3 C2 DQ S6": NoBull,   // 1032Q6: no three sum to a multiple of 10
		"S10 H3 C7 DQ S5": 5,        // 1037Q5: 牛5
		"S10 H3 C7 DQ SK": BullBull, // 1037QK: 牛牛
	} {
		if got := Best(cards.MustParse(hand)); got != want {
			t.Errorf("%s reads as %v, want %v (seed 004, 牌型; niuniu.md, Arranging)", hand, got, want)
		}
	}
}

// TestCompare is the golden table of bouts: every multiplier, both banker's
// edges, the highest card and the suit order.
func TestCompare(t *testing.T) {
	const rule = "niuniu.md, Comparing and Settlement"
	tests := []struct {
		name           string
		banker, player string
		classes        string // the banker's and the player's, as a check of the case
		bankerWins     bool
		by             string
		mult           int // the winner's multiplier
	}{
		{"player 牛牛 ×5", "S3 H7 C10 D2 SA", "S10 HJ CQ DK HQ", "bull_3 bull_bull", false, ByClass, 5},
		{"player 牛9 ×4", "S3 H7 C10 D2 SA", "H3 C7 SK D4 S5", "bull_3 bull_9", false, ByClass, 4},
		{"player 牛8 ×3", "S3 H7 C10 D2 SA", "H3 C7 SK D4 H4", "bull_3 bull_8", false, ByClass, 3},
		{"player 牛7 ×2", "S3 H7 C10 D2 SA", "H3 C7 SK D4 C3", "bull_3 bull_7", false, ByClass, 2},
		{"player 牛6 ×1", "S3 H7 C10 D2 SA", "H3 C7 SK D4 H2", "bull_3 bull_6", false, ByClass, 1},
		{"banker 牛牛 ×5", "S10 HJ CQ DK SK", "H3 C7 DQ D4 H2", "bull_bull bull_6", true, ByClass, 5},
		{"banker 牛9 ×4 over no bull", "H3 C7 SK D4 S5", "D10 S3 C2 HQ H6", "bull_9 no_bull", true, ByClass, 4},
		{"any bull beats a joker-high no bull", "S3 C2 H6 RJ D9", "H3 C7 SK D4 H2", "no_bull bull_6", false, ByClass, 1},
		{"same bull, both highest Q or lower: banker's edge", "S3 H7 C10 D2 S4", "H3 C7 DQ H2 H4", "bull_6 bull_6", true, ByBankerEdge, 1},
		{"same bull, the player holds a K: highest card", "S3 H7 C10 D2 S4", "H3 C7 DK H2 H4", "bull_6 bull_6", false, ByHighCard, 1},
		{"same bull, the banker holds the K", "S3 H7 CK D2 S4", "H3 C7 DQ H2 H4", "bull_6 bull_6", true, ByHighCard, 1},
		{"same bull 牛7, the player's K wins ×2", "S3 H7 CQ D2 S5", "H3 C7 DK H2 H5", "bull_7 bull_7", false, ByHighCard, 2},
		{"same bull, equal K ranks: ♠ > ♥", "H3 H7 HK H2 H4", "S3 C7 SK C2 C4", "bull_6 bull_6", false, ByHighCard, 1},
		{"same bull, ♣K > ♦K", "C3 C7 CK C2 C4", "D3 D7 DK D2 D4", "bull_6 bull_6", true, ByHighCard, 1},
		{"牛牛 against 牛牛, Q-high: banker's edge ×5", "S10 HJ CQ D10 SJ", "H10 DJ SQ C10 CJ", "bull_bull bull_bull", true, ByBankerEdge, 5},
		{"牛牛 against 牛牛, RJ beats BJ", "S10 HJ CQ D10 BJ", "H10 DJ SQ C10 RJ", "bull_bull bull_bull", false, ByHighCard, 5},
		{"no bull each, both Q or lower: banker's edge (Decision)", "S10 H3 C2 DQ S6", "D10 S3 H2 HQ D6", "no_bull no_bull", true, ByBankerEdge, 1},
		{"no bull each, the player's K wins", "S10 H3 C2 DQ S6", "D10 S3 H2 HK D6", "no_bull no_bull", false, ByHighCard, 1},
		{"no bull each, the banker's joker wins", "S3 C2 H6 RJ D9", "D10 H3 S2 HK D6", "no_bull no_bull", true, ByHighCard, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if both := cards.Of(cards.MustParse(tc.banker + " " + tc.player)); both.Len() != 10 || slices.Contains(both[:], 2) {
				t.Fatalf("test case: the hands share a card")
			}
			b, p := readingOf(tc.banker), readingOf(tc.player)
			if got := b.Bull.String() + " " + p.Bull.String(); got != tc.classes {
				t.Fatalf("test case: the hands read as %s, the case says %s", got, tc.classes)
			}
			wins, by := Compare(b, p)
			mult := p.Bull.Multiplier()
			if wins {
				mult = b.Bull.Multiplier()
			}
			if wins != tc.bankerWins || by != tc.by || mult != tc.mult {
				t.Fatalf("banker %s (%v, %s) against player %s (%v, %s): banker wins %v by %s ×%d, want %v by %s ×%d (%s)",
					tc.banker, b.Bull, b.High, tc.player, p.Bull, p.High, wins, by, mult, tc.bankerWins, tc.by, tc.mult, rule)
			}
		})
	}
}
