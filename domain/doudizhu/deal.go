package doudizhu

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// Deal deals the next deal from seed as doc.go specifies: HandDealt, then the
// DealSecret that keeps the seed for the event ending the deal.
func (r *Rules) Deal(s *State, d table.DealNumber, seed cards.Seed) ([]table.Payload, error) {
	n := r.v.seats
	deck, stream := cards.Shuffled(seed, r.v.decks)
	dealt := n * r.v.handSize()
	hands := make([][]cards.Card, n)
	for i, c := range deck[:dealt] {
		hands[i%n] = append(hands[i%n], c)
	}
	for _, h := range hands {
		climb.Sort(h)
	}
	kitty := slices.Clone(deck[dealt:])
	climb.Sort(kitty)

	// doudizhu.md, Deal: the server picks the first bidder of the first hand
	// from the seed; a re-deal keeps it (Bidding, classic); each new hand
	// moves it to the next seat.
	first := s.firstSeat
	switch {
	case first < 0:
		first = int(stream.Below(uint64(n)))
	case d.Deal > 1:
	default:
		first = (first + 1) % n
	}
	return []table.Payload{
		table.HandDealt{
			Hand: d.Hand, Deal: d.Deal, Commitment: seed.Commitment(),
			Hands: hands, Kitty: kitty, FirstSeat: first,
		},
		table.DealSecret{Hand: d.Hand, Deal: d.Deal, Seed: seed.String()},
	}, nil
}
