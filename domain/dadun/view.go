package dadun

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// The roles a seat may know itself by (GameView.Role).
const (
	RoleBanker   = "banker"   // holds the turned card
	RoleFriend   = "friend"   // holds the other copy of the friend card
	RoleOpponent = "opponent" // neither: plays against the banker
	RoleSoloist  = "soloist"  // went alone (打独)
)

// GameView is the public state of the current (or last) deal, View's Game,
// plus the viewer's own role. Plays older than the current trick are not
// repeated here: the event feed has them.
type GameView struct {
	Hand int `json:"hand"`
	Deal int `json:"deal"`
	// Turned is the card turned up before the deal; Banker its holder.
	Turned *cards.Card `json:"turned"`
	Banker *int        `json:"banker"`
	// FriendCard is the card whose other copy makes the friend: the turned
	// card, or the card the banker called; null while the banker holding
	// both copies has not called, and in 打独.
	FriendCard *cards.Card `json:"friend_card"`
	// Role is the viewer's own role, which its own cards tell it: banker,
	// friend, opponent or soloist ("" for spectators and the auditor, and
	// before the card is turned; before a banker holding both copies calls,
	// the others are "opponent").
	Role string `json:"role"`
	// Friend is the friend's seat once FriendRevealed made it public (the
	// auditor always sees it); null otherwise and in 打独.
	Friend  *int `json:"friend"`
	Soloist *int `json:"soloist"`
	// Sides are the two sides (the banker's or the soloist first) once
	// public; null before. SidePoints: the points each of them took in
	// tricks so far (Captured summed), null exactly when Sides is.
	Sides      [][]int `json:"sides"`
	SidePoints []int   `json:"side_points"`
	// Partners: the viewer's own side-mates as far as the viewer may know
	// them: the friend knows the banker from its own cards; the banker and
	// the opponents learn theirs only when the sides are public; a soloist
	// has none ([]), its opponents each other. Null while unknown, and for
	// spectators and the auditor (Sides and Friend are theirs).
	Partners []int `json:"partners"`
	// Declined counts the seats that declined going alone.
	Declined int `json:"declined"`
	// Leader is the seat that led the current trick.
	Leader *int `json:"leader"`
	// LastPlay is the play to beat; null when the player on turn leads.
	LastPlay    *PlayView `json:"last_play"`
	Passes      int       `json:"passes"`       // passes in a row since LastPlay
	TrickPoints int       `json:"trick_points"` // points played in the current trick
	Captured    []int     `json:"captured"`     // points taken in tricks, per seat
	CardsLeft   []int     `json:"cards_left"`   // per seat
	Finish      []int     `json:"finish"`       // seats out, in order (头游 first)
	Plays       []int     `json:"plays"`        // plays made per seat this deal
	// TrickMoves is each seat's move in the current trick, by seat: the
	// cards it played, a pass, or null before it moves. A lead clears the
	// trick before it, whose moves stay shown until then. Public: every
	// viewer sees them. Null before the first deal.
	TrickMoves []*climb.MoveView `json:"trick_moves"`
	Awards     []Award           `json:"awards"` // plays that earned 盾 awards this deal
	// Hands holds every seat's cards, for the auditor only.
	Hands [][]cards.Card `json:"hands,omitempty"`
}

// PlayView is a play on the table.
type PlayView struct {
	Seat    int          `json:"seat"`
	Cards   []cards.Card `json:"cards"`
	Reading Reading      `json:"reading"`
}

// View is what seat sees: phase "waiting" (no deal running), "declaring"
// (the go-alone round) or "playing"; the seat's own cards (none for
// spectators); the public details of the deal with the seat's own role; and,
// for the auditor, every hand and the friend.
func (r *Rules) View(s *State, seat int) table.View {
	v := table.View{Phase: s.phase.String()}
	if s.phase != phaseWaiting {
		v.Turn = table.Seat(s.turn)
	}
	own := seat >= 0 && seat < seats && s.hand > 0
	if own {
		v.Hand = s.handCards(seat)
	}
	g := GameView{Hand: s.hand, Deal: s.deal, Declined: s.declined, Passes: s.passes, TrickPoints: s.trick,
		Finish: slices.Clone(s.finish), Awards: slices.Clone(s.awards)}
	if g.Finish == nil {
		g.Finish = []int{}
	}
	if g.Awards == nil {
		g.Awards = []Award{}
	}
	// The card is turned by CardTurned, in the batch that deals but after
	// HandDealt and DealSecret: a view after either of those (GET
	// /state?at=N) has no turned card, banker, friend card or role yet.
	turnedUp := s.hand > 0 && s.turned.Valid()
	if turnedUp {
		turned := s.turned
		g.Turned, g.Banker = &turned, table.Seat(s.banker)
		if s.soloist < 0 && (!s.bothCopies || s.called) {
			fc := s.friendCard
			g.FriendCard = &fc
		}
	}
	if s.hand > 0 {
		g.Leader = table.Seat(s.lastLead)
		g.CardsLeft = s.cardsLeft()
		g.Captured = slices.Clone(s.captured[:])
		g.Plays = slices.Clone(s.plays[:])
		g.TrickMoves = s.moves.View(seats)
	}
	if s.soloist >= 0 {
		g.Soloist = table.Seat(s.soloist)
	}
	ended := s.phase == phaseWaiting && s.hand > 0
	if s.hand > 0 && (s.sidesPublic() || ended || seat == table.Auditor) {
		if s.friend >= 0 && s.soloist < 0 {
			g.Friend = table.Seat(s.friend)
		}
		if s.soloist >= 0 || s.friend >= 0 {
			g.Sides = s.sides()
			for _, side := range g.Sides {
				pts := 0
				for _, i := range side {
					pts += s.captured[i]
				}
				g.SidePoints = append(g.SidePoints, pts)
			}
		}
	}
	if own && turnedUp {
		g.Role = s.role(seat)
		g.Partners = s.partners(seat, g.Sides != nil)
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

// partners are seat's side-mates if seat may know them: always once the
// sides are public to it, and before that only the friend, who holds the
// friend card's other copy and so knows it plays with the banker (dadun.md:
// "nobody but the friend knows who it is until that copy is played").
func (s *State) partners(seat int, public bool) []int {
	if !public && !(s.soloist < 0 && seat == s.friend) {
		return nil
	}
	out := []int{}
	for i := range seats {
		if i != seat && s.side(i) == s.side(seat) {
			out = append(out, i)
		}
	}
	return out
}

// role is what seat knows of its own side from its cards and the public
// events: the banker holds the turned card, the friend the other copy of
// the friend card.
func (s *State) role(seat int) string {
	switch {
	case s.soloist == seat:
		return RoleSoloist
	case s.soloist >= 0:
		return RoleOpponent
	case seat == s.banker:
		return RoleBanker
	case seat == s.friend:
		return RoleFriend
	}
	return RoleOpponent
}
