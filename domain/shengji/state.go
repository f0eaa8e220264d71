package shengji

import (
	"encoding/json"
	"fmt"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

type phase uint8

const (
	phaseWaiting phase = iota // no deal running
	phaseDrawing              // 26 draw rounds; declarations open
	phaseWindow               // after the last card, until every seat passed once
	phaseBurying              // the dealer holds 30 cards and buries 4
	phasePlaying              // tricks until the hands are empty
	// phaseExchanging (guafeng, 粘牌): after the bury, the sticker trades
	// cards with each stuck seat before the first trick.
	phaseExchanging
)

func (p phase) String() string {
	switch p {
	case phaseDrawing:
		return "drawing"
	case phaseWindow:
		return "declaring"
	case phaseBurying:
		return "burying"
	case phasePlaying:
		return "playing"
	case phaseExchanging:
		return "exchanging"
	}
	return "waiting"
}

// declaration is one TrumpDeclared, with its reinforcements (續牌).
type declaration struct {
	seat   int
	cards  []cards.Card
	suit   cards.Suit
	pairs  int
	jokers int
	kind   string      // guafeng: "", "override" or "stick"
	stuck  []stuckDecl // a stick's stuck declarations
}

// stuckDecl is a declaration a stick takes after the bury (粘牌): the seat,
// its declared cards and how many of them are jokers.
type stuckDecl struct {
	seat   int
	cards  []cards.Card
	jokers int
}

type trickPlay struct {
	seat  int
	cards []cards.Card
}

// State is the game state of one table, folded from its events: the match
// (levels, dealer, totals) and the running deal. It holds the running deal's
// seed and every dealt card, which View shows only as the rules allow.
//
// Evolve never writes into a slice it has stored (it replaces them), so
// Clone shares those and copies the rest.
type State struct {
	table.Basics
	v *variant
	o options

	// The match. levels[side] is 1 (A) … 13 (K), 14 once past K (from a
	// start_level of 2: 2 … 13 (K), 14 (A), 15 once past A).
	// matchDealer is the dealer of the next (or running) hand, -1 while the
	// first-hand rule still chooses it (no hand played out yet).
	levels [2]int
	// dealLevels are the levels as the running deal began. A 悶牌 drop
	// (LevelDropped) changes levels at once, but a deal that does not play
	// out (an escape, a void) is replayed as it would have been, so it
	// restores them (doc.go, Decisions: escape).
	dealLevels  [2]int
	matchDealer int
	handsDone   int
	over        bool
	totals      [seats]int
	// qiangbao: each side's match points and the hands played out.
	matchPts [2]int
	played   int

	// The running (or last) deal.
	hand, deal int
	phase      phase
	dealt      [seats][]cards.Card // each seat's cards in draw order
	kitty      []cards.Card        // in deck order, the flip order
	flipped    []cards.Card        // KittyFlipped's cards
	fallback   int                 // HandDealt.FirstSeat
	round      int                 // rounds drawn
	held       [seats]cards.Multiset
	decls      []declaration
	passed     [seats]bool
	order      Order
	dealer     int // this hand's dealer, -1 until known
	declarer   int // index into decls of the standing declaration, -1 if none
	// trumpSet: the hand's trump is decided (KittyFlipped, KittyTaken, or
	// qiangbao's public show); order.Trump means nothing before.
	trumpSet   bool
	trumpShown bool
	buried     []cards.Card
	burier     int         // takes and buries the kitty; the dealer but in guafeng
	owed       []stuckDecl // guafeng: exchanges the sticker still owes
	// gives and trumpsOwed (guafeng): the cards the sticker still gives
	// owed[0], and how many of them must still pay for trumps taken
	// (declare_guafeng.go, givesTrump).
	gives, trumpsOwed int
	// swapper (guafeng, 粘牌 kitty swap): the sticker once its kitty swap
	// has opened (it has seen the kitty), -1 before.
	swapper int
	// asBuried: the kitty as buried, kept for the burier's view once the
	// sticker may swap (nil before).
	asBuried []cards.Card

	turn      int
	trick     []trickPlay
	lastTrick []trickPlay
	tricks    int
	defPts    int // defenders' points from tricks
	dealPts   int // dealer side's points from tricks
	lastWin   int // winner of the last trick so far
}

func newState(v *variant, o options) *State {
	l := max(o.first(), v.fixedLevel)
	return &State{v: v, o: o, levels: [2]int{l, l}, dealLevels: [2]int{l, l}, matchDealer: -1, dealer: -1, declarer: -1, lastWin: -1, burier: -1, swapper: -1}
}

// Clone returns a copy that evolves independently of s.
func (s *State) Clone() table.GameState {
	c := *s
	c.decls = s.decls[:len(s.decls):len(s.decls)]
	c.trick = s.trick[:len(s.trick):len(s.trick)]
	return &c
}

// NeedsDeal reports that no deal is running and the match wants another
// hand: false once a side has passed K, or after the one hand of a
// single-hand table.
func (s *State) NeedsDeal() bool { return s.phase == phaseWaiting && !s.over }

// handLevel is the level of the hand about to be dealt: the dealer side's,
// or the first level in a first hand (both sides start there, start_level;
// an escape changes no level).
func (s *State) handLevel() int {
	if s.matchDealer >= 0 {
		return s.levels[sideOf(s.matchDealer)]
	}
	return s.levels[0]
}

// isDefender reports whether seat is on the defenders' side this hand.
func (s *State) isDefender(seat int) bool { return sideOf(seat) != sideOf(s.dealer) }

// Evolve applies an event to the state, in place. It panics only on a stream
// that contradicts itself (a seat playing cards it does not hold).
func (r *Rules) Evolve(s *State, p table.Payload) *State {
	s.Basics.Apply(p)
	switch e := p.(type) {
	case table.HandDealt:
		s.startDeal(e)
	case CardsDrawn:
		s.round = e.Round
		for seat := range seats {
			s.held[seat].Add(s.dealt[seat][e.Round-1])
		}
		if s.round == s.v.handSize {
			s.phase = phaseWindow
		}
	case TrumpDeclared:
		d := declaration{seat: e.Seat, cards: slices.Clone(e.Cards), suit: suitNamed(e.Suit), pairs: e.Pairs, jokers: e.Jokers, kind: e.Kind}
		if e.Kind == kindStick {
			d.stuck = s.stickTargets(e.Seat)
		}
		s.decls = append(s.decls, d)
		s.declarer = len(s.decls) - 1
		if s.v.qiangbao {
			// A level card is shown (亮出): its suit is trump at once.
			s.order.Trump, s.trumpShown, s.trumpSet = d.suit, true, true
		}
	case TrumpReinforced:
		decls := slices.Clone(s.decls)
		d := &decls[s.declarer]
		d.cards = append(slices.Clone(d.cards), e.Cards...)
		s.order.Sort(d.cards)
		d.jokers, d.pairs = e.Jokers, e.Pairs
		s.decls = decls
	case LevelDropped:
		s.levels[e.Side] = s.o.levelNumber(e.Level)
		s.order.Level = levelRank(s.levels[e.Side])
	case DeclarePassed:
		s.passed[e.Seat] = true
	case KittyFlipped:
		s.flipped = e.Cards
		s.order.Trump = suitNamed(e.Suit)
		s.trumpShown, s.trumpSet = true, true
	case KittyTaken:
		s.trumpSet = true
		s.dealer, s.burier = e.Seat, e.Seat
		if e.Burier != nil {
			s.burier = *e.Burier
		}
		if s.declarer >= 0 {
			s.order.Trump = s.decls[s.declarer].suit
		}
		s.held[s.burier].Add(s.kitty...)
		s.phase, s.turn = phaseBurying, s.burier
	case KittyBuried:
		s.remove(e.Seat, e.Cards)
		if s.v.qiangbao {
			// One card per KittyBuried until the kitty's 8 are down.
			s.buried = append(slices.Clone(s.buried), e.Cards...)
			if len(s.buried) == s.v.kittyLen {
				s.phase, s.turn = phasePlaying, s.dealer
			}
			break
		}
		s.buried = slices.Clone(e.Cards)
		s.phase, s.turn = phasePlaying, s.dealer
		if s.declarer >= 0 && len(s.decls[s.declarer].stuck) > 0 {
			s.owed = s.decls[s.declarer].stuck
			s.phase, s.turn = phaseExchanging, s.decls[s.declarer].seat
		}
	case DeclarationTaken:
		s.remove(e.From, e.Cards)
		s.held[e.Seat].Add(e.Cards...)
		s.gives, s.trumpsOwed = len(e.Cards), e.Trumps
	case CardGiven:
		if len(e.Cards) != 1 {
			panic(fmt.Sprintf("shengji: corrupt stream: seat %d gives %d cards in one CardGiven", e.Seat, len(e.Cards)))
		}
		paid := s.givesTrump(e.Seat, e.Cards[0]) // before the card leaves
		s.remove(e.Seat, e.Cards)
		s.held[e.To].Add(e.Cards...)
		s.gives--
		if paid {
			s.trumpsOwed--
		}
		if s.gives == 0 {
			s.owed = s.owed[1:]
			if len(s.owed) == 0 {
				s.phase, s.turn = phasePlaying, s.dealer
			}
		}
	case KittySwapOpened, KittySwapped, KittySwapClosed:
		s.evolveSwap(e)
	case TrumpRevealed:
		s.trumpShown = true
	case CardsPlayed:
		s.remove(e.Seat, e.Cards)
		s.trick = append(s.trick, trickPlay{seat: e.Seat, cards: slices.Clone(e.Cards)})
		s.turn = (e.Seat + 1) % seats
	case TrickWon:
		s.tricks = e.Trick
		if s.isDefender(e.Seat) {
			s.defPts += e.Points
		} else {
			s.dealPts += e.Points
		}
		s.lastTrick, s.trick = s.trick, nil
		s.turn, s.lastWin = e.Seat, e.Seat
	case table.DealVoided:
		s.phase = phaseWaiting
		s.levels = s.dealLevels
		s.trumpSet = false
	case table.HandSettled:
		s.phase = phaseWaiting
		s.handsDone++
		for i, d := range e.Deltas {
			s.totals[i] += d
		}
		s.applyResult(e.Result)
	}
	return s
}

func (s *State) remove(seat int, cs []cards.Card) {
	if !s.held[seat].Remove(cs) {
		panic(fmt.Sprintf("shengji: corrupt stream: seat %d gives up %s it does not hold", seat, cards.Format(cs)))
	}
}

func (s *State) startDeal(e table.HandDealt) {
	s.hand, s.deal = e.Hand, e.Deal
	s.phase = phaseDrawing
	s.Seed = ""
	for i := range seats {
		s.dealt[i] = slices.Clone(e.Hands[i])
	}
	s.kitty = slices.Clone(e.Kitty)
	s.flipped = nil
	s.fallback = e.FirstSeat
	s.round = 0
	s.held = [seats]cards.Multiset{}
	s.decls = nil
	s.passed = [seats]bool{}
	s.dealLevels = s.levels
	s.order = Order{Level: levelRank(s.handLevel()), Trump: cards.Joker, Fixed: s.v.fixedTrumps}
	s.dealer = s.matchDealer
	s.declarer = -1
	s.trumpSet, s.trumpShown = false, false
	s.buried = nil
	s.burier, s.owed = -1, nil
	s.gives, s.trumpsOwed = 0, 0
	s.swapper, s.asBuried = -1, nil
	s.trick, s.lastTrick = nil, nil
	s.tricks, s.defPts, s.dealPts, s.lastWin = 0, 0, 0, -1
}

// applyResult carries a played-out hand's outcome into the match: the next
// dealer and the levels are read from the settlement, never re-derived. An
// escape changes neither (the hand is replayed as it would have been): the
// levels go back to where the deal found them, before any 悶牌 drop.
func (s *State) applyResult(raw json.RawMessage) {
	var res Result
	if err := json.Unmarshal(raw, &res); err != nil {
		panic(fmt.Sprintf("shengji: corrupt stream: settlement result: %v", err))
	}
	if !s.o.Match {
		s.over = true
	}
	if res.End != endPlayedOut {
		s.levels = s.dealLevels
		return
	}
	if res.NextDealer != nil {
		s.matchDealer = *res.NextDealer
	}
	if res.MatchPoints != nil {
		s.matchPts = [2]int{res.MatchPoints[0], res.MatchPoints[1]}
	}
	s.played++
	for side, name := range res.Levels {
		s.levels[side] = s.o.levelNumber(name)
	}
	if res.MatchWinner != nil {
		s.over = true
	}
}

// levelNumber reads back a level of a match started at A (the default
// start_level); options.levelNumber is the table's.
func levelNumber(name string) int { return options{}.levelNumber(name) }
