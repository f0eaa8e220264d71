package doudizhu

import (
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// BenchmarkRandomHand plays whole hands of random legal actions through
// table.Act and table.Apply, as a server would: one op is one settled hand.
func BenchmarkRandomHand(b *testing.B) {
	r := classic(b)
	seeds := &seedSeq{id: 1}
	rng := rand.New(rand.NewPCG(1, 1))
	st := openTable(b, r, 1, seeds)
	actions := 0
	b.ReportAllocs()
	for b.Loop() {
		for hand := st.Hand; st.Hand == hand || !st.InDeal; {
			g := game(st)
			legal := r.Legal(g, g.turn)
			evs, err := table.Act(st, g.turn, legal[rng.IntN(len(legal))], seeds)
			if err != nil {
				b.Fatal(err)
			}
			applyAll(st, evs)
			actions++
		}
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/hand")
}

func BenchmarkClassify(b *testing.B) {
	plays := [][]cards.Card{
		cards.MustParse("S3"),
		cards.MustParse("S3 H4 C5 D6 S7 S8 S9"),
		cards.MustParse("S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6"),
		cards.MustParse("S4 H4 C4 D4 S5 H5 C5 D5"),
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range plays {
			Classify(p)
		}
	}
}

// BenchmarkLegalLead lists the plays of a landlord's 20-card hand on the lead.
func BenchmarkLegalLead(b *testing.B) {
	m := cards.Of(cards.MustParse("S3 H3 C3 S4 H4 C4 S5 H5 D5 S6 S7 H7 S8 S9 H10 SJ HQ SK S2 BJ"))
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		n = len(legalPlays(&m, nil))
	}
	b.ReportMetric(float64(n), "plays")
}
