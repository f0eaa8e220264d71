package shengji

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Deal deals the next deal from seed as doc.go specifies: HandDealt records
// every seat's 26 cards (qiangbao: 25) in draw order and the kitty in flip order, then the
// DealSecret keeps the seed for the event ending the deal.
func (r *Rules) Deal(s *State, d table.DealNumber, seed cards.Seed) ([]table.Payload, error) {
	deck, stream := cards.Shuffled(seed, decks)
	hands := make([][]cards.Card, seats)
	n := seats * s.v.handSize
	for i, c := range deck[:n] {
		hands[i%seats] = append(hands[i%seats], c)
	}
	kitty := slices.Clone(deck[n:])
	// The dealer of a later hand is fixed by the last settlement. In a first
	// hand it is the declarer's partner; the seed names the dealer for the
	// case nobody declares (shengji.md is silent there; doc.go, Decisions).
	first := s.matchDealer
	if first < 0 {
		first = int(stream.Below(seats))
	}
	return []table.Payload{
		table.HandDealt{
			Hand: d.Hand, Deal: d.Deal, Commitment: seed.Commitment(),
			Hands: hands, Kitty: kitty, FirstSeat: first,
		},
		table.DealSecret{Hand: d.Hand, Deal: d.Deal, Seed: seed.String()},
	}, nil
}
