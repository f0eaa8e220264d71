package shengji

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestBotLegal: at every position of random hands of both variants, for
// every seat that may act, BotAction returns one of its Legal actions.
func TestBotLegal(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, variant := range variants() {
		t.Run(variant, func(t *testing.T) {
			r := variantRules(t, variant, "")
			checked := map[string]int{}
			check := func(st *table.State) {
				for seat := range seats {
					legal := r.Legal(st.G.(*State), seat)
					if len(legal) == 0 {
						continue
					}
					v := r.View(st.G.(*State), seat)
					if a := r.BotAction(v, legal); !containsAction(legal, a) {
						t.Fatalf("hand %d, %s: bot of seat %d chose %s, not one of its legal actions", st.Hand, v.Phase, seat, gametest.DescribeAction(a))
					}
					checked[v.Phase]++
				}
			}
			for i := range 20 {
				id := uint64(7500 + i)
				seeds := &gametest.SeedSeq{ID: id}
				rp := gametest.RandomPlayer(rand.New(rand.NewPCG(id, 3)))
				d := &handDriver{t: t, st: openTable(t, variantRules(t, variant, `{"match":false}`), 1, seeds), seeds: seeds,
					players: []gametest.Player{rp, gametest.BotPlayer, rp, gametest.BotPlayer}, visit: check}
				d.hand()
			}
			t.Logf("bot choices checked per phase: %v", checked)
		})
	}
}

// hideOthers returns a copy of s in which the cards seat may not see are
// dealt again among their places: the other seats' cards in hand (each
// keeping its count) and the buried kitty unless seat buried it or, as
// the sticker in its kitty swap, has seen it.
func hideOthers(s *State, seat int, rng *rand.Rand) *State {
	h := s.Clone().(*State)
	var pool []cards.Card
	var places []int // the seats whose cards are pooled; -1 the kitty
	for o := range seats {
		if o != seat {
			pool = append(pool, s.held[o].Cards()...)
			places = append(places, o)
		}
	}
	if s.buried != nil && s.burier != seat && (s.swapper < 0 || s.swapper != seat) {
		pool = append(pool, s.buried...)
		places = append(places, -1)
	}
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for _, o := range places {
		n := kittyLen
		if o >= 0 {
			n = s.held[o].Len()
		}
		if o < 0 {
			h.buried = pool[:n:n]
		} else {
			h.held[o] = cards.Of(pool[:n])
		}
		pool = pool[n:]
	}
	return h
}

// TestBotHidden: the bot decides from its seat's view alone. At positions of
// random hands, a second state in which the other seats' cards and the
// kitty the seat did not bury are dealt again among them shows the seat the
// same view (else the construction is wrong and the test fails), and the
// bot chooses the same action in both.
func TestBotHidden(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, variant := range variants() {
		t.Run(variant, func(t *testing.T) {
			r := variantRules(t, variant, "")
			rng := rand.New(rand.NewPCG(7, 7))
			checked, changed := 0, 0
			check := func(st *table.State) {
				g := gametest.Game[State](st)
				for seat := range seats {
					legal := r.Legal(g, seat)
					if len(legal) == 0 {
						continue
					}
					h := hideOthers(g, seat, rng)
					if h.held != g.held {
						changed++
					}
					v1, v2 := r.View(g, seat), r.View(h, seat)
					if !reflect.DeepEqual(v1, v2) {
						t.Fatalf("hand %d, %s, seat %d: dealing the hidden cards again changed the seat's view: the construction is wrong", g.hand, g.phase, seat)
					}
					a1, a2 := r.BotAction(v1, legal), r.BotAction(v2, r.Legal(h, seat))
					if !reflect.DeepEqual(a1, a2) {
						t.Fatalf("hand %d, %s, seat %d: the bot chose %s, and %s when the others hold other cards", g.hand, g.phase, seat, gametest.DescribeAction(a1), gametest.DescribeAction(a2))
					}
					checked++
				}
			}
			for i := range 6 {
				id := uint64(7700 + i)
				seeds := &gametest.SeedSeq{ID: id}
				rp := gametest.RandomPlayer(rand.New(rand.NewPCG(id, 4)))
				d := &handDriver{t: t, st: openTable(t, variantRules(t, variant, `{"match":false}`), 1, seeds), seeds: seeds,
					players: []gametest.Player{gametest.BotPlayer, rp, gametest.BotPlayer, rp}, visit: check}
				d.hand()
			}
			if changed < checked/2 {
				t.Fatalf("the hidden cards changed at %d of %d positions: the test proves little", changed, checked)
			}
		})
	}
}

// duel sums one side's hands: how many it won (positive delta) and its
// deltas, per seat of the side.
type duel struct {
	hands, won, delta int
}

func (d duel) winRate() float64   { return 100 * float64(d.won) / float64(d.hands) }
func (d duel) meanDelta() float64 { return float64(d.delta) / float64(d.hands) }

// playDuel plays single-hand tables (each its own seed) with the bot in
// the seats bots(i) names for hand i and random players (a seeded PCG
// stream per hand) in the others; nil bots plays random players everywhere,
// the baseline. It returns each hand's deltas.
func playDuel(t testing.TB, variant string, hands int, bots func(i int) []int) [][]int {
	r := variantRules(t, variant, `{"match":false}`)
	out := make([][]int, 0, hands)
	for i := range hands {
		id := uint64(9000 + i)
		seeds := &gametest.SeedSeq{ID: id}
		rp := gametest.RandomPlayer(rand.New(rand.NewPCG(id, 5)))
		players := []gametest.Player{rp, rp, rp, rp}
		if bots != nil {
			for _, seat := range bots(i) {
				players[seat] = gametest.BotPlayer
			}
		}
		d := &handDriver{t: t, st: openTable(t, r, 1, seeds), seeds: seeds, players: players}
		out = append(out, d.hand().Deltas)
	}
	return out
}

// The measured seats of hand i: a partnership (seats 0 and 2 in even
// hands, 1 and 3 in odd ones), or one seat (i mod 4).
func teamSeats(i int) []int { return []int{i % 2, i%2 + 2} }
func oneSeat(i int) []int   { return []int{i % seats} }

// measure is the duel of the first measured seat of each hand.
func measure(deltas [][]int, seatsOf func(i int) []int) duel {
	var d duel
	for i, ds := range deltas {
		x := ds[seatsOf(i)[0]]
		d.hands++
		d.delta += x
		if x > 0 {
			d.won++
		}
	}
	return d
}

// TestBotStrength: over 300 single hands per variant, a bot partnership
// beats a random one clearly, and one bot seat at a table of random
// players wins clearly more hands than a random player in that seat (same
// deals). The measure: the share of hands with a positive delta for the
// measured seat, and its mean delta in stakes.
func TestBotStrength(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, variant := range variants() {
		t.Run(variant, func(t *testing.T) {
			base := playDuel(t, variant, 300, nil)
			for _, team := range []bool{true, false} {
				seatsOf := oneSeat
				if team {
					seatsOf = teamSeats
				}
				bot, rnd := measure(playDuel(t, variant, 300, seatsOf), seatsOf), measure(base, seatsOf)
				t.Logf("team=%v: bot %.1f%% hands won, mean delta %+.2f; random %.1f%%, %+.2f", team, bot.winRate(), bot.meanDelta(), rnd.winRate(), rnd.meanDelta())
				if bot.winRate() < rnd.winRate()+15 || bot.meanDelta() <= rnd.meanDelta()+0.5 {
					t.Errorf("team=%v: the bot does not clearly beat random play: bot %.1f%% / %+.2f, random %.1f%% / %+.2f",
						team, bot.winRate(), bot.meanDelta(), rnd.winRate(), rnd.meanDelta())
				}
			}
		})
	}
}

// BenchmarkBotVsRandom plays 1,000 single hands per op with the bot (a
// partnership, or one seat) and 1,000 with random players in its seats at
// the same deals, and reports the bot's share of hands won, the random
// baseline and both mean deltas (stakes per hand).
func BenchmarkBotVsRandom(b *testing.B) {
	for _, variant := range variants() {
		for _, team := range []bool{true, false} {
			name, seatsOf := variant+"/seat", oneSeat
			if team {
				name, seatsOf = variant+"/team", teamSeats
			}
			b.Run(name, func(b *testing.B) {
				var bot, rnd duel
				for b.Loop() {
					bot, rnd = measure(playDuel(b, variant, 1000, seatsOf), seatsOf), measure(playDuel(b, variant, 1000, nil), seatsOf)
				}
				b.ReportMetric(bot.winRate(), "win%")
				b.ReportMetric(rnd.winRate(), "random-win%")
				b.ReportMetric(bot.meanDelta(), "delta/hand")
				b.ReportMetric(rnd.meanDelta(), "random-delta/hand")
			})
		}
	}
}
