package shengji

import (
	"paiju/domain/cards"
	"paiju/domain/table"
)

// The bot (table.Autoplay.BotAction). It decides from the seat's view and
// legal actions only, scoring each legal action once (linear in the legal
// list: a free discard may list hundreds of thousands of plays) and taking
// the first of the best. doc.go, "Turn clock, timeouts and the bot", says
// what it plays.

// botView is what the bot reads off a view: the order it may know (no
// trump suit before the trump is public to the seat), its hand, and the
// trick.
type botView struct {
	o     Order
	hand  cards.Multiset
	g     GameView
	me    int // the seat, known when it is the seat's turn; -1 otherwise
	first bool
	// handSize is the variant's draw rounds.
	handSize int
}

func newBotView(v *variant, view table.View) botView {
	g, _ := view.Game.(GameView)
	b := botView{o: Order{Level: rankNamed(deref(g.Level)), Trump: suitNamed(deref(g.Trump)), Fixed: v.fixedTrumps}, hand: cards.Of(view.Hand), g: g, me: -1}
	if view.Turn != nil {
		b.me = *view.Turn
	}
	b.first = (v.menPai || v.qiangbao) && g.Dealer == nil && g.Declarer == nil
	b.handSize = v.handSize
	return b
}

// deref is *p, or "" for nil (a level or trump the view does not know).
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// rankNamed reads a level rank as View writes it ("2" … "A").
func rankNamed(name string) cards.Rank {
	for r := cards.Rank(2); r <= cards.Ace; r++ {
		if r.String() == name {
			return r
		}
	}
	return cards.Ace
}

func botAction(v *variant, view table.View, legal []table.Action) table.Action {
	b := newBotView(v, view)
	score := b.scorer(view.Phase)
	best, bestScore := 0, 0
	for i, a := range legal {
		if sc := score(a); i == 0 || sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return legal[best]
}

// scorer returns the bot's score of an action in phase; higher is better.
func (b botView) scorer(phase string) func(table.Action) int {
	switch phase {
	case "drawing", "declaring":
		return b.declareScore
	case "burying":
		return b.buryScorer()
	case "exchanging":
		return b.exchangeScore
	case "playing":
		if len(b.g.Trick) == 0 {
			return b.leadScore
		}
		return b.followScorer()
	}
	return func(table.Action) int { return 0 }
}

// exchangeScore: give back its lowest card without points; in the kitty
// swap, take every trump it may (a trump for a side card of the same rank
// is always a gain), the lowest side card first, then pass.
func (b botView) exchangeScore(a table.Action) int {
	switch a.Type {
	case ActionExchange:
		return -b.cardCost(a.Cards[0]) - 3*a.Cards[0].Points()
	case ActionSwap:
		return 1000 - b.cardCost(a.Cards[1])
	}
	return 0
}

// declareScore: declare (or stick, 沖主) in a suit that holds at least a
// third of the seat's cards, and never with fewer than 6 cards drawn;
// reinforce always; otherwise draw or pass. In guafeng's first hand a window
// closing with no declaration deals again, so there the bot declares its
// longest suit whatever its length.
func (b botView) declareScore(a table.Action) int {
	switch a.Type {
	case ActionDraw, ActionPass:
		return 0
	case ActionReinforce:
		return 1000
	}
	suit := cards.Joker
	for _, c := range a.Cards {
		if !c.IsJoker() {
			suit = c.Suit
		}
	}
	long := 0
	for _, c := range b.hand.Cards() {
		if c.Suit == suit {
			long++
		}
	}
	n := b.hand.Len()
	// Longer suits first; among equals the declaration with more pairs
	// (harder to override), then the fewer jokers.
	sc := 100*long + 10*len(a.Cards) - jokersIn(cards.Of(a.Cards))
	if b.first && b.g.Round == b.handSize {
		return sc
	}
	if n < 6 || 3*long < n {
		return -1
	}
	return sc
}

// cardCost is what a card is worth keeping: trumps above every side card,
// then its position.
func (b botView) cardCost(c cards.Card) int {
	if b.o.IsTrump(c) {
		return 30 + b.o.Pos(c)
	}
	return b.o.Pos(c)
}

// buryScorer: bury low cards of short side suits, no points, no trumps;
// emptying a side suit (to ruff it later) counts for more.
func (b botView) buryScorer() func(table.Action) int {
	var suitLen [5]int
	for _, c := range b.hand.Cards() {
		if !b.o.IsTrump(c) {
			suitLen[c.Suit]++
		}
	}
	return func(a table.Action) int {
		sc := 0
		var buried [5]int
		for _, c := range a.Cards {
			sc -= 2*b.cardCost(c) + 4*c.Points()
			if b.o.IsTrump(c) {
				sc -= 60
			} else {
				sc -= 2 * suitLen[c.Suit]
				buried[c.Suit]++
			}
		}
		for s := cards.Spades; s < cards.Joker; s++ {
			if buried[s] > 0 && buried[s] == suitLen[s] {
				sc += 15
			}
		}
		return sc
	}
}

// topSide is the highest position of a side suit's cards (A, or K when A
// is the level); topTrump the red joker's.
func (b botView) topSide() int {
	top := 0
	for r := cards.Rank(2); r <= cards.Ace; r++ {
		c := cards.Card{Suit: cards.Spades, Rank: r}
		if !b.o.IsTrump(c) {
			top = max(top, b.o.Pos(c))
		}
	}
	return top
}

// strong reports whether a play read as rd probably wins its trick: a side
// suit's top card, or one of the four highest trumps.
func (b botView) strong(rd reading) bool {
	if rd.class == trumpClass {
		return rd.top >= b.o.Pos(cards.RJ)-3
	}
	return rd.top >= b.topSide()
}

// leadScore: lead a side suit's top cards (pairs and tractors first); else a
// low side card without points; trumps when they are half the hand or make
// a strong pair.
func (b botView) leadScore(a table.Action) int {
	rd, ok := b.o.read(a.Cards)
	if !ok {
		return -1000
	}
	pts := points(a.Cards)
	if rd.class != trumpClass {
		if b.strong(rd) {
			return 60 + 10*len(a.Cards) + pts
		}
		return 10 - rd.top - 3*pts + 4*rd.shape.Pairs
	}
	trumps := 0
	for _, c := range b.hand.Cards() {
		if b.o.IsTrump(c) {
			trumps++
		}
	}
	sc := -20 - rd.top - 2*pts
	if 2*trumps >= b.hand.Len() {
		sc = 15 - rd.top/2 + 5*rd.shape.Pairs - 2*pts
	}
	if b.strong(rd) && rd.shape.Pairs > 0 {
		sc += 40
	}
	return sc
}

// followScorer: with the partner winning, feed it points when it is safe
// (the last play, or the partner's play is strong), else play low; with an
// opponent winning, win the trick as cheaply as it is worth (its points),
// else play the cheapest cards without points.
func (b botView) followScorer() func(table.Action) int {
	trick := b.g.Trick
	lead, _ := b.o.read(trick[0].Cards)
	best, win := lead, trick[0].Seat
	pts := 0
	for i, p := range trick {
		pts += points(p.Cards)
		if i == 0 {
			continue
		}
		if r, ok := b.o.read(p.Cards); beats(r, ok, best, lead.class) {
			best, win = r, p.Seat
		}
	}
	last := len(trick) == seats-1
	partnerWins := b.me >= 0 && win == partner(b.me)
	safe := last || b.strong(best)
	return func(a table.Action) int {
		cost, pc := 0, 0
		canWin := true
		for _, c := range a.Cards {
			cost += b.cardCost(c)
			pc += c.Points()
			if cl := b.o.Class(c); cl != lead.class && cl != trumpClass {
				canWin = false
			}
		}
		if partnerWins {
			if safe {
				return 4*pc - cost
			}
			return -2*pc - cost
		}
		if canWin {
			if r, ok := b.o.read(a.Cards); beats(r, ok, best, lead.class) {
				if last || b.strong(r) {
					return 20 + 3*(pts+pc) - cost
				}
				return 5 + (pts+pc)*3/2 - cost
			}
		}
		return -4*pc - cost
	}
}
