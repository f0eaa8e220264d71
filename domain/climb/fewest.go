package climb

// Shapes is what a climbing game's combinations let a hand be split into,
// as far as counting plays goes: runs of singles, pairs and trios, trios
// with kickers, and jokers played together. The bots of every climbing game
// rate a hand by the fewest plays it can be shed in (Shapes.Plays).
type Shapes struct {
	// MinRun[k] is the fewest ranks of a run of k-card groups (k = 1, 2, 3:
	// straight, pair run, trio run); 0 when the game has no such run.
	MinRun [4]int
	// Kickers is what each trio (of a trio or a trio run) carries: 0 none,
	// KickerOne one single or one pair (斗地主), KickerTwo two cards (打盾).
	Kickers int
	// JokerGroup is how many jokers (BJ and RJ together) make one play (the
	// rocket of 2, or 4 with two decks; 打盾's bomb of 3); 0 when they never
	// play together across ranks.
	JokerGroup int
	// WildJokers: jokers stand in for any rank (百变), so they never cost a
	// play of their own.
	WildJokers bool
}

// The kickers a trio carries (Shapes.Kickers).
const (
	KickerNone = 0
	KickerOne  = 1
	KickerTwo  = 2
)

// searchBudget bounds the partitions Plays tries: hands of 27 cards with
// many runs have too many to try them all, and a bot choice evaluates a
// hand once per candidate play. The search tries whole ranks first, so the
// budget cuts only refinements.
const searchBudget = 400

// Plays estimates the fewest plays that shed the cards c: a search over the
// partitions of c into whole ranks (singles, pairs, trios, bombs) and runs,
// where trios then carry singles or pairs as kickers. It is an estimate: the
// search is bounded, and kickers are attached to trios greedily.
func (sh *Shapes) Plays(c *Counts) int {
	w := *c
	p := partition{sh: sh, best: 1 << 30, budget: searchBudget}
	p.search(&w, Rank3, tally{})
	return p.best
}

type tally struct {
	plays          int
	singles, pairs int
	trios          int // trios that take kickers (a trio run counts each)
}

type partition struct {
	sh     *Shapes
	best   int
	budget int
}

func (p *partition) search(c *Counts, from Rank, t tally) {
	p.budget--
	r := from
	for r <= TopRun && c[r] == 0 {
		r++
	}
	if r > TopRun {
		p.leaf(c, t)
		return
	}
	k := c[r]
	c[r] = 0
	p.search(c, r+1, t.with(k))
	c[r] = k
	for g := uint8(1); g <= 3; g++ {
		m := p.sh.MinRun[g]
		if m == 0 || c[r] < g || p.budget <= 0 {
			continue
		}
		end := r
		for end+1 <= TopRun && c[end+1] >= g {
			end++
		}
		if int(end-r)+1 < m {
			continue
		}
		// The shortest run and the longest one: the lengths between rarely
		// shed more and would multiply the search.
		for _, last := range [2]Rank{r + Rank(m) - 1, end} {
			for x := r; x <= last; x++ {
				c[x] -= g
			}
			u := t
			u.plays++
			if g == 3 {
				u.trios += int(last-r) + 1
			}
			p.search(c, r, u)
			for x := r; x <= last; x++ {
				c[x] += g
			}
			if last == end || p.budget <= 0 {
				break
			}
		}
	}
}

// with adds a whole rank of k cards as one group.
func (t tally) with(k uint8) tally {
	switch k {
	case 0:
	case 1:
		t.singles++
		t.plays++
	case 2:
		t.pairs++
		t.plays++
	case 3:
		t.trios++
		t.plays++
	default:
		t.plays++
	}
	return t
}

// leaf counts the plays of a complete partition: the ranks above the runs
// (2 and the jokers) as groups, then the kickers the trios absorb.
func (p *partition) leaf(c *Counts, t tally) {
	t = t.with(c[Rank2])
	j := int(c[RankBJ]) + int(c[RankRJ])
	switch {
	case p.sh.WildJokers || j == 0:
	case p.sh.JokerGroup > 0 && j >= p.sh.JokerGroup:
		t.plays++
	default:
		t = t.with(c[RankBJ]).with(c[RankRJ])
	}
	n := t.plays
	switch p.sh.Kickers {
	case KickerOne:
		n -= min(t.trios, t.singles+t.pairs)
	case KickerTwo:
		// Each trio takes a pair, or two singles (two plays saved).
		trios, singles := t.trios, t.singles
		for trios > 0 && singles >= 2 {
			trios, singles, n = trios-1, singles-2, n-2
		}
		n -= min(trios, t.pairs)
	}
	if n < p.best {
		p.best = n
	}
}
