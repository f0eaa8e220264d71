package niuniu

import (
	"fmt"
	"slices"

	"paiju/domain/cards"
)

// HandSize is the number of cards each seat is dealt (niuniu.md).
const HandSize = 5

// Value is a card's value in a bull (niuniu.md, Card values): A = 1, 2–10
// face value, J/Q/K = 10, and by the file's Decision both jokers 10.
func Value(c cards.Card) int {
	switch {
	case c.IsJoker():
		return 10
	case c.Rank == cards.Ace:
		return 1
	case c.Rank >= 10:
		return 10
	}
	return int(c.Rank)
}

// rankOrder orders ranks for the highest single card (niuniu.md, Comparing):
// A = 1 lowest, 2..10, J = 11, Q = 12, K = 13, BJ = 14, RJ = 15.
func rankOrder(c cards.Card) int {
	switch {
	case c.Rank == cards.Ace:
		return 1
	case c.IsJoker():
		return 14 + int(c.Rank-cards.BlackJoker)
	}
	return int(c.Rank)
}

// strength is a total order of the 54 cards for the highest single card: the
// rank first, then ♠ > ♥ > ♣ > ♦ (niuniu.md, Comparing).
func strength(c cards.Card) int {
	s := rankOrder(c) * 4
	if !c.IsJoker() {
		s += 3 - int(c.Suit)
	}
	return s
}

// Higher reports whether card a beats card b as the highest single card.
func Higher(a, b cards.Card) bool { return strength(a) > strength(b) }

// queenOrLower reports whether c is Q or lower in the order of single cards,
// the banker's edge threshold (niuniu.md, Comparing: "Q以下(包括Q)").
func queenOrLower(c cards.Card) bool { return rankOrder(c) <= int(cards.Queen) }

// Highest is the highest single card of a non-empty hand.
func Highest(hand []cards.Card) cards.Card {
	best := hand[0]
	for _, c := range hand[1:] {
		if Higher(c, best) {
			best = c
		}
	}
	return best
}

// Sort puts cards in display order: from A up to K, then BJ and RJ; within a
// rank ♠ ♥ ♣ ♦. It is the order of Highest, lowest first.
func Sort(cs []cards.Card) {
	slices.SortFunc(cs, func(a, b cards.Card) int { return strength(a) - strength(b) })
}

// Bull is the class of a hand: NoBull (没牛), Bull1..Bull9 (牛1..牛9) or
// BullBull (牛牛, worth 10), which a seat arranges; and the special classes
// FiveFace (五花牛), Bomb (炸弹牛) and FiveSmall (五小牛), which a table with
// the option special_hands finds at the reveal. Persisted by name:
// "no_bull", "bull_1" .. "bull_9", "bull_bull", "five_face", "bomb",
// "five_small".
type Bull uint8

// The classes, in increasing order (niuniu.md, Comparing; Table options,
// special_hands: five_small > bomb > five_face > 牛牛).
const (
	NoBull    Bull = 0
	BullBull  Bull = 10
	FiveFace  Bull = 11
	Bomb      Bull = 12
	FiveSmall Bull = 13
)

// special reports a class of the option special_hands.
func (b Bull) special() bool { return b > BullBull && b <= FiveSmall }

func (b Bull) String() string {
	switch {
	case b == NoBull:
		return "no_bull"
	case b == BullBull:
		return "bull_bull"
	case b < BullBull:
		return fmt.Sprintf("bull_%d", int(b))
	case b == FiveFace:
		return "five_face"
	case b == Bomb:
		return "bomb"
	case b == FiveSmall:
		return "five_small"
	}
	return fmt.Sprintf("Bull(%d)", int(b))
}

// MarshalText writes the class by name.
func (b Bull) MarshalText() ([]byte, error) {
	if b > FiveSmall {
		return nil, fmt.Errorf("niuniu: cannot encode class %d", int(b))
	}
	return []byte(b.String()), nil
}

// UnmarshalText reads a class by name.
func (b *Bull) UnmarshalText(t []byte) error {
	for c := NoBull; c <= FiveSmall; c++ {
		if c.String() == string(t) {
			*b = c
			return nil
		}
	}
	return fmt.Errorf("niuniu: unknown class %q", t)
}

// Multiplier is what a hand of this class multiplies the stake by when it
// wins under the seed's table (niuniu.md, Settlement): 牛牛 ×5, 牛9 ×4,
// 牛8 ×3, 牛7 ×2, else ×1. A table's options may change it (PayTable).
func (b Bull) Multiplier() int {
	switch b {
	case BullBull:
		return 5
	case 9:
		return 4
	case 8:
		return 3
	case 7:
		return 2
	}
	return 1
}

// Special is the highest special class of a five-card hand that pay
// prices (niuniu.md, Table options, special_hands), else NoBull:
// five_small (every card A–4, values summing to at most 10), bomb (four
// cards of a rank), five_face (every card J, Q or K; a joker is none).
func Special(hand []cards.Card, pay PayTable) Bull {
	for _, b := range []Bull{FiveSmall, Bomb, FiveFace} {
		if pay[b] != 0 && isSpecial(hand, b) {
			return b
		}
	}
	return NoBull
}

func isSpecial(hand []cards.Card, b Bull) bool {
	switch b {
	case FiveSmall:
		sum := 0
		for _, c := range hand {
			if c.IsJoker() || Value(c) > 4 {
				return false
			}
			sum += Value(c)
		}
		return sum <= 10
	case Bomb:
		return fourOf(hand) != 0
	case FiveFace:
		for _, c := range hand {
			if c.IsJoker() || c.Rank < cards.Jack || c.Rank > cards.King {
				return false
			}
		}
		return true
	}
	return false
}

// fourOf is the order (rankOrder: A low, K high) of the rank a hand holds
// four of, or 0.
func fourOf(hand []cards.Card) int {
	for _, c := range hand {
		if c.IsJoker() {
			continue
		}
		n := 0
		for _, d := range hand {
			if !d.IsJoker() && d.Rank == c.Rank {
				n++
			}
		}
		if n >= 4 {
			return rankOrder(c)
		}
	}
	return 0
}

// bullOf is the class of a hand arranged with a valid bull: the other two
// cards' values mod 10, 0 meaning 牛牛. As the bull's three sum to a multiple
// of 10, that is the whole hand's sum mod 10, whichever bull is named.
func bullOf(sum int) Bull {
	if sum%10 == 0 {
		return BullBull
	}
	return Bull(sum % 10)
}

// Arrange reads hand arranged with the three bull cards (niuniu.md,
// Arranging). ok is false when bull is not three distinct cards of hand
// whose values sum to a multiple of 10.
func Arrange(hand, bull []cards.Card) (b Bull, ok bool) {
	if len(bull) != 3 || bull[0] == bull[1] || bull[0] == bull[2] || bull[1] == bull[2] {
		return NoBull, false
	}
	sum := 0
	for _, c := range bull {
		if !slices.Contains(hand, c) {
			return NoBull, false
		}
		sum += Value(c)
	}
	if sum%10 != 0 {
		return NoBull, false
	}
	total := 0
	for _, c := range hand {
		total += Value(c)
	}
	return bullOf(total), true
}

// Bulls lists every bull of a hand of distinct cards: each set of three
// cards whose values sum to a multiple of 10, in display order, the sets in
// the lexicographic order of their positions in the sorted hand.
func Bulls(hand []cards.Card) [][]cards.Card {
	h := slices.Clone(hand)
	Sort(h)
	var out [][]cards.Card
	for i := 0; i < len(h); i++ {
		for j := i + 1; j < len(h); j++ {
			for k := j + 1; k < len(h); k++ {
				if (Value(h[i])+Value(h[j])+Value(h[k]))%10 == 0 {
					out = append(out, []cards.Card{h[i], h[j], h[k]})
				}
			}
		}
	}
	return out
}

// Best is the class of the best arrangement of a 5-card hand: NoBull when no
// three of its cards sum to a multiple of 10. Every bull of a hand gives the
// same class (see bullOf), so the best is any of them.
func Best(hand []cards.Card) Bull {
	var v [HandSize]int
	total := 0
	for i, c := range hand {
		v[i] = Value(c)
		total += v[i]
	}
	// Three cards sum to a multiple of 10 exactly when the other two sum to
	// the total mod 10.
	for i := range len(hand) {
		for j := i + 1; j < len(hand); j++ {
			if (v[i]+v[j])%10 == total%10 {
				return bullOf(total)
			}
		}
	}
	return NoBull
}

// Reading is a hand as compared at the reveal: its class and its highest
// single card.
type Reading struct {
	Bull Bull       `json:"reading"`
	High cards.Card `json:"high"`
	// Four is a bomb's rank order (A low, K high), which breaks a tie of
	// two bombs (niuniu.md, Table options, special_hands); never recorded,
	// as the hand shows it.
	Four int `json:"-"`
}

// Why a bout was won, as recorded in a Result.
const (
	ByClass      = "class"       // the classes differ
	ByHighCard   = "high_card"   // same class, the higher highest card
	ByBankerEdge = "banker_edge" // same class, both highest cards Q or lower
	ByEscape     = "escape"      // the other side escaped
	ByBombRank   = "bomb_rank"   // two bombs, the higher four
)

// Compare decides a player's hand against the banker's (niuniu.md,
// Comparing): the higher class wins; within a class the banker wins when
// both highest cards are Q or lower (the banker's edge, for bulls by the seed
// and for no bull by the file's Decision), else the higher highest card wins.
// Two equal special classes have no banker's edge (niuniu.md, Table
// options, special_hands, Decisions): bombs compare the four's rank, the
// others the highest card. With one deck two hands never share a card, so
// there is always a winner.
func Compare(banker, player Reading) (bankerWins bool, by string) {
	switch {
	case banker.Bull != player.Bull:
		return banker.Bull > player.Bull, ByClass
	case banker.Bull == Bomb:
		return banker.Four > player.Four, ByBombRank
	case banker.Bull.special():
		return Higher(banker.High, player.High), ByHighCard
	case queenOrLower(banker.High) && queenOrLower(player.High):
		return true, ByBankerEdge
	}
	return Higher(banker.High, player.High), ByHighCard
}
