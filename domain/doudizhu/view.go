package doudizhu

import (
	"slices"

	"paiju/domain/cards"
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
	// Multiplier is the current multiplier: the bid once the landlord is
	// known, 1 before (doudizhu.md, Escape).
	Multiplier int          `json:"multiplier"`
	Kitty      []cards.Card `json:"kitty"` // null until shown to all
	// LastPlay is the play to beat; null when the player on turn leads.
	LastPlay  *PlayView `json:"last_play"`
	Passes    int       `json:"passes"`     // passes in a row since LastPlay
	CardsLeft []int     `json:"cards_left"` // per seat
	Plays     []int     `json:"plays"`      // plays made per seat this deal
	// Hands holds every seat's cards, for the auditor only.
	Hands [][]cards.Card `json:"hands,omitempty"`
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

// View is what seat sees: phase "waiting" (no deal running), "bidding" or
// "playing"; the seat's own cards (none for spectators); the public details
// of the deal; and, for the auditor, every hand and the kitty.
func (r *Rules) View(gs table.GameState, seat int) table.View {
	s, err := r.state(gs)
	if err != nil {
		return table.View{Phase: phaseWaiting.String()}
	}
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
		g.CardsLeft = s.cardsLeft()
		g.Plays = slices.Clone(s.plays[:s.v.seats])
	}
	for _, b := range s.bids {
		g.Bids = append(g.Bids, BidView{Seat: b.seat, Bid: b.bid, Pass: b.bid == 0})
	}
	if s.landlord >= 0 {
		g.Landlord = table.Seat(s.landlord)
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

func (s *State) handCards(seat int) []cards.Card {
	cs := s.hands[seat].Cards()
	Sort(cs)
	return cs
}
