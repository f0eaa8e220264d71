package shengji

import (
	"slices"

	"paiju/domain/cards"
)

// guafeng's combinations (shengji.md, Plays, guafeng combinations; seed 003):
// the single; 风, a pair or a tractor of one suit; 雨, 5+ consecutive ranks
// of one suit with any of them paired; 雷, one rank of 2, 3, 5 or the level
// in all four suits. Consecutive means consecutive link keys (linkKey).

// linkKey is c's place in the run of its suit that tractors and rains are
// built on, ok false for a card that links with nothing: jokers, level cards,
// and a side suit's 2, 3 and 5 (fixed trumps that cannot join their suit's
// side cards). The trump suit keeps its own 2, 3 and 5 in the run (♠2233 is
// a wind when ♠ is trump). Ranks left out close the gap, as the level rank
// does in ningyang: with level 7 and ♥ trump, ♦4 4 ♦6 6 is a wind (Decision).
func (o Order) linkKey(c cards.Card) (int, bool) {
	if c.IsJoker() || c.Rank == o.Level || (c.Suit != o.Trump && o.isFixedRank(c.Rank)) {
		return 0, false
	}
	k := 0
	for r := cards.Rank(2); r < c.Rank; r++ {
		if r != o.Level && (c.Suit == o.Trump || !o.isFixedRank(r)) {
			k++
		}
	}
	return k, true
}

// isThunderRank: thunders are made of 2s, 3s, 5s or level cards.
func (o Order) isThunderRank(r cards.Rank) bool {
	return r == o.Level || o.isFixedRank(r)
}

// guafengRead reads cs (non-empty) as one guafeng combination.
func (o Order) guafengRead(cs []cards.Card) (reading, bool) {
	class := o.Class(cs[0])
	top := -1
	for _, c := range cs {
		if o.Class(c) != class {
			return reading{}, false
		}
		top = max(top, o.Pos(c))
	}
	if len(cs) == 1 {
		return reading{class: class, top: top}, true
	}
	if len(cs) == 4 && o.isThunder(cs) {
		return reading{class: class, shape: Shape{Kind: kindThunder}, top: top}, true
	}
	m := cards.Of(cs)
	// Every distinct card once or twice, all of one suit, at distinct
	// consecutive link keys; a single pair needs no key (BJ BJ, H7 H7).
	distinct, pairs := 0, 0
	var suit cards.Suit
	var keys []int
	for i, k := range m {
		if k == 0 {
			continue
		}
		if k > 2 {
			return reading{}, false
		}
		c := cards.FromIndex(i)
		if distinct == 0 {
			suit = c.Suit
		}
		distinct++
		if k == 2 {
			pairs++
		}
		if c.Suit != suit {
			return reading{}, false
		}
		key, ok := o.linkKey(c)
		if !ok {
			if len(cs) != 2 {
				return reading{}, false
			}
			continue
		}
		keys = append(keys, key)
	}
	if distinct == 1 {
		if pairs == 1 {
			return reading{class: class, shape: Shape{Pairs: 1}, top: top}, true
		}
		return reading{}, false
	}
	slices.Sort(keys)
	if len(keys) != distinct || keys[len(keys)-1]-keys[0]+1 != distinct {
		return reading{}, false
	}
	if pairs == distinct {
		return reading{class: class, shape: Shape{Pairs: pairs}, top: top}, true
	}
	if distinct < 5 {
		return reading{}, false
	}
	return reading{class: class, shape: Shape{Kind: kindRain, Pairs: pairs, Len: len(cs)}, top: top}, true
}

// isThunder: four cards of one thunder rank in four different suits.
func (o Order) isThunder(cs []cards.Card) bool {
	if len(cs) != 4 || !o.isThunderRank(cs[0].Rank) {
		return false
	}
	var suits [4]bool
	for _, c := range cs {
		if c.IsJoker() || c.Rank != cs[0].Rank || suits[c.Suit] {
			return false
		}
		suits[c.Suit] = true
	}
	return true
}

// thunders lists the thunders m holds, one per rank.
func (o Order) thunders(m cards.Multiset) [][]cards.Card {
	var out [][]cards.Card
	for r := cards.Rank(2); r <= cards.Ace; r++ {
		if !o.isThunderRank(r) {
			continue
		}
		t := make([]cards.Card, 0, 4)
		for s := cards.Spades; s < cards.Joker; s++ {
			if c := (cards.Card{Suit: s, Rank: r}); m.Count(c) > 0 {
				t = append(t, c)
			}
		}
		if len(t) == 4 {
			out = append(out, t)
		}
	}
	return out
}

// guafengLeads lists every guafeng lead from hand: singles, pairs, winds, rains
// and thunders, each multiset once (no throws).
func (o Order) guafengLeads(hand cards.Multiset) [][]cards.Card {
	var res [][]cards.Card
	// runs[suit][key]: the card at a link key and how many are held.
	var runs [4][13]cards.Card
	var held [4][13]int
	for i, k := range hand {
		if k == 0 {
			continue
		}
		c := cards.FromIndex(i)
		res = append(res, []cards.Card{c})
		if k == 2 {
			res = append(res, []cards.Card{c, c})
		}
		if key, ok := o.linkKey(c); ok {
			runs[c.Suit][key], held[c.Suit][key] = c, int(k)
		}
	}
	for s := range runs {
		for lo := range held[s] {
			// Tractors: pairs at lo..hi.
			for hi := lo; hi < len(held[s]) && held[s][hi] == 2; hi++ {
				if hi > lo {
					var t []cards.Card
					for k := lo; k <= hi; k++ {
						t = append(t, runs[s][k], runs[s][k])
					}
					res = append(res, t)
				}
			}
			// Rains: 5+ keys lo..hi held, each once or twice, not all twice.
			for hi := lo; hi < len(held[s]) && held[s][hi] > 0; hi++ {
				if hi-lo+1 < 5 {
					continue
				}
				var rec func(k int, acc []cards.Card, singles int)
				rec = func(k int, acc []cards.Card, singles int) {
					if k > hi {
						if singles > 0 {
							res = append(res, slices.Clone(acc))
						}
						return
					}
					c := runs[s][k]
					rec(k+1, append(acc, c), singles+1)
					if held[s][k] == 2 {
						rec(k+1, append(acc, c, c), singles)
					}
				}
				rec(lo, nil, 0)
			}
		}
	}
	return append(res, o.thunders(hand)...)
}

// highestFollows lists the plays of the n highest cards of in, any choice
// among equal cards at the boundary (follows of a thunder without one, and
// of trump pairs and tractors past the pairs held).
func (o Order) highestFollows(in cards.Multiset, n int, base []cards.Card) [][]cards.Card {
	cs := in.Cards()
	slices.SortFunc(cs, func(a, b cards.Card) int { return o.Pos(b) - o.Pos(a) })
	bound := o.Pos(cs[n-1])
	var must []cards.Card
	var tie cards.Multiset
	for _, c := range cs {
		switch p := o.Pos(c); {
		case p > bound:
			must = append(must, c)
		case p == bound:
			tie.Add(c)
		}
	}
	var res [][]cards.Card
	subMultisets(tie, n-len(must), func(pick []cards.Card) {
		play := append(slices.Clone(base), must...)
		res = append(res, append(play, pick...))
	})
	return res
}

// keptAbovePlayed reports whether a card of in not played outranks a card of
// in played (play ⊆ in): the play is not the highest cards.
func (o Order) keptAbovePlayed(in, inPlay cards.Multiset) bool {
	lowPlayed, highKept := maxPos+1, -1
	for i, k := range in {
		if k == 0 {
			continue
		}
		p := o.Pos(cards.FromIndex(i))
		if inPlay[i] > 0 {
			lowPlayed = min(lowPlayed, p)
		}
		if inPlay[i] < k {
			highKept = max(highKept, p)
		}
	}
	return highKept > lowPlayed
}

// guafengKittyValue is a buried card's worth in guafeng (shengji.md, Kitty; seed
// 003 note 3; Decision 20 for level cards): RJ 100, BJ 50, a level card 20
// (its face value replaced), other 10 and K 10, other 5 5.
func (o Order) guafengKittyValue(c cards.Card) int {
	switch {
	case c.Rank == cards.RedJoker:
		return 100
	case c.Rank == cards.BlackJoker:
		return 50
	case c.Rank == o.Level:
		return 20
	}
	return c.Points()
}
