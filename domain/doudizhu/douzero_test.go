package doudizhu

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/internal/cputime"
)

// The position set the rank-pattern generator is timed on against
// DouZero's move generator (docs/perf/douzero): one-deck 斗地主 positions
// met in random games from full deals, as many of every hand size (1 to 20
// cards) on a lead as on a follow, where the committed sets favour short
// hands. A line carries the lead's cards besides its reading, so that
// DouZero, which reads the play to beat itself, is given the same position.

const (
	douzeroSeed    = 36
	douzeroPerSize = 250  // positions of each hand size on a lead, and as many on a follow
	douzeroGames   = 6000 // games dealt; sizes real play never meets stay short
)

func douzeroFile() string { return filepath.Join("testdata", "positions", "douzero.txt") }

// douzeroPosition is a hand on turn, the play it must beat (nil on a lead)
// and that play's cards.
type douzeroPosition struct {
	hand     cards.Multiset
	lead     *Reading
	leadPlay []cards.Card
}

// TestDouZeroPositionSet regenerates the DouZero comparison set and
// compares it with the committed file (-doudizhu.positions rewrites it).
func TestDouZeroPositionSet(t *testing.T) {
	var buf bytes.Buffer
	writeDouZeroPositions(&buf, makeDouZeroPositions(t))
	path := douzeroFile()
	if *updatePositions {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, buf.Bytes()) {
		t.Fatalf("%s differs from the positions the fixed-seed games make (-doudizhu.positions rewrites it)", path)
	}
	ct := typesOf(1)
	for _, p := range loadDouZeroPositions(t) {
		if p.lead == nil {
			continue
		}
		// The lead's cards must read as its reading without a lead to
		// beat, as DouZero's move detector reads them without one.
		if rd, ok := ct.checkPlay(p.leadPlay, nil); !ok || rd != *p.lead {
			t.Fatalf("lead %s reads %v alone, the set says %v", cards.Format(p.leadPlay), rd, *p.lead)
		}
	}
}

// makeDouZeroPositions plays douzeroGames random one-deck games without
// bidding (the landlord, drawn, takes the kitty) and keeps, in game order,
// the first douzeroPerSize positions of each hand size on a lead and on a
// follow. A move is drawn as a player picks one more than a uniform draw
// over patterns would: a type uniformly among the types the hand may play,
// then a pattern of it uniformly (sorted by key first, so that the draw
// does not depend on the generator's order); a follow passes one time in
// four. Patterns whose cards read alone as another type (333444555666 drawn
// as an airplane with singles) are not drawn, so that the lead reads the
// same for DouZero's detector.
func makeDouZeroPositions(t testing.TB) []douzeroPosition {
	v := setVariant(t, "classic")
	ct := v.cardTypes()
	rng := rand.New(rand.NewPCG(douzeroSeed, 0x646f757a))
	var kept [2][21]int // [follow][hand size]
	var out []douzeroPosition
	var buf, of []uint64
	for range douzeroGames {
		deck := cards.Deck(1)
		rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		hands := make([]cards.Multiset, v.seats)
		size := v.handSize()
		for i, c := range deck[:v.seats*size] {
			hands[i%v.seats].Add(c)
		}
		turn := rng.IntN(v.seats)
		hands[turn].Add(deck[v.seats*size:]...)
		var lead *Reading
		var leadPlay []cards.Card
		leader := turn
		for {
			n, follow := hands[turn].Len(), 0
			if lead != nil {
				follow = 1
			}
			if kept[follow][n] < douzeroPerSize {
				kept[follow][n]++
				p := douzeroPosition{hand: hands[turn]}
				if lead != nil {
					l := *lead
					p.lead, p.leadPlay = &l, leadPlay
				}
				out = append(out, p)
			}
			c := countsOfMultiset(&hands[turn])
			g := patternGen{h: c.Key(), t: ct, lead: lead, out: buf[:0], gens: gensOn(lead)}
			var ends [Rocket + 1]int
			g.all(&ends)
			buf = g.out
			var types []Type
			for ty := Single; ty <= Rocket; ty++ {
				if ends[ty] > ends[ty-1] {
					types = append(types, ty)
				}
			}
			var played []cards.Card
			if len(types) > 0 && (lead == nil || rng.IntN(4) != 0) {
				ty := types[rng.IntN(len(types))]
				of = append(of[:0], buf[ends[ty-1]:ends[ty]]...)
				slices.Sort(of)
				of = slices.DeleteFunc(of, func(k uint64) bool {
					rd, ok := ct.checkPlay(patternCards(&hands[turn], k), nil)
					return !ok || rd.Type != ty
				})
				if len(of) > 0 {
					played = patternCards(&hands[turn], of[rng.IntN(len(of))])
				}
			}
			if played == nil {
				if lead == nil {
					t.Fatalf("a lead with no pattern to play from %d cards", n)
				}
				turn = (turn + 1) % v.seats
				if turn == leader {
					lead, leadPlay = nil, nil
				}
				continue
			}
			rd, ok := ct.checkPlay(played, lead)
			if !ok {
				t.Fatalf("a drawn pattern %s does not beat %v", cards.Format(played), lead)
			}
			hands[turn].Remove(played)
			if hands[turn].Len() == 0 {
				break
			}
			lead, leadPlay, leader = &rd, played, turn
			turn = (turn + 1) % v.seats
		}
	}
	return out
}

// writeDouZeroPositions writes one position a line: the hand, the lead's
// reading and the lead's cards ("-" and "-" on a lead), separated by "|".
func writeDouZeroPositions(w *bytes.Buffer, ps []douzeroPosition) {
	for _, p := range ps {
		hand := p.hand.Cards()
		climb.Sort(hand)
		lead, play := "-", "-"
		if p.lead != nil {
			lead = fmt.Sprintf("%s %s %d %d", p.lead.Type, p.lead.Main, p.lead.Length, p.lead.Count)
			lp := slices.Clone(p.leadPlay)
			climb.Sort(lp)
			play = cards.Format(lp)
		}
		fmt.Fprintf(w, "%s|%s|%s\n", cards.Format(hand), lead, play)
	}
}

func loadDouZeroPositions(t testing.TB) []douzeroPosition {
	f, err := os.Open(douzeroFile())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []douzeroPosition
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "|")
		if len(parts) != 3 {
			t.Fatalf("bad position line %q", sc.Text())
		}
		p := douzeroPosition{hand: cards.Of(cards.MustParse(parts[0]))}
		if parts[1] != "-" {
			f := strings.Fields(parts[1])
			typ, ok1 := ParseType(f[0])
			main, ok2 := climb.ParseRank(f[1])
			length, err1 := strconv.Atoi(f[2])
			count, err2 := strconv.Atoi(f[3])
			if !ok1 || !ok2 || err1 != nil || err2 != nil {
				t.Fatalf("bad lead in %q", sc.Text())
			}
			p.lead = &Reading{Type: typ, Main: main, Length: length, Count: count}
			p.leadPlay = cards.MustParse(parts[2])
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// BenchmarkPatternsDouZero is BenchmarkPatterns on the DouZero comparison
// set: one op is one position, from the hand's counts (packed) and the
// lead's reading into a reused buffer. docs/perf/douzero/bench.py runs it
// beside DouZero's generator on the same file.
func BenchmarkPatternsDouZero(b *testing.B) {
	ps := loadDouZeroPositions(b)
	ct := typesOf(1)
	hands := make([]uint64, len(ps))
	for i := range ps {
		c := countsOfMultiset(&ps[i].hand)
		hands[i] = c.Key()
	}
	var buf []uint64
	i, pats := 0, 0
	b.ReportAllocs()
	cpu := cputime.Now()
	for b.Loop() {
		buf = ct.appendPatterns(buf[:0], hands[i], ps[i].lead)
		pats += len(buf)
		if i++; i == len(ps) {
			i = 0
		}
	}
	gametest.ReportCPU(b, cpu)
	b.ReportMetric(float64(pats)/float64(b.N), "patterns/op")
}
