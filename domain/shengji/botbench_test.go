package shengji

import (
	"math/rand/v2"
	"testing"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// largestLegal searches random hands (fixed seeds) for the position of
// phase with the longest Legal list, and returns it with its seat.
func largestLegal(b *testing.B, variant string, ph phase, hands int) (*table.State, int, []table.Action) {
	var best *table.State
	var bestSeat int
	var bestLegal []table.Action
	r := variantRules(b, variant, `{"match":false}`)
	for i := range hands {
		id := uint64(9900 + i)
		seeds := &gametest.SeedSeq{ID: id}
		rp := gametest.RandomPlayer(rand.New(rand.NewPCG(id, 6)))
		d := &handDriver{t: b, st: openTable(b, r, 1, seeds), seeds: seeds, players: []gametest.Player{rp, rp, rp, rp}}
		d.visit = func(st *table.State) {
			g := gametest.Game[State](st)
			if g.phase != ph {
				return
			}
			seat := g.turn
			if ph == phaseBurying {
				seat = g.burier
			}
			if legal := r.Legal(st.G.(*State), seat); len(legal) > len(bestLegal) {
				best, bestSeat, bestLegal = st.Clone(), seat, legal
			}
		}
		d.hand()
	}
	return best, bestSeat, bestLegal
}

// BenchmarkBotChoice measures one bot choice (and one timeout action) at
// the positions with the longest Legal lists found in random hands (40 for the bury, 300 for the follows): a
// ningyang bury (every 4 of 30 cards) and a free discard (a follow with
// the led suit void). legal/op reports the list's length; the bot scores
// each entry once.
func BenchmarkBotChoice(b *testing.B) {
	for _, c := range []struct {
		name    string
		variant string
		phase   phase
		hands   int
	}{
		{"ningyang/bury", "ningyang", phaseBurying, 40},
		{"ningyang/follow", "ningyang", phasePlaying, 300},
		{"guafeng/follow", "guafeng", phasePlaying, 300},
	} {
		b.Run(c.name, func(b *testing.B) {
			st, seat, legal := largestLegal(b, c.variant, c.phase, c.hands)
			r := table.Adapted(st.Rules).(*Rules)
			v := r.View(st.G.(*State), seat)
			b.Run("bot", func(b *testing.B) {
				for b.Loop() {
					r.BotAction(v, legal)
				}
				b.ReportMetric(float64(len(legal)), "legal/op")
			})
			b.Run("timeout", func(b *testing.B) {
				for b.Loop() {
					r.TimeoutAction(st.G.(*State), seat)
				}
			})
		})
	}
}
