package niuniu

import (
	"paiju/domain/cards"
	"paiju/domain/table"
)

// Deal deals the next hand from seed as doc.go specifies: HandDealt, then
// the DealSecret that keeps the seed for the HandSettled ending the hand.
func (r *Rules) Deal(s *State, d table.DealNumber, seed cards.Seed) ([]table.Payload, error) {
	n := r.opts.Seats
	deck, _ := cards.Shuffled(seed, 1)
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
			Hands: hands, FirstSeat: r.opts.Banker,
		},
		table.DealSecret{Hand: d.Hand, Deal: d.Deal, Seed: seed.String()},
	}, nil
}
