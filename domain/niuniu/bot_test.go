package niuniu

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestBotLegal: at random positions, with and without the reveal on offer,
// BotAction returns a member of the seat's Legal, and with a bull in hand it
// never declares no bull (niuniu.md, Arranging).
func TestBotLegal(t *testing.T) {
	r := rulesWith(t, `{"seats":4,"banker":2,"arrange_seconds":20}`)
	now := clockStart
	seeds := &datedSeq{SeedSeq: gametest.SeedSeq{ID: 31}, now: &now}
	st := openTable(t, r, 1, seeds)
	rng := rand.New(rand.NewPCG(31, 2))
	reveals := 0
	for st.Hand <= 300 {
		now = now.Add(time.Duration(rng.IntN(9)) * time.Second)
		for seat := range 4 {
			legal := r.LegalAt(st.G.(*State), seat, now)
			a := r.BotAction(r.View(st.G.(*State), seat), legal)
			if !slices.ContainsFunc(legal, func(l table.Action) bool { return reflect.DeepEqual(l, a) }) {
				t.Fatalf("hand %d: bot of seat %d chose %s, not in Legal", st.Hand, seat, gametest.DescribeAction(a))
			}
			if a.Type == ActionNoBull && Best(gametest.Game[State](st).hands[seat]) != NoBull {
				t.Fatalf("hand %d: bot of seat %d declares no bull holding %v", st.Hand, seat, Best(gametest.Game[State](st).hands[seat]))
			}
			if a.Type == ActionReveal {
				reveals++
			}
		}
		seat := rng.IntN(4)
		legal := r.LegalAt(st.G.(*State), seat, now)
		a := legal[rng.IntN(len(legal))]
		a.At = now
		evs, err := table.Act(st, seat, a, seeds)
		if err != nil {
			t.Fatal(err)
		}
		gametest.ApplyAll(st, evs)
	}
	if reveals == 0 {
		t.Fatal("the bot never chose the reveal: the deadline case is not exercised")
	}
}

// TestBotHidden: the bot's choice depends only on its seat's view. At random
// positions, a second state in which the other seats' hands are exchanged
// among them shows the seat the same view, and the bot chooses the same
// action.
func TestBotHidden(t *testing.T) {
	r := rulesWith(t, `{"seats":4,"banker":0}`)
	seeds := &gametest.SeedSeq{ID: 41}
	st := openTable(t, r, 1, seeds)
	rng := rand.New(rand.NewPCG(41, 3))
	checked := 0
	for st.Hand <= 200 {
		g := gametest.Game[State](st)
		for seat := range 4 {
			others := []int{}
			for o := range 4 {
				if o != seat {
					others = append(others, o)
				}
			}
			h := g.Clone().(*State)
			// Rotate the other seats' hands; who has arranged is public,
			// so the arrangements stay with their seats.
			for i, o := range others {
				h.hands[o] = g.hands[others[(i+1)%len(others)]]
			}
			if reflect.DeepEqual(h.hands, g.hands) {
				t.Fatal("the exchange changed nothing: the test proves nothing")
			}
			v1, v2 := r.View(g, seat), r.View(h, seat)
			if !reflect.DeepEqual(v1, v2) {
				t.Fatalf("hand %d seat %d: the exchange changed the seat's view: the construction is wrong:\n%+v\n%+v", g.hand, seat, v1, v2)
			}
			a1, a2 := r.BotAction(v1, r.Legal(g, seat)), r.BotAction(v2, r.Legal(h, seat))
			if !reflect.DeepEqual(a1, a2) {
				t.Fatalf("hand %d seat %d: the bot chose %s, and %s when the others hold other cards", g.hand, seat, gametest.DescribeAction(a1), gametest.DescribeAction(a2))
			}
			checked++
		}
		seat := r.Awaited(st.G.(*State))[0]
		legal := r.Legal(st.G.(*State), seat)
		evs, err := table.Act(st, seat, legal[rng.IntN(len(legal))], seeds)
		if err != nil {
			t.Fatal(err)
		}
		gametest.ApplyAll(st, evs)
	}
	if checked < 1000 {
		t.Fatalf("%d positions checked", checked)
	}
}

// duel is the outcome of one seat's hands: how many had a positive delta
// for that seat, and the sum of its deltas.
type duel struct {
	hands, won, delta int
}

func (d duel) winRate() float64   { return 100 * float64(d.won) / float64(d.hands) }
func (d duel) meanDelta() float64 { return float64(d.delta) / float64(d.hands) }

// seatDuel plays hands at a 4-seat table (banker 0), the measured seat by
// the bot (or a random player) and the others at random, each seat with its
// own seeded stream, so that the bot's and the random player's hands are
// the same deals against the same choices of the others.
func seatDuel(t testing.TB, hands int, bot bool) duel {
	var d duel
	for seat := range 4 {
		r := rulesWith(t, `{"seats":4,"banker":0}`)
		seeds := &gametest.SeedSeq{ID: 51 + uint64(seat)}
		st := openTable(t, r, 1, seeds)
		players := make([]gametest.Player, 4)
		for i := range players {
			players[i] = gametest.RandomPlayer(rand.New(rand.NewPCG(uint64(seat), uint64(i))))
		}
		if bot {
			players[seat] = gametest.BotPlayer
		}
		for range hands / 4 {
			hs := playHand(t, st, seeds, time.Time{}, players)
			d.hands++
			d.delta += hs.Deltas[seat]
			if hs.Deltas[seat] > 0 {
				d.won++
			}
		}
	}
	return d
}

// TestBotStrength: over 400 hands (100 per seat, the banker's included), the
// bot in one seat of a random table wins more hands (positive delta) and
// more stakes than a random player in the same seat at the same deals. The
// difference is the hands with a bull that random play declares away.
func TestBotStrength(t *testing.T) {
	gametest.SkipUnderRace(t)
	bot, rnd := seatDuel(t, 400, true), seatDuel(t, 400, false)
	t.Logf("bot: %.1f%% hands won, mean delta %+.3f; random: %.1f%%, %+.3f", bot.winRate(), bot.meanDelta(), rnd.winRate(), rnd.meanDelta())
	if bot.winRate() < rnd.winRate()+5 || bot.meanDelta() < rnd.meanDelta()+0.3 {
		t.Fatalf("the bot does not clearly beat random play: bot %.1f%% / %+.3f, random %.1f%% / %+.3f", bot.winRate(), bot.meanDelta(), rnd.winRate(), rnd.meanDelta())
	}
}

// BenchmarkBotVsRandom plays 1,000 hands with the bot in one seat and 1,000
// with a random player in it (same deals) per op and reports the bot's share
// of hands won, the random baseline and both mean deltas.
func BenchmarkBotVsRandom(b *testing.B) {
	b.Run("classic", func(b *testing.B) {
		var bot, rnd duel
		for b.Loop() {
			bot, rnd = seatDuel(b, 1000, true), seatDuel(b, 1000, false)
		}
		b.ReportMetric(bot.winRate(), "win%")
		b.ReportMetric(rnd.winRate(), "random-win%")
		b.ReportMetric(bot.meanDelta(), "delta/hand")
		b.ReportMetric(rnd.meanDelta(), "random-delta/hand")
	})
}
