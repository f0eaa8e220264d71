package shuangkou

import (
	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// Deal deals the next deal from seed as doc.go specifies: HandDealt, then the
// DealSecret that keeps the seed for the event ending the deal.
func (r *Rules) Deal(s *State, d table.DealNumber, seed cards.Seed) ([]table.Payload, error) {
	deck, stream := cards.Shuffled(seed, decks)
	hands := make([][]cards.Card, seats)
	for i, c := range deck {
		hands[i%seats] = append(hands[i%seats], c)
	}
	for _, h := range hands {
		climb.Sort(h)
	}
	// doc.go, Dealing (a Decision: shuangkou.md names no first leader): the
	// seed draws the first leader of the table's first hand; each later hand
	// moves it to the next seat.
	first := s.firstSeat
	if first < 0 {
		first = int(stream.Below(seats))
	} else {
		first = (first + 1) % seats
	}
	return []table.Payload{
		table.HandDealt{
			Hand: d.Hand, Deal: d.Deal, Commitment: seed.Commitment(),
			Hands: hands, Kitty: []cards.Card{}, FirstSeat: first,
		},
		table.DealSecret{Hand: d.Hand, Deal: d.Deal, Seed: seed.String()},
	}, nil
}
