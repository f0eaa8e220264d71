package shuangkou

import (
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
)

// BenchmarkRandomHand plays whole hands of random legal actions (the
// TestRandomHands driver, its checks included); hands/s is the figure.
//
//	go test -run '^$' -bench RandomHand -benchtime 200x ./domain/shuangkou/
func BenchmarkRandomHand(b *testing.B) {
	for _, variant := range []string{"baibian", "classic"} {
		b.Run(variant, func(b *testing.B) {
			rt := newRandomTable(b, rulesFor(b, variant), 7)
			b.ResetTimer()
			for rt.Settled < b.N {
				rt.Step()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
		})
	}
}

// BenchmarkLegalLead lists the plays of freshly dealt 27-card hands, the
// largest lists Legal makes (leading, with every joker the deal gave).
func BenchmarkLegalLead(b *testing.B) {
	for _, variant := range []string{"baibian", "classic"} {
		b.Run(variant, func(b *testing.B) {
			var hands [64]cards.Multiset
			q := &gametest.SeedSeq{ID: 3}
			for i := range hands {
				seed, _ := q.NewSeed()
				deck, _ := cards.Shuffled(seed, decks)
				hands[i] = cards.Of(deck[:handSize])
			}
			wild := rulesFor(b, variant).v.wild
			n := 0
			b.ResetTimer()
			for i := range b.N {
				n += len(legalPlays(&hands[i%len(hands)], nil, cardTypes{wild: wild}))
			}
			b.ReportMetric(float64(n)/float64(b.N), "plays/op")
		})
	}
}

// BenchmarkClassify reads 12-card plays with four jokers.
func BenchmarkClassify(b *testing.B) {
	cs := cards.MustParse("S5 H5 S6 C6 S7 D7 S8 H8 BJ BJ RJ RJ")
	for range b.N {
		Classify(cs, WildAll)
	}
}
