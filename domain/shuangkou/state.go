package shuangkou

import (
	"fmt"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

type phase uint8

const (
	phaseWaiting phase = iota // no deal running
	phasePlaying
)

func (p phase) String() string {
	if p == phasePlaying {
		return "playing"
	}
	return "waiting"
}

// State is the game state of one table, folded from its events. Only Evolve
// changes it. It holds the running deal's seed (from DealSecret), which no
// View ever shows.
//
// Evolve never writes into a slice or play it has stored (it replaces them),
// so Clone shares those and copies the rest.
type State struct {
	table.Basics
	v *variant

	hand, deal int
	phase      phase
	firstSeat  int // the first leader of the current or last deal; -1 before the first deal

	hands  [seats]cards.Multiset
	played cards.Multiset // every card played this deal

	turn     int
	last     *play       // the play to beat; nil when the player on turn leads
	passes   int         // passes in a row since last
	moves    climb.Moves // each seat's move in the current trick, for the views
	finish   []int       // seats out, in order
	plays    [seats]int  // plays made by each seat this deal
	lastLead int         // who led the current trick

	// 相 of the option "bomb_bonus": each seat's bombs this deal and its
	// largest bomb's 相 (its card count; 7 for the joker bomb).
	bombs, xiang [seats]int

	// The match of the option "hands": hands settled (escapes count), each
	// seat's total, and whether MatchEnded ended it.
	settled   int
	totals    [seats]int
	matchOver bool
}

type play struct {
	seat    int
	cards   []cards.Card
	reading Reading
}

func newState(v *variant) *State {
	return &State{v: v, firstSeat: -1}
}

// Clone returns a copy that evolves independently of s.
func (s *State) Clone() table.GameState {
	c := *s
	c.finish = s.finish[:len(s.finish):len(s.finish)] // an append reallocates
	return &c
}

// NeedsDeal reports that no deal is running and the table plays on: hands
// without end, or with the option "hands" until MatchEnded.
func (s *State) NeedsDeal() bool { return s.phase == phaseWaiting && !s.matchOver }

func partner(seat int) int { return (seat + 2) % seats }

// sideOf names a side by its lower seat: 0 for seats 0 & 2, 1 for 1 & 3.
func sideOf(seat int) int { return seat % 2 }

func (s *State) out(seat int) bool { return s.hands[seat].Len() == 0 }

// nextWithCards is the first seat after seat that still holds cards; seat
// itself when no other does.
func (s *State) nextWithCards(seat int) int { return climb.NextHolding(seat, seats, s.out) }

// othersWithCards counts the seats other than seat that still hold cards.
func (s *State) othersWithCards(seat int) int { return climb.OthersHolding(seat, seats, s.out) }

func (s *State) cardsLeft() []int {
	left := make([]int, seats)
	for i := range left {
		left[i] = s.hands[i].Len()
	}
	return left
}

// Evolve applies an event to the state, in place. It panics only on a stream
// that contradicts itself (cards played that the seat does not hold).
func (r *Rules) Evolve(s *State, p table.Payload) *State {
	s.Basics.Apply(p)
	switch e := p.(type) {
	case table.HandDealt:
		s.startDeal(e)
	case CardsPlayed:
		hand := &s.hands[e.Seat]
		if !hand.Remove(e.Cards) {
			panic(fmt.Sprintf("shuangkou: corrupt stream: seat %d plays %s it does not hold", e.Seat, cards.Format(e.Cards)))
		}
		s.played.Add(e.Cards...)
		s.plays[e.Seat]++
		if x := e.Reading.xiang(); x > 0 {
			s.bombs[e.Seat]++
			s.xiang[e.Seat] = max(s.xiang[e.Seat], x)
		}
		if s.last == nil {
			s.lastLead = e.Seat
		}
		s.moves.Play(e.Seat, e.Cards, s.last == nil)
		s.last = &play{seat: e.Seat, cards: slices.Clone(e.Cards), reading: e.Reading}
		s.passes = 0
		s.turn = s.nextWithCards(e.Seat)
	case PlayerOut:
		s.finish = append(s.finish, e.Seat)
	case PlayPassed:
		s.moves.Pass(e.Seat)
		s.passes++
		s.turn = s.nextWithCards(e.Seat)
	case TrickEnded:
		s.last, s.passes = nil, 0
		s.turn, s.lastLead = e.Leader, e.Leader
	case table.DealVoided:
		s.phase = phaseWaiting
	case table.HandSettled:
		s.phase = phaseWaiting
		s.settled++
		for i, d := range e.Deltas {
			s.totals[i] += d
		}
	case MatchEnded:
		s.matchOver = true
	}
	return s
}

func (s *State) startDeal(e table.HandDealt) {
	s.hand, s.deal = e.Hand, e.Deal
	s.phase = phasePlaying
	s.firstSeat, s.turn, s.lastLead = e.FirstSeat, e.FirstSeat, e.FirstSeat
	s.Seed = ""
	s.hands = [seats]cards.Multiset{}
	for i, h := range e.Hands {
		s.hands[i] = cards.Of(h)
	}
	s.played = cards.Multiset{}
	s.last, s.passes = nil, 0
	s.moves = climb.Moves{}
	s.finish = nil
	s.plays = [seats]int{}
	s.bombs, s.xiang = [seats]int{}, [seats]int{}
}
