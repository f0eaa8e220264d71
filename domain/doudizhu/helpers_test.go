package doudizhu

import (
	"encoding/json"
	"fmt"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

func classic(t testing.TB) *Rules { return rulesOf(t, "classic", "") }

// rulesOf returns a variant's rules with the given options JSON.
func rulesOf(t testing.TB, variant, options string) *Rules {
	t.Helper()
	r, err := New().Rules(variant, json.RawMessage(options))
	if err != nil {
		t.Fatal(err)
	}
	return table.Adapted(r).(*Rules)
}

// openTable opens a table of r's variant at stake and seats players p0, p1,
// …; the first deal follows the last join.
func openTable(t testing.TB, r *Rules, stake int, seeds table.SeedSource) *table.State {
	t.Helper()
	st := table.New(r.untyped())
	evs, err := table.Open(r.untyped(), "t", "doudizhu", r.v.name, stake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	gametest.ApplyAll(st, evs)
	for i := range r.v.seats {
		evs, err := table.Join(st, fmt.Sprintf("p%d", i), fmt.Sprintf("Player %d", i), -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		gametest.ApplyAll(st, evs)
	}
	return st
}

// position is a deal with chosen cards, for tests that need a given hand.
type position struct {
	hands []string
	kitty string
	first int
	stake int
}

// build folds the table events of a position's deal; bidding is next.
func (p position) build(t testing.TB, r *Rules) *table.State {
	t.Helper()
	stake := max(p.stake, 1)
	st := table.New(r.untyped())
	table.Apply(st, table.TableOpened{TableID: "pos", Game: "doudizhu", Variant: r.v.name,
		Options: r.Options(), Stake: stake, Seats: r.v.seats, RulesVersion: r.Version()})
	for i := range r.v.seats {
		table.Apply(st, table.PlayerSeated{Seat: i, PlayerID: fmt.Sprintf("p%d", i)})
	}
	seed := cards.Seed{1, 2, 3}
	d := table.HandDealt{Hand: 1, Deal: 1, Commitment: seed.Commitment(), Kitty: cards.MustParse(p.kitty), FirstSeat: p.first}
	for _, h := range p.hands {
		cs := cards.MustParse(h)
		climb.Sort(cs)
		d.Hands = append(d.Hands, cs)
	}
	table.Apply(st, d)
	table.Apply(st, table.DealSecret{Hand: 1, Deal: 1, Seed: seed.String()})
	return st
}

// playing builds the position and has landlord bid `bid` at once: the
// first bidder is the landlord, and bidding 3 ends the bidding; lower bids
// are followed by the others' passes. In the grab variants every other seat
// then declines to grab.
func (p position) playing(t testing.TB, r *Rules, landlord, bid int) *table.State {
	t.Helper()
	n := r.v.seats
	p.first = landlord
	st := p.build(t, r)
	gametest.MustAct(t, st, landlord, bidA(bid))
	if bid < 3 {
		for i := 1; i < n; i++ {
			gametest.MustAct(t, st, (landlord+i)%n, passA())
		}
	}
	// Below 3 every other seat passed the call and so gave up its grab
	// (doudizhu.md, Bidding, hubei, revised); after a 3 each declines.
	if r.v.grab && bid == 3 {
		for i := 1; i < n; i++ {
			gametest.MustAct(t, st, (landlord+i)%n, passA())
		}
	}
	return st
}

func bidA(n int) table.Action { return table.Action{Type: ActionBid, Bid: table.Seat(n)} }
func passA() table.Action     { return table.Action{Type: ActionPass} }
func grabA() table.Action     { return table.Action{Type: ActionGrab} }
func openA() table.Action     { return table.Action{Type: ActionOpen} }
func playA(cs string) table.Action {
	return table.Action{Type: ActionPlay, Cards: cards.MustParse(cs)}
}
func playAs(cs, as string) table.Action {
	a := playA(cs)
	a.As = as
	return a
}

// resultOf decodes the result of a HandSettled's JSON.
func resultOf(t testing.TB, data []byte) Result {
	t.Helper()
	var hs table.HandSettled
	if err := json.Unmarshal(data, &hs); err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		t.Fatal(err)
	}
	return res
}
