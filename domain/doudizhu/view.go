package doudizhu

import (
	"encoding/json"
	"slices"
	"strconv"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// GameView is the public state of the current (or last) deal, View's Game.
// Plays older than the current trick are not repeated here: the event feed
// has them.
type GameView struct {
	Hand        int       `json:"hand"`
	Deal        int       `json:"deal"`
	FirstBidder *int      `json:"first_bidder"`
	Bids        []BidView `json:"bids"`
	Landlord    *int      `json:"landlord"`
	Bid         int       `json:"bid"`
	// Multiplier is the current multiplier (see State.multiplier): in
	// classic the bid once the landlord is known, 1 before; in hubei and
	// fourplayer also the grabs, open play, bombs and rockets so far.
	Multiplier int `json:"multiplier"`
	// The grab phase (hubei, fourplayer): the call's winner and each word
	// spoken; Provisional is the provisional landlord during the phase.
	Caller      *int       `json:"caller,omitempty"`
	Grabs       []GrabView `json:"grabs,omitempty"`
	Provisional *int       `json:"provisional,omitempty"`
	// Open: the landlord plays open (明牌); OpenHand is then the landlord's
	// current hand, shown to every viewer.
	Open     bool         `json:"open,omitempty"`
	OpenHand []cards.Card `json:"open_hand,omitempty"`
	Bombs    int          `json:"bombs,omitempty"`
	Rockets  int          `json:"rockets,omitempty"`
	// Cap is the option cap (封顶); Multiplier stays uncapped.
	Cap int `json:"cap,omitempty"`
	// The doubling phase (option double, 加倍), once the landlord is known:
	// each word spoken, and each farmer's factor so far (1, 2 or 4; 0 for
	// the landlord).
	Doubles []DoubleView `json:"doubles,omitempty"`
	Factors []int        `json:"factors,omitempty"`
	// Match is the match of the option "hands"; absent without it.
	Match *MatchView   `json:"match,omitempty"`
	Kitty []cards.Card `json:"kitty"` // null until shown to all
	// LastPlay is the play to beat; null when the player on turn leads.
	LastPlay *PlayView `json:"last_play"`
	Passes   int       `json:"passes"` // passes in a row since LastPlay
	// CardsLeft is per seat; with show_counts false another seat's count
	// is hidden (-1, null in JSON) above 2 (see View).
	CardsLeft SeatCounts `json:"cards_left"`
	Plays     []int      `json:"plays"` // plays made per seat this deal
	// TrickMoves is each seat's move in the current trick, by seat: the
	// cards it played, a pass, or null before it moves. A lead clears the
	// trick before it, whose moves stay shown until then. Public: every
	// viewer sees them. Null before the first deal.
	TrickMoves []*climb.MoveView `json:"trick_moves"`
	// Hands holds every seat's cards, for the auditor only.
	Hands [][]cards.Card `json:"hands,omitempty"`
}

// GrabView is one seat's word in the grab phase: a grab or a decline.
type GrabView struct {
	Seat int  `json:"seat"`
	Grab bool `json:"grab"`
}

// DoubleView is one seat's word in the doubling phase; Back marks the
// landlord's double-back.
type DoubleView struct {
	Seat   int  `json:"seat"`
	Double bool `json:"double"`
	Back   bool `json:"back,omitempty"`
}

// SeatCounts is a count per seat where -1 is a count the viewer may not
// see, null in JSON.
type SeatCounts []int

// MarshalJSON writes a hidden count as null.
func (c SeatCounts) MarshalJSON() ([]byte, error) {
	if c == nil {
		return []byte("null"), nil
	}
	b := []byte{'['}
	for i, n := range c {
		if i > 0 {
			b = append(b, ',')
		}
		if n < 0 {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, int64(n), 10)
		}
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads null as a hidden count, -1.
func (c *SeatCounts) UnmarshalJSON(data []byte) error {
	var ps []*int
	if err := json.Unmarshal(data, &ps); err != nil {
		return err
	}
	if ps == nil {
		*c = nil
		return nil
	}
	out := make(SeatCounts, len(ps))
	for i, p := range ps {
		out[i] = -1
		if p != nil {
			out[i] = *p
		}
	}
	*c = out
	return nil
}

// MatchView is a match's progress: the hands it plays, the hands settled, and
// the standings per seat so far (final once Over).
type MatchView struct {
	Hands     int        `json:"hands"`
	Played    int        `json:"played"`
	Over      bool       `json:"over"`
	Standings []Standing `json:"standings"`
}

// BidView is one seat's word in the bidding: a bid of 1..3, or a pass.
type BidView struct {
	Seat int  `json:"seat"`
	Bid  int  `json:"bid,omitempty"`
	Pass bool `json:"pass,omitempty"`
}

// PlayView is a play on the table.
type PlayView struct {
	Seat    int          `json:"seat"`
	Cards   []cards.Card `json:"cards"`
	Reading Reading      `json:"reading"`
}

// View is what seat sees: phase "waiting" (no deal running), "bidding",
// "grabbing", "doubling" or "playing"; the seat's own cards (none for spectators); the public details
// of the deal; and, for the auditor, every hand and the kitty.
func (r *Rules) View(s *State, seat int) table.View {
	v := table.View{Phase: s.phase.String()}
	if s.phase != phaseWaiting {
		v.Turn = table.Seat(s.turn)
	}
	if seat >= 0 && seat < s.v.seats && s.hand > 0 {
		v.Hand = s.handCards(seat)
	}
	g := GameView{Hand: s.hand, Deal: s.deal, Bid: s.bid, Multiplier: s.multiplier(), Passes: s.passes}
	if s.hand > 0 {
		g.FirstBidder = table.Seat(s.firstSeat)
		g.CardsLeft = s.countsSeenBy(seat)
		g.Plays = slices.Clone(s.plays[:s.v.seats])
		g.TrickMoves = s.moves.View(s.v.seats)
	}
	g.Cap = s.v.opt.cap
	if s.v.opt.double && s.landlord >= 0 {
		g.Doubles, g.Factors = s.doubleViews()
	}
	for _, b := range s.bids {
		g.Bids = append(g.Bids, BidView{Seat: b.seat, Bid: b.bid, Pass: b.bid == 0})
	}
	if s.landlord >= 0 {
		g.Landlord = table.Seat(s.landlord)
	}
	if s.caller >= 0 {
		g.Caller = table.Seat(s.caller)
		for _, gr := range s.grabRecords {
			g.Grabs = append(g.Grabs, GrabView{Seat: gr.seat, Grab: gr.grab})
		}
		if s.phase == phaseGrabbing {
			g.Provisional = table.Seat(s.provisional)
		}
	}
	g.Bombs, g.Rockets = s.bombs, s.rockets
	if s.open && s.landlord >= 0 {
		g.Open = true
		g.OpenHand = s.handCards(s.landlord)
	}
	if s.v.matchHands > 0 {
		totals := make([]int, s.v.seats)
		copy(totals, s.match.totals[:])
		g.Match = &MatchView{Hands: s.v.matchHands, Played: s.handsDone, Over: s.match.over, Standings: standings(totals, &s.match.seatPlayers)}
	}
	if s.kittyShown || seat == table.Auditor {
		g.Kitty = slices.Clone(s.kitty)
	}
	if s.last != nil {
		g.LastPlay = &PlayView{Seat: s.last.seat, Cards: slices.Clone(s.last.cards), Reading: s.last.reading}
	}
	if seat == table.Auditor {
		for i := range s.v.seats {
			g.Hands = append(g.Hands, s.handCards(i))
		}
	}
	v.Game = g
	return v
}

// countsSeenBy is cards_left as seat sees it (doudizhu.md, Table options,
// show_counts): every count by default; with show_counts false only its own,
// another seat's at 2 or fewer (报牌) and the open landlord's, until the
// hand is over. The auditor sees every count.
func (s *State) countsSeenBy(seat int) SeatCounts {
	left := SeatCounts(s.cardsLeft())
	if !s.v.opt.hideCounts || seat == table.Auditor || s.phase == phaseWaiting {
		return left
	}
	for i, n := range left {
		if i != seat && n > 2 && !(s.open && i == s.landlord) {
			left[i] = -1
		}
	}
	return left
}

// doubleViews is the doubling phase's words so far and each farmer's
// factor.
func (s *State) doubleViews() ([]DoubleView, []int) {
	words := make([]DoubleView, 0, s.doubleWords)
	for n := range s.doubleWords {
		seat := s.doubleSeat(n)
		if seat == s.landlord {
			words = append(words, DoubleView{Seat: seat, Double: s.doubleBack, Back: s.doubleBack})
			continue
		}
		words = append(words, DoubleView{Seat: seat, Double: s.doubled[seat]})
	}
	factors := make([]int, s.v.seats)
	for i := range factors {
		if i != s.landlord {
			factors[i] = s.factor(i)
		}
	}
	return words, factors
}

func (s *State) handCards(seat int) []cards.Card {
	cs := s.hands[seat].Cards()
	climb.Sort(cs)
	return cs
}
