package niuniu

import (
	"paiju/domain/cards"
	"paiju/domain/table"
)

// Deal deals the next hand from seed as doc.go specifies: HandDealt, then
// the DealSecret that keeps the seed for the HandSettled ending the hand.
func (r *Rules) Deal(s *State, d table.DealNumber, seed cards.Seed) ([]table.Payload, error) {
	n := r.opts.Seats
	deck, stream := r.shuffled(seed)
	banker := r.opts.Banker
	switch r.opts.BankerMode {
	case BankerRotate:
		// niuniu.md, Table options, banker_mode: hand 1 the banker seat,
		// then the previous banker + 1. Hands are never re-dealt, so hand h
		// has the banker seat + h - 1.
		banker = (r.opts.Banker + d.Hand - 1) % n
	case BankerRandom:
		// The next draw after the shuffle (Decision).
		banker = int(stream.Below(uint64(n)))
	}
	hands := make([][]cards.Card, n)
	for i, c := range deck[:n*HandSize] {
		hands[i%n] = append(hands[i%n], c)
	}
	for _, h := range hands {
		Sort(h)
	}
	return []table.Payload{
		table.HandDealt{
			Hand: d.Hand, Deal: d.Deal, Commitment: seed.Commitment(),
			Hands: hands, FirstSeat: banker,
		},
		table.DealSecret{Hand: d.Hand, Deal: d.Deal, Seed: seed.String()},
	}, nil
}

// shuffled is the deck of the table shuffled from seed, and the stream after
// the shuffle: the 54 cards, or the 52 without BJ and RJ under jokers false
// (niuniu.md, Table options: the same Fisher–Yates over the canonical order
// without the jokers).
func (r *Rules) shuffled(seed cards.Seed) ([]cards.Card, *cards.Stream) {
	if !r.opts.NoJokers {
		return cards.Shuffled(seed, 1)
	}
	deck := cards.Deck(1)[:cards.DeckSize-2]
	stream := cards.NewStream(seed)
	cards.Shuffle(stream, deck)
	return deck, stream
}
