package autoplaytest_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/dadun"
	"paiju/domain/doudizhu"
	"paiju/domain/internal/autoplaytest"
	"paiju/domain/internal/gametest"
	"paiju/domain/niuniu"
	"paiju/domain/shengji"
	"paiju/domain/shuangkou"
	"paiju/domain/table"
	"paiju/ratings"
)

// sim is a table of a game that plays hand after hand, opening a new table
// when a match ends (升级 past K).
type sim struct {
	t          testing.TB
	r          table.Rules
	game, name string
	seed       uint64
	d          *autoplaytest.Driver
	seeds      *gametest.SeedSeq
}

func newSim(t testing.TB, r table.Rules, game, name string, seed uint64) *sim {
	s := &sim{t: t, r: r, game: game, name: name, seed: seed}
	s.open()
	return s
}

func (s *sim) open() {
	s.seed++
	s.d = autoplaytest.NewDriver(s.t, s.r, s.game, s.name, s.seed)
	s.seeds = &gametest.SeedSeq{ID: s.seed + 1000}
}

// hand plays the next hand to its settlement with players by seat: the
// first awaited seat acts each time. (Driver.Hand also wants every seat
// that may act awaited, which 升级's declarations and 牛牛's rearrangements
// are not.)
func (s *sim) hand(players []autoplaytest.Player) table.HandSettled {
	s.t.Helper()
	if len(s.d.AP.Awaited(s.d.St.G)) == 0 {
		s.open() // the match ended
	}
	d := s.d
	for step := 0; step < 5000; step++ {
		aw := d.AP.Awaited(d.St.G)
		if len(aw) == 0 {
			s.t.Fatalf("hand %d: nobody awaited", d.St.Hand)
		}
		seat := aw[0]
		a := players[seat](d.St, seat, d.St.Rules.Legal(d.St.G, seat))
		evs, err := table.Act(d.St, seat, a, s.seeds)
		if err != nil {
			s.t.Fatalf("hand %d: seat %d %s: %v", d.St.Hand, seat, gametest.DescribeAction(a), err)
		}
		gametest.ApplyAll(d.St, evs)
		for _, e := range evs {
			if hs, ok := e.(table.HandSettled); ok {
				return hs
			}
		}
	}
	s.t.Fatalf("hand %d stalls", d.St.Hand)
	return table.HandSettled{}
}

type variant struct {
	game, name string
	rules      table.Rules
}

// allVariants is every variant of every game at its default options.
func allVariants(t testing.TB) []variant {
	var out []variant
	for _, g := range []table.Game{doudizhu.New(), shengji.New(), dadun.New(), niuniu.New(), shuangkou.New()} {
		for _, name := range g.Variants() {
			r, err := g.Rules(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, variant{g.Name(), name, r})
		}
	}
	return out
}

func contestsOf(t testing.TB, r table.Rules, hs table.HandSettled) []table.Contest {
	t.Helper()
	rated, ok := table.Adapted(r).(table.Rated)
	if !ok {
		t.Fatalf("%T does not implement table.Rated", table.Adapted(r))
	}
	return rated.Contests(hs)
}

// checkShape checks what every contest promises: two or more non-empty
// teams of distinct seats of the table, each sorted, listed by lowest seat,
// with a place each and a winner (place 0).
func checkShape(t testing.TB, seats int, cs []table.Contest) {
	t.Helper()
	for _, c := range cs {
		if len(c.Teams) < 2 || len(c.Places) != len(c.Teams) || !slices.Contains(c.Places, 0) {
			t.Fatalf("contest %+v: want two teams or more, a place each and a winner", c)
		}
		seen := map[int]bool{}
		for i, team := range c.Teams {
			if len(team) == 0 || !slices.IsSorted(team) || (i > 0 && team[0] < c.Teams[i-1][0]) {
				t.Fatalf("contest %+v: teams not sorted, or not in the order of their lowest seat", c)
			}
			for _, s := range team {
				if s < 0 || s >= seats || seen[s] {
					t.Fatalf("contest %+v: seat %d out of range or in two teams", c, s)
				}
				seen[s] = true
			}
		}
	}
}

// outcomeDeltas are the deltas of a settlement's result: 打盾's 盾 awards,
// settled apart from the result, left out.
func outcomeDeltas(t testing.TB, game string, hs table.HandSettled) []int {
	if game != "dadun" {
		return hs.Deltas
	}
	var res struct {
		ResultDeltas []int `json:"result_deltas"`
	}
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		t.Fatal(err)
	}
	return res.ResultDeltas
}

// TestContestsPlayedOut: on hands random players play out in every variant,
// every seat plays a contest, and the winners of each are the seats the
// settlement pays: the winning side's outcome deltas sum above the losers',
// and a 牛牛 player's delta has the sign of its bout.
func TestContestsPlayedOut(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, v := range allVariants(t) {
		t.Run(v.game+"/"+v.name, func(t *testing.T) {
			sm := newSim(t, v.rules, v.game, v.name, 38)
			rng := rand.New(rand.NewPCG(38, 5))
			players := slices.Repeat([]autoplaytest.Player{autoplaytest.Random(rng)}, v.rules.Seats())
			for h := range 60 {
				hs := sm.hand(players)
				cs := contestsOf(t, v.rules, hs)
				n := len(hs.Deltas)
				checkShape(t, n, cs)
				in := map[int]bool{}
				for _, c := range cs {
					for _, team := range c.Teams {
						for _, s := range team {
							in[s] = true
						}
					}
				}
				if len(in) != n {
					t.Fatalf("hand %d: contests %+v leave a seat out (result %s)", h, cs, hs.Result)
				}
				deltas := outcomeDeltas(t, v.game, hs)
				for _, c := range cs {
					if v.game == "niuniu" {
						continue // checkBouts
					}
					sum := func(team []int) (s int) {
						for _, seat := range team {
							s += deltas[seat]
						}
						return s
					}
					win, lose := c.Teams[0], c.Teams[1]
					if c.Places[0] > c.Places[1] {
						win, lose = lose, win
					}
					if !(sum(win) > sum(lose)) {
						t.Fatalf("hand %d: contest %+v: winners %v took %d, losers %v %d (result %s)", h, c, win, sum(win), lose, sum(lose), hs.Result)
					}
				}
				if v.game == "niuniu" {
					checkBouts(t, hs, cs)
				}
			}
		})
	}
}

// checkBouts: 牛牛's contests are its bouts, the banker against each
// player, won by the seat whose delta in the bout is positive.
func checkBouts(t testing.TB, hs table.HandSettled, cs []table.Contest) {
	t.Helper()
	var res niuniu.Result
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		t.Fatal(err)
	}
	if len(cs) != len(res.Bouts) {
		t.Fatalf("%d contests for %d bouts", len(cs), len(res.Bouts))
	}
	for i, b := range res.Bouts {
		c := cs[i]
		want := table.Beat([]int{res.Banker}, []int{b.Seat})
		if b.Delta > 0 {
			want = table.Beat([]int{b.Seat}, []int{res.Banker})
		}
		if fmt.Sprint(c) != fmt.Sprint(want[0]) {
			t.Fatalf("bout %+v (banker %d): contest %+v, want %+v", b, res.Banker, c, want[0])
		}
	}
}

// TestContestsEscape: an escape, at any point of a hand of any variant, is
// a loss for the escaper: its team places last in every contest it is in,
// and in a partnership game its partner's with it.
func TestContestsEscape(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, v := range allVariants(t) {
		t.Run(v.game+"/"+v.name, func(t *testing.T) {
			for k := range 24 {
				seed := uint64(100 + k)
				rng := rand.New(rand.NewPCG(seed, 6))
				random := autoplaytest.Random(rng)
				at, steps, escaper := rng.IntN(40), 0, -1
				escape := func(st *table.State, seat int, legal []table.Action) table.Action {
					steps++
					if escaper < 0 && steps > at {
						escaper = seat
						return table.Action{Type: table.ActionEscape}
					}
					return random(st, seat, legal)
				}
				hs := newSim(t, v.rules, v.game, v.name, seed).hand(slices.Repeat([]autoplaytest.Player{escape}, v.rules.Seats()))
				if escaper < 0 {
					continue // the hand ended first
				}
				cs := contestsOf(t, v.rules, hs)
				checkShape(t, len(hs.Deltas), cs)
				rated := false
				for _, c := range cs {
					for i, team := range c.Teams {
						if !slices.Contains(team, escaper) {
							continue
						}
						rated = true
						last := 0
						for _, p := range c.Places {
							if p == c.Places[i] {
								last++
							}
						}
						if c.Places[i] != slices.Max(c.Places) || last != 1 {
							t.Fatalf("seed %d: seat %d escaped, contest %+v (result %s)", seed, escaper, c, hs.Result)
						}
						if (v.game == "shengji" || v.game == "shuangkou") && !slices.Contains(team, (escaper+2)%4) {
							t.Fatalf("seed %d: seat %d escaped without its partner losing: %+v", seed, escaper, c)
						}
					}
				}
				if !rated {
					t.Fatalf("seed %d: seat %d escaped and is in no contest: %+v (result %s)", seed, escaper, cs, hs.Result)
				}
			}
		})
	}
}

// TestRatingsBotAboveRandom runs the rating model over 1,000 hands per game
// where the bot plays one seat (every seat in turn) and random players the
// others, each rated as a human would be: the bot ends rated above every
// random player, and over the last 500 hands the model's expected share of
// wins for the bot's side is within 8 points of the share it won (the
// margin is the one the win rate calls for, not an artefact).
func TestRatingsBotAboveRandom(t *testing.T) {
	gametest.SkipUnderRace(t)
	if testing.Short() {
		t.Skip("5,000 hands")
	}
	m := ratings.Default()
	for _, v := range []struct{ game, name string }{
		{"doudizhu", "classic"}, {"shengji", "ningyang"}, {"dadun", "lean"}, {"niuniu", "classic"}, {"shuangkou", "classic"},
	} {
		t.Run(v.game, func(t *testing.T) {
			var r table.Rules
			for _, w := range allVariants(t) {
				if w.game == v.game && w.name == v.name {
					r = w.rules
				}
			}
			n := r.Seats()
			sm := newSim(t, r, v.game, v.name, 2038)
			rng := rand.New(rand.NewPCG(38, 7))
			now := map[string]ratings.Rating{}
			var expected, won float64
			var counted int
			const hands = 1000
			for h := range hands {
				botSeat := h % n
				players := make([]autoplaytest.Player, n)
				seats := make([]ratings.Seat, n)
				for s, next := 0, 0; s < n; s++ {
					if s == botSeat {
						players[s], seats[s] = autoplaytest.Bot, ratings.Seat{Player: "bot"}
						continue
					}
					players[s], seats[s] = autoplaytest.Random(rng), ratings.Seat{Player: fmt.Sprint("random-", next)}
					next++
				}
				hs := sm.hand(players)
				cs := contestsOf(t, r, hs)
				if h >= hands/2 {
					for _, c := range cs {
						teams := make([][]ratings.Rating, len(c.Teams))
						mine := -1
						for i, team := range c.Teams {
							for _, s := range team {
								rt, ok := now[seats[s].Player]
								if !ok {
									rt = m.New()
								}
								teams[i] = append(teams[i], rt)
								if s == botSeat {
									mine = i
								}
							}
						}
						if mine < 0 {
							continue
						}
						counted++
						expected += m.Win(teams)[mine]
						if c.Places[mine] == 0 {
							won++
						}
					}
				}
				for p, rt := range m.Hand(cs, seats, now) {
					now[p] = rt
				}
			}
			bot := now["bot"]
			var best ratings.Rating
			for p, rt := range now {
				if p != "bot" && rt.Mu > best.Mu {
					best = rt
				}
			}
			share, want := 100*won/float64(counted), 100*expected/float64(counted)
			t.Logf("bot %.2f ± %.2f, best random player %.2f ± %.2f; bot's side won %.1f%% of its last %d contests, the model expected %.1f%%",
				bot.Mu, bot.Sigma, best.Mu, best.Sigma, share, counted, want)
			if !(bot.Mu-bot.Sigma > best.Mu+best.Sigma) {
				t.Errorf("the bot (%v) is not clearly above the best random player (%v)", bot, best)
			}
			if math.Abs(share-want) > 8 {
				t.Errorf("the bot's side won %.1f%% of its contests, the ratings expected %.1f%%", share, want)
			}
		})
	}
}

// BenchmarkContests is the cost of reading a settlement's contests, per
// settled hand of each variant (random hands; the settlement's JSON decoded
// each time, as the projection does).
func BenchmarkContests(b *testing.B) {
	for _, v := range allVariants(b) {
		b.Run(v.game+"/"+v.name, func(b *testing.B) {
			sm := newSim(b, v.rules, v.game, v.name, 38)
			rng := rand.New(rand.NewPCG(38, 8))
			players := slices.Repeat([]autoplaytest.Player{autoplaytest.Random(rng)}, v.rules.Seats())
			var hands []table.HandSettled
			for range 20 {
				hands = append(hands, sm.hand(players))
			}
			rated := table.Adapted(v.rules).(table.Rated)
			i := 0
			for b.Loop() {
				rated.Contests(hands[i%len(hands)])
				i++
			}
		})
	}
}
