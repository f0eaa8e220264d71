package shengji

import (
	"paiju/domain/internal/gametest"
	"testing"

	"paiju/domain/cards"
)

// BenchmarkRandomHand plays whole hands of random legal actions (draws,
// declarations, passes, a random burial, plays from Legal) through
// table.Act and table.Apply, as a server would: one op is one settled hand.
func BenchmarkRandomHand(b *testing.B) {
	r := ningyang(b)
	rt := newRandomTable(b, r, 1, false)
	rt.keep = false
	b.ReportAllocs()
	for b.Loop() {
		for n := rt.Settled; rt.Settled == n; {
			rt.Step()
		}
	}
}

// BenchmarkFollows lists the follows of a void 26-card hand to a pair lead.
func BenchmarkFollows(b *testing.B) {
	o := Order{Level: 7, Trump: cards.Spades}
	hand := cards.Of(cards.MustParse("S2 S3 S4 S5 S6 S8 S9 S10 SJ SQ SK SA H2 H3 H4 H5 H6 H8 H9 H10 HJ HQ HK HA BJ RJ"))
	lead := cards.MustParse("D9 D9")
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		n = len(o.follows(hand, lead))
	}
	b.ReportMetric(float64(n), "plays")
}

// BenchmarkGuafengRandomHand is BenchmarkRandomHand for 刮风: declarations,
// 沖主, 續牌 and 粘牌 with their exchanges, burials and plays from Legal;
// one op is one settled hand.
func BenchmarkGuafengRandomHand(b *testing.B) {
	r := guafeng(b)
	rt := newRandomTable(b, r, 1, false)
	rt.keep = false
	b.ReportAllocs()
	for b.Loop() {
		for n := rt.Settled; rt.Settled == n; {
			rt.Step()
		}
	}
}

// BenchmarkGuafengLeads lists the leads of a 26-card hand rich in runs
// (winds and rains of the trump suit and a side suit, a thunder).
func BenchmarkGuafengLeads(b *testing.B) {
	o := Order{Level: 7, Trump: cards.Spades, Fixed: true}
	hand := cards.Of(cards.MustParse("S2 S2 S3 S3 S4 S4 S5 S6 S6 S8 S9 S9 S10 H4 H6 H8 H8 H9 H10 HJ HQ C5 D5 H5 BJ RJ"))
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		n = len(o.leads(hand))
	}
	b.ReportMetric(float64(n), "leads")
}

// BenchmarkGuafengExchangeLegal lists the sticker's exchanges at seed 003's
// 粘牌 example after the bury: one action per card it may give.
func BenchmarkGuafengExchangeLegal(b *testing.B) {
	r := guafeng(b)
	st := stickDeal.build(b, r)
	drawRounds(b, st, 7)
	gametest.MustAct(b, st, 1, declareA("BJ H5 H5 H6 H6"))
	gametest.MustAct(b, st, 0, stickA("BJ C6 C6 C7 C7 C8 C8"))
	closeWindow(b, st)
	gametest.MustAct(b, st, 2, buryA("RJ SK D4 D6"))
	g := gametest.Game[State](st)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		n = len(r.Legal(g, 0))
	}
	b.ReportMetric(float64(n), "actions")
}
