package dadun

import (
	"fmt"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

type phase uint8

const (
	phaseWaiting   phase = iota // no deal running
	phaseDeclaring              // the go-alone round (and the banker's call)
	phasePlaying
)

func (p phase) String() string {
	switch p {
	case phaseDeclaring:
		return "declaring"
	case phasePlaying:
		return "playing"
	}
	return "waiting"
}

// State is the game state of one table, folded from its events. Only Evolve
// changes it. It holds secrets no View shows to a seat: the running deal's
// seed (from DealSecret), every hand, and who the friend is until
// FriendRevealed.
//
// Evolve never writes into a slice it has stored (it replaces them), so
// Clone shares those and copies the rest.
type State struct {
	table.Basics
	v variant // the rules version the table plays

	hand, deal int
	phase      phase

	hands  [seats]cards.Multiset
	played cards.Multiset // every card played this deal

	turned     cards.Card
	banker     int
	bothCopies bool       // the banker holds both copies of the turned card
	called     bool       // the banker named FriendCard instead (FriendCalled)
	friendCard cards.Card // the card whose other copy makes the friend
	friend     int        // the friend's seat; -1 in 打独 or before a call
	revealed   bool       // FriendRevealed: the sides are public
	soloist    int        // the seat going alone; -1 if none
	declined   int        // seats that declined going alone so far

	turn     int
	last     *play       // the play to beat; nil when the player on turn leads
	passes   int         // passes in a row since last
	moves    climb.Moves // each seat's move in the current trick, for the views
	lastLead int         // who led the current trick
	trick    int         // points played in the current trick
	captured [seats]int  // points taken in tricks per seat
	finish   []int       // seats out, in order
	plays    [seats]int  // plays made by each seat this deal
	awards   []Award
}

type play struct {
	seat    int
	cards   []cards.Card
	reading Reading
}

// newState is the state of a table under the current rules.
func newState() *State { return newStateOf(current()) }

func newStateOf(v variant) *State {
	return &State{v: v, friend: -1, soloist: -1}
}

// Clone returns a copy that evolves independently of s.
func (s *State) Clone() table.GameState {
	c := *s
	c.finish = s.finish[:len(s.finish):len(s.finish)] // an append reallocates
	c.awards = s.awards[:len(s.awards):len(s.awards)]
	return &c
}

// NeedsDeal reports that no deal is running: 打盾 plays hands without end.
func (s *State) NeedsDeal() bool { return s.phase == phaseWaiting }

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

// side reports which side seat plays on: 0 for the banker's side (the banker
// and the friend) or the soloist, 1 for the others. It is the truth, known
// to the state from the deal; a View shows it only when the sides are public.
func (s *State) side(seat int) int {
	if s.soloist >= 0 {
		if seat == s.soloist {
			return 0
		}
		return 1
	}
	if seat == s.banker || seat == s.friend {
		return 0
	}
	return 1
}

// sides lists the seats of side 0 and side 1, lowest first.
func (s *State) sides() [][]int {
	out := [][]int{{}, {}}
	for i := range seats {
		out[s.side(i)] = append(out[s.side(i)], i)
	}
	return out
}

// sidesPublic reports whether every seat may know the sides: once someone
// goes alone, or the friend card has been played by the friend.
func (s *State) sidesPublic() bool { return s.soloist >= 0 || s.revealed }

// otherHolder is the seat other than banker holding card, or -1.
func (s *State) otherHolder(card cards.Card) int {
	for i := range seats {
		if i != s.banker && s.hands[i].Count(card) > 0 {
			return i
		}
	}
	return -1
}

// Evolve applies an event to the state, in place. It panics only on a stream
// that contradicts itself (cards played that the seat does not hold).
func (r *Rules) Evolve(s *State, p table.Payload) *State {
	s.Basics.Apply(p)
	switch e := p.(type) {
	case table.HandDealt:
		s.startDeal(e)
	case CardTurned:
		s.turned, s.banker, s.friendCard = e.Card, e.Banker, e.Card
		s.turn, s.lastLead = e.Banker, e.Banker
		s.bothCopies = s.hands[e.Banker].Count(e.Card) == 2
		s.friend = -1
		if !s.bothCopies {
			s.friend = s.otherHolder(e.Card)
		}
	case FriendCalled:
		s.called, s.friendCard = true, e.Card
		s.friend = s.otherHolder(e.Card)
		s.declined++
		s.turn = (e.Seat + 1) % seats
	case AloneDeclared:
		s.soloist, s.friend = e.Seat, -1
		s.phase = phasePlaying
		s.turn, s.lastLead = e.Seat, e.Seat
	case AloneDeclined:
		s.declined++
		s.turn = (e.Seat + 1) % seats
		if s.declined == seats {
			s.phase = phasePlaying
			s.turn, s.lastLead = s.banker, s.banker
		}
	case CardsPlayed:
		hand := &s.hands[e.Seat]
		if !hand.Remove(e.Cards) {
			panic(fmt.Sprintf("dadun: corrupt stream: seat %d plays %s it does not hold", e.Seat, cards.Format(e.Cards)))
		}
		s.played.Add(e.Cards...)
		s.plays[e.Seat]++
		if s.last == nil {
			s.lastLead = e.Seat
		}
		s.moves.Play(e.Seat, e.Cards, s.last == nil)
		// The reading's order within its type comes from the cards
		// (variant.refine), which the event records.
		s.last = &play{seat: e.Seat, cards: slices.Clone(e.Cards), reading: s.v.refine(e.Reading, e.Cards)}
		s.passes = 0
		s.trick += points(e.Cards)
		if e.Awards > 0 {
			s.awards = append(s.awards, Award{Seat: e.Seat, Cards: slices.Clone(e.Cards), Awards: e.Awards})
		}
		s.turn = s.nextWithCards(e.Seat)
	case FriendRevealed:
		s.revealed = true
	case PlayerOut:
		s.finish = append(s.finish, e.Seat)
	case PlayPassed:
		s.moves.Pass(e.Seat)
		s.passes++
		s.turn = s.nextWithCards(e.Seat)
	case TrickEnded:
		s.captured[e.Winner] += e.Points
		s.trick = 0
		s.last, s.passes = nil, 0
		s.turn, s.lastLead = e.Leader, e.Leader
	case table.DealVoided:
		s.phase = phaseWaiting
	case table.HandSettled:
		s.phase = phaseWaiting
	}
	return s
}

func (s *State) startDeal(e table.HandDealt) {
	s.hand, s.deal = e.Hand, e.Deal
	s.phase = phaseDeclaring
	s.Seed = ""
	s.hands = [seats]cards.Multiset{}
	for i, h := range e.Hands {
		s.hands[i] = cards.Of(h)
	}
	s.played = cards.Multiset{}
	s.banker, s.turn, s.lastLead = e.FirstSeat, e.FirstSeat, e.FirstSeat
	s.turned, s.friendCard = cards.Card{}, cards.Card{}
	s.bothCopies, s.called, s.revealed = false, false, false
	s.friend, s.soloist, s.declined = -1, -1, 0
	s.last, s.passes, s.trick = nil, 0, 0
	s.moves = climb.Moves{}
	s.captured = [seats]int{}
	s.finish = nil
	s.plays = [seats]int{}
	s.awards = nil
}

// points counts the point cards of cs (rules/README.md: 5 = 5, 10 and K = 10).
func points(cs []cards.Card) int {
	n := 0
	for _, c := range cs {
		n += c.Points()
	}
	return n
}

// handCards lists seat's cards in display order.
func (s *State) handCards(seat int) []cards.Card {
	cs := s.hands[seat].Cards()
	climb.Sort(cs)
	return cs
}
