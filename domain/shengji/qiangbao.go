package shengji

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// qiangbao is seed 002's 升级 team match (shengji.md, "qiangbao — the 002
// team match"): the ningyang engine (follow rules, tractors, tricks, points,
// kitty multiplier) with 25 cards each and an 8-card kitty, level 3 for the
// whole match, level cards shown to declare (抢报 in the first hand), the
// kitty's third card when nobody shows, and a match of 5 hands scored by
// points.
func qiangbaoVariant() *variant {
	return &variant{
		name: "qiangbao", version: "shengji/qiangbao/2", escapePenalty: 16,
		declarerDeals: true, score: qiangbaoScore, handSize: 25, kittyLen: 8,
		qiangbao: true, fixedLevel: 3, matchHands: 5,
	}
}

// qiangbaoScore reads the defenders' points X (shengji.md, qiangbao): the
// dealer side scores 1 when the defenders end under 80, 2 under 30 (小光),
// 3 at 0 (大光); the defenders (Decision) 1 at 80–115, 2 at 120–155, 3 at
// 160 or more. The multiple is the side's match points and its stakes.
// qiangbao takes no step option: the second argument is ignored.
func qiangbaoScore(x, _ int) (dealerWins bool, multiple int) {
	switch {
	case x <= 0:
		return true, 3
	case x < 30:
		return true, 2
	case x < 80:
		return true, 1
	case x < 120:
		return false, 1
	case x < 160:
		return false, 2
	}
	return false, 3
}

// readShow reads cs as a qiangbao declaration: one level card, or a pair of
// the same level card (one suit). Jokers never declare (常主不可進行報主).
func (o Order) readShow(cs []cards.Card) (declaration, bool) {
	if len(cs) < 1 || len(cs) > 2 {
		return declaration{}, false
	}
	for _, c := range cs {
		if c.IsJoker() || c.Rank != o.Level || c != cs[0] {
			return declaration{}, false
		}
	}
	return declaration{cards: slices.Clone(cs), suit: cs[0].Suit, pairs: len(cs) - 1}, true
}

// qiangbaoDeclare checks a show (shengji.md, qiangbao): level cards already
// drawn. First hand (抢报): the first show deals and stands, nothing comes
// after it. Later hands (Decision): a pair overrides a standing single, from
// any seat, but from the single's own seat only in its suit (turn 3: a
// reinforcement; /1, ownPairAnySuit, took any suit); nothing overrides a
// pair.
func (s *State) qiangbaoDeclare(seat int, cs []cards.Card) ([]table.Payload, error) {
	if s.phase != phaseDrawing && s.phase != phaseWindow {
		return nil, table.ErrWrongPhase.With("declarations are over: the hand is %s", s.phase)
	}
	if s.passed[seat] {
		return nil, ErrAlreadyPassed.With("you passed in the final window and may not show any more")
	}
	if missing := s.held[seat].Missing(cs); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you have not drawn %s", cards.Format(missing))
	}
	d, ok := s.order.readShow(cs)
	if !ok {
		return nil, ErrNotDeclaration.With("%s is not one level card (%s) or a pair of one suit's; jokers never declare (shengji.md, qiangbao)", cards.Format(cs), s.order.Level)
	}
	if s.declarer >= 0 {
		cur := s.decls[s.declarer]
		switch {
		case s.dealer < 0:
			return nil, ErrAlreadyDeclared.With("seat %d showed first and deals this first hand (shengji.md, qiangbao: 抢报)", cur.seat)
		case cur.pairs > 0:
			return nil, ErrDeclarationWeak.With("seat %d showed a pair: nothing overrides a pair (shengji.md, qiangbao Decision)", cur.seat)
		case d.pairs == 0:
			return nil, ErrDeclarationWeak.With("seat %d showed a level card: only a pair overrides it (shengji.md, qiangbao Decision)", cur.seat)
		case cur.seat == seat && d.suit != cur.suit && !s.v.ownPairAnySuit:
			return nil, ErrAlreadyDeclared.With("your %s stands: your own pair may override it only in its suit (shengji.md, qiangbao, turn 3 Decision)", cards.Format(cur.cards))
		}
	}
	return []table.Payload{TrumpDeclared{Seat: seat, Cards: d.cards, Suit: suitName(d.suit), Pairs: d.pairs}}, nil
}

// qiangbaoDeclarations lists the shows seat may make now: each level card
// it has drawn, alone while nothing stands, as a pair while nothing or a
// single of a later hand stands.
func (s *State) qiangbaoDeclarations(seat int) [][]cards.Card {
	singles, pairs := true, true
	own := -1 // the suit of seat's own standing single, which alone its pair may override
	if s.declarer >= 0 {
		cur := s.decls[s.declarer]
		if s.dealer < 0 || cur.pairs > 0 {
			return nil
		}
		singles = false
		if cur.seat == seat && !s.v.ownPairAnySuit {
			own = int(cur.suit)
		}
	}
	var out [][]cards.Card
	for suit := cards.Spades; suit < cards.Joker; suit++ {
		c := cards.Card{Suit: suit, Rank: s.order.Level}
		n := s.held[seat].Count(c)
		if n >= 1 && singles {
			out = append(out, []cards.Card{c})
		}
		if n >= 2 && pairs && (own < 0 || int(suit) == own) {
			out = append(out, []cards.Card{c, c})
		}
	}
	return out
}

// qiangbaoClose ends the deal once every seat has passed (shengji.md,
// qiangbao): the standing show fixes the trump suit and, in the first hand,
// the dealer (抢报: the first to show). With no show a first hand is dealt
// again; a later hand takes the suit of the kitty's third card from the
// top, and none (无主) when it is a joker.
func (s *State) qiangbaoClose() []table.Payload {
	dealer := s.dealer
	var evs []table.Payload
	var declarer *int
	if s.declarer >= 0 {
		d := s.decls[s.declarer].seat
		declarer = &d
		if dealer < 0 {
			dealer = d
		}
	} else {
		if dealer < 0 {
			return []table.Payload{table.DealVoided{Hand: s.hand, Deal: s.deal, Reason: "no_declaration", Seed: s.Seed}}
		}
		third := s.kitty[2]
		suit := "" // 无主: trumps are the jokers and the level cards
		if !third.IsJoker() {
			suit = suitName(third.Suit)
		}
		evs = append(evs, KittyFlipped{Cards: slices.Clone(s.kitty[:3]), Suit: suit})
	}
	return append(evs, KittyTaken{Seat: dealer, Declarer: declarer, Level: s.order.Level.String(), Cards: slices.Clone(s.kitty)})
}

// qiangbaoBury buries one card of the dealer's 33 (shengji.md, qiangbao:
// the dealer buries 8). One card per action keeps the choice listable: the
// 8-card buries of 33 cards run to millions.
func (s *State) qiangbaoBury(seat int, cs []cards.Card) ([]table.Payload, error) {
	if len(cs) != 1 {
		return nil, ErrBuryFour.With("bury one card per action, %d cards in all; %d to go (shengji.md, qiangbao)", s.v.kittyLen, s.v.kittyLen-len(s.buried))
	}
	if missing := s.held[seat].Missing(cs); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you do not hold %s", cards.Format(missing))
	}
	return []table.Payload{KittyBuried{Seat: seat, Cards: slices.Clone(cs)}}, nil
}

// qiangbaoBuries lists each distinct card seat may bury next.
func (s *State) qiangbaoBuries(seat int) [][]cards.Card {
	cs := s.held[seat].Cards()
	cs = slices.Compact(cs)
	out := make([][]cards.Card, len(cs))
	for i, c := range cs {
		out[i] = []cards.Card{c}
	}
	return out
}

// qiangbaoFirstShow: a first hand nobody shows in is dealt again, so a
// table of absent seats would deal for ever; a seat timing out in the final
// window of a first hand shows its lowest level card if it has one.
func (s *State) qiangbaoFirstShow(seat int) (table.Action, bool) {
	if s.dealer >= 0 || s.declarer >= 0 {
		return table.Action{}, false
	}
	shows := s.qiangbaoDeclarations(seat)
	if len(shows) == 0 {
		return table.Action{}, false
	}
	best := shows[0]
	for _, d := range shows[1:] {
		if len(d) < len(best) || (len(d) == len(best) && s.timeoutKey(d[0]) < s.timeoutKey(best[0])) {
			best = d
		}
	}
	return s.sorted(seat, ActionDeclare, best), true
}

// qiangbaoMatch adds the hand's points to the winning side (shengji.md,
// qiangbao: a match is 5 hands; after them the side with more points wins,
// a tie plays one more hand at a time). A single-hand table has no match
// winner.
func (s *State) qiangbaoMatch(res *Result, dealerWins bool, k int) {
	pts := s.matchPts
	side := sideOf(s.dealer)
	if !dealerWins {
		side = 1 - side
	}
	pts[side] += k
	res.MatchPoints = pts[:]
	if s.o.Match && s.played+1 >= s.v.matchHands && pts[0] != pts[1] {
		w := 0
		if pts[1] > pts[0] {
			w = 1
		}
		res.MatchWinner = &w
	}
}
