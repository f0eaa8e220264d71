package dadun

import (
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
)

// BenchmarkRandomHand plays whole hands of random legal actions (the
// TestRandomHands driver, its checks included); hands/s is the figure.
//
//	go test -run '^$' -bench RandomHand -benchtime 200x ./domain/dadun/
func BenchmarkRandomHand(b *testing.B) {
	rt := newRandomTable(b, rulesFor(b), 7)
	b.ResetTimer()
	for rt.Settled < b.N {
		rt.Step()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}

// BenchmarkLegalLead lists the plays of freshly dealt 27-card hands, the
// largest lists Legal makes (leading, with every choice of kickers).
func BenchmarkLegalLead(b *testing.B) {
	var hands [64]cards.Multiset
	q := &gametest.SeedSeq{ID: 3}
	for i := range hands {
		seed, _ := q.NewSeed()
		deck, _ := cards.Shuffled(seed, decks)
		hands[i] = cards.Of(deck[:handSize])
	}
	n := 0
	b.ResetTimer()
	for i := range b.N {
		n += len(legalPlays(current(), &hands[i%len(hands)], nil))
	}
	b.ReportMetric(float64(n)/float64(b.N), "plays/op")
}

// BenchmarkClassify reads a 10-card play with three readings.
func BenchmarkClassify(b *testing.B) {
	cs := cards.MustParse("S3 H3 C3 S4 H4 C4 S5 H5 C5 S9")
	for range b.N {
		Classify(cs, true)
	}
}
