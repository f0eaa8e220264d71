package doudizhu

import (
	"iter"
	"math/bits"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// Legal lists every action seat may take now (escape excluded): during the
// bidding the bids above the highest so far, then pass; during the grab phase
// (hubei, fourplayer) grab, then pass; during the doubling phase (option
// double) double, then pass; during the play every distinct play
// the seat may make (distinct as multisets of cards, so S3 and H3 are two
// plays, and with two decks the two S3 are one), then open (明牌) for a
// landlord who may still open, then pass when the seat does not lead. A
// multiset that is legal under readings of more than one type is listed once
// per type, with "as" naming it; every other play leaves "as" empty. Nil when
// seat may not act.
func (r *Rules) Legal(s *State, seat int) []table.Action {
	if s.phase == phaseWaiting || seat != s.turn {
		return nil
	}
	switch s.phase {
	case phaseBidding:
		var out []table.Action
		for b := s.highBid + 1; b <= r.v.maxBid; b++ {
			out = append(out, table.Action{Type: ActionBid, Bid: table.Seat(b)})
		}
		return append(out, table.Action{Type: ActionPass})
	case phaseGrabbing:
		return []table.Action{{Type: ActionGrab}, {Type: ActionPass}}
	case phaseDoubling:
		return []table.Action{{Type: ActionDouble}, {Type: ActionPass}}
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	out := legalPlays(&s.hands[seat], lead, r.v.cardTypes())
	if s.mayOpen(seat) {
		out = append(out, table.Action{Type: ActionOpen})
	}
	if lead != nil {
		out = append(out, table.Action{Type: ActionPass})
	}
	return out
}

var (
	_ table.StreamDecider[*State]  = (*Rules)(nil)
	_ table.HoldingDecider[*State] = (*Rules)(nil)
)

// LegalSeq yields Legal(s, seat) one action at a time, in the same order
// (table.StreamDecider). During the play it plans the rank patterns as Legal
// does, then expands their choices of suits lazily into one buffer that
// every play reuses: a yielded play's Cards are overwritten once yield
// returns, so a million plays cost one plan and one buffer.
func (r *Rules) LegalSeq(s *State, seat int) iter.Seq[table.Action] {
	return r.LegalSeqHolding(s, seat, cards.Multiset{})
}

// LegalSeqHolding is LegalSeq without the plays of the rank patterns that
// have fewer cards of some rank than sel (table.HoldingDecider): none of
// their plays can contain sel, and the others are yielded as LegalSeq
// yields them.
func (r *Rules) LegalSeqHolding(s *State, seat int, sel cards.Multiset) iter.Seq[table.Action] {
	if s.phase == phaseWaiting || seat != s.turn || s.speaking() {
		return slices.Values(r.Legal(s, seat))
	}
	var need climb.Counts
	for i, k := range sel {
		need[climb.RankOfIndex(i)] += k
	}
	return func(yield func(table.Action) bool) {
		var lead *Reading
		if s.last != nil {
			lead = &s.last.reading
		}
		var pl plan
		pl.make(&s.hands[seat], lead, r.v.cardTypes())
		if !pl.each(&need, yield) {
			return
		}
		if s.mayOpen(seat) && !yield(table.Action{Type: ActionOpen}) {
			return
		}
		if lead != nil {
			yield(table.Action{Type: ActionPass})
		}
	}
}

// holding is a hand arranged for generating plays: its rank counts, and its
// cards of each rank in suit order (S H C D), the two copies of a card of
// two decks next to each other.
type holding struct {
	c     climb.Counts
	cards [climb.NumRanks][2 * 4]cards.Card // up to two decks
	// twin has bit j set when cards[r][j] is the same card as cards[r][j-1]:
	// choosing the second copy without the first would repeat a play.
	twin  [climb.NumRanks]uint
	types cardTypes
}

// fill arranges hand m; h must be zero.
func (h *holding) fill(m *cards.Multiset) {
	for i, k := range m {
		if k == 0 {
			continue
		}
		r, c := climb.RankOfIndex(i), cards.FromIndex(i)
		for j := range k {
			if j > 0 {
				h.twin[r] |= 1 << h.c[r]
			}
			h.cards[r][h.c[r]] = c
			h.c[r]++
		}
	}
}

// of is the hand's cards of rank r.
func (h *holding) of(r int) []cards.Card { return h.cards[r][:h.c[r]] }

// legalPlays lists the plays of hand that may be made on lead (nil: leading).
//
// It works in two steps. First it generates the rank patterns (how many cards
// of each rank) that may be played on lead, each once, with its playable
// types (patternGen). Second it expands each pattern into every choice of
// suits the hand allows.
func legalPlays(hand *cards.Multiset, lead *Reading, ct cardTypes) []table.Action {
	var pl plan
	pl.make(hand, lead, ct)
	return pl.all()
}

// plan is the first step of legalPlays: the playable rank patterns, each with
// its number of suit choices and its playable types.
type plan struct {
	h       holding
	keep    []kept
	keepBuf [32]kept // most calls need no more: no allocation
	total   int      // cards in all the plays
	actions int      // plays, one per playable type of a multiset
	pats    []uint64
	patBuf  [64]uint64
}

type kept struct {
	p     climb.Counts
	n     int    // cards in a play
	plays int    // choices of suits
	types uint32 // bit t set: playable as type t
}

func (pl *plan) make(hand *cards.Multiset, lead *Reading, ct cardTypes) {
	pl.makeGens(hand, lead, ct, gensOn(lead))
}

var allTypes = [...]Type{Single, Pair, Trio, TrioSingle, TrioPair, Straight, PairStraight, Airplane,
	AirplaneSingles, AirplanePairs, FourTwoSingles, FourTwoPairs, Bomb, Rocket}

// makeOf plans the plays of the generators' types only (chains of lead's
// length when following).
func (pl *plan) makeOf(hand *cards.Multiset, lead *Reading, ct cardTypes, gens []Type) {
	var set uint32
	for _, t := range gens {
		set |= 1 << t
	}
	pl.makeGens(hand, lead, ct, set)
}

// makeGens plans the plays of the types in gens (bit t for type t): the
// rank patterns of patternGen, in its order, each with its choices of
// suits.
func (pl *plan) makeGens(hand *cards.Multiset, lead *Reading, ct cardTypes, gens uint32) {
	pl.h, pl.total, pl.actions = holding{}, 0, 0 // a plan may be reused
	h := &pl.h
	h.types = ct
	h.fill(hand)
	if pl.pats == nil {
		pl.pats = pl.patBuf[:0]
	}
	g := patternGen{h: h.c.Key(), t: ct, lead: lead, gens: gens, out: pl.pats[:0]}
	var ends [Rocket + 1]int
	g.all(&ends)
	pl.pats = g.out
	pl.keep = pl.keepBuf[:0]
	start := 0
	for ty := Single; ty <= Rocket; ty++ {
		for _, key := range pl.pats[start:ends[ty]] {
			p := patternCounts(key)
			types := patternTypes(key, ty, lead)
			c := h.choices(&p)
			n := p.Total()
			pl.keep = append(pl.keep, kept{p, n, c, types})
			pl.total += c * n
			pl.actions += c * bits.OnesCount32(types)
		}
		start = ends[ty]
	}
}

// patternTypes is the playable types of pattern key, which patternGen gave
// as type ty.
func patternTypes(key uint64, ty Type, lead *Reading) uint32 {
	// The one pattern of two types: a run of 4 or 8 trios on a lead is an
	// airplane and an airplane with single kickers.
	if lead == nil && (ty == Airplane || ty == AirplaneSingles) && trioRun(key) {
		if p := patternCounts(key); (p.Total()/3)%4 == 0 {
			return 1<<Airplane | 1<<AirplaneSingles
		}
	}
	return uint32(1) << ty
}

// all expands the plan into every play: the patterns in order, each pattern's
// choices of suits in expand's order, and each choice once per playable type
// (with "as" only when there are several).
func (pl *plan) all() []table.Action {
	h := &pl.h
	backing := make([]cards.Card, 0, pl.total)
	for _, k := range pl.keep {
		backing = h.expand(&k.p, backing)
	}
	out := make([]table.Action, 0, pl.actions+1) // + a pass
	at := 0
	for _, k := range pl.keep {
		end := at + k.plays*k.n
		for ; at < end; at += k.n {
			a := table.Action{Type: ActionPlay, Cards: backing[at : at+k.n : at+k.n]}
			if bits.OnesCount32(k.types) == 1 {
				out = append(out, a)
				continue
			}
			for t := Single; t <= Rocket; t++ {
				if k.types&(1<<t) != 0 {
					a.As = t.String()
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// each yields all()'s plays one at a time, expanding one choice of suits at
// a time into a buffer that every play reuses, less the patterns with
// fewer cards of some rank than need; false when yield stopped.
func (pl *plan) each(need *climb.Counts, yield func(table.Action) bool) bool {
	h := &pl.h
	buf := make([]cards.Card, 0, h.c.Total())
	var o odometer
	for _, k := range pl.keep {
		if !covers(&k.p, need) {
			continue
		}
		o.start(&k.p)
		single := bits.OnesCount32(k.types) == 1
		for {
			cs := o.append(h, buf[:0])
			a := table.Action{Type: ActionPlay, Cards: cs[:len(cs):len(cs)]}
			if single {
				if !yield(a) {
					return false
				}
			} else {
				for t := Single; t <= Rocket; t++ {
					if k.types&(1<<t) != 0 {
						a.As = t.String()
						if !yield(a) {
							return false
						}
					}
				}
			}
			if !o.next(h) {
				break
			}
		}
	}
	return true
}

// covers reports whether p has at least need's cards of every rank.
func covers(p, need *climb.Counts) bool {
	for r, n := range need {
		if p[r] < n {
			return false
		}
	}
	return true
}

// at is all()[i] without expanding the others (0 ≤ i < pl.actions), for
// drivers that pick one play of thousands (random games, bots).
func (pl *plan) at(i int) table.Action {
	h := &pl.h
	for _, k := range pl.keep {
		nt := bits.OnesCount32(k.types)
		if i >= k.plays*nt {
			i -= k.plays * nt
			continue
		}
		choice, ti := i/nt, i%nt
		a := table.Action{Type: ActionPlay, Cards: h.choice(&k.p, choice)}
		if nt > 1 {
			for t := Single; t <= Rocket; t++ {
				if k.types&(1<<t) != 0 {
					if ti == 0 {
						a.As = t.String()
						break
					}
					ti--
				}
			}
		}
		return a
	}
	panic("doudizhu: plan.at out of range")
}

// choice is the choice-th play expand lists for pattern p: a mixed-radix
// number over the pattern's ranks, the last rank fastest, each digit the
// index of a distinct mask in increasing order.
func (h *holding) choice(p *climb.Counts, choice int) []cards.Card {
	var masks [climb.NumRanks]uint
	radix := 1
	for r := climb.NumRanks - 1; r >= 0; r-- {
		k := p[r]
		if k == 0 {
			continue
		}
		var list [70]uint // C(8, 4), the most masks of a rank
		n := 0
		for mask := uint(1)<<k - 1; mask < 1<<h.c[r]; mask = nextMask(mask) {
			if h.distinct(r, mask) {
				list[n] = mask
				n++
			}
		}
		masks[r] = list[(choice/radix)%n]
		radix *= n
	}
	var out []cards.Card
	for r := range climb.NumRanks {
		for j, c := range h.of(r) {
			if masks[r]&(1<<j) != 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// choices is the number of ways the hand's suits can make pattern p: the
// distinct multisets of cards, so a choice between two identical copies of a
// card counts once.
func (h *holding) choices(p *climb.Counts) int {
	n := 1
	for r, k := range p {
		if k == 0 {
			continue
		}
		if h.twin[r] == 0 {
			n *= binomial(int(h.c[r]), int(k))
			continue
		}
		m := 0
		for mask := uint(1)<<k - 1; mask < 1<<h.c[r]; mask = nextMask(mask) {
			if h.distinct(r, mask) {
				m++
			}
		}
		n *= m
	}
	return n
}

// distinct reports whether mask is the one choice among the masks choosing
// the same multiset of rank r: never the second copy of a card without the
// first.
func (h *holding) distinct(r int, mask uint) bool {
	return mask&h.twin[r]&^(mask<<1) == 0
}

func binomial(n, k int) int {
	out := 1
	for i := range k {
		out = out * (n - i) / (i + 1)
	}
	return out
}

// expand appends to out every choice of the hand's cards that has pattern
// p's rank counts, one play after the other, each in display order, in
// odometer's order.
func (h *holding) expand(p *climb.Counts, out []cards.Card) []cards.Card {
	var o odometer
	o.start(p)
	for {
		out = o.append(h, out)
		if !o.next(h) {
			return out
		}
	}
}

// odometer counts through the choices of suits of one rank pattern, the
// last rank fastest; each rank's choice is a bit mask over its cards,
// stepped through the masks with the same number of bits in increasing
// order, skipping those that repeat a multiset (distinct).
type odometer struct {
	nr          int
	ranks       [climb.NumRanks]uint8
	mask, first [climb.NumRanks]uint
}

// start sets o to the first choice of pattern p.
func (o *odometer) start(p *climb.Counts) {
	o.nr = 0
	for r, k := range p {
		if k > 0 {
			o.ranks[o.nr], o.first[o.nr] = uint8(r), 1<<k-1
			o.mask[o.nr] = o.first[o.nr]
			o.nr++
		}
	}
}

// append appends the cards of the current choice to out, in display order.
func (o *odometer) append(h *holding, out []cards.Card) []cards.Card {
	for i := range o.nr {
		for j, c := range h.of(int(o.ranks[i])) {
			if o.mask[i]&(1<<j) != 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// next steps to the next choice; false when the current one was the last.
func (o *odometer) next(h *holding) bool {
	for i := o.nr - 1; i >= 0; i-- {
		r := int(o.ranks[i])
		next := nextMask(o.mask[i])
		for next < 1<<h.c[r] && !h.distinct(r, next) {
			next = nextMask(next)
		}
		if next < 1<<h.c[r] {
			o.mask[i] = next
			return true
		}
		o.mask[i] = o.first[i]
	}
	return false
}

// nextMask is the next larger integer with as many one bits as m (m > 0).
func nextMask(m uint) uint {
	low := m & -m
	up := m + low
	return up | ((up^m)>>2)/low
}
