package gametest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/table"
)

// RandomGame is a game's side of a random-hand test: how it opens a table,
// picks an action, and checks what the rules did. The Driver does the rest
// (seating, escapes, acting, counting) the same way for every game.
type RandomGame interface {
	// Open returns the rules of a new table and the events that open it
	// (table.Open); the Driver seats players until the table is full.
	Open() (table.Rules, []table.Payload)
	// Applied sees each event once the Driver has applied it (a HandDealt
	// after the Driver has planned the deal's escape).
	Applied(e table.Payload)
	// Choose returns the seat to act and a legal action of it, checking
	// on the way that no other seat may act.
	Choose() (seat int, a table.Action)
	// Events checks the events of seat's action a against pre, the game
	// state before it, before they are applied.
	Events(pre table.GameState, seat int, a table.Action, evs []table.Payload)
	// After checks the table once the events are applied.
	After(pre table.GameState, seat int, a table.Action, evs []table.Payload)
}

// Applying is a RandomGame that also checks each event just before the
// Driver applies it, against the state the events before it in its batch
// left: where a check needs the state an event changes (the trick a play
// joins, the hand a settlement ends).
type Applying interface {
	Applying(e table.Payload)
}

// Command is one command of a random table, a join or an action, with the
// events the rules made of it: what a golden hand records.
type Command struct {
	Join   string        // the joining player; "" for an action
	Seat   int           // the acting seat; 0 for a join
	Action *table.Action // nil for a join
	Events []table.Payload
}

// Escapes is how often a random hand has a seat escape: in one deal in
// OneIn (0: never), at a step drawn below Within, by a seat drawn below the
// number of seats. FirstDealOnly restricts escapes to a hand's first deal.
// A game that counts its steps otherwise (升级 counts the picks of a seat
// that may not act) leaves Escapes zero and returns the escape from Choose;
// Step seats a new player either way.
type Escapes struct {
	OneIn, Within int
	FirstDealOnly bool
}

// RandomConfig describes the random-hand test of one game.
type RandomConfig struct {
	// Seeds are the tables played; Only, when not 0, plays that one table
	// seed instead (a test's -<game>.table flag), so that a failure
	// reproduces from the seed it names.
	Seeds []uint64
	Only  uint64
	// Hands is the number of settled hands each table plays.
	Hands int
	// Stream is the second word of each table's PCG generator, whose first
	// is the table seed.
	Stream uint64
	// MaxSteps bounds the actions of one deal: more fails the test.
	MaxSteps int
	Escapes  Escapes
	// New returns the game's side of the table driven by d; d is not yet
	// open.
	New func(d *Driver) RandomGame
	// Done, when not nil, checks a table once it has settled Hands hands.
	Done func(t *testing.T, d *Driver)
	// Player, when not nil, names the n-th player to join (from 1); the
	// default is "r<n>".
	Player func(n int) string
	// Record, when not nil, sees each join and action with its events
	// before they are applied (the opening is no command).
	Record func(Command)
	// Catalog, when not nil, is the game's own list of its event and
	// action types: every event the table records and every action the
	// game takes must be in it or be the table's, since the API contract
	// is checked against that list.
	Catalog table.Catalog
}

// PlayRandom plays each table seed of c in its own parallel subtest, named
// by the seed, until Hands hands are settled.
func PlayRandom(t *testing.T, c RandomConfig) {
	t.Helper()
	SkipUnderRace(t)
	seeds := c.Seeds
	if c.Only != 0 {
		seeds = []uint64{c.Only}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			d := NewDriver(t, c, seed, nil)
			for d.Settled < c.Hands {
				d.Step()
			}
			if c.Done != nil {
				c.Done(t, d)
			}
		})
	}
}

// Driver plays one table of random legal actions through table.Open,
// table.Join, table.Act and table.Apply. Its fields are the game's to read.
type Driver struct {
	T     testing.TB
	Seed  uint64
	Rng   *rand.Rand
	Seeds table.SeedSource
	Rules table.Rules
	St    *table.State
	Game  RandomGame

	Dealt   table.HandDealt // the running deal, as dealt
	Tables  int             // tables opened
	Settled int             // hands settled, over every table
	Steps   int             // actions in the running deal
	Joins   int
	// EscapeAt is the step of the running deal at which Escaper escapes;
	// -1: none.
	EscapeAt, Escaper int

	c        RandomConfig
	record   func([]table.Payload)
	applying Applying // Game, when it checks events before they apply
	// known are the event types the Catalog and the table declare, read
	// once: every event of every step is checked against them.
	known map[string]bool
}

// NewDriver opens a table of seed, passing every batch of events, from the
// opening on, to record when not nil. Deals draw their seeds from the
// stream SeedSeq{ID: seed} unless the game's New sets d.Seeds.
func NewDriver(t testing.TB, c RandomConfig, seed uint64, record func([]table.Payload)) *Driver {
	d := &Driver{T: t, Seed: seed, Rng: rand.New(rand.NewPCG(seed, c.Stream)), Seeds: &SeedSeq{ID: seed},
		EscapeAt: -1, c: c, record: record}
	if c.Catalog != nil {
		d.known = map[string]bool{}
		for _, name := range slices.Concat(c.Catalog.EventTypes(), table.CommonEventTypes()) {
			d.known[name] = true
		}
	}
	d.Game = c.New(d)
	d.applying, _ = d.Game.(Applying)
	d.Open()
	return d
}

// Open opens a new table and seats a player in every seat.
func (d *Driver) Open() {
	d.Tables++
	r, evs := d.Game.Open()
	d.Rules, d.St = r, table.New(r)
	d.Apply(evs)
	for !d.St.Full() {
		d.Join()
	}
}

// Fatalf fails the test, naming the table seed, hand, deal and step.
func (d *Driver) Fatalf(format string, args ...any) {
	d.T.Helper()
	d.T.Fatalf("table seed %d (table %d), hand %d deal %d, step %d: %s", d.Seed, d.Tables, d.St.Hand, d.St.Deal, d.Steps, fmt.Sprintf(format, args...))
}

// Join seats a new player in the first free seat.
func (d *Driver) Join() {
	d.T.Helper()
	d.Joins++
	name := fmt.Sprintf("r%d", d.Joins)
	if d.c.Player != nil {
		name = d.c.Player(d.Joins)
	}
	evs, err := table.Join(d.St, name, "", -1, d.Seeds)
	if err != nil {
		d.Fatalf("join: %v", err)
	}
	if d.c.Record != nil {
		d.c.Record(Command{Join: name, Events: evs})
	}
	d.Apply(evs)
}

// Apply applies evs: it plans the escape of each deal and counts the
// settled hands.
func (d *Driver) Apply(evs []table.Payload) {
	if d.record != nil {
		d.record(evs)
	}
	for _, e := range evs {
		if d.known != nil && !d.known[e.EventType()] {
			d.Fatalf("event %s is not in the game's EventTypes", e.EventType())
		}
		if d.applying != nil {
			d.applying.Applying(e)
		}
		table.Apply(d.St, e)
		switch e := e.(type) {
		case table.HandDealt:
			d.Dealt, d.Steps, d.EscapeAt = e, 0, -1
			x := d.c.Escapes
			if x.OneIn > 0 && (!x.FirstDealOnly || e.Deal == 1) && d.Rng.IntN(x.OneIn) == 0 {
				d.EscapeAt, d.Escaper = d.Rng.IntN(x.Within), d.Rng.IntN(len(e.Hands))
			}
		case table.HandSettled:
			d.Settled++
		}
		d.Game.Applied(e)
	}
}

// Step makes one action (Act). A closed table is then replaced by a new
// one; a seat an escape freed gets a new player once no deal runs (a 牛牛
// hand plays on after a player's escape, and nobody sits down mid-deal).
func (d *Driver) Step() {
	d.T.Helper()
	d.Act()
	switch {
	case d.St.Closed:
		d.Open()
	case !d.St.InDeal:
		for !d.St.Full() && !d.St.InDeal {
			d.Join()
		}
	}
}

// Act makes one action, the game's choice or the planned escape, and
// returns it; the rules must accept it. Unlike Step it leaves a closed
// table closed and an escaped seat empty, for a caller that stops there
// (a golden hand ends with its table).
func (d *Driver) Act() table.Action {
	d.T.Helper()
	seat, a := d.Game.Choose()
	if d.Steps == d.EscapeAt {
		seat, a = d.Escaper, table.Action{Type: table.ActionEscape}
	}
	if c := d.c.Catalog; c != nil && !slices.Contains(c.ActionTypes(), a.Type) && !slices.Contains(table.TableActionTypes(), a.Type) {
		d.Fatalf("action %s is not in the game's ActionTypes", a.Type)
	}
	pre := d.St.G.Clone()
	evs, err := table.Act(d.St, seat, a, d.Seeds)
	if err != nil { // Decide must accept what Legal offers
		d.Fatalf("seat %d %s: %v", seat, DescribeAction(a), err)
	}
	d.Steps++
	if d.Steps > d.c.MaxSteps {
		d.Fatalf("the deal does not end")
	}
	if d.c.Record != nil {
		d.c.Record(Command{Seat: seat, Action: &a, Events: evs})
	}
	d.Game.Events(pre, seat, a, evs)
	d.Apply(evs)
	d.Game.After(pre, seat, a, evs)
	return a
}
