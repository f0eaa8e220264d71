package niuniu

import (
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// BenchmarkRandomHand plays whole 4-seat hands of random legal actions
// through table.Act and table.Apply, as a server would: one op is one
// settled hand.
func BenchmarkRandomHand(b *testing.B) {
	r := rulesWith(b, "")
	seeds := &gametest.SeedSeq{ID: 1}
	rng := rand.New(rand.NewPCG(1, 1))
	st := openTable(b, r, 1, seeds)
	actions := 0
	b.ReportAllocs()
	for b.Loop() {
		for hand := st.Hand; st.Hand == hand; {
			seat := rng.IntN(4)
			legal := r.Legal(st.G.(*State), seat)
			evs, err := table.Act(st, seat, legal[rng.IntN(len(legal))], seeds)
			if err != nil {
				b.Fatal(err)
			}
			gametest.ApplyAll(st, evs)
			actions++
		}
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/hand")
}

// BenchmarkEvaluate reads a hand as the reveal does: its best class, its
// bulls and its highest card.
func BenchmarkEvaluate(b *testing.B) {
	hands := [][]cards.Card{
		cards.MustParse("S10 HJ CQ DK RJ"),
		cards.MustParse("S3 H7 CK D2 S4"),
		cards.MustParse("S10 H3 C2 DQ S6"),
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, h := range hands {
			Best(h)
			Highest(h)
		}
	}
}

func BenchmarkLegal(b *testing.B) {
	r := rulesWith(b, `{"seats":2}`)
	st := position(b, r, 1, "S10 HJ CQ DK RJ", "S3 H7 CK D2 S4")
	b.ReportAllocs()
	for b.Loop() {
		r.Legal(st.G.(*State), 0)
	}
}
