package doudizhu

import (
	"fmt"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

type phase uint8

const (
	phaseWaiting phase = iota // no deal running
	phaseBidding
	phasePlaying
)

func (p phase) String() string {
	switch p {
	case phaseBidding:
		return "bidding"
	case phasePlaying:
		return "playing"
	}
	return "waiting"
}

// maxSeats bounds the seats of every variant (fourplayer has 4), so that
// per-seat state lives in arrays and a State copies as one value.
const maxSeats = 4

// State is the game state of one table, folded from its events. Only Evolve
// changes it. It holds the running deal's seed (from DealSecret), which no
// View ever shows.
//
// Evolve never writes into a slice or play it has stored (it replaces them),
// so Clone shares those and copies the rest.
type State struct {
	v       *variant
	stake   int
	players [maxSeats]string // player id per seat, "" when empty

	hand, deal int
	phase      phase
	firstSeat  int    // first bidder of the current or last deal; -1 before the first deal
	seed       string // the running deal's seed, hex
	handsDone  int    // hands settled, for a match of v.matchHands

	hands      [maxSeats]cards.Multiset
	kitty      []cards.Card
	kittyShown bool
	played     cards.Multiset // every card played this deal

	bids     []bidRecord // in the order spoken
	highBid  int
	highSeat int
	landlord int // -1 until bidding ends
	bid      int

	turn   int
	last   *play         // the play to beat; nil when the player on turn leads
	passes int           // passes in a row since last
	plays  [maxSeats]int // plays made by each seat this deal
}

type bidRecord struct {
	seat int
	bid  int // 0 for a pass
}

type play struct {
	seat    int
	cards   []cards.Card
	reading Reading
}

func newState(v *variant) *State {
	return &State{v: v, firstSeat: -1, landlord: -1, highSeat: -1}
}

// Clone returns a copy that evolves independently of s.
func (s *State) Clone() table.GameState {
	c := *s
	c.bids = s.bids[:len(s.bids):len(s.bids)] // an append reallocates
	return &c
}

// NeedsDeal reports that no deal is running and the match (endless in
// classic) wants another hand.
func (s *State) NeedsDeal() bool {
	return s.phase == phaseWaiting && (s.v.matchHands == 0 || s.handsDone < s.v.matchHands)
}

func (s *State) next(seat int) int { return (seat + 1) % s.v.seats }

// multiplier is the current multiplier an escape is charged at: the bid once
// bidding has ended, 1 before (doudizhu.md, Escape).
func (s *State) multiplier() int {
	if s.landlord < 0 {
		return 1
	}
	return s.bid
}

func (s *State) cardsLeft() []int {
	left := make([]int, s.v.seats)
	for i := range left {
		left[i] = s.hands[i].Len()
	}
	return left
}

func (r *Rules) state(gs table.GameState) (*State, error) {
	s, ok := gs.(*State)
	if !ok || s == nil {
		return nil, fmt.Errorf("doudizhu: game state is %T, not *doudizhu.State", gs)
	}
	return s, nil
}

// Evolve applies an event to the state, in place. It panics only on a stream
// that contradicts itself (cards played that the seat does not hold).
func (r *Rules) Evolve(gs table.GameState, p table.Payload) table.GameState {
	s := gs.(*State)
	switch e := p.(type) {
	case table.TableOpened:
		s.stake = e.Stake
	case table.PlayerSeated:
		s.players[e.Seat] = e.PlayerID
	case table.PlayerLeft:
		s.players[e.Seat] = ""
	case table.PlayerEscaped:
		s.players[e.Seat] = ""
	case table.HandDealt:
		s.startDeal(e)
	case table.DealSecret:
		s.seed = e.Seed
	case BidMade:
		s.bids = append(s.bids, bidRecord{seat: e.Seat, bid: e.Bid})
		s.highBid, s.highSeat = e.Bid, e.Seat
		s.turn = s.next(e.Seat)
	case BidPassed:
		s.bids = append(s.bids, bidRecord{seat: e.Seat})
		s.turn = s.next(e.Seat)
	case LandlordChosen:
		s.landlord, s.bid = e.Seat, e.Bid
		s.hands[e.Seat].Add(e.Kitty...)
		s.kittyShown = true
		s.phase = phasePlaying
		s.turn, s.last, s.passes = e.Seat, nil, 0
	case CardsPlayed:
		hand := &s.hands[e.Seat]
		for _, c := range e.Cards {
			i := c.Index()
			if i < 0 || hand[i] == 0 {
				panic(fmt.Sprintf("doudizhu: corrupt stream: seat %d plays %s it does not hold", e.Seat, cards.Format(e.Cards)))
			}
			hand[i]--
			s.played[i]++
		}
		s.plays[e.Seat]++
		s.last = &play{seat: e.Seat, cards: slices.Clone(e.Cards), reading: e.Reading}
		s.passes = 0
		s.turn = s.next(e.Seat)
	case PlayPassed:
		s.passes++
		s.turn = s.next(e.Seat)
		if s.passes == s.v.seats-1 {
			// Everyone else passed: the last player leads anything.
			s.last, s.passes = nil, 0
		}
	case table.DealVoided:
		s.phase = phaseWaiting
	case table.HandSettled:
		s.phase = phaseWaiting
		s.handsDone++
	}
	return s
}

func (s *State) startDeal(e table.HandDealt) {
	s.hand, s.deal = e.Hand, e.Deal
	s.phase = phaseBidding
	s.firstSeat, s.turn = e.FirstSeat, e.FirstSeat
	s.seed = ""
	s.hands = [maxSeats]cards.Multiset{}
	for i, h := range e.Hands {
		s.hands[i] = cards.Of(h)
	}
	s.kitty = slices.Clone(e.Kitty)
	s.kittyShown = false
	s.played = cards.Multiset{}
	s.bids = s.bids[:0:0]
	s.highBid, s.highSeat = 0, -1
	s.landlord, s.bid = -1, 0
	s.last, s.passes = nil, 0
	s.plays = [maxSeats]int{}
}
