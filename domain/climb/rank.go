package climb

import (
	"fmt"
	"slices"

	"paiju/domain/cards"
)

// Rank is a card's climbing rank: 3 lowest, then 4 … K, A, 2, BJ, and RJ
// highest. Suits never matter to it. It is persisted by name ("3" … "10",
// "J", "Q", "K", "A", "2", "BJ", "RJ").
type Rank uint8

// The ranks from low to high.
const (
	Rank3 Rank = iota
	Rank4
	Rank5
	Rank6
	Rank7
	Rank8
	Rank9
	Rank10
	RankJ
	RankQ
	RankK
	RankA
	Rank2
	RankBJ
	RankRJ
)

const (
	// NumRanks counts the ranks, jokers included.
	NumRanks = int(RankRJ) + 1
	// NumNatural counts the ranks of the four suits (3 … 2).
	NumNatural = int(Rank2) + 1
	// TopRun is the highest rank a sequence may reach: A. The 2 and the
	// jokers never sit in a sequence in any climbing game we run.
	TopRun = RankA
)

var rankNames = [NumRanks]string{"3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ"}

// RankOf is c's climbing rank. c must be a valid card.
func RankOf(c cards.Card) Rank {
	switch c.Rank {
	case cards.BlackJoker:
		return RankBJ
	case cards.RedJoker:
		return RankRJ
	case 2:
		return Rank2
	}
	return Rank(c.Rank - 3)
}

// IsJoker reports whether r is BJ or RJ.
func (r Rank) IsJoker() bool { return r == RankBJ || r == RankRJ }

func (r Rank) String() string {
	if int(r) < NumRanks {
		return rankNames[r]
	}
	return fmt.Sprintf("Rank(%d)", int(r))
}

// ParseRank returns the rank with the given name.
func ParseRank(name string) (Rank, bool) {
	i := slices.Index(rankNames[:], name)
	return Rank(i), i >= 0
}

// MarshalText writes the rank's name.
func (r Rank) MarshalText() ([]byte, error) {
	if int(r) >= NumRanks {
		return nil, fmt.Errorf("climb: cannot encode rank %d", int(r))
	}
	return []byte(rankNames[r]), nil
}

// rankJSON are the ranks' names as JSON strings, so that MarshalJSON
// allocates nothing: a 斗地主 view or event names ranks in every pattern.
var rankJSON = func() (q [NumRanks][]byte) {
	for i, n := range rankNames {
		q[i] = []byte(`"` + n + `"`)
	}
	return q
}()

// MarshalJSON writes the rank's name as a JSON string, the bytes
// encoding/json writes from MarshalText. The slice is shared: callers must
// not modify it (encoding/json copies it).
func (r Rank) MarshalJSON() ([]byte, error) {
	if int(r) >= NumRanks {
		return nil, fmt.Errorf("climb: cannot encode rank %d", int(r))
	}
	b := rankJSON[r]
	return b[:len(b):len(b)], nil // an append copies rather than writing into the table
}

// UnmarshalText reads a rank's name.
func (r *Rank) UnmarshalText(b []byte) error {
	v, ok := ParseRank(string(b))
	if !ok {
		return fmt.Errorf("climb: unknown rank %q", b)
	}
	*r = v
	return nil
}

// Sort puts cs in display order: by rank from low to high, then by suit
// (♠ ♥ ♣ ♦). The climbing games record dealt hands and played cards in this
// order, so that equal multisets always read the same.
func Sort(cs []cards.Card) {
	slices.SortFunc(cs, CompareDisplay)
}

// CompareDisplay orders two cards as Sort does.
func CompareDisplay(a, b cards.Card) int {
	if ra, rb := RankOf(a), RankOf(b); ra != rb {
		return int(ra) - int(rb)
	}
	return int(a.Suit) - int(b.Suit)
}

// Counts holds how many cards of each rank a multiset has.
type Counts [NumRanks]uint8

// CountsOf counts cs by rank.
func CountsOf(cs []cards.Card) Counts {
	var c Counts
	for _, x := range cs {
		c[RankOf(x)]++
	}
	return c
}

// Total is the number of cards counted.
func (c *Counts) Total() int {
	n := 0
	for _, k := range c {
		n += int(k)
	}
	return n
}

// Key packs c into one integer (4 bits a rank), for de-duplicating plays.
// No rank holds more than 8 cards in two decks, so 4 bits suffice.
func (c *Counts) Key() uint64 {
	var k uint64
	for i, n := range c {
		k |= uint64(n&0xF) << (4 * i)
	}
	return k
}

// Run reports whether c holds exactly k cards of every rank from lo to hi
// and nothing else, with hi no higher than TopRun: the shape of a straight
// (k = 1), a pair run (k = 2) or a trio run (k = 3).
func (c *Counts) Run(lo, hi Rank, k uint8) bool {
	if lo > hi || hi > TopRun {
		return false
	}
	for r := range NumRanks {
		want := uint8(0)
		if Rank(r) >= lo && Rank(r) <= hi {
			want = k
		}
		if c[r] != want {
			return false
		}
	}
	return true
}
