package doudizhu

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
	phaseBidding
	phasePlaying
	phaseGrabbing // hubei, fourplayer: 抢地主 after the call phase
	phaseDoubling // option double: 加倍 between LandlordChosen and the first play
)

func (p phase) String() string {
	switch p {
	case phaseBidding:
		return "bidding"
	case phaseGrabbing:
		return "grabbing"
	case phasePlaying:
		return "playing"
	case phaseDoubling:
		return "doubling"
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
	table.Basics
	v *variant

	hand, deal int
	phase      phase
	firstSeat  int // first bidder of the current or last deal; -1 before the first deal
	handsDone  int // hands settled, for a match of v.matchHands

	hands      [maxSeats]cards.Multiset
	kitty      []cards.Card
	kittyShown bool
	played     cards.Multiset // every card played this deal

	bids     []bidRecord // in the order spoken
	highBid  int
	highSeat int
	landlord int // -1 until bidding ends
	bid      int

	// The grab phase (hubei, fourplayer): the call phase's winner, each word
	// spoken in order, and the provisional landlord (the last grabber, or
	// the caller). grabRecords always reallocates on append, like bids.
	caller      int // -1 outside the grab phase and before it
	grabRecords []grabRecord
	grabs       int  // grabs made, the grab-back included
	grabBack    bool // the caller grabbed back
	provisional int
	bidMult     int // the bidding's multiplier, fixed by LandlordChosen

	// The doubling phase (option double, 加倍): the words spoken, each
	// farmer's double and the landlord's double-back.
	doubleWords int
	doubled     [maxSeats]bool
	doubleBack  bool

	open           bool // the landlord plays open (明牌)
	bombs, rockets int  // played this deal

	turn   int
	last   *play         // the play to beat; nil when the player on turn leads
	passes int           // passes in a row since last
	moves  climb.Moves   // each seat's move in the current trick, for the views
	plays  [maxSeats]int // plays made by each seat this deal

	// match is never nil and never modified: Evolve replaces it (copy on
	// write), so clones share it and a State stays small to copy.
	match *matchState
}

// matchState is the match of the option "hands" (and the bookkeeping of an
// endless table): totals per seat, the players who held each seat in a dealt
// hand (in order, each once in a row), and whether the match has ended.
type matchState struct {
	totals      [maxSeats]int
	seatPlayers [maxSeats][]string
	over        bool
}

// withMatch returns a copy of s.match for Evolve to change; its slices
// reallocate on append.
func (s *State) withMatch() *matchState {
	m := *s.match
	for i, ps := range m.seatPlayers {
		m.seatPlayers[i] = ps[:len(ps):len(ps)]
	}
	s.match = &m
	return &m
}

type grabRecord struct {
	seat int
	grab bool
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
	return &State{v: v, firstSeat: -1, landlord: -1, highSeat: -1, caller: -1, provisional: -1, match: &matchState{}}
}

// Clone returns a copy that evolves independently of s.
func (s *State) Clone() table.GameState {
	c := *s
	// An append to these reallocates, so the copy never writes into s's arrays.
	c.bids = s.bids[:len(s.bids):len(s.bids)]
	c.grabRecords = s.grabRecords[:len(s.grabRecords):len(s.grabRecords)]
	return &c
}

// NeedsDeal reports that no deal is running and the match wants another hand:
// always without the option "hands"; with it, until MatchEnded.
func (s *State) NeedsDeal() bool {
	return s.phase == phaseWaiting && !s.match.over
}

func (s *State) next(seat int) int { return (seat + 1) % s.v.seats }

// speaking reports a phase of words (bidding, grabbing, doubling), where
// Legal lists a few actions and no play.
func (s *State) speaking() bool {
	return s.phase == phaseBidding || s.phase == phaseGrabbing || s.phase == phaseDoubling
}

// multiplier is the current multiplier, public in every view and what an
// escape is charged at (doudizhu.md, Escape). classic: the bid once bidding
// has ended, 1 before (with bomb_double × 2 per bomb and rocket so far). hubei, fourplayer: 1 in the call phase; then the
// bid × 2 per grab (at most the ceiling); in the play also × 2 if open, × 2
// per bomb and × 4 per rocket played so far.
func (s *State) multiplier() int {
	switch {
	case !s.v.grab:
		if s.landlord < 0 {
			return 1
		}
		if s.v.opt.bombDouble {
			// doudizhu.md, Table options, bomb_double: each counts at once.
			return s.bid * pow(2, s.bombs+s.rockets)
		}
		return s.bid
	case s.phase == phaseGrabbing:
		return s.grabMultiplier(s.grabs)
	case s.landlord < 0:
		return 1
	}
	m := s.bidMult
	if s.open {
		m *= 2
	}
	return m * pow(2, s.bombs) * pow(4, s.rockets)
}

// grabMultiplier is the bid × 2 per grab, capped at the variant's ceiling
// (004: 该轮最大基础分为本次对局分的24倍).
func (s *State) grabMultiplier(grabs int) int {
	m := s.highBid
	for range grabs {
		m *= 2
		if m >= s.v.ceiling {
			return s.v.ceiling
		}
	}
	return m
}

func pow(b, e int) int {
	n := 1
	for range e {
		n *= b
	}
	return n
}

// landlordNow is the landlord, or during the grab phase the provisional
// landlord; -1 before a call has won.
func (s *State) landlordNow() int {
	if s.phase == phaseGrabbing {
		return s.provisional
	}
	return s.landlord
}

// mayOpen reports whether seat may play open (明牌) now: the landlord of a
// grab variant, on turn before their first play (doudizhu.md, hubei 明牌).
func (s *State) mayOpen(seat int) bool {
	return s.v.grab && s.phase == phasePlaying && seat == s.landlord && s.turn == seat &&
		!s.open && s.plays[seat] == 0
}

// grabTurn is the seat to speak after n words of the grab phase: the seats
// that may grab in turn after the caller, then the caller (to grab back).
func (s *State) grabTurn(n int) int {
	if g := s.grabbers(s.caller, -1, false); n < len(g) {
		return g[n]
	}
	return s.caller
}

// grabbers lists the seats that may grab from caller, in turn after it: every
// other seat but those that passed (不叫) when it was their turn to call
// (doudizhu.md, Bidding, hubei, revised Decision; 004: 叫分不叫视放弃). A
// seat that called and was outbid may grab, and so may a seat that never
// spoke because a top call ended the call phase. Deciding the last call,
// the bids recorded so far lack it: speaker (≥ 0) is the seat speaking it,
// and passed says whether it is a pass. Under rules /1 (grabAfterPass) every
// other seat may grab.
func (s *State) grabbers(caller, speaker int, passed bool) []int {
	var out []int
	for i := 1; i < s.v.seats; i++ {
		seat := (caller + i) % s.v.seats
		if s.v.grabAfterPass {
			out = append(out, seat)
			continue
		}
		gaveUp := seat == speaker && passed
		for _, b := range s.bids {
			if b.seat == seat && b.bid == 0 {
				gaveUp = true
			}
		}
		if !gaveUp {
			out = append(out, seat)
		}
	}
	return out
}

// doubleSeat is the seat to speak the n-th word of the doubling phase
// (doudizhu.md, Table options, double): the farmers in seat order from the
// landlord's next seat, then the landlord if a farmer doubled; -1 when the
// phase is over.
func (s *State) doubleSeat(n int) int {
	farmers := s.v.seats - 1
	switch {
	case n < farmers:
		return (s.landlord + 1 + n) % s.v.seats
	case n == farmers && slices.Contains(s.doubled[:s.v.seats], true):
		return s.landlord
	}
	return -1
}

// factor is farmer seat's double factor: ×2 if it doubled, ×2 more if the
// landlord doubled back (doudizhu.md, Table options, double).
func (s *State) factor(seat int) int {
	switch {
	case !s.doubled[seat]:
		return 1
	case s.doubleBack:
		return 4
	}
	return 2
}

func (s *State) cardsLeft() []int {
	left := make([]int, s.v.seats)
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
	case BidMade:
		s.bids = append(s.bids, bidRecord{seat: e.Seat, bid: e.Bid})
		s.highBid, s.highSeat = e.Bid, e.Seat
		s.turn = s.next(e.Seat)
	case BidPassed:
		s.bids = append(s.bids, bidRecord{seat: e.Seat})
		s.turn = s.next(e.Seat)
	case CallWon:
		s.phase = phaseGrabbing
		s.caller, s.provisional = e.Seat, e.Seat
		s.turn = s.grabTurn(0)
	case GrabMade:
		s.grabRecords = append(s.grabRecords, grabRecord{seat: e.Seat, grab: true})
		s.grabs++
		s.provisional = e.Seat
		s.grabBack = s.grabBack || e.Back
		s.turn = s.grabTurn(len(s.grabRecords))
	case GrabDeclined:
		s.grabRecords = append(s.grabRecords, grabRecord{seat: e.Seat})
		s.turn = s.grabTurn(len(s.grabRecords))
	case HandOpened:
		s.open = true
	case LandlordChosen:
		s.landlord, s.bid = e.Seat, e.Bid
		s.bidMult = e.Bid
		if e.Multiplier > 0 {
			s.bidMult = e.Multiplier
		}
		s.hands[e.Seat].Add(e.Kitty...)
		s.kittyShown = true
		s.phase = phasePlaying
		s.turn, s.last, s.passes = e.Seat, nil, 0
		if s.v.opt.double {
			s.phase, s.turn = phaseDoubling, s.doubleSeat(0)
		}
	case DoubleMade:
		if e.Back {
			s.doubleBack = true
		} else {
			s.doubled[e.Seat] = true
		}
		s.doubleSpoken()
	case DoublePassed:
		s.doubleSpoken()
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
		switch e.Reading.Type {
		case Bomb:
			s.bombs++
		case Rocket:
			s.rockets++
		}
		s.moves.Play(e.Seat, e.Cards, s.last == nil)
		s.last = &play{seat: e.Seat, cards: slices.Clone(e.Cards), reading: e.Reading}
		s.passes = 0
		s.turn = s.next(e.Seat)
	case PlayPassed:
		s.moves.Pass(e.Seat)
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
		m := s.withMatch()
		for i, d := range e.Deltas {
			if i < maxSeats {
				m.totals[i] += d
			}
		}
	case MatchEnded:
		s.withMatch().over = true
	}
	return s
}

// doubleSpoken moves the doubling phase on after a word: to the next seat
// to speak, or to the play, which the landlord leads.
func (s *State) doubleSpoken() {
	s.doubleWords++
	if s.turn = s.doubleSeat(s.doubleWords); s.turn < 0 {
		s.phase, s.turn = phasePlaying, s.landlord
	}
}

func (s *State) startDeal(e table.HandDealt) {
	s.hand, s.deal = e.Hand, e.Deal
	s.phase = phaseBidding
	s.firstSeat, s.turn = e.FirstSeat, e.FirstSeat
	s.Seed = ""
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
	s.caller, s.provisional, s.grabs, s.grabBack, s.bidMult = -1, -1, 0, false, 0
	s.grabRecords = s.grabRecords[:0:0]
	s.open, s.bombs, s.rockets = false, 0, 0
	s.doubleWords, s.doubled, s.doubleBack = 0, [maxSeats]bool{}, false
	s.last, s.passes = nil, 0
	s.moves = climb.Moves{}
	s.plays = [maxSeats]int{}
	for i := range s.v.seats {
		if ps := s.match.seatPlayers[i]; len(ps) == 0 || ps[len(ps)-1] != s.Players[i] {
			m := s.withMatch()
			m.seatPlayers[i] = append(m.seatPlayers[i], s.Players[i])
		}
	}
}
