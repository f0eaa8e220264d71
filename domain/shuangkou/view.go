package shuangkou

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// GameView is the public state of the current (or last) deal, View's Game.
// Plays older than the current trick are not repeated here: the event feed
// has them.
type GameView struct {
	Hand int `json:"hand"`
	Deal int `json:"deal"`
	// Wild reports jokers wild in combinations (百变): both, or RJ alone
	// under the option wild "big" (the table's options say which).
	Wild bool `json:"wild"`
	// Sides are the two fixed partnerships, [[0, 2], [1, 3]] (partners sit
	// opposite, shuangkou.md); Partner is the viewer's partner, null for
	// spectators and the auditor.
	Sides   [][]int `json:"sides"`
	Partner *int    `json:"partner"`
	// FirstLeader is the seat that led the deal's first trick.
	FirstLeader *int `json:"first_leader"`
	// Leader is the seat that led the current trick.
	Leader *int `json:"leader"`
	// LastPlay is the play to beat; null when the player on turn leads.
	LastPlay  *PlayView `json:"last_play"`
	Passes    int       `json:"passes"`     // passes in a row since LastPlay
	CardsLeft []int     `json:"cards_left"` // per seat
	Finish    []int     `json:"finish"`     // seats out, in order (头游 first)
	Plays     []int     `json:"plays"`      // plays made per seat this deal
	// TrickMoves is each seat's move in the current trick, by seat: the
	// cards it played, a pass, or null before it moves. A lead clears the
	// trick before it, whose moves stay shown until then. Public: every
	// viewer sees them. Null before the first deal.
	TrickMoves []*climb.MoveView `json:"trick_moves"`
	// Match is the match of the option "hands"; absent without it.
	Match *MatchView `json:"match,omitempty"`
	// Hands holds every seat's cards, for the auditor only.
	Hands [][]cards.Card `json:"hands,omitempty"`
}

// MatchView is a match of the option "hands", decided by sides
// (shuangkou.md, Table options): Hands is the option, Played the hands
// settled, Sides the two sides' totals, Over true once MatchEnded.
type MatchView struct {
	Hands  int         `json:"hands"`
	Played int         `json:"played"`
	Over   bool        `json:"over"`
	Sides  []SideTotal `json:"sides"`
}

// PlayView is a play on the table.
type PlayView struct {
	Seat    int          `json:"seat"`
	Cards   []cards.Card `json:"cards"`
	Reading Reading      `json:"reading"`
}

// View is what seat sees: phase "waiting" (no deal running) or "playing";
// the seat's own cards (none for spectators); the public details of the
// deal; and, for the auditor, every hand.
func (r *Rules) View(s *State, seat int) table.View {
	v := table.View{Phase: s.phase.String()}
	if s.phase != phaseWaiting {
		v.Turn = table.Seat(s.turn)
	}
	if seat >= 0 && seat < seats && s.hand > 0 {
		v.Hand = s.handCards(seat)
	}
	g := GameView{Hand: s.hand, Deal: s.deal, Wild: r.v.wild != WildNone, Passes: s.passes, Finish: slices.Clone(s.finish),
		Sides: [][]int{{0, 2}, {1, 3}}}
	if seat >= 0 && seat < seats {
		g.Partner = table.Seat(partner(seat))
	}
	if g.Finish == nil {
		g.Finish = []int{}
	}
	if s.hand > 0 {
		g.FirstLeader = table.Seat(s.firstSeat)
		g.Leader = table.Seat(s.lastLead)
		g.CardsLeft = s.cardsLeft()
		g.Plays = slices.Clone(s.plays[:])
		g.TrickMoves = s.moves.View(seats)
	}
	if r.v.matchHands > 0 {
		g.Match = &MatchView{Hands: r.v.matchHands, Played: s.settled, Over: s.matchOver, Sides: sideStandings(s.totals[:])}
	}
	if s.last != nil {
		g.LastPlay = &PlayView{Seat: s.last.seat, Cards: slices.Clone(s.last.cards), Reading: s.last.reading}
	}
	if seat == table.Auditor {
		for i := range seats {
			g.Hands = append(g.Hands, s.handCards(i))
		}
	}
	v.Game = g
	return v
}

func (s *State) handCards(seat int) []cards.Card {
	cs := s.hands[seat].Cards()
	climb.Sort(cs)
	return cs
}
