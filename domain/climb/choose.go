package climb

import (
	"cmp"
	"slices"

	"paiju/domain/table"
)

// Option is one legal play as a bot weighs it.
type Option struct {
	// Index is the play's place in the legal list.
	Index int
	// Take is the cards it plays, by rank.
	Take Counts
	// Bomb: the play beats every ordinary one (a bomb, the rocket, a joker
	// bomb, a 510K), which a bot keeps for when it matters.
	Bomb bool
}

// Situation is what a bot knows when it chooses a play, all of it from its
// seat's view.
type Situation struct {
	// Hand is the seat's own cards by rank.
	Hand Counts
	// Pass is the index of pass in the legal list; -1 when the seat leads.
	Pass int
	// PartnerWinning: the play to beat is a partner's (a known partner
	// only), which the bot lets win.
	PartnerWinning bool
	// OpponentLow is the fewest cards a seat that may be an opponent holds
	// (0 when none holds cards); at Danger or fewer it is about to go out,
	// and the bot plays to stop it.
	OpponentLow, Danger int
}

// maxEvaluated bounds the distinct plays a choice rates by the fewest plays
// left: a lead from 27 cards of two decks lists thousands of plays, and the
// bot must answer in well under a millisecond. The plays are first ordered
// by a cheap measure (not a bomb, breaking no rank, lowest main rank), so
// the bound drops only plays that are poor anyway.
const maxEvaluated = 48

// Choose returns the index in the legal list of the play a bot makes: the
// policy every climbing game's bot shares (doudizhu.md, dadun.md,
// shuangkou.md are its games; each game builds the options from its legal
// list and view). In order:
//
//  1. A play that sheds the whole hand.
//  2. Following a partner's play that wins: pass.
//  3. Otherwise rate each play by the fewest plays the rest of the hand
//     needs (Shapes.Plays), then: a bomb costs more than any ordinary
//     play unless an opponent is about to go out; then the lower main rank,
//     then the more cards. Leading, the best play is made; when an opponent
//     about to go out holds exactly 1 or 2 cards, plays of that size come
//     last. Following, a play is made only when it keeps the hand's shape
//     (the rest needs fewer plays than before), or, to stop an opponent
//     about to go out, any play; a bomb only then, or when the rest needs at
//     most one more play. Else pass.
//
// Ties go to the earlier play in the legal list. opts must not be empty
// unless s.Pass ≥ 0.
func (sh *Shapes) Choose(s Situation, opts []Option) int {
	total := s.Hand.Total()
	for _, o := range opts {
		if o.Take.Total() == total {
			return o.Index
		}
	}
	if s.Pass >= 0 && s.PartnerWinning {
		return s.Pass
	}
	urgent := s.OpponentLow > 0 && s.OpponentLow <= s.Danger
	cands := make([]candidate, 0, len(opts))
	for _, o := range opts {
		cands = append(cands, newCandidate(o, &s.Hand))
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(a.cheap, b.cheap) })
	before := sh.Plays(&s.Hand)
	seen := make(map[uint64]bool, maxEvaluated)
	best, bestScore := -1, 0
	for _, c := range cands {
		key := c.o.Take.Key()
		if seen[key] {
			continue
		}
		if len(seen) >= maxEvaluated {
			break
		}
		seen[key] = true
		rest := s.Hand
		for r, k := range c.o.Take {
			rest[r] -= k
		}
		after := sh.Plays(&rest)
		if s.Pass >= 0 && !acceptable(c.o.Bomb, before, after, urgent) {
			continue
		}
		score := after*1000 + int(c.main)*10 - c.size
		if c.o.Bomb && !urgent {
			score += 1500
		}
		if s.Pass < 0 && urgent && s.OpponentLow <= 2 && c.size == s.OpponentLow {
			score += 600
		}
		if best < 0 || score < bestScore {
			best, bestScore = c.o.Index, score
		}
	}
	if best < 0 {
		if s.Pass >= 0 {
			return s.Pass
		}
		return opts[0].Index
	}
	return best
}

// acceptable reports whether a following play is worth making (Choose, 3).
func acceptable(bomb bool, before, after int, urgent bool) bool {
	if bomb {
		return urgent || after <= 1
	}
	return urgent || after < before
}

type candidate struct {
	o     Option
	main  Rank // the rank the play holds most cards of, the highest of those
	size  int
	cheap int // the order in which Choose rates plays
}

func newCandidate(o Option, hand *Counts) candidate {
	c := candidate{o: o}
	breaks, most := 0, uint8(0)
	for r, k := range o.Take {
		if k == 0 {
			continue
		}
		c.size += int(k)
		if k >= most {
			most, c.main = k, Rank(r)
		}
		if k < hand[r] {
			breaks++
		}
	}
	c.cheap = breaks*100 + int(c.main)*4 - c.size
	if o.Bomb {
		c.cheap += 10000
	}
	return c
}

// Options reads a climbing game's legal list for Choose: the index of its
// pass action into s.Pass (-1 when there is none), and one Option per play,
// marked Bomb when bomb says so of its cards. pass and play are the game's
// action type names.
func Options(s *Situation, legal []table.Action, pass, play string, bomb func(a table.Action, take *Counts) bool) []Option {
	s.Pass = -1
	opts := make([]Option, 0, len(legal))
	for i, a := range legal {
		switch a.Type {
		case pass:
			s.Pass = i
		case play:
			take := CountsOf(a.Cards)
			opts = append(opts, Option{Index: i, Take: take, Bomb: bomb(a, &take)})
		}
	}
	return opts
}
