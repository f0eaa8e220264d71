package autoplaytest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// Variant is one variant of a game under test.
type Variant struct {
	Game, Name string
	Rules      table.Rules
	// Phases are the view phases in which the game awaits a seat; the
	// timeout test fails unless each of them timed out.
	Phases []string
	// Policy, when set, checks that a timeout follows the policy doc.go
	// states (TimeoutAction's result a, at st, for seat with legal).
	Policy func(t testing.TB, st *table.State, seat int, legal []table.Action, a table.Action)
	// TimeoutsThrowIn: a deal every seat only times out is thrown in (a
	// timeout never bids where passing is legal), so TimeoutHandsSettle
	// plays no hand of timeouts alone; the game tests that deal itself.
	TimeoutsThrowIn bool
}

// TimeoutsEveryPhase plays tables of random players and, before every
// action, checks the timeout of the awaited seat (CheckTimeout and
// v.Policy). It fails unless every phase of v.Phases timed out.
func TimeoutsEveryPhase(t *testing.T, v Variant, seeds []uint64, hands int) {
	gametest.SkipUnderRace(t)
	seen := map[string]int{}
	for _, seed := range seeds {
		d := NewDriver(t, v.Rules, v.Game, v.Name, seed)
		d.Check = func(st *table.State, seat int, legal []table.Action) {
			seen[CheckTimeout(t, st, seat)]++
			if v.Policy != nil {
				v.Policy(t, st, seat, legal, d.AP.TimeoutAction(st.G, seat))
			}
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		players := slices.Repeat([]Player{Random(rng)}, v.Rules.Seats())
		for range hands {
			d.Hand(players)
		}
	}
	for _, p := range v.Phases {
		if seen[p] == 0 {
			t.Errorf("%s/%s: no seat timed out in the %s phase (seen: %v)", v.Game, v.Name, p, seen)
		}
	}
}

// TimeoutHandsSettle plays hands hands where every seat only times out,
// then hands where the even seats play at random and the odd ones time
// out, then the other way round: each must reach a settlement (Driver.Hand
// fails on a stall). Under v.TimeoutsThrowIn the hands of timeouts alone are
// left out.
func TimeoutHandsSettle(t *testing.T, v Variant, seed uint64, hands int) {
	gametest.SkipUnderRace(t)
	rng := rand.New(rand.NewPCG(seed, 2))
	n := v.Rules.Seats()
	for mix := range 3 {
		if mix == 0 && v.TimeoutsThrowIn {
			continue
		}
		players := make([]Player, n)
		for i := range players {
			players[i] = Timeout
			if mix > 0 && i%2 == mix-1 {
				players[i] = Random(rng)
			}
		}
		d := NewDriver(t, v.Rules, v.Game, v.Name, seed+uint64(mix))
		for range hands {
			d.Hand(players)
		}
	}
}

// BotLegal plays tables where the bot plays some seats and random players
// the others, checking the bot's choice for every awaited seat at every
// position (CheckBot). It returns the positions checked.
func BotLegal(t *testing.T, v Variant, seeds []uint64, hands int) int {
	gametest.SkipUnderRace(t)
	checked := 0
	for _, seed := range seeds {
		d := NewDriver(t, v.Rules, v.Game, v.Name, seed)
		d.Check = func(st *table.State, seat int, legal []table.Action) {
			CheckBot(t, st, seat, legal)
			checked++
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		players := make([]Player, v.Rules.Seats())
		for i := range players {
			players[i] = Random(rng)
			if (i+int(seed))%2 == 0 {
				players[i] = Bot
			}
		}
		for range hands {
			d.Hand(players)
		}
	}
	return checked
}

// Reshuffle returns a copy of the game state in which the cards seat cannot
// see are dealt again among their holders (same counts), drawing from rng,
// and whether any hidden card moved.
type Reshuffle func(gs table.GameState, seat int, rng *rand.Rand) (table.GameState, bool)

// HiddenInformation plays tables of bots and random players and, at every
// position, builds a second state with the hidden cards exchanged: the
// seat's view must be the same (else the construction is wrong) and so must
// the bot's choice. It fails unless hidden cards moved at some positions.
func HiddenInformation(t *testing.T, v Variant, reshuffle Reshuffle, seeds []uint64, hands int) {
	moved := 0
	for _, seed := range seeds {
		d := NewDriver(t, v.Rules, v.Game, v.Name, seed)
		rng := rand.New(rand.NewPCG(seed, 4))
		d.Check = func(st *table.State, seat int, legal []table.Action) {
			other, ok := reshuffle(st.G, seat, rng)
			if !ok {
				return
			}
			moved++
			v1, v2 := v.Rules.View(st.G, seat), v.Rules.View(other, seat)
			if !reflect.DeepEqual(v1, v2) {
				t.Fatalf("hand %d: the reshuffled state shows seat %d another view:\n%+v\n%+v", st.Hand, seat, v1.Game, v2.Game)
			}
			legal2 := v.Rules.Legal(other, seat)
			a1 := d.AP.BotAction(v1, slices.Clone(legal))
			a2 := d.AP.BotAction(v2, legal2)
			if !SameAction(a1, a2) {
				t.Fatalf("hand %d: the bot of seat %d chose %v, and %v when the others hold other cards", st.Hand, seat, a1, a2)
			}
		}
		players := make([]Player, v.Rules.Seats())
		for i := range players {
			players[i] = Random(rng)
			if i%2 == 0 {
				players[i] = Bot
			}
		}
		for range hands {
			d.Hand(players)
		}
	}
	if moved == 0 {
		t.Fatalf("%s/%s: no position had hidden cards to exchange", v.Game, v.Name)
	}
}

// StrongerThanRandom plays hands hands with the bot in the measured seats
// and again with random players there (the baseline), and fails unless
// the bot wins a share of hands at least margin points above the baseline
// and a higher mean delta.
func StrongerThanRandom(t *testing.T, v Variant, seed uint64, hands int, measured func(h int) []int, margin float64) {
	gametest.SkipUnderRace(t)
	bot := Strength(t, v.Rules, v.Game, v.Name, seed, hands, measured, true)
	base := Strength(t, v.Rules, v.Game, v.Name, seed, hands, measured, false)
	t.Logf("%s/%s: bot %v; random %v", v.Game, v.Name, bot, base)
	if bot.WinRate() < base.WinRate()+margin || bot.MeanDelta() <= base.MeanDelta() {
		t.Errorf("%s/%s: the bot is not clearly stronger than random play in the same seats: bot %v, random %v (want a win share %.0f points higher and a higher mean delta)",
			v.Game, v.Name, bot, base, margin)
	}
}

// BenchmarkVsRandom plays hands hands per iteration as StrongerThanRandom
// does and reports the bot's win share, the random baseline's and both mean
// deltas.
func BenchmarkVsRandom(b *testing.B, v Variant, hands int, measured func(h int) []int) {
	var bot, base Score
	for i := 0; b.Loop(); i++ {
		bot = Strength(b, v.Rules, v.Game, v.Name, uint64(i+1), hands, measured, true)
	}
	base = Strength(b, v.Rules, v.Game, v.Name, 1, hands, measured, false)
	b.ReportMetric(bot.WinRate(), "win%")
	b.ReportMetric(base.WinRate(), "random-win%")
	b.ReportMetric(bot.MeanDelta(), "delta/hand")
	b.ReportMetric(base.MeanDelta(), "random-delta/hand")
}

// Positions collects, from tables of bots and random players, the views and
// legal lists of seats on turn in the play phase named phase, for
// benchmarking the bot's choice.
func Positions(tb testing.TB, v Variant, phase string, seed uint64, hands int) (views []table.View, legals [][]table.Action) {
	d := NewDriver(tb, v.Rules, v.Game, v.Name, seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	d.Check = func(st *table.State, seat int, legal []table.Action) {
		if view := v.Rules.View(st.G, seat); view.Phase == phase {
			views, legals = append(views, view), append(legals, legal)
		}
	}
	players := make([]Player, v.Rules.Seats())
	for i := range players {
		players[i] = Random(rng)
		if i%2 == 0 {
			players[i] = Bot
		}
	}
	for range hands {
		d.Hand(players)
	}
	return views, legals
}

// BenchmarkChoice times the bot's choice over positions.
func BenchmarkChoice(b *testing.B, v Variant, views []table.View, legals [][]table.Action) {
	if len(views) == 0 {
		b.Fatal("no positions")
	}
	ap := v.Rules.(table.Autoplay)
	i := 0
	for b.Loop() {
		ap.BotAction(views[i%len(views)], legals[i%len(views)])
		i++
	}
	b.ReportMetric(float64(len(views)), "positions")
}

func (v Variant) String() string { return fmt.Sprintf("%s/%s", v.Game, v.Name) }
