package shengji

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// The live-table side of 升级 (table.Autoplay): whom the turn clock waits
// for and what a seat does when its time runs out; the bot is in bot.go.
// doc.go, "Turn clock, timeouts and the bot", states the policy.

var _ table.AutoplayDecider[*State] = (*Rules)(nil)

// Awaited lists the seats the hand waits for (see awaited).
func (r *Rules) Awaited(s *State) []int { return awaited(s) }

// TimeoutAction is the default action of an awaited seat (see timeoutAction).
func (r *Rules) TimeoutAction(s *State, seat int) table.Action {
	return timeoutAction(s, seat)
}

// BotAction is the bot's choice from the seat's view and legal actions.
func (r *Rules) BotAction(v table.View, legal []table.Action) table.Action {
	return botAction(r.v, v, legal)
}

// awaited: drawing, the seat round mod 4 (any seat may draw, and the draw
// deals a card to every seat, so the clock waits for one seat, a different
// one each round); the final window, every seat that has not passed; the
// bury, the burier; the exchange, the kitty swap (the sticker until it
// passes) and the tricks, the seat in turn.
func awaited(s *State) []int {
	switch s.phase {
	case phaseDrawing:
		return []int{s.round % seats}
	case phaseWindow:
		var out []int
		for seat := range seats {
			if !s.passed[seat] {
				out = append(out, seat)
			}
		}
		return out
	case phaseBurying:
		return []int{s.burier}
	case phaseExchanging, phasePlaying:
		return []int{s.turn}
	}
	return nil
}

// timeoutAction is the default action of an awaited seat (doc.go, Turn
// clock): draw; pass in the final window (under the versions before the
// rules README's Clocks, see firstHandDeclaration);
// bury the lowest cards the bury allows; give back the lowest card the
// exchange allows, and pass on the kitty swap; lead the lowest single; follow with the lowest legal
// follow. "Lowest" is timeoutKey's order. The cards are sorted as Legal
// sorts them for the seat, so the action equals a Legal entry.
func timeoutAction(s *State, seat int) table.Action {
	switch s.phase {
	case phaseDrawing:
		return table.Action{Type: ActionDraw}
	case phaseWindow:
		if a, ok := s.firstHandDeclaration(seat); ok {
			return a
		}
		return table.Action{Type: ActionPass}
	case phaseBurying:
		return s.sorted(seat, ActionBury, s.lowestBury(seat))
	case phaseExchanging:
		if s.swapStep() {
			// The kitty swap is the sticker's option: time out of it
			// keeps the kitty as it is.
			return table.Action{Type: ActionPass}
		}
		var best []cards.Card
		for _, g := range s.guafengExchanges(seat) {
			if best == nil || s.timeoutKey(g[0]) < s.timeoutKey(best[0]) {
				best = g
			}
		}
		return s.sorted(seat, ActionExchange, best)
	case phasePlaying:
		if len(s.trick) == 0 {
			return s.sorted(seat, ActionPlay, lowest(s.held[seat].Cards(), 1, s.timeoutKey))
		}
		return s.sorted(seat, ActionPlay, s.lowestFollow(seat))
	}
	return table.Action{Type: ActionPass}
}

// firstHandDeclaration keeps rules guafeng/1, /2 and qiangbao/1
// (timeoutDeclares): in a first hand a window that closes with no
// declaration voids the deal (DealVoided "no_declaration") and deals it
// again, so there, and only there, a seat timing out made its weakest
// declaration if it had one. Since, a timeout never declares (rules README,
// Clocks, timeouts and absent players) and AbandonAfter ends a table of
// absent seats.
func (s *State) firstHandDeclaration(seat int) (table.Action, bool) {
	if !s.v.timeoutDeclares {
		return table.Action{}, false
	}
	if s.v.qiangbao {
		return s.qiangbaoFirstShow(seat)
	}
	if !s.v.menPai || s.dealer >= 0 || s.declarer >= 0 {
		return table.Action{}, false
	}
	decls := s.guafengDeclarations(seat, "")
	if len(decls) == 0 {
		return table.Action{}, false
	}
	best := decls[0]
	for _, d := range decls[1:] {
		if len(d) < len(best) {
			best = d
		}
	}
	return s.sorted(seat, ActionDeclare, best), true
}

// timeoutKey orders cards from lowest to highest for the timeout policy:
// side suits before trumps, then by position in the class, then ♦ ♣ ♥ ♠.
func (s *State) timeoutKey(c cards.Card) int {
	k := s.order.Pos(c)*8 + int(3-c.Suit)
	if c.IsJoker() {
		k = s.order.Pos(c) * 8
	}
	if s.order.IsTrump(c) {
		k += 1000
	}
	return k
}

// lowest returns the n lowest of cs by key (fewer when cs is shorter).
func lowest(cs []cards.Card, n int, key func(cards.Card) int) []cards.Card {
	cs = slices.Clone(cs)
	slices.SortStableFunc(cs, func(a, b cards.Card) int { return key(a) - key(b) })
	return cs[:min(n, len(cs))]
}

// sorted is an action of cs sorted as Legal sorts it for seat.
func (s *State) sorted(seat int, typ string, cs []cards.Card) table.Action {
	cs = slices.Clone(cs)
	s.sortOrder(seat).Sort(cs)
	return table.Action{Type: typ, Cards: cs}
}

// lowestBury: the burier's 4 lowest cards; in guafeng every joker it may
// bury first (the rule), then the lowest of its cards no stick takes.
func (s *State) lowestBury(seat int) []cards.Card {
	if s.v.qiangbao {
		return lowest(s.held[seat].Cards(), 1, s.timeoutKey) // one card per action
	}
	if !s.v.partnerBuries {
		return lowest(s.held[seat].Cards(), kittyLen, s.timeoutKey)
	}
	free := s.buryable(seat)
	var jokers, rest []cards.Card
	for _, c := range free.Cards() {
		if c.IsJoker() {
			jokers = append(jokers, c)
		} else {
			rest = append(rest, c)
		}
	}
	jokers = jokers[:min(len(jokers), kittyLen)]
	return append(jokers, lowest(rest, kittyLen-len(jokers), s.timeoutKey)...)
}

// lowestFollow is the lowest legal follow: built directly for the common
// cases (the legal list of a free discard may run to hundreds of thousands
// of plays), checked by checkFollow, and otherwise the follow of follows
// whose cards are lowest (their keys' sum).
func (s *State) lowestFollow(seat int) []cards.Card {
	hand := s.held[seat]
	lead := s.trick[0].cards
	if play := s.greedyFollow(hand, lead); play != nil && s.order.checkFollow(hand, lead, play) == nil {
		return play
	}
	var best []cards.Card
	bestSum := 0
	for _, f := range s.order.follows(hand, lead) {
		sum := 0
		for _, c := range f {
			sum += s.timeoutKey(c)
		}
		if best == nil || sum < bestSum {
			best, bestSum = f, sum
		}
	}
	return best
}

// greedyFollow builds the lowest follow of the usual rules (shengji.md,
// Plays): the lead's class first, its pairs when the lead has pairs, the
// lowest cards otherwise. Nil when it does not apply (a thunder lead).
func (s *State) greedyFollow(hand cards.Multiset, lead []cards.Card) []cards.Card {
	o := s.order
	n := len(lead)
	lr, _ := o.read(lead)
	in, out := o.split(hand, lr.class)
	if in.Len() <= n {
		return append(in.Cards(), lowest(out.Cards(), n-in.Len(), s.timeoutKey)...)
	}
	if lr.shape.Kind == kindThunder {
		return nil
	}
	k := lr.shape.Pairs
	var pairs, rest []cards.Card
	for _, c := range in.Cards() {
		if in.Count(c) == 2 && !slices.Contains(pairs, c) {
			pairs = append(pairs, c)
		}
	}
	pairs = lowest(pairs, k, s.timeoutKey)
	var play []cards.Card
	left := in
	for _, c := range pairs {
		play = append(play, c, c)
		left.Remove([]cards.Card{c, c})
	}
	rest = left.Cards()
	if len(pairs) < k && lr.class == trumpClass {
		// Out of pairs on a trump lead: the highest trumps left, and
		// among equal ones (level cards of side suits) the lowest.
		slices.SortStableFunc(rest, func(a, b cards.Card) int {
			if pa, pb := o.Pos(a), o.Pos(b); pa != pb {
				return pb - pa
			}
			return s.timeoutKey(a) - s.timeoutKey(b)
		})
		return append(play, rest[:n-len(play)]...)
	}
	return append(play, lowest(rest, n-len(play), s.timeoutKey)...)
}
