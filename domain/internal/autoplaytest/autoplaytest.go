// Package autoplaytest drives whole hands of a game through the table with
// players that time out, play at random or play the game's bot, for the
// tests of every game's table.Autoplay: timeouts legal in every phase, no
// stall, bot legality, hidden information, and the bot's strength against
// random play. Only tests import it.
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

// Player chooses the action of seat at st from its legal list (escape
// excluded, never empty).
type Player func(st *table.State, seat int, legal []table.Action) table.Action

// Timeout plays the game's default action of a seat whose time ran out.
func Timeout(st *table.State, seat int, _ []table.Action) table.Action {
	return st.Rules.(table.Autoplay).TimeoutAction(st.G, seat)
}

// Random plays a legal action chosen by rng.
func Random(rng *rand.Rand) Player {
	return func(_ *table.State, _ int, legal []table.Action) table.Action {
		return legal[rng.IntN(len(legal))]
	}
}

// Bot plays the game's bot from the seat's view.
func Bot(st *table.State, seat int, legal []table.Action) table.Action {
	return st.Rules.(table.Autoplay).BotAction(st.Rules.View(st.G, seat), slices.Clone(legal))
}

// maxSteps bounds the actions of one deal: a longer deal has stalled.
const maxSteps = 5000

// Driver is one table of a game, seated and dealing, played hand by hand.
type Driver struct {
	t     testing.TB
	St    *table.State
	AP    table.Autoplay
	seeds *gametest.SeedSeq
	// Check, when set, is called before every action with the seat that
	// acts and its legal list.
	Check func(st *table.State, seat int, legal []table.Action)
}

// NewDriver opens a table of r (which must implement table.Autoplay) and
// seats every player; its deals come from the seed stream seed.
func NewDriver(t testing.TB, r table.Rules, game, variant string, seed uint64) *Driver {
	t.Helper()
	ap, ok := r.(table.Autoplay)
	if !ok {
		t.Fatalf("%s/%s rules do not implement table.Autoplay", game, variant)
	}
	d := &Driver{t: t, St: table.New(r), AP: ap, seeds: &gametest.SeedSeq{ID: seed}}
	evs, err := table.Open(r, fmt.Sprint("auto-", seed), game, variant, 1, "p0")
	if err != nil {
		t.Fatal(err)
	}
	d.apply(evs)
	for i := range r.Seats() {
		evs, err := table.Join(d.St, fmt.Sprintf("p%d", i), "", -1, d.seeds)
		if err != nil {
			t.Fatal(err)
		}
		d.apply(evs)
	}
	return d
}

func (d *Driver) apply(evs []table.Payload) {
	for _, e := range evs {
		table.Apply(d.St, e)
	}
}

// Hand plays until the running hand is settled (thrown-in deals are dealt
// again and played on) and returns its settlement. Seat i is played by
// players[i]. Before every action it checks that exactly the awaited seats
// may act and that the acting seat is awaited.
func (d *Driver) Hand(players []Player) table.HandSettled {
	d.t.Helper()
	r := d.St.Rules
	for step := 0; ; step++ {
		if step > maxSteps {
			d.t.Fatalf("hand %d deal %d stalls: %d actions without a settlement", d.St.Hand, d.St.Deal, maxSteps)
		}
		aw := d.AP.Awaited(d.St.G)
		if len(aw) == 0 {
			d.t.Fatalf("hand %d deal %d: nobody is awaited during a deal", d.St.Hand, d.St.Deal)
		}
		if !slices.IsSorted(aw) {
			d.t.Fatalf("Awaited = %v, not in increasing seat order", aw)
		}
		for i := range r.Seats() {
			if len(r.Legal(d.St.G, i)) > 0 && !slices.Contains(aw, i) {
				d.t.Fatalf("hand %d: seat %d has legal actions but is not awaited (%v)", d.St.Hand, i, aw)
			}
		}
		seat := aw[0]
		legal := r.Legal(d.St.G, seat)
		if len(legal) == 0 {
			d.t.Fatalf("hand %d: awaited seat %d has no legal action", d.St.Hand, seat)
		}
		if d.Check != nil {
			d.Check(d.St, seat, legal)
		}
		a := players[seat](d.St, seat, legal)
		evs, err := table.Act(d.St, seat, a, d.seeds)
		if err != nil {
			d.t.Fatalf("hand %d: seat %d %s: %v", d.St.Hand, seat, gametest.DescribeAction(a), err)
		}
		var settled *table.HandSettled
		for _, e := range evs {
			if hs, ok := e.(table.HandSettled); ok {
				settled = &hs
			}
			table.Apply(d.St, e)
		}
		if settled != nil {
			return *settled
		}
	}
}

// Contains reports whether legal holds a by value (At aside).
func Contains(legal []table.Action, a table.Action) bool {
	for _, l := range legal {
		if SameAction(l, a) {
			return true
		}
	}
	return false
}

// SameAction compares two actions by value, At aside.
func SameAction(a, b table.Action) bool {
	a.At = b.At
	return reflect.DeepEqual(a, b)
}

// CheckTimeout checks the timeout of seat at st: awaited, in its legal list
// by value and accepted by Decide. It returns the phase of the view.
func CheckTimeout(t testing.TB, st *table.State, seat int) string {
	t.Helper()
	ap := st.Rules.(table.Autoplay)
	if !slices.Contains(ap.Awaited(st.G), seat) {
		t.Fatalf("seat %d is checked for a timeout but not awaited", seat)
	}
	a := ap.TimeoutAction(st.G, seat)
	legal := st.Rules.Legal(st.G, seat)
	if !Contains(legal, a) {
		t.Fatalf("hand %d: seat %d times out with %s, which is not in its legal list of %d", st.Hand, seat, gametest.DescribeAction(a), len(legal))
	}
	if _, err := st.Rules.Decide(st.G.Clone(), seat, a); err != nil {
		t.Fatalf("hand %d: seat %d times out with %s: Decide refuses: %v", st.Hand, seat, gametest.DescribeAction(a), err)
	}
	return st.Rules.View(st.G, seat).Phase
}

// CheckBot checks that the bot's choice at st is one of legal.
func CheckBot(t testing.TB, st *table.State, seat int, legal []table.Action) {
	t.Helper()
	a := Bot(st, seat, legal)
	if !Contains(legal, a) {
		t.Fatalf("hand %d: the bot of seat %d chose %s, which is not in its legal list", st.Hand, seat, gametest.DescribeAction(a))
	}
}

// Score is what a match of hands measured of some seats: the hands they
// played and won (delta > 0) and the sum of their deltas.
type Score struct {
	Hands, Won, Delta int
}

// WinRate is the share of hands won, in percent.
func (s Score) WinRate() float64 { return 100 * float64(s.Won) / float64(max(s.Hands, 1)) }

// MeanDelta is the mean delta per hand, in stakes.
func (s Score) MeanDelta() float64 { return float64(s.Delta) / float64(max(s.Hands, 1)) }

func (s Score) String() string {
	return fmt.Sprintf("won %d of %d hands (%.1f%%), mean delta %+.2f", s.Won, s.Hands, s.WinRate(), s.MeanDelta())
}

// Strength plays hands hands on a table of r with the seats of measured(h)
// (for hand h, counting from 0) played by the bot (or, for the baseline,
// by random players) and the others by random players, and scores the
// measured seats: the first of them, whose delta a partner's equals in a
// partnership game. Random players draw from a PCG seeded with seed.
func Strength(t testing.TB, r table.Rules, game, variant string, seed uint64, hands int, measured func(h int) []int, bot bool) Score {
	t.Helper()
	d := NewDriver(t, r, game, variant, seed)
	rng := rand.New(rand.NewPCG(seed, 0x626f74))
	random := Random(rng)
	players := make([]Player, r.Seats())
	var sc Score
	for h := range hands {
		ms := measured(h)
		for i := range players {
			players[i] = random
			if bot && slices.Contains(ms, i) {
				players[i] = Bot
			}
		}
		hs := d.Hand(players)
		delta := hs.Deltas[ms[0]]
		sc.Hands++
		sc.Delta += delta
		if delta > 0 {
			sc.Won++
		}
	}
	return sc
}

// Rotate measures seat h mod n in hand h: one bot against random players,
// in every seat in turn.
func Rotate(n int) func(h int) []int { return func(h int) []int { return []int{h % n} } }
