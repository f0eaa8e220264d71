package doudizhu

import (
	"bufio"
	"bytes"
	"flag"
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
)

var updatePositions = flag.Bool("doudizhu.positions", false, "rewrite testdata/positions from the fixed-seed games")

// benchPosition is one position of the committed benchmark sets: a hand on
// turn, the play it must beat (none on a lead), and a play to check there.
type benchPosition struct {
	hand cards.Multiset
	lead *Reading
	try  []cards.Card
}

// positionSets are the committed sets: 5,000 leads and 5,000 follows each,
// from random games of fixed seeds (makePositions).
var positionSets = []struct {
	variant string
	seed    uint64
}{
	{"classic", 21},
	{"fourplayer", 2104},
}

const setLeads, setFollows = 5000, 5000

func positionsFile(variant string) string {
	return filepath.Join("testdata", "positions", variant+".txt")
}

// TestPositionSets regenerates the committed benchmark sets and compares
// them with testdata/positions, so that the sets cannot drift from the
// program that made them (-doudizhu.positions rewrites them).
func TestPositionSets(t *testing.T) {
	for _, set := range positionSets {
		t.Run(set.variant, func(t *testing.T) {
			var buf bytes.Buffer
			writePositions(&buf, makePositions(t, set.variant, set.seed))
			path := positionsFile(set.variant)
			if *updatePositions {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
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
			ps := loadPositions(t, set.variant)
			leads := 0
			for _, p := range ps {
				if p.lead == nil {
					leads++
				}
			}
			if leads != setLeads || len(ps)-leads != setFollows {
				t.Fatalf("%s holds %d leads and %d follows, want %d and %d", path, leads, len(ps)-leads, setLeads, setFollows)
			}
		})
	}
}

// makePositions plays random games of variant from seed, without bidding
// (the landlord is drawn), and keeps positions until it has setLeads leads
// and setFollows follows. Each move is drawn uniformly from the rank
// patterns the hand may play, sorted by key so that the draw depends on the
// set of patterns, never on the order a generator lists them in; a follow
// passes one time in four. The cards of a pattern are the first of each
// rank in suit order. The play to check at a position is the play made
// there, or when the seat passes a pattern it could lead (which seldom
// beats the lead).
func makePositions(t testing.TB, variant string, seed uint64) []benchPosition {
	v, ok := variantNamed(variant)
	if !ok {
		t.Fatalf("no variant %s", variant)
	}
	ct := v.cardTypes()
	rng := rand.New(rand.NewPCG(seed, 0x706f73))
	var out []benchPosition
	leads, follows := 0, 0
	var pats []uint64
	for leads < setLeads || follows < setFollows {
		deck := cards.Deck(v.decks)
		rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		hands := make([]cards.Multiset, v.seats)
		size := v.handSize()
		for i, c := range deck[:v.seats*size] {
			hands[i%v.seats].Add(c)
		}
		turn := rng.IntN(v.seats)
		hands[turn].Add(deck[v.seats*size:]...)
		var lead *Reading
		leader := turn
		for {
			c := countsOfMultiset(&hands[turn])
			pats = sortedPatterns(ct, pats[:0], &c, lead)
			var all []uint64
			if lead != nil {
				all = sortedPatterns(ct, nil, &c, nil)
			}
			pass := lead != nil && (len(pats) == 0 || rng.IntN(4) == 0)
			var played []cards.Card
			if !pass {
				played = patternCards(&hands[turn], pats[rng.IntN(len(pats))])
			}
			keep := (lead == nil && leads < setLeads) || (lead != nil && follows < setFollows)
			if keep {
				try := played
				if pass {
					try = patternCards(&hands[turn], all[rng.IntN(len(all))])
				}
				p := benchPosition{hand: hands[turn], try: try}
				if lead != nil {
					l := *lead
					p.lead = &l
					follows++
				} else {
					leads++
				}
				out = append(out, p)
			}
			if pass {
				turn = (turn + 1) % v.seats
				if turn == leader {
					lead = nil
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
			lead, leader = &rd, turn
			turn = (turn + 1) % v.seats
		}
	}
	return out
}

func sortedPatterns(ct cardTypes, dst []uint64, c *climb.Counts, lead *Reading) []uint64 {
	dst = ct.appendPatterns(dst, c.Key(), lead)
	slices.Sort(dst)
	return dst
}

// patternCards is the first cards of each rank of hand in suit order that
// make pattern key.
func patternCards(hand *cards.Multiset, key uint64) []cards.Card {
	var h holding
	h.fill(hand)
	var out []cards.Card
	for r := range climb.NumRanks {
		out = append(out, h.of(r)[:key>>(4*r)&0xF]...)
	}
	return out
}

// writePositions writes one position a line: the hand, the lead's reading
// ("-" on a lead) and the play to check, separated by "|".
func writePositions(w *bytes.Buffer, ps []benchPosition) {
	for _, p := range ps {
		hand := p.hand.Cards()
		climb.Sort(hand)
		lead := "-"
		if p.lead != nil {
			lead = fmt.Sprintf("%s %s %d %d", p.lead.Type, p.lead.Main, p.lead.Length, p.lead.Count)
		}
		fmt.Fprintf(w, "%s|%s|%s\n", cards.Format(hand), lead, cards.Format(p.try))
	}
}

func loadPositions(t testing.TB, variant string) []benchPosition {
	f, err := os.Open(positionsFile(variant))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []benchPosition
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "|")
		if len(parts) != 3 {
			t.Fatalf("bad position line %q", sc.Text())
		}
		p := benchPosition{hand: cards.Of(cards.MustParse(parts[0])), try: cards.MustParse(parts[2])}
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
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
