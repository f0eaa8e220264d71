package doudizhu

import (
	"fmt"
	"slices"

	"paiju/domain/cards"
)

// Rank is a card's 斗地主 rank, the order singles compare in (doudizhu.md,
// Card types): 3 lowest, then 4 … K, A, 2, BJ, and RJ highest. Suits never
// matter. It is persisted by name ("3" … "10", "J", "Q", "K", "A", "2", "BJ",
// "RJ").
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

	numRanks = int(RankRJ) + 1
)

var rankNames = [numRanks]string{"3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ"}

// RankOf is c's 斗地主 rank. c must be a valid card.
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

func (r Rank) String() string {
	if int(r) < numRanks {
		return rankNames[r]
	}
	return fmt.Sprintf("Rank(%d)", int(r))
}

// MarshalText writes the rank's name.
func (r Rank) MarshalText() ([]byte, error) {
	if int(r) >= numRanks {
		return nil, fmt.Errorf("doudizhu: cannot encode rank %d", int(r))
	}
	return []byte(rankNames[r]), nil
}

// UnmarshalText reads a rank's name.
func (r *Rank) UnmarshalText(b []byte) error {
	i := slices.Index(rankNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("doudizhu: unknown rank %q", b)
	}
	*r = Rank(i)
	return nil
}

// Sort puts cs in display order: by 斗地主 rank from low to high, then by suit
// (♠ ♥ ♣ ♦). Dealt hands, the kitty and played cards are recorded in this order.
func Sort(cs []cards.Card) {
	slices.SortFunc(cs, compareDisplay)
}

func compareDisplay(a, b cards.Card) int {
	if ra, rb := RankOf(a), RankOf(b); ra != rb {
		return int(ra) - int(rb)
	}
	return int(a.Suit) - int(b.Suit)
}

// counts holds how many cards of each rank a multiset has.
type counts [numRanks]uint8

func countsOf(cs []cards.Card) counts {
	var c counts
	for _, x := range cs {
		c[RankOf(x)]++
	}
	return c
}

// key packs c into one integer (4 bits a rank), for de-duplicating plays.
// Counts above 15 never occur in a hand of at most two decks.
func (c *counts) key() uint64 {
	var k uint64
	for i, n := range c {
		k |= uint64(n&0xF) << (4 * i)
	}
	return k
}
