package shengji

import (
	"slices"

	"paiju/domain/cards"
)

// checkFollow checks a follow to the lead (shengji.md, Plays, ningyang) from
// hand (the follower's cards, the play included):
//
//  1. The same number of cards as the lead.
//  2. Follow the lead's suit-class: all cards of it when the hand holds
//     more than the lead's count, else every card of it the hand holds.
//  3. A pair or tractor lead of k pairs: the play holds min(k, pairs held
//     in the class) pairs (有对必须出对); any pair will do.
//  4. When the pairs held run out (fewer than k) and the lead is trump, the
//     rest of the play is the follower's highest trumps left
//     (主牌对出最大的); on a side lead, any cards of the suit.
//
// Rules 3 and 4 bind only while the class holds more cards than the lead.
// Errors name the caller's own cards only.
func (o Order) checkFollow(hand cards.Multiset, lead, play []cards.Card) error {
	n := len(lead)
	if len(play) != n {
		return ErrWrongCardCount.With("the lead has %d card(s): follow with %d, not %d (shengji.md, Plays)", n, n, len(play))
	}
	lr, _ := o.read(lead)
	class := lr.class
	in, _ := o.split(hand, class)
	inPlay, _ := o.split(cards.Of(play), class)
	held, played := in.Len(), inPlay.Len()
	if held <= n {
		if played != held {
			return ErrMustFollowSuit.With("you hold %d card(s) of the led %s: play them all (shengji.md, Plays)", held, className(class))
		}
		return nil
	}
	if played != n {
		return ErrMustFollowSuit.With("play %d card(s) of the led %s while you have them (shengji.md, Plays)", n, className(class))
	}
	if lr.shape.Kind == kindThunder {
		// 有雷出雷，没雷需要从大到小的出牌 (shengji.md, guafeng 雷).
		if len(o.thunders(in)) > 0 {
			if !o.isThunder(play) {
				return ErrMustPlayThunder.With("you hold a thunder: answer thunder with thunder (shengji.md, Plays, guafeng 雷)")
			}
			return nil
		}
		if o.keptAbovePlayed(in, inPlay) {
			return ErrMustPlayHighest.With("without a thunder, answer a thunder with your four highest trumps (shengji.md, Plays, guafeng 雷)")
		}
		return nil
	}
	k := lr.shape.Pairs
	if k == 0 {
		return nil
	}
	pairsHeld := countPairs(&in)
	need := min(k, pairsHeld)
	if countPairs(&inPlay) < need {
		return ErrMustPlayPairs.With("you hold %d pair(s) of the led %s: play %d (shengji.md, Plays: 有对必须出对)", pairsHeld, className(class), need)
	}
	if pairsHeld >= k || class != trumpClass {
		return nil
	}
	// Every held pair is in the play; its singles must be the highest of the
	// trumps left: no single kept back may outrank one played.
	lowPlayed, highKept := maxPos+1, -1
	for i, c := range in {
		if c != 1 {
			continue
		}
		p := o.Pos(cards.FromIndex(i))
		if inPlay[i] == 1 {
			lowPlayed = min(lowPlayed, p)
		} else {
			highKept = max(highKept, p)
		}
	}
	if highKept > lowPlayed {
		return ErrMustPlayHighest.With("without more pairs, follow a trump pair or tractor with your highest trumps (shengji.md, Plays: 主牌对出最大的)")
	}
	return nil
}

// split parts m into its cards of class and the others.
func (o Order) split(m cards.Multiset, class cards.Suit) (in, out cards.Multiset) {
	for i, k := range m {
		if k == 0 {
			continue
		}
		if o.Class(cards.FromIndex(i)) == class {
			in[i] = k
		} else {
			out[i] = k
		}
	}
	return in, out
}

func countPairs(m *cards.Multiset) int {
	n := 0
	for _, k := range m {
		n += int(k) / 2
	}
	return n
}

func className(class cards.Suit) string {
	switch class {
	case trumpClass:
		return "trumps"
	case cards.Spades:
		return "spades"
	case cards.Hearts:
		return "hearts"
	case cards.Clubs:
		return "clubs"
	}
	return "diamonds"
}

// follows lists every legal follow to lead from hand, each multiset once, by
// construction from the rules checkFollow states (the tests check the two
// against each other).
func (o Order) follows(hand cards.Multiset, lead []cards.Card) [][]cards.Card {
	var res [][]cards.Card
	o.eachFollow(hand, lead, func(cs []cards.Card) bool {
		res = append(res, slices.Clone(cs))
		return true
	})
	return res
}

// eachFollow calls yield with follows' plays one at a time, in its order,
// until yield returns false (then eachFollow does too). yield must not keep
// its argument: one buffer carries every play, so that a follow when void
// in the led suit, any cards of a long hand, costs no list.
func (o Order) eachFollow(hand cards.Multiset, lead []cards.Card, yield func([]cards.Card) bool) bool {
	n := len(lead)
	lr, _ := o.read(lead)
	in, out := o.split(hand, lr.class)
	buf := make([]cards.Card, 0, n)
	// after yields base followed by pick.
	after := func(base []cards.Card) func([]cards.Card) bool {
		return func(pick []cards.Card) bool {
			buf = append(append(buf[:0], base...), pick...)
			return yield(buf)
		}
	}
	if in.Len() <= n {
		base := in.Cards()
		return eachSubMultiset(out, n-len(base), after(base))
	}
	if lr.shape.Kind == kindThunder {
		ts := o.thunders(in)
		if len(ts) == 0 {
			ts = o.highestFollows(in, n, nil)
		}
		for _, t := range ts {
			if !yield(t) {
				return false
			}
		}
		return true
	}
	k := lr.shape.Pairs
	if k == 0 && n > 1 {
		// A rain without pairs: any n cards of its class.
		return eachSubMultiset(in, n, yield)
	}
	if k == 0 {
		for i, c := range in {
			if c > 0 && !yield(append(buf[:0], cards.FromIndex(i))) {
				return false
			}
		}
		return true
	}
	var pairs, singles cards.Multiset
	for i, c := range in {
		switch c {
		case 2:
			pairs[i] = 1
		case 1:
			singles[i] = 1
		}
	}
	np := pairs.Len()
	if np >= k && n > 2*k {
		// A rain of k pairs: any n cards of its class with k pairs among them.
		return eachSubMultiset(in, n, func(pick []cards.Card) bool {
			if m := cards.Of(pick); countPairs(&m) >= k {
				return yield(pick)
			}
			return true
		})
	}
	if np >= k {
		return eachSubMultiset(pairs, k, func(pick []cards.Card) bool {
			buf = append(append(buf[:0], pick...), pick...)
			return yield(buf)
		})
	}
	base := pairs.Cards()
	base = append(base, base...)
	m := n - 2*np
	if lr.class == trumpClass {
		// The m highest singles; at the boundary position, any choice among
		// equal cards (level cards of side suits).
		ss := singles.Cards()
		slices.SortFunc(ss, func(a, b cards.Card) int { return o.Pos(b) - o.Pos(a) })
		bound := o.Pos(ss[m-1])
		var must []cards.Card
		var tie cards.Multiset
		for _, c := range ss {
			switch p := o.Pos(c); {
			case p > bound:
				must = append(must, c)
			case p == bound:
				tie.Add(c)
			}
		}
		return eachSubMultiset(tie, m-len(must), after(append(base, must...)))
	}
	return eachSubMultiset(singles, m, after(base))
}

// subMultisets calls f with every sub-multiset of m of size k (f must not
// keep its argument).
func subMultisets(m cards.Multiset, k int, f func([]cards.Card)) {
	eachSubMultiset(m, k, func(pick []cards.Card) bool {
		f(pick)
		return true
	})
}

// eachSubMultiset is subMultisets until f returns false (then it returns
// false too).
func eachSubMultiset(m cards.Multiset, k int, f func([]cards.Card) bool) bool {
	return eachSubMultisetHolding(m, cards.Multiset{}, k, f)
}

// eachSubMultisetHolding is eachSubMultiset without the multisets that do
// not contain sel: the others come in the same order, and the branches
// that cannot take sel's cards are not walked.
func eachSubMultisetHolding(m, sel cards.Multiset, k int, f func([]cards.Card) bool) bool {
	var idx []int
	for i, c := range m {
		if sel[i] > c {
			return true // none contains sel
		}
		if c > 0 {
			idx = append(idx, i)
		}
	}
	// left[j] = cards available from idx[j:], and must[j] = sel's cards
	// among them, to prune.
	left := make([]int, len(idx)+1)
	must := make([]int, len(idx)+1)
	for j := len(idx) - 1; j >= 0; j-- {
		left[j] = left[j+1] + int(m[idx[j]])
		must[j] = must[j+1] + int(sel[idx[j]])
	}
	buf := make([]cards.Card, 0, k)
	var rec func(j, need int) bool
	rec = func(j, need int) bool {
		if need == 0 {
			return must[j] > 0 || f(buf)
		}
		if j == len(idx) || left[j] < need || must[j] > need {
			return true
		}
		c := cards.FromIndex(idx[j])
		for take := min(int(m[idx[j]]), need); take >= int(sel[idx[j]]); take-- {
			for range take {
				buf = append(buf, c)
			}
			if !rec(j+1, need-take) {
				return false
			}
			buf = buf[:len(buf)-take]
		}
		return true
	}
	return rec(0, k)
}

// leads lists every lead from hand: each single, each pair, each tractor
// (shengji.md, Plays, ningyang: no throws).
func (o Order) leads(hand cards.Multiset) [][]cards.Card {
	if o.Fixed {
		return o.guafengLeads(hand)
	}
	var res [][]cards.Card
	// byPos[class][pos]: the pairs held at a position of a class (several
	// at posOtherLevel).
	var byPos [5][posRJ + 1][]cards.Card
	for i, k := range hand {
		if k == 0 {
			continue
		}
		c := cards.FromIndex(i)
		res = append(res, []cards.Card{c})
		if k == 2 {
			res = append(res, []cards.Card{c, c})
			cl, p := o.Class(c), o.Pos(c)
			byPos[cl][p] = append(byPos[cl][p], c)
		}
	}
	for cl := range byPos {
		for start := range byPos[cl] {
			var rec func(p int, acc []cards.Card)
			rec = func(p int, acc []cards.Card) {
				if len(acc) >= 4 {
					res = append(res, slices.Clone(acc))
				}
				if p > posRJ {
					return
				}
				for _, c := range byPos[cl][p] {
					rec(p+1, append(acc, c, c))
				}
			}
			for _, c := range byPos[cl][start] {
				rec(start+1, []cards.Card{c, c})
			}
		}
	}
	return res
}
