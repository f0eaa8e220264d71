package shengji

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// GameView is the public state of the current (or last) deal as one seat may
// see it, View's Game.
type GameView struct {
	Hand  int  `json:"hand"`
	Deal  int  `json:"deal"`
	Match bool `json:"match"`
	// Levels: each side's level (side 0 = seats 0 and 2), as Sides has
	// them too; Level the hand's level rank, null before the first deal;
	// Dealer null until the first hand's dealer is known.
	Levels []string `json:"levels"`
	Level  *string  `json:"level"`
	Dealer *int     `json:"dealer"`
	// Sides: side 0 (seats 0 and 2) and side 1 (seats 1 and 3), with their
	// level, role this hand and points taken in tricks.
	Sides []SideView `json:"sides"`
	// Round: draw rounds done (0..26). Passed: who passed in the final window.
	Round  int    `json:"round"`
	Passed []bool `json:"passed"`
	// Declarations in order; Declarer is the standing one's seat.
	Declarations []DeclarationView `json:"declarations"`
	Declarer     *int              `json:"declarer"`
	// Trump is the trump suit ("S", "H", "C", "D"), or "none" when the hand
	// has no trump suit (qiangbao's 无主), once the viewer may know it:
	// when it is public, to the final declarer from the moment it is fixed
	// (the kitty taken), and to all once the hand is over; null before.
	Trump *string `json:"trump"`
	// TrumpOrder: every trump card, highest first, grouped into classes of
	// equal cards (shengji.md, Trump order): a card beats the cards of the
	// classes after its own; within a class the first played wins. Null
	// exactly when Trump is.
	TrumpOrder [][]cards.Card `json:"trump_order"`
	// SideOrder: the ranks of a side suit's cards, highest first (the level
	// and, in guafeng, 2, 3 and 5 are trumps and left out); null before the
	// first deal. It does not depend on the trump suit.
	SideOrder []string     `json:"side_order"`
	Flipped   []cards.Card `json:"flipped"`
	// Kitty: the kitty the dealer took, then the buried cards: shown to the
	// dealer (guafeng: the burier, as it buried them; and the sticker once
	// its kitty swap opens, as they are) only, and to all once the hand is
	// over.
	Kitty []cards.Card `json:"kitty"`
	Turn  *int         `json:"turn"`
	// Trick: the plays of the running trick; TrickWinner the seat whose
	// play wins it so far (null with no trick running).
	Trick       []PlayView `json:"trick"`
	TrickWinner *int       `json:"trick_winner"`
	LastTrick   []PlayView `json:"last_trick"`
	Tricks      int        `json:"tricks"`
	// DefenderPoints: the defenders' points from tricks so far; null until
	// the hand is over when the table hides them (show_points false,
	// view-only: shengji.md, Table options).
	DefenderPoints *int  `json:"defender_points"`
	CardsLeft      []int `json:"cards_left"`
	Totals         []int `json:"totals"`
	// Burier (guafeng) is the seat that takes and buries the kitty when it
	// is not the dealer; Owed the stuck seats the sticker still exchanges
	// with (phase "exchanging"), the first one being given OwedCards more
	// cards, OwedTrumps of them jokers, level cards, 2s, 3s or 5s (shown
	// to the sticker and that seat only: it tells whether the hidden card
	// given was one).
	Burier     *int  `json:"burier,omitempty"`
	Owed       []int `json:"owed,omitempty"`
	OwedCards  int   `json:"owed_cards,omitempty"`
	OwedTrumps int   `json:"owed_trumps,omitempty"`
	// MatchPoints (qiangbao): each side's match points so far.
	MatchPoints []int `json:"match_points,omitempty"`
	// Swapper (guafeng, 粘牌 kitty swap): the sticker, once it has given
	// back every card: it may swap kitty cards until it passes (phase
	// "exchanging" with nobody owed), and sees the kitty from then on.
	Swapper *int `json:"swapper,omitempty"`
	// Hands holds every seat's cards, for the auditor only.
	Hands [][]cards.Card `json:"hands,omitempty"`
}

// The roles of a side in a hand (shengji.md: the dealer side, 庄家方, and
// the defenders, 抓分方, who collect the point cards).
const (
	RoleDealer    = "dealer"
	RoleDefenders = "defenders"
)

// SideView is one partnership as every seat sees it.
type SideView struct {
	Seats []int `json:"seats"`
	// Level: the side's level, "A" … "K", or "won" past K.
	Level string `json:"level"`
	// Role: RoleDealer or RoleDefenders this hand; null until the dealer
	// is known (a first hand's draw).
	Role *string `json:"role"`
	// Points: the point cards (5, 10, K) the side took in this hand's
	// tricks so far; the kitty's are added only by the settlement. Null
	// while the table hides the points (show_points false) and the hand
	// runs.
	Points *int `json:"points"`
}

// DeclarationView is one declaration: the suit and cards only for the
// declarer (and everyone once revealed).
type DeclarationView struct {
	Seat   int          `json:"seat"`
	Jokers int          `json:"jokers"`
	Pairs  int          `json:"pairs"`
	Suit   string       `json:"suit,omitempty"`
	Cards  []cards.Card `json:"cards,omitempty"`
	// Kind and Stuck (guafeng): "override" (沖主) or "stick" (粘牌), and the
	// seats a stick takes the declaration cards of.
	Kind  string `json:"kind,omitempty"`
	Stuck []int  `json:"stuck,omitempty"`
}

// PlayView is a play in a trick.
type PlayView struct {
	Seat  int          `json:"seat"`
	Cards []cards.Card `json:"cards"`
}

// View is what seat sees: its cards drawn so far (never the undrawn ones),
// sorted without a trump suit it may not know (sortOrder), declarations
// without their suit until the kitty is buried, the kitty only as the
// dealer, and the public course of the hand.
func (r *Rules) View(s *State, seat int) table.View {
	v := table.View{Phase: s.phase.String()}
	if s.phase == phaseBurying || s.phase == phasePlaying || s.phase == phaseExchanging {
		v.Turn = table.Seat(s.turn)
	}
	own := seat >= 0 && seat < seats
	if own && s.hand > 0 {
		v.Hand = s.handCards(seat, s.sortOrder(seat))
	}
	all := seat == table.Auditor
	over := s.phase == phaseWaiting
	g := GameView{
		Hand: s.hand, Deal: s.deal, Match: s.o.Match,
		Round: s.round, Passed: slices.Clone(s.passed[:]), Tricks: s.tricks,
		Totals: slices.Clone(s.totals[:]), Turn: v.Turn,
		CardsLeft: s.cardsLeft(),
	}
	if s.hand > 0 {
		// Before the first deal the order holds no level (Rank 0).
		level := s.order.Level.String()
		g.Level, g.SideOrder = &level, s.order.sideOrder()
	}
	for _, l := range s.levels {
		g.Levels = append(g.Levels, s.o.levelName(l))
	}
	if s.dealer >= 0 {
		g.Dealer = table.Seat(s.dealer)
	}
	showPoints := !s.o.HidePoints || all || over
	if showPoints {
		def := s.defPts
		g.DefenderPoints = &def
	}
	g.Sides = s.sideViews(showPoints)
	for i, d := range s.decls {
		dv := DeclarationView{Seat: d.seat, Jokers: d.jokers, Pairs: d.pairs, Kind: d.kind}
		for _, st := range d.stuck {
			dv.Stuck = append(dv.Stuck, st.seat)
		}
		if all || d.seat == seat || over || (s.trumpShown && i == s.declarer) || s.v.qiangbao {
			dv.Suit, dv.Cards = suitName(d.suit), slices.Clone(d.cards)
		}
		g.Declarations = append(g.Declarations, dv)
	}
	if s.declarer >= 0 {
		g.Declarer = table.Seat(s.decls[s.declarer].seat)
	}
	if s.knowsTrump(seat) {
		trump := "none"
		if s.order.Trump != cards.Joker {
			trump = suitName(s.order.Trump)
		}
		g.Trump, g.TrumpOrder = &trump, s.order.trumpOrder()
	}
	if s.declarer < 0 && s.trumpShown {
		g.Flipped = slices.Clone(s.flipped)
	}
	if s.v.matchHands > 0 {
		g.MatchPoints = slices.Clone(s.matchPts[:])
	}
	if s.burier >= 0 && s.burier != s.dealer {
		g.Burier = table.Seat(s.burier)
	}
	for _, st := range s.owed {
		g.Owed = append(g.Owed, st.seat)
	}
	if s.swapper >= 0 {
		g.Swapper = table.Seat(s.swapper)
	}
	if s.phase == phaseExchanging && len(s.owed) > 0 {
		// The count of cards left is public (CardGiven.left); how many of
		// them must still be trumps tells whether the hidden card just
		// given was one, so only the two seats of the exchange see it.
		g.OwedCards = s.gives
		if all || seat == s.turn || seat == s.owed[0].seat {
			g.OwedTrumps = s.trumpsOwed
		}
	}
	switch {
	case s.buried != nil && (all || over || (s.swapper >= 0 && seat == s.swapper)):
		g.Kitty = slices.Clone(s.buried)
	case s.buried != nil && seat == s.burier:
		// The burier knows the kitty as it buried it; the sticker's
		// swaps are the sticker's own (shengji.md, 粘牌 kitty swap).
		g.Kitty = slices.Clone(s.buriedAs())
	case s.phase == phaseBurying && (all || seat == s.burier):
		g.Kitty = slices.Clone(s.kitty)
	}
	for _, p := range s.trick {
		g.Trick = append(g.Trick, PlayView{Seat: p.seat, Cards: slices.Clone(p.cards)})
	}
	if len(s.trick) > 0 {
		// Tricks are played only once the trump is public.
		win, _, _ := s.order.trickWinner(s.trick)
		g.TrickWinner = table.Seat(win)
	}
	for _, p := range s.lastTrick {
		g.LastTrick = append(g.LastTrick, PlayView{Seat: p.seat, Cards: slices.Clone(p.cards)})
	}
	if all {
		for i := range seats {
			g.Hands = append(g.Hands, s.handCards(i, s.order))
		}
	}
	v.Game = g
	return v
}

// knowsTrump reports whether viewer may know the hand's trump: once it is
// decided, when it is public or the hand is over, and before that only to
// the final declarer, who chose it (暗亮, shengji.md), and the auditor. In
// guafeng an overridden declarer or sticker knows only its own suit, which
// its declaration shows it.
func (s *State) knowsTrump(viewer int) bool {
	if !s.trumpSet {
		return false
	}
	return s.trumpShown || s.phase == phaseWaiting || viewer == table.Auditor ||
		(s.declarer >= 0 && s.decls[s.declarer].seat == viewer)
}

// sideViews are the two sides with their levels, roles and, when shown,
// trick points.
func (s *State) sideViews(showPoints bool) []SideView {
	out := make([]SideView, 2)
	for side := range out {
		sv := SideView{Seats: []int{side, side + 2}, Level: s.o.levelName(s.levels[side])}
		pts := 0
		if s.dealer >= 0 {
			role := RoleDefenders
			pts = s.defPts
			if side == sideOf(s.dealer) {
				role, pts = RoleDealer, s.dealPts
			}
			sv.Role = &role
		}
		if showPoints {
			sv.Points = &pts
		}
		out[side] = sv
	}
	return out
}

// trumpOrder lists every trump card highest first, the cards of equal
// position together (shengji.md, Trump order): the order of o.Pos inside
// the trump class.
func (o Order) trumpOrder() [][]cards.Card {
	byPos := make([][]cards.Card, maxPos+1)
	for i := range cards.DeckSize {
		if c := cards.FromIndex(i); o.IsTrump(c) {
			byPos[o.Pos(c)] = append(byPos[o.Pos(c)], c)
		}
	}
	var out [][]cards.Card
	for p := maxPos; p >= 0; p-- {
		if len(byPos[p]) > 0 {
			out = append(out, byPos[p])
		}
	}
	return out
}

// sideOrder lists the ranks of a side suit's cards highest first: the
// ranks that are no trump in a suit that is not the trump suit, which the
// level (and guafeng's fixed 2, 3, 5) alone decide.
func (o Order) sideOrder() []string {
	plain := o
	plain.Trump = cards.Joker
	var out []string
	for r := cards.Ace; r >= 2; r-- {
		if c := (cards.Card{Suit: cards.Spades, Rank: r}); !plain.IsTrump(c) {
			out = append(out, r.String())
		}
	}
	return out
}

// handCards is what seat holds: the cards drawn so far, less those played or
// buried, in the display order of o.
func (s *State) handCards(seat int, o Order) []cards.Card {
	cs := s.held[seat].Cards()
	o.Sort(cs)
	return cs
}

// sortOrder is the order in which viewer is shown cards: its hand, its legal
// actions. Between the kitty being taken and buried the trump suit is set
// (KittyTaken) but still hidden (暗亮, shengji.md), and sorting by it would
// show it: the trump suit's cards would lead the hand. So until the trump is
// public, a viewer who does not know it (all but the final declarer and the
// auditor; in guafeng an overridden declarer or sticker knows only its own
// suit) gets the order with no trump suit, which depends on the public
// level alone.
func (s *State) sortOrder(viewer int) Order {
	if s.trumpShown || s.phase == phaseWaiting || viewer == table.Auditor ||
		(s.declarer >= 0 && s.decls[s.declarer].seat == viewer) {
		return s.order
	}
	o := s.order
	o.Trump = cards.Joker
	return o
}

// Redact returns p as seat may see it (shengji.md; doc.go, Hidden
// information). The table has already cut HandDealt down to the seat's own
// cards; here even those go, because a seat sees a card only once it has
// drawn it (CardsDrawn). Until the deal ends: a declaration's suit and cards
// only to the declarer, the kitty taken and buried only to the dealer.
func (r *Rules) Redact(p table.Payload, seat int, handOver bool) table.Payload {
	if seat == table.Auditor || handOver {
		return p
	}
	switch e := p.(type) {
	case table.HandDealt:
		e.Hands = make([][]cards.Card, len(e.Hands))
		return e
	case CardsDrawn:
		mine := make([][]cards.Card, len(e.Cards))
		if seat >= 0 && seat < len(e.Cards) {
			mine[seat] = e.Cards[seat]
		}
		e.Cards = mine
		return e
	case TrumpDeclared:
		// qiangbao's level cards are shown (亮出), never hidden.
		if e.Seat != seat && !r.v.qiangbao {
			e.Cards, e.Suit = nil, ""
		}
		return e
	case KittyTaken:
		burier := e.Seat
		if e.Burier != nil {
			burier = *e.Burier
		}
		if burier != seat {
			e.Cards = nil
		}
		return e
	case TrumpReinforced:
		if e.Seat != seat {
			e.Cards = nil
		}
		return e
	case CardGiven:
		if e.Seat != seat && e.To != seat {
			e.Cards = nil
		}
		return e
	case KittyBuried:
		if e.Seat != seat {
			e.Cards = nil
		}
		return e
	case KittySwapOpened:
		if e.Seat != seat {
			e.Kitty = nil
		}
		return e
	case KittySwapped:
		if e.Seat != seat {
			e.Cards = nil
		}
		return e
	}
	return p
}
