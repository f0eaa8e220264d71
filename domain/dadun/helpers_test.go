package dadun

import (
	"fmt"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

func rulesFor(t testing.TB) *Rules {
	t.Helper()
	r, err := New().Rules("lean", nil)
	if err != nil {
		t.Fatal(err)
	}
	return table.Adapted(r).(*Rules)
}

// openTable opens a table at stake and seats p0 … p3; the first deal follows
// the fourth join.
func openTable(t testing.TB, r *Rules, stake int, seeds table.SeedSource) *table.State {
	t.Helper()
	st := table.New(r.untyped())
	evs, err := table.Open(r.untyped(), "t", "dadun", "lean", stake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	gametest.ApplyAll(st, evs)
	for i := range seats {
		evs, err := table.Join(st, fmt.Sprintf("p%d", i), fmt.Sprintf("Player %d", i), -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		gametest.ApplyAll(st, evs)
	}
	return st
}

// position is a deal with chosen cards, for tests that need given hands.
// Hands need not hold 27 cards. turned is the turned card, dealt to banker.
type position struct {
	hands  [seats]string
	turned string
	banker int
	stake  int
}

// build folds the table events of a position's deal: the declaring round is
// on, the banker to act.
func (p position) build(t testing.TB, r *Rules) *table.State {
	t.Helper()
	stake := max(p.stake, 1)
	st := table.New(r.untyped())
	table.Apply(st, table.TableOpened{TableID: "pos", Game: "dadun", Variant: "lean",
		Options: r.Options(), Stake: stake, Seats: seats, RulesVersion: r.Version()})
	for i := range seats {
		table.Apply(st, table.PlayerSeated{Seat: i, PlayerID: fmt.Sprintf("p%d", i)})
	}
	for _, e := range p.dealEvents(t) {
		table.Apply(st, e)
	}
	return st
}

func (p position) dealEvents(t testing.TB) []table.Payload {
	t.Helper()
	seed := cards.Seed{1, 2, 3}
	d := table.HandDealt{Hand: 1, Deal: 1, Commitment: seed.Commitment(), Kitty: []cards.Card{}, FirstSeat: p.banker}
	for _, h := range p.hands {
		cs := cards.MustParse(h)
		climb.Sort(cs)
		d.Hands = append(d.Hands, cs)
	}
	turned := cards.MustParse(p.turned)[0]
	if m := cards.Of(d.Hands[p.banker]); m.Count(turned) == 0 {
		t.Fatalf("position: the banker %d does not hold the turned card %s", p.banker, turned)
	}
	return []table.Payload{d, table.DealSecret{Hand: 1, Deal: 1, Seed: seed.String()},
		CardTurned{Hand: 1, Deal: 1, Card: turned, Banker: p.banker}}
}

// playing builds the position and has every seat decline going alone, so
// that the banker leads.
func (p position) playing(t testing.TB, r *Rules) *table.State {
	t.Helper()
	st := p.build(t, r)
	for i := range seats {
		gametest.MustAct(t, st, (p.banker+i)%seats, passA())
	}
	return st
}

func passA() table.Action  { return table.Action{Type: ActionPass} }
func aloneA() table.Action { return table.Action{Type: ActionAlone} }
func callA(c string) table.Action {
	return table.Action{Type: ActionCall, Cards: cards.MustParse(c)}
}
func playA(cs string) table.Action {
	return table.Action{Type: ActionPlay, Cards: cards.MustParse(cs)}
}
func playAs(cs, as string) table.Action {
	a := playA(cs)
	a.As = as
	return a
}

// eventTypes lists the types of evs as one string, for comparisons.
func eventTypes(evs []table.Payload) string {
	return strings.Join(gametest.EventTypes(evs), ",")
}

func readingsOf(cs string, last bool) []Reading {
	return Classify(cards.MustParse(cs), last)
}
