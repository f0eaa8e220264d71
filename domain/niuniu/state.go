package niuniu

import (
	"slices"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
)

type phase uint8

const (
	phaseBetween   phase = iota // no deal running
	phaseArranging              // every seat arranges at once
)

func (p phase) String() string {
	if p == phaseArranging {
		return "arranging"
	}
	return "between_hands"
}

// arrangement is a seat's standing arrangement in the running deal.
type arrangement struct {
	done  bool         // the seat arranged or declared no bull
	bull  Bull         // its class
	cards []cards.Card // the bull's three cards; nil for no bull
}

// State is the game state of one table, folded from its events. Only Evolve
// changes it. It holds the running deal's seed (from DealSecret), which no
// View ever shows.
//
// Evolve never writes into a slice it has stored (it replaces them), so
// Clone shares those and copies the rest.
type State struct {
	table.Basics
	// banker is the running (or last) hand's banker: HandDealt.FirstSeat
	// when bankerMoves (banker_mode rotate or random), else the table's.
	seats, banker int
	bankerMoves   bool
	// pay is the multiplier of each class (options multipliers and
	// special_hands).
	pay PayTable
	// arrangeFor is the table's deadline after the deal (0: none).
	arrangeFor time.Duration
	// escapeCancelsBouts plays rules /1: a player's escape ends the hand and
	// cancels the other players' bouts (Rules.escapeCancelsBouts).
	escapeCancelsBouts bool

	hand, deal int
	phase      phase
	// dealtAt is when the running deal was made; zero when the deal was not
	// dated (then no deadline can pass).
	dealtAt time.Time

	hands [maxSeats][]cards.Card // in display order
	arr   [maxSeats]arrangement
	// forfeit holds the bout of each player who escaped from the running
	// deal (niuniu.md, Escape, revised Decision); nil for the others. Its
	// arrangement is done, as no bull.
	forfeit [maxSeats]*Bout

	// last is the reveal of the last hand settled by a reveal, public.
	last *HandsRevealed
}

// Clone returns a copy that evolves independently of s.
func (s *State) Clone() table.GameState {
	c := *s
	return &c
}

// deadline is when the seats' time to arrange runs out, and whether the
// running deal has one.
func (s *State) deadline() (time.Time, bool) {
	if s.phase != phaseArranging || s.arrangeFor == 0 || s.dealtAt.IsZero() {
		return time.Time{}, false
	}
	return s.dealtAt.Add(s.arrangeFor), true
}

// NeedsDeal reports that no deal is running: hands follow one another
// without end.
func (s *State) NeedsDeal() bool { return s.phase == phaseBetween }

// Evolve applies an event to the state, in place. It never validates: a
// HandArranged replaces the seat's arrangement as recorded.
func (r *Rules) Evolve(s *State, p table.Payload) *State {
	s.Basics.Apply(p)
	switch e := p.(type) {
	case table.HandDealt:
		s.hand, s.deal = e.Hand, e.Deal
		if s.bankerMoves {
			s.banker = e.FirstSeat
		}
		s.phase = phaseArranging
		s.dealtAt = e.At
		s.Seed = ""
		s.hands = [maxSeats][]cards.Card{}
		for i, h := range e.Hands {
			s.hands[i] = slices.Clone(h)
		}
		s.arr = [maxSeats]arrangement{}
		s.forfeit = [maxSeats]*Bout{}
	case BoutForfeited:
		b := e.bout()
		s.forfeit[e.Seat] = &b
		s.arr[e.Seat] = arrangement{done: true, bull: NoBull}
	case HandArranged:
		a := arrangement{done: true, cards: slices.Clone(e.Cards)}
		if e.Reading != nil {
			a.bull = *e.Reading
		}
		s.arr[e.Seat] = a
	case HandsRevealed:
		rev := e
		s.last = &rev
	case table.DealVoided, table.HandSettled:
		s.phase = phaseBetween
	}
	return s
}
