package doudizhu

import (
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
)

// TestPatternsMatchLegacy holds the generator of rank patterns to the one
// Legal used before it (legacyPatterns: candidates read by the classifier):
// the same patterns in the same order with the same playable types, at
// every position of the committed sets and at random positions, for all the
// generators at once and for each type alone that may be played on the lead
// (the random drivers plan one such type at a time): 3000 random positions
// of each deck count, 300 with -short (make test's race pass).
func TestPatternsMatchLegacy(t *testing.T) {
	gametest.SkipUnderRace(t)
	t.Parallel()
	random := 3000
	if testing.Short() {
		random = 300
	}
	for _, set := range positionSets {
		ct := setVariant(t, set.variant).cardTypes()
		for _, p := range loadPositions(t, set.variant) {
			comparePatterns(t, ct, &p.hand, p.lead)
		}
	}
	for _, decks := range []int{1, 2} {
		ct := typesOf(decks)
		rng := rand.New(rand.NewPCG(uint64(decks), 0x6c6567))
		for range random {
			hand := randomHand(rng, decks, 1+rng.IntN(17*decks+4))
			var lead *Reading
			if rng.IntN(2) == 0 {
				lead = randomLead(rng, ct, randomHand(rng, decks, 1+rng.IntN(20)))
			}
			comparePatterns(t, ct, &hand, lead)
		}
	}
}

// randomHand is n cards drawn from decks decks.
func randomHand(rng *rand.Rand, decks, n int) cards.Multiset {
	deck := cards.Deck(decks)
	rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	return cards.Of(deck[:min(n, len(deck))])
}

// randomLead is a reading of a random play of hand, nil when it has none
// worth following (the generator of the old plan draws it: no circularity
// with the one under test).
func randomLead(rng *rand.Rand, ct cardTypes, hand cards.Multiset) *Reading {
	ks := legacyPatterns(&hand, nil, ct, allTypes[:])
	if len(ks) == 0 {
		return nil
	}
	p := ks[rng.IntN(len(ks))].p
	rs := ct.classify(&p, p.Total(), nil)
	rd := rs[rng.IntN(len(rs))]
	return &rd
}

func comparePatterns(t *testing.T, ct cardTypes, hand *cards.Multiset, lead *Reading) {
	t.Helper()
	gens := [][]Type{legacyGens(lead)}
	for _, ty := range legacyGens(lead) {
		gens = append(gens, []Type{ty})
	}
	for i, gs := range gens {
		want := legacyPatterns(hand, lead, ct, gs)
		var pl plan
		pl.makeOf(hand, lead, ct, gs)
		same := len(pl.keep) == len(want)
		for j := 0; same && j < len(want); j++ {
			same = pl.keep[j].p == want[j].p && pl.keep[j].types == want[j].types
		}
		if !same {
			cs := hand.Cards()
			climb.Sort(cs)
			t.Fatalf("hand %s on %v, generators %v: the plan keeps %s, the classifier's plan %s",
				cards.Format(cs), lead, gs, keptString(pl.keep), legacyString(want))
		}
		if i > 0 {
			continue
		}
		c := countsOfMultiset(hand)
		keys := ct.appendPatterns(nil, c.Key(), lead)
		same = len(keys) == len(want)
		for j := 0; same && j < len(want); j++ {
			same = keys[j] == want[j].p.Key()
		}
		if !same {
			t.Fatalf("hand %v on %v: appendPatterns lists %x, the classifier's plan %s", c, lead, keys, legacyString(want))
		}
	}
}

func keptString(ks []kept) string {
	var out []legacyKept
	for _, k := range ks {
		out = append(out, legacyKept{k.p, k.types})
	}
	return legacyString(out)
}

func legacyString(ks []legacyKept) string {
	s := ""
	for _, k := range ks {
		s += " " + patternString(k.p.Key())
		if k.types&(k.types-1) != 0 {
			s += "*"
		}
	}
	return "[" + s + " ]"
}

// patternString writes a pattern as ranks: 33344 for three 3s and two 4s.
func patternString(p uint64) string {
	s := ""
	for r := range climb.NumRanks {
		for range p >> (4 * r) & 0xF {
			s += climb.Rank(r).String()
		}
	}
	return s
}

// FuzzPatterns compares the generator with the old plan's (as
// TestPatternsMatchLegacy does) on any hand of one or two decks and any
// lead: the first byte picks the decks, the next 15 the hand's count of
// each rank (up to the most cards a hand holds), the 15 after them a play whose readings the last byte picks
// the lead from (no play: leading).
func FuzzPatterns(f *testing.F) {
	f.Add([]byte{0, 3, 3, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 2, 1, 1})
	f.Add([]byte{0, 3, 3, 3, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{1, 6, 6, 6, 6, 6, 6, 6, 6, 0, 0, 0, 0, 0, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Add([]byte{1, 8, 3, 3, 3, 2, 2, 0, 0, 0, 0, 0, 0, 8, 2, 2, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 16 {
			return
		}
		decks := 1 + int(data[0]%2)
		ct := typesOf(decks)
		var hand cards.Multiset
		left := 20 + 13*(decks-1) // the most cards a hand holds
		for r := range climb.NumRanks {
			most := 4 * decks
			if climb.Rank(r).IsJoker() {
				most = decks
			}
			for j := range min(int(data[1+r])%(most+1), left) {
				hand[indexOfRank(r, j)]++
				left--
			}
		}
		var lead *Reading
		if len(data) >= 31 {
			var p climb.Counts
			for r := range climb.NumRanks {
				p[r] = data[16+r] % 9
			}
			if rs := ct.classify(&p, p.Total(), nil); len(rs) > 0 {
				pick := 0
				if len(data) > 31 {
					pick = int(data[31]) % len(rs)
				}
				lead = &rs[pick]
			}
		}
		comparePatterns(t, ct, &hand, lead)
	})
}

// indexOfRank is the card index of a j-th card of rank r (j < 8): the suits
// in turn, a second deck's copy on the same index.
func indexOfRank(r, j int) int {
	switch climb.Rank(r) {
	case climb.RankBJ:
		return 52
	case climb.RankRJ:
		return 53
	case climb.Rank2:
		return (j % 4) * 13
	}
	return (j%4)*13 + r + 1
}

// TestClassifyCards holds the classifier that counts a play card by card
// (Decide's, checkPlay's) to the one that reads rank counts, on plays of
// one and two decks: random subsets of random hands, and every play a
// random hand may lead.
func TestClassifyCards(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, decks := range []int{1, 2} {
		ct := typesOf(decks)
		rng := rand.New(rand.NewPCG(uint64(decks), 0x636c61))
		var plays [][]cards.Card
		for range 200 {
			hand := randomHand(rng, decks, 20)
			for _, k := range legacyPatterns(&hand, nil, ct, allTypes[:]) {
				plays = append(plays, patternCards(&hand, k.p.Key()))
			}
		}
		for range 100000 {
			hand := randomHand(rng, decks, 1+rng.IntN(16))
			var cs []cards.Card
			for _, c := range hand.Cards() {
				if rng.IntN(2) == 0 {
					cs = append(cs, c)
				}
			}
			plays = append(plays, cs)
		}
		for _, cs := range plays {
			c := climb.CountsOf(cs)
			want := ct.classify(&c, len(cs), nil)
			got := ct.classifyCards(cs, nil)
			if len(got) != len(want) {
				t.Fatalf("%s: classifyCards reads %v, classify %v", cards.Format(cs), got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: classifyCards reads %v, classify %v", cards.Format(cs), got, want)
				}
			}
		}
	}
}

// TestAppendPatterns: at positions of random games, Rules.AppendPatterns
// lists for the seat on turn the rank patterns of Legal's plays, in
// Legal's order, and nothing for a seat not on turn or outside the play.
func TestAppendPatterns(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"classic", "hubei", "fourplayer"} {
		rt := newRandomTable(t, variant, 4242)
		buf := make([]uint64, 0, 4096)
		patterns := 0
		for checked := 0; checked < 200; {
			rt.Step()
			g := gametest.Game[State](rt.St)
			buf = rt.r.AppendPatterns(buf[:0], g, g.turn)
			if g.phase != phasePlaying {
				if len(buf) != 0 {
					rt.Fatalf("%d patterns outside the play", len(buf))
				}
				continue
			}
			checked++
			var want []uint64
			for _, a := range rt.r.Legal(g, g.turn) {
				if a.Type != ActionPlay {
					continue
				}
				c := climb.CountsOf(a.Cards)
				if k := c.Key(); len(want) == 0 || want[len(want)-1] != k {
					want = append(want, k)
				}
			}
			if !slices.Equal(buf, want) {
				rt.Fatalf("AppendPatterns lists %x, Legal's plays %x", buf, want)
			}
			patterns += len(buf)
			if other := rt.r.AppendPatterns(nil, g, (g.turn+1)%rt.n); len(other) != 0 {
				rt.Fatalf("AppendPatterns lists %d patterns for a seat not on turn", len(other))
			}
		}
		t.Logf("%s: 200 positions, %d patterns", variant, patterns)
	}
}
