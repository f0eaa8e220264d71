package dadun

import (
	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// Deal deals the next deal from seed as doc.go specifies: HandDealt, the
// DealSecret that keeps the seed for the event ending the deal, then the
// public CardTurned naming the turned card and the banker.
func (r *Rules) Deal(s *State, d table.DealNumber, seed cards.Seed) ([]table.Payload, error) {
	deck, stream := cards.Shuffled(seed, decks)
	hands := make([][]cards.Card, seats)
	for i, c := range deck {
		hands[i%seats] = append(hands[i%seats], c)
	}
	for _, h := range hands {
		climb.Sort(h)
	}
	// dadun.md, Deal: one card is turned up before the deal; its holder is
	// the banker. The turned card is a position of the shuffled deck, drawn
	// after the shuffle, so that the banker is the seat dealt that copy.
	at := int(stream.Below(deckCards))
	banker := at % seats
	return []table.Payload{
		table.HandDealt{
			Hand: d.Hand, Deal: d.Deal, Commitment: seed.Commitment(),
			Hands: hands, Kitty: []cards.Card{}, FirstSeat: banker,
		},
		table.DealSecret{Hand: d.Hand, Deal: d.Deal, Seed: seed.String()},
		CardTurned{Hand: d.Hand, Deal: d.Deal, Card: deck[at], Banker: banker},
	}, nil
}
