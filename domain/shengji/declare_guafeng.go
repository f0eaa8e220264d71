package shengji

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// guafeng's own actions (shengji.md, guafeng declarations; seed 003).
const (
	// ActionReinforce (續牌): the standing declarer adds the second of its
	// joker, or a pair extending its pairs to a tractor.
	ActionReinforce = "reinforce"
	// ActionStick (粘牌): a declaration with at least one pair more and at
	// least as many jokers as the standing one; the sticker takes the stuck
	// declarations after the bury.
	ActionStick = "stick"
	// ActionExchange: the sticker gives a stuck seat back one card of as
	// many as it took, a trump for each trump taken.
	ActionExchange = "exchange"
	// ActionSwap (粘牌 kitty swap): after the exchange, the sticker takes a
	// plain trump-suit card out of the kitty for a side card of the same
	// rank: cards [kitty card, hand card]. It ends the swaps with "pass".
	ActionSwap = "swap"
)

// Declaration kinds, as TrumpDeclared records them.
const (
	kindOverride = "override"
	kindStick    = "stick"
)

// rankBit is r's bit in a mask of ranks 2 … A.
func rankBit(r cards.Rank) uint16 { return 1 << (r - 2) }

// isArc reports whether the ranks of mask are consecutive on the cycle
// 2 … K A 2 (A links both ways, seed 003 續牌 note 3: A-2 and K-A).
func isArc(mask uint16) bool {
	const all = 1<<13 - 1
	if mask == 0 {
		return false
	}
	if mask == all {
		return true
	}
	ends := 0
	for b := range 13 {
		if mask&(1<<b) != 0 && mask&(1<<((b+1)%13)) == 0 {
			ends++
		}
	}
	return ends == 1
}

// readGfDeclaration reads cs as a guafeng declaration: one joker or more
// (any mix, their size never matters) and one pair or more of one suit whose
// ranks are consecutive on the rank cycle, level cards or not. For a
// declaration only the pairs' suit matters (seed 003).
func readGfDeclaration(cs []cards.Card) (declaration, bool) {
	jokers := 0
	var rest []cards.Card
	for _, c := range cs {
		if c.IsJoker() {
			jokers++
		} else {
			rest = append(rest, c)
		}
	}
	if jokers == 0 || len(rest) < 2 || len(rest)%2 != 0 {
		return declaration{}, false
	}
	suit := rest[0].Suit
	var mask uint16
	for i, k := range cards.Of(rest) {
		if k == 0 {
			continue
		}
		c := cards.FromIndex(i)
		if k != 2 || c.Suit != suit {
			return declaration{}, false
		}
		mask |= rankBit(c.Rank)
	}
	if !isArc(mask) {
		return declaration{}, false
	}
	return declaration{cards: slices.Clone(cs), suit: suit, pairs: len(rest) / 2, jokers: jokers}, true
}

// pairMask is the ranks of d's pairs.
func (d declaration) pairMask() uint16 {
	var m uint16
	for _, c := range d.cards {
		if !c.IsJoker() {
			m |= rankBit(c.Rank)
		}
	}
	return m
}

// stickTargets are the declarations a stick by seat takes: the standing
// one's and, when that is itself a stick, those it had stuck, never the
// sticker's own (shengji.md, 粘牌: several stuck players, the sticker takes
// all of them).
func (s *State) stickTargets(seat int) []stuckDecl {
	cur := s.decls[s.declarer]
	out := []stuckDecl{{seat: cur.seat, cards: cur.cards, jokers: cur.jokers}}
	for _, st := range cur.stuck {
		if st.seat != seat {
			out = append(out, st)
		}
	}
	return out
}

// guafengDeclare checks a guafeng declaration, 沖主 or 粘牌 (shengji.md, guafeng
// declarations): a first declaration needs a joker and a pair; over a
// standing one-joker declaration, 2+ jokers override (沖主); a stick needs
// at least as many jokers and one pair more than the standing declaration.
// Nobody acts against their own standing declaration.
func (s *State) guafengDeclare(seat int, cs []cards.Card, stick bool) ([]table.Payload, error) {
	if s.phase != phaseDrawing && s.phase != phaseWindow {
		return nil, table.ErrWrongPhase.With("declarations are over: the hand is %s", s.phase)
	}
	if s.passed[seat] {
		return nil, ErrAlreadyPassed.With("you passed in the final window and may not declare any more")
	}
	if missing := s.held[seat].Missing(cs); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you have not drawn %s", cards.Format(missing))
	}
	d, ok := readGfDeclaration(cs)
	if !ok {
		return nil, ErrNotDeclaration.With("%s is not one joker or more with a pair or a tractor of one suit (shengji.md, guafeng declarations)", cards.Format(cs))
	}
	e := TrumpDeclared{Seat: seat, Suit: suitName(d.suit), Jokers: d.jokers, Pairs: d.pairs}
	if s.declarer >= 0 && s.decls[s.declarer].seat == seat {
		return nil, ErrAlreadyDeclared.With("your declaration stands; 沖主 and 粘牌 come from other seats")
	}
	switch {
	case stick:
		if s.declarer < 0 {
			return nil, ErrCannotStick.With("nobody has declared: there is nothing to stick (shengji.md, 粘牌)")
		}
		cur := s.decls[s.declarer]
		if d.jokers < cur.jokers || d.pairs < cur.pairs+1 {
			return nil, ErrCannotStick.With("seat %d declared %d joker(s) and %d pair(s): a stick needs as many jokers and %d pair(s) (shengji.md, 粘牌)", cur.seat, cur.jokers, cur.pairs, cur.pairs+1)
		}
		e.Kind = kindStick
		for _, st := range s.stickTargets(seat) {
			e.Stuck = append(e.Stuck, st.seat)
		}
	case s.declarer >= 0:
		cur := s.decls[s.declarer]
		if cur.jokers != 1 {
			return nil, ErrDeclarationWeak.With("seat %d declared with %d jokers: 沖主 overrides only a one-joker declaration (shengji.md, 沖主)", cur.seat, cur.jokers)
		}
		if d.jokers < 2 {
			return nil, ErrDeclarationWeak.With("沖主 takes two jokers or more (shengji.md, 沖主)")
		}
		e.Kind = kindOverride
	}
	e.Cards = d.cards
	s.order.Sort(e.Cards)
	return []table.Payload{e}, nil
}

// guafengReinforce checks a 續牌 (shengji.md, guafeng): the standing declarer,
// while nobody else has declared, adds the joker identical to its single
// declared joker, or a pair of its suit that extends its pairs as a tractor.
func (s *State) guafengReinforce(seat int, cs []cards.Card) ([]table.Payload, error) {
	if s.phase != phaseDrawing && s.phase != phaseWindow {
		return nil, table.ErrWrongPhase.With("declarations are over: the hand is %s", s.phase)
	}
	if s.passed[seat] {
		return nil, ErrAlreadyPassed.With("you passed in the final window and may not reinforce any more")
	}
	if s.declarer < 0 || s.decls[s.declarer].seat != seat {
		return nil, ErrCannotReinforce.With("only the standing declarer reinforces (shengji.md, 續牌)")
	}
	if len(s.decls) > 1 {
		return nil, ErrCannotReinforce.With("another seat has declared: 續牌 comes before any 沖主 or 粘牌 (shengji.md, 續牌)")
	}
	cur := s.decls[s.declarer]
	all := append(slices.Clone(cur.cards), cs...)
	if missing := s.held[seat].Missing(all); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you have not drawn %s besides your declaration", cards.Format(missing))
	}
	e := TrumpReinforced{Seat: seat, Cards: slices.Clone(cs), Jokers: cur.jokers, Pairs: cur.pairs}
	switch {
	case len(cs) == 1 && cs[0].IsJoker() && cur.jokers == 1 && slices.Contains(cur.cards, cs[0]):
		e.Jokers++
	case len(cs) == 2 && cs[0] == cs[1] && cs[0].Suit == cur.suit && cur.pairMask()&rankBit(cs[0].Rank) == 0 && isArc(cur.pairMask()|rankBit(cs[0].Rank)):
		e.Pairs++
	default:
		return nil, ErrCannotReinforce.With("%s is neither the twin of your one declared joker nor a pair extending your pairs (shengji.md, 續牌)", cards.Format(cs))
	}
	s.order.Sort(e.Cards)
	return []table.Payload{e}, nil
}

// reserved is what seat may not bury: its declaration cards a stick takes
// after the bury (seed 003: "亮的幾張牌是不能被埋的").
func (s *State) reserved(seat int) cards.Multiset {
	var m cards.Multiset
	if s.declarer < 0 {
		return m
	}
	for _, st := range s.decls[s.declarer].stuck {
		if st.seat == seat {
			m.Add(st.cards...)
		}
	}
	return m
}

// buryable is the burier's hand less its reserved cards.
func (s *State) buryable(seat int) cards.Multiset {
	m := s.held[seat]
	r := s.reserved(seat)
	for i, k := range r {
		m[i] -= k
	}
	return m
}

func jokersIn(m cards.Multiset) int { return m.Count(cards.BJ) + m.Count(cards.RJ) }

// guafengCheckBury: the burier buries every joker it holds, at most 4, and none
// of its declaration cards a stick takes (shengji.md, Kitty, guafeng).
func (s *State) guafengCheckBury(seat int, cs []cards.Card) error {
	free := s.buryable(seat)
	if missing := free.Missing(cs); len(missing) > 0 {
		return ErrDeclaredCards.With("%s are declaration cards the sticker takes: they cannot be buried (shengji.md, 粘牌)", cards.Format(missing))
	}
	need := min(jokersIn(free), kittyLen)
	if got := jokersIn(cards.Of(cs)); got != need {
		return ErrMustBuryJokers.With("you hold %d joker(s): bury %d of them (shengji.md, Kitty, guafeng)", jokersIn(free), need)
	}
	return nil
}

// guafengBuries lists every bury guafengCheckBury accepts: the jokers, then any other
// cards not reserved.
func (s *State) guafengBuries(seat int) [][]cards.Card {
	var out [][]cards.Card
	s.eachGuafengBury(seat, func(cs []cards.Card) bool {
		out = append(out, slices.Clone(cs))
		return true
	})
	return out
}

// eachGuafengBury calls yield with guafengBuries' buries one at a time, in
// its order, until yield returns false (then it does too); yield must not
// keep its argument.
func (s *State) eachGuafengBury(seat int, yield func([]cards.Card) bool) bool {
	free := s.buryable(seat)
	var jokers []cards.Card
	for range free.Count(cards.BJ) {
		jokers = append(jokers, cards.BJ)
	}
	for range free.Count(cards.RJ) {
		jokers = append(jokers, cards.RJ)
	}
	jokers = jokers[:min(len(jokers), kittyLen)]
	others := free
	others[cards.BJ.Index()], others[cards.RJ.Index()] = 0, 0
	buf := make([]cards.Card, 0, kittyLen)
	return eachSubMultiset(others, kittyLen-len(jokers), func(pick []cards.Card) bool {
		buf = append(append(buf[:0], jokers...), pick...)
		return yield(buf)
	})
}

// isExchangeTrump: what a sticker gives back for a trump taken: a joker, a
// level card, a 2, 3 or 5 (seed 003: "主必須給大小王、級牌、2、3、5").
func (o Order) isExchangeTrump(c cards.Card) bool {
	return c.IsJoker() || c.Rank == o.Level || c.Rank == 2 || c.Rank == 3 || c.Rank == 5
}

// take is the DeclarationTaken of the sticker taking st's declaration
// cards: the cards move to the sticker as its exchange with st begins, so
// it may give any of them back. Trumps counts the cards taken that are
// trumps under the final trump (jokers, level cards, 2, 3, 5 and the trump
// suit's cards), one trump owed back for each (shengji.md, 粘牌, Decision).
func (s *State) take(sticker int, st stuckDecl) DeclarationTaken {
	cs := slices.Clone(st.cards)
	s.order.Sort(cs)
	if s.v.stickOwesJokersOnly {
		return DeclarationTaken{Seat: sticker, From: st.seat, Cards: cs, Trumps: st.jokers}
	}
	trumps := 0
	for _, c := range cs {
		if s.order.IsTrump(c) {
			trumps++
		}
	}
	return DeclarationTaken{Seat: sticker, From: st.seat, Cards: cs, Trumps: trumps}
}

// exchangeShort reports whether the sticker holds fewer exchange trumps
// than it still owes as trumps. Only plain trump-suit cards taken (a stuck
// declaration in the final trump suit) can bring this about; then a
// trump-suit card counts as a trump given back too, so that the exchange
// can always be completed: the sticker holds every card it took. shengji.md,
// 粘牌, turn 3 Decision, has it so: "a plain card of the final trump suit
// counts as a trump given back only while the sticker holds fewer jokers,
// level cards and 2/3/5 than it still owes".
func (s *State) exchangeShort(sticker int) bool {
	n := 0
	for i, k := range s.held[sticker] {
		if k > 0 && s.order.isExchangeTrump(cards.FromIndex(i)) {
			n += int(k)
		}
	}
	return n < s.trumpsOwed
}

// givesTrump reports whether c, given back by the sticker now, pays one of
// the trumps owed: an exchange trump, or while the sticker is short of
// them any trump (exchangeShort).
func (s *State) givesTrump(sticker int, c cards.Card) bool {
	if s.trumpsOwed == 0 {
		return false
	}
	if s.v.stickOwesJokersOnly {
		// Rules /1 owe a trump per joker taken, and the sticker holds the
		// jokers it took: it is never short.
		return s.order.isExchangeTrump(c)
	}
	return s.order.isExchangeTrump(c) || (s.order.IsTrump(c) && s.exchangeShort(sticker))
}

// mayGive reports whether the sticker may give c now: with as many cards
// left to give as trumps still owed, only a card that pays a trump keeps
// the whole exchange within the rule (shengji.md, 粘牌).
func (s *State) mayGive(sticker int, c cards.Card) bool {
	return s.gives > s.trumpsOwed || s.givesTrump(sticker, c)
}

// guafengExchange checks one card the sticker gives back to the stuck seat it
// exchanges with (shengji.md, 粘牌): a card it holds (the taken ones
// included), a trump when the cards left to give are all owed as trumps.
// The last card given to a seat takes the next stuck seat's declaration,
// and the last of all opens the kitty swap (KittySwapOpened).
func (s *State) guafengExchange(seat int, cs []cards.Card) ([]table.Payload, error) {
	if s.phase != phaseExchanging {
		return nil, table.ErrWrongPhase.With("no exchange is owed: the hand is %s", s.phase)
	}
	if seat != s.turn {
		return nil, ErrNotSticker.With("seat %d, the sticker, exchanges", s.turn)
	}
	if len(s.owed) == 0 {
		return nil, ErrBadExchange.With("every card taken is given back: swap a kitty card or pass (shengji.md, 粘牌)")
	}
	st := s.owed[0]
	if len(cs) != 1 {
		return nil, ErrBadExchange.With("give back one card per exchange, not %d: seat %d is owed %d more (shengji.md, 粘牌)", len(cs), st.seat, s.gives)
	}
	c := cs[0]
	if s.held[seat].Count(c) == 0 {
		return nil, table.ErrCardNotInHand.With("you do not hold %s", c)
	}
	if !s.mayGive(seat, c) {
		return nil, ErrBadExchange.With("seat %d is owed %d card(s), all for trumps taken: give a joker, level card, 2, 3 or 5, not %s (shengji.md, 粘牌)", st.seat, s.gives, c)
	}
	evs := []table.Payload{CardGiven{Seat: seat, To: st.seat, Cards: []cards.Card{c}, Left: s.gives - 1}}
	if s.gives == 1 {
		switch {
		case len(s.owed) > 1:
			evs = append(evs, s.take(seat, s.owed[1]))
		case s.v.noKittySwap:
			// Rules /1: the last card given ends the exchange and the
			// dealer leads (Evolve, CardGiven).
		default:
			evs = append(evs, KittySwapOpened{Seat: seat, Kitty: slices.Clone(s.buried)})
		}
	}
	return evs, nil
}

// guafengExchanges lists every card guafengExchange accepts now, once each, in
// display order: at most the distinct cards of one hand.
func (s *State) guafengExchanges(seat int) [][]cards.Card {
	if len(s.owed) == 0 {
		return nil
	}
	var out [][]cards.Card
	hand := s.handCards(seat, s.order) // after the bury: the trump is public
	for i, c := range hand {
		if (i == 0 || hand[i-1] != c) && s.mayGive(seat, c) {
			out = append(out, []cards.Card{c})
		}
	}
	return out
}

// guafengDeclarations lists the declarations of kind ("" for declare/沖主,
// kindStick, or "reinforce") seat may make now, each multiset once.
func (s *State) guafengDeclarations(seat int, kind string) [][]cards.Card {
	h := &s.held[seat]
	var cur *declaration
	if s.declarer >= 0 {
		cur = &s.decls[s.declarer]
	}
	if kind == ActionReinforce {
		if cur == nil || cur.seat != seat || len(s.decls) > 1 {
			return nil
		}
		var out [][]cards.Card
		rest := *h
		rest.Remove(cur.cards)
		if cur.jokers == 1 {
			for _, j := range []cards.Card{cards.BJ, cards.RJ} {
				if slices.Contains(cur.cards, j) && rest.Count(j) > 0 {
					out = append(out, []cards.Card{j})
				}
			}
		}
		mask := cur.pairMask()
		for r := cards.Rank(2); r <= cards.Ace; r++ {
			c := cards.Card{Suit: cur.suit, Rank: r}
			if mask&rankBit(r) == 0 && rest.Count(c) >= 2 && isArc(mask|rankBit(r)) {
				out = append(out, []cards.Card{c, c})
			}
		}
		return out
	}
	minJokers, minPairs := 1, 1
	switch {
	case cur != nil && cur.seat == seat:
		return nil
	case kind == kindStick && cur == nil:
		return nil
	case kind == kindStick:
		minJokers, minPairs = cur.jokers, cur.pairs+1
	case cur != nil && cur.jokers != 1:
		return nil
	case cur != nil:
		minJokers = 2
	}
	var jokerSets [][]cards.Card
	for b := range h.Count(cards.BJ) + 1 {
		for r := range h.Count(cards.RJ) + 1 {
			if b+r >= max(minJokers, 1) {
				var js []cards.Card
				for range b {
					js = append(js, cards.BJ)
				}
				for range r {
					js = append(js, cards.RJ)
				}
				jokerSets = append(jokerSets, js)
			}
		}
	}
	if len(jokerSets) == 0 {
		return nil
	}
	var pairSets [][]cards.Card
	for suit := cards.Spades; suit < cards.Joker; suit++ {
		var mask uint16
		for r := cards.Rank(2); r <= cards.Ace; r++ {
			if h.Count(cards.Card{Suit: suit, Rank: r}) >= 2 {
				mask |= rankBit(r)
			}
		}
		seen := map[uint16]bool{}
		for start := range 13 {
			var arc uint16
			for n := range 13 {
				b := uint16(1) << ((start + n) % 13)
				if mask&b == 0 {
					break
				}
				arc |= b
				if n+1 < minPairs || seen[arc] {
					continue
				}
				seen[arc] = true
				var cs []cards.Card
				for r := cards.Rank(2); r <= cards.Ace; r++ {
					if arc&rankBit(r) != 0 {
						c := cards.Card{Suit: suit, Rank: r}
						cs = append(cs, c, c)
					}
				}
				pairSets = append(pairSets, cs)
			}
		}
	}
	var out [][]cards.Card
	for _, js := range jokerSets {
		for _, ps := range pairSets {
			out = append(out, append(slices.Clone(js), ps...))
		}
	}
	return out
}
