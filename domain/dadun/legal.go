package dadun

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// Legal lists every action seat may take now (escape excluded), nil when
// seat may not act. In the declaring round: "alone" and "pass", or for a
// banker holding both copies of the turned card "alone" and one "call" per
// card it holds exactly one copy of. In play: every play the seat may make,
// then "pass" when the seat does not lead.
//
// Plays are listed once per rank pattern and reading, and for a bomb once
// per number of 盾 awards its colours can earn: cards of one rank are
// interchangeable except where a rule reads suits, so each play names the
// hand's cards of a rank in suit order (♠ ♥ ♣ ♦), and Decide accepts the
// same play with any suits. Suits matter in two places, and there Legal
// lists each outcome: a 510K is pure or plain (one play each, when the hand
// can make it; under pure_suits "suit" one pure 510K per suit that beats
// the play on the table), and a bomb earns more awards with four cards of
// one colour (one play per number of awards, when the hand can make them).
// Under joker_bombs 2 a two-joker play is named "joker_bomb". A pattern with several readings (3333 as a bomb or, as the
// last cards, a trio with one kicker) is listed once per reading that may be
// played now, with "as" naming it.
func (r *Rules) Legal(s *State, seat int) []table.Action {
	if s.phase == phaseWaiting || seat != s.turn {
		return nil
	}
	if s.phase == phaseDeclaring {
		out := []table.Action{{Type: ActionAlone}}
		if !s.mustCall(seat) {
			return append(out, table.Action{Type: ActionPass})
		}
		own := s.hands[seat].Cards()
		climb.Sort(own)
		for i, c := range own {
			if s.hands[seat].Count(c) == 1 && (i == 0 || own[i-1] != c) {
				out = append(out, table.Action{Type: ActionCall, Cards: []cards.Card{c}})
			}
		}
		return out
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	out := legalPlays(s.v, &s.hands[seat], lead)
	if lead != nil {
		out = append(out, table.Action{Type: ActionPass})
	}
	return out
}

// holding is a hand arranged for generating plays.
type holding struct {
	c     climb.Counts
	total int
	cards [climb.NumRanks][8]cards.Card // the cards of each rank in suit order
}

func newHolding(m *cards.Multiset) *holding {
	h := &holding{}
	for i, k := range m {
		if k == 0 {
			continue
		}
		c := cards.FromIndex(i)
		r := climb.RankOf(c)
		for range k {
			h.cards[r][h.c[r]] = c
			h.c[r]++
		}
	}
	h.total = h.c.Total()
	return h
}

// gen collects candidate rank patterns. Different generators can reach the
// same pattern (a trio run's kickers can make another run), so plays sorts
// and de-duplicates them.
type gen struct {
	v variant
	h *holding
	// pats are the candidates' rank counts as their Keys, which are unique
	// to the counts (no rank holds more than 8 cards): integers sort and
	// de-duplicate faster than the counts they stand for.
	pats []uint64
}

func (g *gen) add(p climb.Counts) { g.pats = append(g.pats, p.Key()) }

// countsOfKey unpacks a Key.
func countsOfKey(k uint64) climb.Counts {
	var c climb.Counts
	for r := range c {
		c[r] = uint8(k >> (4 * r) & 0xF)
	}
	return c
}

// legalPlays lists the plays of hand that may be made on lead (nil:
// leading): it generates candidate patterns of the shapes that can be legal
// on lead, reads each with the classifier Decide uses, and keeps the
// readings that may be played.
func legalPlays(v variant, hand *cards.Multiset, lead *Reading) []table.Action {
	g := &gen{v: v, h: newHolding(hand), pats: make([]uint64, 0, 64)}
	switch {
	case lead == nil:
		g.groups(1, -1)
		g.groups(2, -1)
		for n := 2; n <= int(climb.TopRun)+1; n++ {
			g.runs(2, n, -1)
			g.trioRuns(n, -1, -1)
		}
		for n := 5; n <= int(climb.TopRun)+1; n++ {
			g.runs(1, n, -1)
		}
		g.trios(-1, -1)
		g.specials()
	case lead.Type.Special():
		g.specials()
	default:
		above := int(lead.Main)
		switch lead.Type {
		case Single:
			g.groups(1, above)
		case Pair:
			g.groups(2, above)
		case PairRun:
			g.runs(2, lead.Length, above)
		case Straight:
			g.runs(1, lead.Length, above)
		case Trio:
			g.trios(above, v.followKickers(lead))
		case TrioRun:
			g.trioRuns(lead.Length, above, v.followKickers(lead))
		}
		g.specials()
	}
	return g.plays(lead)
}

// groups adds k cards of one rank above above (k = 1 singles, 2 pairs),
// jokers included.
func (g *gen) groups(k, above int) {
	for r := above + 1; r < climb.NumRanks; r++ {
		if int(g.h.c[r]) >= k {
			var p climb.Counts
			p[r] = uint8(k)
			g.add(p)
		}
	}
}

// runs adds the runs of n ranks with k cards each (straights, pair runs)
// whose top rank is above above.
func (g *gen) runs(k, n, above int) {
	for first := max(0, above-n+2); first+n-1 <= int(climb.TopRun); first++ {
		var p climb.Counts
		ok := true
		for r := first; r < first+n; r++ {
			if int(g.h.c[r]) < k {
				ok = false
				break
			}
			p[r] = uint8(k)
		}
		if ok {
			g.add(p)
		}
	}
}

// kickerCounts is how many kickers a trio run of n trios (n = 1: a trio)
// takes from this hand: two per trio, or, when fewer cards are left, all
// the rest (dadun.md, Combinations). want ≥ 0 asks for exactly that many.
func (g *gen) kickerCounts(n, want int) []int {
	full := 2 * n
	rest := g.h.total - 3*n
	var out []int
	if rest >= full {
		out = append(out, full)
	} else if rest >= 0 {
		out = append(out, rest)
	}
	if want >= 0 {
		out = slices.DeleteFunc(out, func(k int) bool { return k != want })
	}
	return out
}

// followKickers is the number of kickers a play following lead must have,
// for kickerCounts: lead's own, or when lead is full (two kickers a trio)
// any number the hand allows, since last cards short of kickers may follow
// it (dadun.md, Rulings); always lead's own under rules /1
// (sameKickersToFollow).
func (v variant) followKickers(lead *Reading) int {
	if lead.Kickers == 2*lead.Length && !v.sameKickersToFollow {
		return -1
	}
	return lead.Kickers
}

// trios adds every trio above above with its kickers.
func (g *gen) trios(above, kickers int) {
	ks := g.kickerCounts(1, kickers)
	for r := above + 1; r < climb.NumNatural; r++ {
		if g.h.c[r] < 3 {
			continue
		}
		var p climb.Counts
		p[r] = 3
		for _, k := range ks {
			g.kickers(p, k)
		}
	}
}

// trioRuns adds the trio runs of n trios with a top rank above above, with
// their kickers.
func (g *gen) trioRuns(n, above, kickers int) {
	ks := g.kickerCounts(n, kickers)
	if len(ks) == 0 {
		return
	}
	for first := max(0, above-n+2); first+n-1 <= int(climb.TopRun); first++ {
		var p climb.Counts
		ok := true
		for r := first; r < first+n; r++ {
			if g.h.c[r] < 3 {
				ok = false
				break
			}
			p[r] = 3
		}
		if !ok {
			continue
		}
		for _, k := range ks {
			g.kickers(p, k)
		}
	}
}

// kickers adds base with every choice of k more cards of the hand.
func (g *gen) kickers(base climb.Counts, k int) {
	var rec func(p climb.Counts, r, left int)
	rec = func(p climb.Counts, r, left int) {
		if left == 0 {
			g.add(p)
			return
		}
		if r == climb.NumRanks {
			return
		}
		spare := int(g.h.c[r]) - int(p[r])
		for x := 0; x <= min(spare, left); x++ {
			q := p
			q[r] += uint8(x)
			rec(q, r+1, left-x)
		}
	}
	rec(base, 0, k)
}

// specials adds every 510K, multi-510K, bomb and joker bomb of the hand; the
// classifier and Beats sort out which may be played.
func (g *gen) specials() {
	c := &g.h.c
	for r := range climb.NumNatural {
		for n := 4; n <= int(c[r]); n++ {
			var p climb.Counts
			p[r] = uint8(n)
			g.add(p)
		}
	}
	for bj := 0; bj <= int(c[climb.RankBJ]); bj++ {
		for rj := 0; rj <= int(c[climb.RankRJ]); rj++ {
			if bj+rj >= g.v.jokerBombMin() {
				var p climb.Counts
				p[climb.RankBJ], p[climb.RankRJ] = uint8(bj), uint8(rj)
				g.add(p)
			}
		}
	}
	sets := min(c[climb.Rank5], c[climb.Rank10], c[climb.RankK])
	for k := uint8(1); k <= sets; k++ {
		if k == 2 {
			continue
		}
		var p climb.Counts
		p[climb.Rank5], p[climb.Rank10], p[climb.RankK] = k, k, k
		g.add(p)
	}
}

// plays reads the generated patterns and lists the plays that may be made
// on lead (nil: leading).
func (g *gen) plays(lead *Reading) []table.Action {
	slices.Sort(g.pats)
	g.pats = slices.Compact(g.pats)
	out := make([]table.Action, 0, len(g.pats)+1) // + a pass
	backing := make([]cards.Card, 0, 8*len(g.pats))
	var buf [16]Reading
	for _, key := range g.pats {
		p := new(climb.Counts)
		*p = countsOfKey(key)
		last := p.Total() == g.h.total
		rs := g.v.classifyCounts(p, last, buf[:0])
		for _, rd := range rs {
			// A reading its cards refine is compared card by card below.
			refined := g.v.refines(rd)
			if lead != nil && !refined && !g.v.beats(rd, *lead) {
				continue
			}
			if rd.Type != Plain510K && rd.Type != Pure510K && rd.Type != Bomb {
				// The common case: one choice, cut from one backing array.
				at := len(backing)
				for r, k := range p {
					backing = append(backing, g.h.cards[r][:k]...)
				}
				cs := backing[at:len(backing):len(backing)]
				if lead != nil && refined && !g.v.beats(g.v.refine(rd, cs), *lead) {
					continue
				}
				out = append(out, g.action(cs, rd, len(rs), last))
				continue
			}
			for _, cs := range g.h.choices(g.v, rd) {
				if lead != nil && refined && !g.v.beats(g.v.refine(rd, cs), *lead) {
					continue
				}
				out = append(out, g.action(cs, rd, len(rs), last))
			}
		}
	}
	return out
}

// action is the play of cs read as rd, one of n readings of its pattern:
// "as" names rd when cs have several readings, and names a two-joker bomb
// (joker_bombs 2), which a client or a bot would otherwise take for a pair.
func (g *gen) action(cs []cards.Card, rd Reading, n int, last bool) table.Action {
	a := table.Action{Type: ActionPlay, Cards: cs}
	if (n > 1 && len(g.v.classify(cs, last)) > 1) || (rd.Type == JokerBomb && rd.Length == 2) {
		a.As = rd.Name()
	}
	return a
}

// choices lists the cards that play rd where suits change the
// play: a pure or a plain 510K (one each, when the hand can make it; one
// pure 510K per suit under pure_suits "suit", where suits rank them), and a
// bomb once per number of awards. Other plays take the hand's cards of each
// rank in suit order (plays).
func (h *holding) choices(v variant, rd Reading) [][]cards.Card {
	switch rd.Type {
	case Pure510K:
		var out [][]cards.Card
		for s := cards.Spades; s <= cards.Diamonds; s++ {
			cs := []cards.Card{{Suit: s, Rank: 5}, {Suit: s, Rank: 10}, {Suit: s, Rank: cards.King}}
			if h.holds(cs) {
				out = append(out, cs)
				if !v.opts.pureSuits {
					break
				}
			}
		}
		return out
	case Plain510K:
		for _, a := range h.distinct(climb.Rank5) {
			for _, b := range h.distinct(climb.Rank10) {
				for _, c := range h.distinct(climb.RankK) {
					if a.Suit != b.Suit || a.Suit != c.Suit {
						return [][]cards.Card{{a, b, c}}
					}
				}
			}
		}
	case Bomb:
		return h.bombChoices(v, rd.Main, rd.Length)
	}
	return nil
}

func (h *holding) holds(cs []cards.Card) bool {
	for _, c := range cs {
		if !slices.Contains(h.cards[climb.RankOf(c)][:h.c[climb.RankOf(c)]], c) {
			return false
		}
	}
	return true
}

// distinct lists the different cards the hand holds of rank r.
func (h *holding) distinct(r climb.Rank) []cards.Card {
	return slices.Compact(slices.Clone(h.cards[r][:h.c[r]]))
}

// bombChoices lists a bomb of n cards of rank r once per number of awards
// its colours can earn: x red and n−x black cards, for every x the hand
// allows, the first x of each colour in suit order.
func (h *holding) bombChoices(v variant, r climb.Rank, n int) [][]cards.Card {
	var red, black []cards.Card
	for _, c := range h.cards[r][:h.c[r]] {
		if isRed(c) {
			red = append(red, c)
		} else {
			black = append(black, c)
		}
	}
	var out [][]cards.Card
	seen := map[int]bool{}
	for x := max(0, n-len(black)); x <= min(len(red), n); x++ {
		cs := append(slices.Clone(red[:x]), black[:n-x]...)
		climb.Sort(cs)
		a := v.awards(cs, Reading{Type: Bomb, Main: r, Length: n})
		if !seen[a] {
			seen[a] = true
			out = append(out, cs)
		}
	}
	return out
}
