// Package cards defines playing cards, their wire notation, decks, multisets
// of cards and the seeded shuffle every deal is drawn from.
//
// The package has no rank order: 斗地主 puts 2 above A and a 升级 trump order
// depends on the hand, so orders belong to the game packages.
package cards

import (
	"fmt"
)

// Suit is a card's suit. Jokers have the suit Joker.
type Suit uint8

// The suits in canonical deck order.
const (
	Spades Suit = iota
	Hearts
	Clubs
	Diamonds
	Joker
)

// Letter is the suit's notation letter ("" for jokers).
func (s Suit) Letter() string {
	switch s {
	case Spades:
		return "S"
	case Hearts:
		return "H"
	case Clubs:
		return "C"
	case Diamonds:
		return "D"
	}
	return ""
}

// Rank is a card's face value. Number cards carry their number, J=11, Q=12,
// K=13, A=14; the jokers are BlackJoker (小王) and RedJoker (大王).
type Rank uint8

// Named ranks.
const (
	Jack       Rank = 11
	Queen      Rank = 12
	King       Rank = 13
	Ace        Rank = 14
	BlackJoker Rank = 15
	RedJoker   Rank = 16
)

// rankNames are the ranks' notations by rank, "" where a rank has none.
// A table rather than a formatting call: every card of every event and
// view is encoded through it.
var rankNames = [...]string{2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
	Jack: "J", Queen: "Q", King: "K", Ace: "A", BlackJoker: "BJ", RedJoker: "RJ"}

// String is the rank's notation ("2".."10", "J", "Q", "K", "A", "BJ", "RJ").
func (r Rank) String() string {
	if int(r) < len(rankNames) && rankNames[r] != "" {
		return rankNames[r]
	}
	return fmt.Sprintf("Rank(%d)", int(r))
}

// Card is one playing card. Two copies of the same card in a two-deck game are
// equal values: a hand is a multiset, never a set of copy ids.
type Card struct {
	Suit Suit
	Rank Rank
}

// Named jokers.
var (
	BJ = Card{Suit: Joker, Rank: BlackJoker}
	RJ = Card{Suit: Joker, Rank: RedJoker}
)

// IsJoker reports whether c is one of the two jokers.
func (c Card) IsJoker() bool { return c.Suit == Joker }

// Valid reports whether c is one of the 54 cards of a deck.
func (c Card) Valid() bool {
	if c.Suit == Joker {
		return c.Rank == BlackJoker || c.Rank == RedJoker
	}
	return c.Suit < Joker && c.Rank >= 2 && c.Rank <= Ace
}

// Index is c's position 0..53 in the canonical deck order: spades 2..A, hearts
// 2..A, clubs 2..A, diamonds 2..A, then BJ, RJ. It is -1 for an invalid card.
func (c Card) Index() int {
	if !c.Valid() {
		return -1
	}
	if c.Suit == Joker {
		return 52 + int(c.Rank-BlackJoker)
	}
	return int(c.Suit)*13 + int(c.Rank-2)
}

// FromIndex is the inverse of Index. It panics outside 0..53.
func FromIndex(i int) Card {
	switch {
	case i < 0 || i >= DeckSize:
		panic(fmt.Sprintf("cards: index %d out of range", i))
	case i >= 52:
		return Card{Suit: Joker, Rank: BlackJoker + Rank(i-52)}
	}
	return Card{Suit: Suit(i / 13), Rank: Rank(i%13 + 2)}
}

// Points is the card's value where a game counts points (分牌): 5 is worth 5,
// 10 and K are worth 10, everything else 0.
func (c Card) Points() int {
	if c.Suit == Joker {
		return 0
	}
	switch c.Rank {
	case 5:
		return 5
	case 10, King:
		return 10
	}
	return 0
}

// cardNames are the valid cards' notations by Index, and cardJSON the
// same as JSON strings: made once, so that encoding a card allocates
// nothing (a move's events, views and legal lists encode hundreds).
var cardNames, cardJSON = func() (names [DeckSize]string, quoted [DeckSize][]byte) {
	for i := range DeckSize {
		c := FromIndex(i)
		names[i] = c.notation()
		quoted[i] = []byte(`"` + names[i] + `"`)
	}
	return names, quoted
}()

// notation builds the canonical notation; String reads it from cardNames.
func (c Card) notation() string {
	if c.Suit == Joker {
		return c.Rank.String()
	}
	return c.Suit.Letter() + c.Rank.String()
}

// String is the canonical notation: suit letter then rank ("S10", "HA"), or
// "BJ"/"RJ".
func (c Card) String() string {
	if i := c.Index(); i >= 0 {
		return cardNames[i]
	}
	if c.Suit == Joker {
		return c.Rank.String()
	}
	return fmt.Sprintf("Card(%d,%d)", c.Suit, c.Rank)
}

// MarshalText encodes the card in canonical notation.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("cards: cannot encode invalid card %s", c)
	}
	return []byte(cardNames[c.Index()]), nil
}

// MarshalJSON encodes the card as the JSON string of its canonical
// notation, the bytes encoding/json writes from MarshalText, without an
// allocation. The slice is shared: callers must not modify it
// (encoding/json copies it).
func (c Card) MarshalJSON() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("cards: cannot encode invalid card %s", c)
	}
	b := cardJSON[c.Index()]
	return b[:len(b):len(b)], nil // an append copies rather than writing into the table
}

// UnmarshalText accepts any notation ParseCard accepts.
func (c *Card) UnmarshalText(b []byte) error {
	// Stored events hold the canonical notation: read it without making a
	// string, as a replay decodes thousands of cards.
	if x, ok := canonical(b); ok {
		*c = x
		return nil
	}
	parsed, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = parsed
	return nil
}

// canonical reads a card in the notation String writes ("S10", "HA",
// "BJ"), and only that; false for anything else.
func canonical(b []byte) (Card, bool) {
	if len(b) == 2 && b[1] == 'J' {
		switch b[0] {
		case 'B':
			return BJ, true
		case 'R':
			return RJ, true
		}
	}
	if len(b) < 2 || len(b) > 3 {
		return Card{}, false
	}
	var s Suit
	switch b[0] {
	case 'S':
		s = Spades
	case 'H':
		s = Hearts
	case 'C':
		s = Clubs
	case 'D':
		s = Diamonds
	default:
		return Card{}, false
	}
	var r Rank
	switch {
	case len(b) == 3:
		if b[1] != '1' || b[2] != '0' {
			return Card{}, false
		}
		r = 10
	case b[1] >= '2' && b[1] <= '9':
		r = Rank(b[1] - '0')
	case b[1] == 'J':
		r = Jack
	case b[1] == 'Q':
		r = Queen
	case b[1] == 'K':
		r = King
	case b[1] == 'A':
		r = Ace
	default:
		return Card{}, false
	}
	return Card{Suit: s, Rank: r}, true
}

// DeckSize is the number of cards in one deck, jokers included.
const DeckSize = 54

// Deck returns n decks in canonical order: deck 1 in Index order, then deck 2
// in the same order, and so on. The shuffle starts from this order.
func Deck(n int) []Card {
	d := make([]Card, 0, n*DeckSize)
	for range n {
		for i := range DeckSize {
			d = append(d, FromIndex(i))
		}
	}
	return d
}
