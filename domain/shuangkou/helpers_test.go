package shuangkou

import (
	"fmt"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

func rulesFor(t testing.TB, variant string) *Rules {
	t.Helper()
	r, err := New().Rules(variant, nil)
	if err != nil {
		t.Fatal(err)
	}
	return table.Adapted(r).(*Rules)
}

// openTable opens a table of variant at stake and seats p0 … p3; the first
// deal follows the fourth join.
func openTable(t testing.TB, r *Rules, stake int, seeds table.SeedSource) *table.State {
	t.Helper()
	st := table.New(r.untyped())
	evs, err := table.Open(r.untyped(), "t", "shuangkou", r.v.name, stake, "p0")
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
// Hands need not hold 27 cards.
type position struct {
	hands [seats]string
	first int
	stake int
}

// build folds the table events of a position's deal; first leads.
func (p position) build(t testing.TB, r *Rules) *table.State {
	t.Helper()
	stake := max(p.stake, 1)
	st := table.New(r.untyped())
	table.Apply(st, table.TableOpened{TableID: "pos", Game: "shuangkou", Variant: r.v.name,
		Options: r.Options(), Stake: stake, Seats: seats, RulesVersion: r.Version()})
	for i := range seats {
		table.Apply(st, table.PlayerSeated{Seat: i, PlayerID: fmt.Sprintf("p%d", i)})
	}
	seed := cards.Seed{1, 2, 3}
	d := table.HandDealt{Hand: 1, Deal: 1, Commitment: seed.Commitment(), Kitty: []cards.Card{}, FirstSeat: p.first}
	for _, h := range p.hands {
		cs := cards.MustParse(h)
		climb.Sort(cs)
		d.Hands = append(d.Hands, cs)
	}
	table.Apply(st, d)
	table.Apply(st, table.DealSecret{Hand: 1, Deal: 1, Seed: seed.String()})
	return st
}

// wildOf is the wild of the variants: all in baibian (true), none in
// classic.
func wildOf(baibian bool) Wild {
	if baibian {
		return WildAll
	}
	return WildNone
}

func passA() table.Action { return table.Action{Type: ActionPass} }
func playA(cs string) table.Action {
	return table.Action{Type: ActionPlay, Cards: cards.MustParse(cs)}
}
func playAs(cs, as string) table.Action {
	a := playA(cs)
	a.As = as
	return a
}
