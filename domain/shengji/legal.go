package shengji

import (
	"iter"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Legal lists every action seat may take now (escape excluded: the table adds
// it). Each play, bury and declaration is listed once per multiset of cards,
// each exchange (guafeng) once per card that may be given.
func (r *Rules) Legal(s *State, seat int) []table.Action {
	if seat < 0 || seat >= seats {
		return nil
	}
	var out []table.Action
	// Sorted as the seat may know: the burier must not read a hidden trump
	// off the order of its buries.
	o := s.sortOrder(seat).sortKeys()
	withCards := func(typ string, css [][]cards.Card) {
		out = slices.Grow(out, len(css))
		// One array holds every list's cards, each list its own full slice
		// of it: a caller that appends to one cannot write into the next.
		n := 0
		for _, cs := range css {
			n += len(cs)
		}
		all := make([]cards.Card, 0, n)
		for _, cs := range css {
			at := len(all)
			all = append(all, cs...)
			sorted := all[at:len(all):len(all)]
			o.sort(sorted)
			out = append(out, table.Action{Type: typ, Cards: sorted})
		}
	}
	declare := func() {
		if s.v.qiangbao {
			withCards(ActionDeclare, s.qiangbaoDeclarations(seat))
			return
		}
		if !s.v.jokerDeclarations {
			withCards(ActionDeclare, s.declarations(seat))
			return
		}
		withCards(ActionDeclare, s.guafengDeclarations(seat, ""))
		withCards(ActionStick, s.guafengDeclarations(seat, kindStick))
		withCards(ActionReinforce, s.guafengDeclarations(seat, ActionReinforce))
	}
	switch s.phase {
	case phaseDrawing:
		out = append(out, table.Action{Type: ActionDraw})
		declare()
	case phaseWindow:
		if !s.passed[seat] {
			out = append(out, table.Action{Type: ActionPass})
			declare()
		}
	case phaseBurying:
		switch {
		case seat != s.burier:
		case s.v.qiangbao:
			withCards(ActionBury, s.qiangbaoBuries(seat))
		case s.v.partnerBuries:
			withCards(ActionBury, s.guafengBuries(seat))
		default:
			var buries [][]cards.Card
			subMultisets(s.held[seat], kittyLen, func(pick []cards.Card) {
				buries = append(buries, slices.Clone(pick))
			})
			withCards(ActionBury, buries)
		}
	case phaseExchanging:
		switch {
		case seat != s.turn:
		case s.swapStep():
			// [kitty card, hand card]: the order carries the meaning,
			// so these are not re-sorted.
			for _, cs := range s.guafengSwaps(seat) {
				out = append(out, table.Action{Type: ActionSwap, Cards: cs})
			}
			out = append(out, table.Action{Type: ActionPass})
		default:
			withCards(ActionExchange, s.guafengExchanges(seat))
		}
	case phasePlaying:
		if seat == s.turn {
			if len(s.trick) == 0 {
				withCards(ActionPlay, s.order.leads(s.held[seat]))
			} else {
				withCards(ActionPlay, s.order.follows(s.held[seat], s.trick[0].cards))
			}
		}
	}
	return out
}

var _ table.StreamDecider[*State] = (*Rules)(nil)

// LegalSeq yields Legal(s, seat) one action at a time, in the same order
// (table.StreamDecider). The buries of a whole kitty and the follows are
// generated as they are consumed, into one buffer that every action reuses:
// an action's Cards are overwritten once yield returns. The other lists are
// short and come from Legal.
func (r *Rules) LegalSeq(s *State, seat int) iter.Seq[table.Action] {
	var each func(yield func([]cards.Card) bool) bool
	typ := ActionPlay
	switch {
	case seat < 0 || seat >= seats:
	case s.phase == phaseBurying && seat == s.burier && !s.v.qiangbao:
		typ = ActionBury
		if s.v.partnerBuries {
			each = func(yield func([]cards.Card) bool) bool { return s.eachGuafengBury(seat, yield) }
		} else {
			each = func(yield func([]cards.Card) bool) bool { return eachSubMultiset(s.held[seat], kittyLen, yield) }
		}
	case s.phase == phasePlaying && seat == s.turn && len(s.trick) > 0:
		each = func(yield func([]cards.Card) bool) bool {
			return s.order.eachFollow(s.held[seat], s.trick[0].cards, yield)
		}
	}
	if each == nil {
		return slices.Values(r.Legal(s, seat))
	}
	return func(yield func(table.Action) bool) {
		o := s.sortOrder(seat) // as Legal sorts
		var buf []cards.Card
		each(func(cs []cards.Card) bool {
			buf = append(buf[:0], cs...)
			o.Sort(buf)
			return yield(table.Action{Type: typ, Cards: buf[:len(buf):len(buf)]})
		})
	}
}

// declarations lists every declaration seat may make now with the cards it
// has drawn: one joker (each kind held) with a pair, or with a tractor of
// its suit, stronger than the standing declaration and not the seat's own.
func (s *State) declarations(seat int) [][]cards.Card {
	need := 1
	if s.declarer >= 0 {
		cur := s.decls[s.declarer]
		if cur.seat == seat {
			return nil
		}
		need = cur.pairs + 1
	}
	h := &s.held[seat]
	var jokers []cards.Card
	for _, j := range []cards.Card{cards.BJ, cards.RJ} {
		if h.Count(j) > 0 {
			jokers = append(jokers, j)
		}
	}
	if len(jokers) == 0 {
		return nil
	}
	var sets [][]cards.Card
	for suit := cards.Spades; suit < cards.Joker; suit++ {
		// byPos[p]: the pair at plain position p, if held (level rank left
		// out: it joins no tractor, and pairs alone below).
		var byPos [12]bool
		for r := cards.Rank(2); r <= cards.Ace; r++ {
			c := cards.Card{Suit: suit, Rank: r}
			if h.Count(c) < 2 {
				continue
			}
			if need <= 1 {
				sets = append(sets, []cards.Card{c, c})
			}
			if r != s.order.Level {
				byPos[s.order.plainPos(r)] = true
			}
		}
		for lo := range byPos {
			for hi := lo; hi < len(byPos) && byPos[hi]; hi++ {
				n := hi - lo + 1
				if n < 2 || n < need {
					continue
				}
				var cs []cards.Card
				for r := cards.Rank(2); r <= cards.Ace; r++ {
					if r != s.order.Level {
						if p := s.order.plainPos(r); p >= lo && p <= hi {
							c := cards.Card{Suit: suit, Rank: r}
							cs = append(cs, c, c)
						}
					}
				}
				sets = append(sets, cs)
			}
		}
	}
	var out [][]cards.Card
	for _, j := range jokers {
		for _, cs := range sets {
			out = append(out, append([]cards.Card{j}, cs...))
		}
	}
	return out
}
