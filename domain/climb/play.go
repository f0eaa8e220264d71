package climb

import (
	"fmt"
	"strings"
)

// RankOfIndex is RankOf(cards.FromIndex(i)) for 0 ≤ i < cards.DeckSize,
// without building the card: the games' Legal arranges a hand by rank from
// its multiset, index by index, on every call. It follows the layout of
// cards.Index (13 ranks 2 … A a suit, then BJ and RJ); TestRankOfIndex
// holds the two together.
func RankOfIndex(i int) Rank {
	switch {
	case i >= 52:
		return RankBJ + Rank(i-52)
	case i%13 == 0:
		return Rank2
	}
	return Rank(i%13 - 1)
}

// Jokers is the number of jokers counted (BJ and RJ).
func (c *Counts) Jokers() int { return int(c[RankBJ]) + int(c[RankRJ]) }

// Reading is what Pick needs of a game's reading of a play: whether it may
// be played on a lead, and which of two readings of the same cards a client
// that names none means.
type Reading[R any] interface {
	Beats(lead R) bool
	Outranks(o R) bool
}

// Pick chooses the reading of a play from the readings of its cards: among
// those that beat lead (any, when lead is nil: the player leads), the one
// that outranks the others. It reports false when none beats lead. Every
// climbing game reads an ambiguous play this way; what beats and what
// outranks is each game's own.
func Pick[R Reading[R]](readings []R, lead *R) (R, bool) {
	var best R
	found := false
	for _, r := range readings {
		if lead != nil && !r.Beats(*lead) {
			continue
		}
		if !found || r.Outranks(best) {
			best, found = r, true
		}
	}
	return best, found
}

// Describe lists readings for an error message: "a or b or c".
func Describe[R fmt.Stringer](rs []R) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString(r.String())
	}
	return b.String()
}
