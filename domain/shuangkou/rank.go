package shuangkou

import (
	"fmt"
	"slices"

	"paiju/domain/cards"
)

// Rank is a card's 双扣 rank (shuangkou.md, Combinations): 3 lowest, then
// 4 … K, A, 2, BJ, and RJ highest. Suits never matter in 双扣. It is
// persisted by name ("3" … "10", "J", "Q", "K", "A", "2", "BJ", "RJ").
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
	// numNatural counts the ranks a wild joker may stand for (3 … 2).
	numNatural = int(Rank2) + 1
	// topRun is the highest rank a sequence may reach (A: no 2 or jokers in runs).
	topRun = RankA
)

var rankNames = [numRanks]string{"3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ"}

// RankOf is c's 双扣 rank. c must be a valid card.
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

// ParseRank returns the rank with the given name.
func ParseRank(name string) (Rank, bool) {
	i := slices.Index(rankNames[:], name)
	return Rank(i), i >= 0
}

// MarshalText writes the rank's name.
func (r Rank) MarshalText() ([]byte, error) {
	if int(r) >= numRanks {
		return nil, fmt.Errorf("shuangkou: cannot encode rank %d", int(r))
	}
	return []byte(rankNames[r]), nil
}

// UnmarshalText reads a rank's name.
func (r *Rank) UnmarshalText(b []byte) error {
	v, ok := ParseRank(string(b))
	if !ok {
		return fmt.Errorf("shuangkou: unknown rank %q", b)
	}
	*r = v
	return nil
}

// Sort puts cs in display order: by 双扣 rank from low to high, then by suit
// (♠ ♥ ♣ ♦). Dealt hands and played cards are recorded in this order.
func Sort(cs []cards.Card) {
	slices.SortFunc(cs, func(a, b cards.Card) int {
		if ra, rb := RankOf(a), RankOf(b); ra != rb {
			return int(ra) - int(rb)
		}
		return int(a.Suit) - int(b.Suit)
	})
}

// shape is a multiset of cards as the classifier sees it: how many natural
// cards of each rank 3 … 2, and how many of each joker.
type shape struct {
	nat    [numNatural]uint8
	bj, rj uint8
}

func shapeOf(cs []cards.Card) shape {
	var s shape
	for _, c := range cs {
		switch r := RankOf(c); r {
		case RankBJ:
			s.bj++
		case RankRJ:
			s.rj++
		default:
			s.nat[r]++
		}
	}
	return s
}

func (s *shape) jokers() int { return int(s.bj) + int(s.rj) }

func (s *shape) naturals() int {
	n := 0
	for _, k := range s.nat {
		n += int(k)
	}
	return n
}

// key packs s into one integer (4 bits a count), for de-duplicating plays.
// No count of a hand of two decks exceeds 8.
func (s *shape) key() uint64 {
	var k uint64
	for i, n := range s.nat {
		k |= uint64(n&0xF) << (4 * i)
	}
	return k | uint64(s.bj)<<52 | uint64(s.rj)<<56
}
