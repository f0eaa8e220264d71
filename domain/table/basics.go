package table

import (
	"encoding/json"
	"fmt"
)

// MaxSeats bounds the seats of any game.
const MaxSeats = 8

// Basics is what every game's state keeps of the shared events: the stake,
// who sits in each seat (for PlayerEscaped), and the running deal's seed from
// DealSecret, which the event ending the deal reveals. A game embeds it and
// hands every event to Apply from its Evolve.
type Basics struct {
	Stake   int              `json:"-"`
	Players [MaxSeats]string `json:"-"` // player id per seat; "" when empty
	// Seed is secret until its deal ends: never part of any encoding.
	Seed string `json:"-"`
}

// Apply records what the shared events say of the basics; other events are
// ignored.
func (b *Basics) Apply(p Payload) {
	switch e := p.(type) {
	case TableOpened:
		b.Stake = e.Stake
	case PlayerSeated:
		b.Players[e.Seat] = e.PlayerID
	case PlayerLeft:
		b.Players[e.Seat] = ""
	case PlayerEscaped:
		b.Players[e.Seat] = ""
	case DealSecret:
		b.Seed = e.Seed
	}
}

// Settle builds the HandSettled that ends hand: the deltas, the house's share,
// the game's result details encoded as JSON, and the running deal's seed,
// revealed.
func (b *Basics) Settle(hand int, deltas []int, house int, result any) (HandSettled, error) {
	data, err := json.Marshal(result)
	if err != nil {
		return HandSettled{}, fmt.Errorf("encode the result of hand %d: %w", hand, err)
	}
	return HandSettled{Hand: hand, Deltas: deltas, House: house, Result: data, Seed: b.Seed}, nil
}
