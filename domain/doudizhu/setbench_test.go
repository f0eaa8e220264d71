package doudizhu

import (
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
	"paiju/internal/cputime"
)

// The benchmarks of the committed position sets (testdata/positions): one
// op is one position (or one play checked), cycling through the set's
// 10,000, so positions/s = 1e9 / ns/op. Each also reports cpu-ns/op, the
// process's CPU time (user + system) an op: on a machine others share,
// ns/op counts the time the benchmark waits for a core, cpu-ns/op does not.

// BenchmarkPatterns lists the rank patterns of each position (what DouZero
// lists: distinct multisets of ranks) from the hand's rank counts (packed)
// into a reused buffer.
func BenchmarkPatterns(b *testing.B) {
	for _, set := range positionSets {
		b.Run(set.variant, func(b *testing.B) {
			ps := loadPositions(b, set.variant)
			ct := setVariant(b, set.variant).cardTypes()
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
		})
	}
}

// BenchmarkCheckPlay reads one play and checks it against the lead, as
// Decide does for a play posted without "as" (classify + beats): the
// position's play, legal or not.
func BenchmarkCheckPlay(b *testing.B) {
	for _, set := range positionSets {
		b.Run(set.variant, func(b *testing.B) {
			ps := loadPositions(b, set.variant)
			ct := setVariant(b, set.variant).cardTypes()
			i, ok := 0, 0
			b.ReportAllocs()
			cpu := cputime.Now()
			for b.Loop() {
				if _, beats := ct.checkPlay(ps[i].try, ps[i].lead); beats {
					ok++
				}
				if i++; i == len(ps) {
					i = 0
				}
			}
			gametest.ReportCPU(b, cpu)
			b.ReportMetric(float64(ok)/float64(b.N), "legal/op")
		})
	}
}

// BenchmarkLegalSet lists every legal play with its suits (Legal's plays,
// without pass and open) at each position of the one-deck set. The two-deck
// leads run to a million plays and more, so that set is left out.
func BenchmarkLegalSet(b *testing.B) {
	ps := loadPositions(b, "classic")
	ct := typesOf(1)
	i, plays := 0, 0
	b.ReportAllocs()
	cpu := cputime.Now()
	for b.Loop() {
		plays += len(legalPlays(&ps[i].hand, ps[i].lead, ct))
		if i++; i == len(ps) {
			i = 0
		}
	}
	gametest.ReportCPU(b, cpu)
	b.ReportMetric(float64(plays)/float64(b.N), "plays/op")
}

func setVariant(t testing.TB, name string) *variant {
	v, ok := variantNamed(name)
	if !ok {
		t.Fatalf("no variant %s", name)
	}
	return v
}

// BenchmarkLegalSeqSet streams every legal play (LegalSeq's plays: the plan,
// then each choice of suits into one reused buffer) at every position of the
// two-deck set, whose leads run to a million plays: one op is the whole set
// of 10,000 positions, so that every run covers it all.
func BenchmarkLegalSeqSet(b *testing.B) {
	ps := loadPositions(b, "fourplayer")
	ct := typesOf(2)
	var none climb.Counts
	plays := 0
	b.ReportAllocs()
	cpu := cputime.Now()
	for b.Loop() {
		plays = 0
		for i := range ps {
			var pl plan
			pl.make(&ps[i].hand, ps[i].lead, ct)
			pl.each(&none, func(table.Action) bool { plays++; return true })
		}
	}
	gametest.ReportCPU(b, cpu)
	b.ReportMetric(float64(plays), "plays/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/position")
}

// BenchmarkSummarySet summarizes the plays at each position for the empty
// selection (summarize, what /legal answers from when a position has more
// plays than a page lists): their number and the cards that extend the
// selection, from the rank patterns, without giving any play its suits.
func BenchmarkSummarySet(b *testing.B) {
	for _, set := range positionSets {
		b.Run(set.variant, func(b *testing.B) {
			ps := loadPositions(b, set.variant)
			ct := setVariant(b, set.variant).cardTypes()
			var sel cards.Multiset
			var need climb.Counts
			var sum table.HoldingSummary
			var pats []uint64
			i, plays := 0, 0
			b.ReportAllocs()
			cpu := cputime.Now()
			for b.Loop() {
				sum = table.HoldingSummary{Short: sum.Short[:0]}
				summarize(&ps[i].hand, ps[i].lead, ct, &sel, &need, &sum, &pats)
				plays += sum.Matching
				if i++; i == len(ps) {
					i = 0
				}
			}
			gametest.ReportCPU(b, cpu)
			b.ReportMetric(float64(plays)/float64(b.N), "plays/op")
		})
	}
}
