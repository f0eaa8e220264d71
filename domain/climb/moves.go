package climb

import (
	"slices"

	"paiju/domain/cards"
)

// MaxMoveSeats is the most seats a trick's moves are kept for: every climbing
// game seats at most four.
const MaxMoveSeats = 4

// Moves is each seat's move in the current trick, for the views: a play, a
// pass, or none yet. A trick begins with a lead (a play while no play stands
// to be beaten), which clears the moves of the trick before; until then a
// finished trick's moves stay, so that a viewer sees how it ended. The zero
// value is a trick nobody has moved in. Moves is a value: a copied state
// evolves its copy alone (no slice is ever written in place).
type Moves [MaxMoveSeats]move

type move struct {
	cards []cards.Card
	pass  bool
}

// Play records seat's play of cs; lead clears the trick before it first.
func (m *Moves) Play(seat int, cs []cards.Card, lead bool) {
	if lead {
		*m = Moves{}
	}
	m[seat] = move{cards: slices.Clone(cs)}
}

// Pass records seat's pass.
func (m *Moves) Pass(seat int) { m[seat] = move{pass: true} }

// MoveView is one seat's move in the current trick as views show it: the
// cards it played, or Pass.
type MoveView struct {
	Cards []cards.Card `json:"cards,omitempty"`
	Pass  bool         `json:"pass,omitempty"`
}

// View is the moves of the first n seats, by seat, nil for a seat that has
// not moved in the trick. Every viewer sees them: plays and passes are
// public.
func (m *Moves) View(n int) []*MoveView {
	out := make([]*MoveView, n)
	for i := range min(n, MaxMoveSeats) {
		switch mv := m[i]; {
		case mv.pass:
			out[i] = &MoveView{Pass: true}
		case mv.cards != nil:
			out[i] = &MoveView{Cards: slices.Clone(mv.cards)}
		}
	}
	return out
}
