package shuangkou

import (
	"math/bits"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// Legal lists every action seat may take now (escape excluded): every play
// the seat may make, then pass when the seat does not lead. Nil when seat may
// not act.
//
// Plays are listed once per rank pattern: how many natural cards of each rank
// and which jokers (BJ and RJ are distinct cards, and which one a wild uses
// matters for what stays in hand). Cards of one rank are interchangeable in
// 双扣 — no rule reads a suit — so each play names the hand's cards of a rank
// in suit order (♠ ♥ ♣ ♦), and Decide accepts the same play with any suits.
// This keeps Legal finite in practice: listing every choice of suits would
// multiply a long straight by up to 2 per rank. A pattern with several
// readings (a straight with wilds that can sit at either end, 7 7 + jokers
// as a bomb or a pair run…) is listed once per reading that may be played
// now, with "as" naming it; a play with one reading leaves "as" empty.
func (r *Rules) Legal(s *State, seat int) []table.Action {
	if s.phase == phaseWaiting || seat != s.turn {
		return nil
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	out := legalPlays(&s.hands[seat], lead, r.v.cardTypes())
	if lead != nil {
		out = append(out, table.Action{Type: ActionPass})
	}
	return out
}

// holding is a hand arranged for generating plays.
type holding struct {
	s     climb.Counts
	wilds int                                 // jokers that may stand in for natural cards
	bjMay bool                                // BJ among them (not under the option wild "big")
	cards [climb.NumNatural][2 * 4]cards.Card // the cards of each rank in suit order
}

func newHolding(m *cards.Multiset, ct cardTypes) *holding {
	h := &holding{}
	for i, k := range m {
		if k == 0 {
			continue
		}
		r := climb.RankOfIndex(i)
		if r.IsJoker() {
			h.s[r] += k
			continue
		}
		c := cards.FromIndex(i)
		for range k {
			h.cards[r][h.s[r]] = c
			h.s[r]++
		}
	}
	bj, rj := ct.wild.wilds()
	if bj {
		h.wilds += int(h.s[climb.RankBJ])
		h.bjMay = true
	}
	if rj {
		h.wilds += int(h.s[climb.RankRJ])
	}
	return h
}

// gen collects the rank patterns of candidate plays. Without wilds every
// generator yields distinct patterns (natural cards have one shape); with
// wilds the same cards can complete several runs, or a run and a bomb, so
// plays sorts and de-duplicates them.
type gen struct {
	h     *holding
	types cardTypes
	pats  []uint64 // the candidates as their climb.Counts Keys: integers sort fast
}

func (g *gen) add(p climb.Counts) { g.pats = append(g.pats, p.Key()) }

// countsOfKey unpacks a climb.Counts Key.
func countsOfKey(k uint64) climb.Counts {
	var c climb.Counts
	for r := range c {
		c[r] = uint8(k >> (4 * r) & 0xF)
	}
	return c
}

// addWild adds natural pattern p completed by w wild jokers, once per choice
// of which jokers (so many BJ, the rest RJ) the hand can make; RJ alone
// when BJ are not wild.
func (g *gen) addWild(p climb.Counts, w int) {
	if w == 0 {
		g.add(p)
		return
	}
	bj, rj := int(g.h.s[climb.RankBJ]), int(g.h.s[climb.RankRJ])
	if !g.h.bjMay {
		bj = 0
	}
	for x := max(0, w-rj); x <= min(bj, w); x++ {
		p[climb.RankBJ], p[climb.RankRJ] = uint8(x), uint8(w-x)
		g.add(p)
	}
}

// legalPlays lists the plays of hand that may be made on lead (nil: leading).
// It generates candidate rank patterns, only of the shapes that can be legal
// on lead, reads each with the classifier Decide uses, and keeps the readings
// that may be played.
func legalPlays(hand *cards.Multiset, lead *Reading, ct cardTypes) []table.Action {
	g := newGen(hand, ct)
	switch {
	case lead == nil:
		g.jokersAlone()
		for _, t := range [...]Type{Single, Pair, Trio} {
			g.groups(t, -1)
		}
		for _, t := range [...]Type{PairRun, TrioRun, Straight} {
			for n := minRun(t); n <= int(climb.TopRun)+1; n++ {
				g.runs(t, n, -1)
			}
		}
		g.bombs(4)
	case lead.Type == JokerBomb:
	case lead.Type == Bomb:
		g.bombs(lead.Length)
		g.jokersAlone()
	default:
		switch lead.Type {
		case Single, Pair, Trio:
			g.groups(lead.Type, int(lead.Main))
		default:
			g.runs(lead.Type, lead.Length, int(lead.Main))
		}
		g.bombs(4)
		g.jokersAlone()
	}
	return g.plays(lead)
}

func newGen(hand *cards.Multiset, ct cardTypes) *gen {
	return &gen{h: newHolding(hand, ct), types: ct, pats: make([]uint64, 0, 64)}
}

// plays reads the generated patterns and lists the plays that may be made
// on lead (nil: leading).
func (g *gen) plays(lead *Reading) []table.Action {
	h, ct := g.h, g.types
	if h.wilds > 0 {
		slices.Sort(g.pats)
		g.pats = slices.Compact(g.pats)
	}
	// Read every pattern first, so that one backing array holds the cards
	// of every play and one slice the actions.
	type kept struct {
		p     climb.Counts
		n     int    // cards in the play
		names uint64 // bit i set: reading i of the pattern may be played
		many  bool   // the pattern has more than one reading
	}
	keep := make([]kept, 0, len(g.pats))
	var buf [16]Reading
	total, actions := 0, 0
	for _, key := range g.pats {
		p := countsOfKey(key)
		var names uint64
		rs := ct.classify(&p, false, buf[:0])
		for i, rd := range rs {
			if lead == nil || rd.Beats(*lead) {
				names |= 1 << i
			}
		}
		if names == 0 {
			continue
		}
		k := kept{p: p, n: p.Total(), names: names, many: len(rs) > 1}
		keep = append(keep, k)
		total += k.n
		actions += bits.OnesCount64(names)
	}
	backing := make([]cards.Card, 0, total)
	out := make([]table.Action, 0, actions+1) // + a pass
	for _, k := range keep {
		at := len(backing)
		backing = h.expand(&k.p, backing)
		cs := backing[at:len(backing):len(backing)]
		if !k.many {
			out = append(out, table.Action{Type: ActionPlay, Cards: cs})
			continue
		}
		for i, rd := range ct.classify(&k.p, false, buf[:0]) {
			if k.names&(1<<i) != 0 {
				out = append(out, table.Action{Type: ActionPlay, Cards: cs, As: rd.Name()})
			}
		}
	}
	return out
}

// jokersAlone adds the plays of jokers as themselves: each single joker, a
// pair of the same joker, all four.
func (g *gen) jokersAlone() {
	const bj, rj = climb.RankBJ, climb.RankRJ
	s := &g.h.s
	for _, p := range [...]climb.Counts{{bj: 1}, {rj: 1}, {bj: 2}, {rj: 2}, {bj: 2, rj: 2}} {
		if p[bj] <= s[bj] && p[rj] <= s[rj] {
			g.add(p)
		}
	}
}

// groups adds singles, pairs or trios (t) of a natural rank above above,
// jokers filling in for missing cards, at least one card natural.
func (g *gen) groups(t Type, above int) {
	k := t.group()
	for r := above + 1; r < climb.NumNatural; r++ {
		have := int(g.h.s[r])
		for c := max(1, k-g.h.wilds); c <= min(have, k); c++ {
			var p climb.Counts
			p[r] = uint8(c)
			g.addWild(p, k-c)
		}
	}
}

// bombs adds the bombs of at least minLen cards: any natural rank with
// jokers, at least one card natural.
func (g *gen) bombs(minLen int) {
	for r := range climb.NumNatural {
		have := int(g.h.s[r])
		for n := max(4, minLen); n <= have+g.h.wilds; n++ {
			for c := max(1, n-g.h.wilds); c <= min(have, n); c++ {
				var p climb.Counts
				p[r] = uint8(c)
				g.addWild(p, n-c)
			}
		}
	}
}

// runs adds the runs of type t and length n ranks whose top rank is above
// above, every split between natural cards and wilds.
func (g *gen) runs(t Type, n, above int) {
	k := t.group()
	for first := max(0, above-n+2); first+n-1 <= int(climb.TopRun); first++ {
		var p climb.Counts
		g.fillRun(&p, first, first+n-1, first, k, g.h.wilds, 0)
	}
}

// fillRun chooses the natural cards of ranks r … last of a run from first
// (k a rank), with budget wilds left; w wilds are used so far.
func (g *gen) fillRun(p *climb.Counts, first, last, r, k, budget, w int) {
	if r > last {
		g.addWild(*p, w)
		return
	}
	have := int(g.h.s[r])
	for c := min(have, k); c >= 0 && k-c <= budget; c-- {
		p[r] = uint8(c)
		g.fillRun(p, first, last, r+1, k, budget-(k-c), w+k-c)
	}
	p[r] = 0
}

// expand appends the cards of pattern p to out: the hand's first cards of
// each rank in suit order, then the jokers.
func (h *holding) expand(p *climb.Counts, out []cards.Card) []cards.Card {
	for r, c := range p[:climb.NumNatural] {
		out = append(out, h.cards[r][:c]...)
	}
	for range p[climb.RankBJ] {
		out = append(out, cards.BJ)
	}
	for range p[climb.RankRJ] {
		out = append(out, cards.RJ)
	}
	return out
}
