package shengji

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// trumpOf is the trump a view shows, "" when it shows none (null).
func trumpOf(g GameView) string {
	if g.Trump == nil {
		return ""
	}
	return *g.Trump
}

func ningyang(t testing.TB) *Rules { return rulesOf(t, "") }

func guafeng(t testing.TB) *Rules { return variantRules(t, "guafeng", "") }

func rulesOf(t testing.TB, options string) *Rules { return variantRules(t, "ningyang", options) }

func variantRules(t testing.TB, variant, options string) *Rules {
	t.Helper()
	r, err := New().Rules(variant, json.RawMessage(options))
	if err != nil {
		t.Fatal(err)
	}
	return table.Adapted(r).(*Rules)
}

// openTable opens a table at stake and seats p0..p3; the first deal follows
// the last join.
func openTable(t testing.TB, r *Rules, stake int, seeds table.SeedSource) *table.State {
	t.Helper()
	st := table.New(r.untyped())
	evs, err := table.Open(r.untyped(), "t", "shengji", r.v.name, stake, "p0")
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

// deal is a chosen deal: each seat's first cards in draw order (the rest of
// the 108 cards fill the hands in canonical order, skipping the kitty).
type deal struct {
	first [seats]string
	kitty string
	// fallback is HandDealt.FirstSeat.
	fallback int
	stake    int
	// match, when set, makes the deal a later hand of a match: the dealer
	// and the levels it starts from.
	match *matchAt
}

type matchAt struct {
	dealer int
	levels [2]int
}

// hands completes the chosen cards to four hands and a kitty of the
// variant's sizes (26 and 4; qiangbao 25 and 8).
func (d deal) hands(t testing.TB, handSize, kittyLen int) ([][]cards.Card, []cards.Card) {
	t.Helper()
	left := cards.Of(cards.Deck(decks))
	kitty := cards.MustParse(d.kitty)
	if !left.Remove(kitty) {
		t.Fatalf("kitty %s: more copies than two decks hold", d.kitty)
	}
	hands := make([][]cards.Card, seats)
	for i, h := range d.first {
		cs := cards.MustParse(h)
		if !left.Remove(cs) {
			t.Fatalf("seat %d: %s: more copies than two decks hold", i, h)
		}
		hands[i] = cs
	}
	rest := left.Cards()
	for i := range hands {
		need := handSize - len(hands[i])
		hands[i] = append(hands[i], rest[:need]...)
		rest = rest[need:]
	}
	if len(kitty) != kittyLen {
		// Fill the kitty from what is left.
		kitty = append(kitty, rest[:kittyLen-len(kitty)]...)
	}
	return hands, kitty
}

// build folds a table whose hand 1 is the chosen deal; drawing is next.
func (d deal) build(t testing.TB, r *Rules) *table.State {
	t.Helper()
	st := table.New(r.untyped())
	table.Apply(st, table.TableOpened{TableID: "pos", Game: "shengji", Variant: r.v.name,
		Options: r.Options(), Stake: max(d.stake, 1), Seats: seats, RulesVersion: r.Version()})
	for i := range seats {
		table.Apply(st, table.PlayerSeated{Seat: i, PlayerID: fmt.Sprintf("p%d", i)})
	}
	if d.match != nil {
		g := gametest.Game[State](st)
		g.matchDealer, g.levels, g.handsDone = d.match.dealer, d.match.levels, 1
	}
	hands, kitty := d.hands(t, r.v.handSize, r.v.kittyLen)
	seed := cards.Seed{1, 2, 3}
	table.Apply(st, table.HandDealt{Hand: 1, Deal: 1, Commitment: seed.Commitment(), Hands: hands, Kitty: kitty, FirstSeat: d.fallback})
	table.Apply(st, table.DealSecret{Hand: 1, Deal: 1, Seed: seed.String()})
	return st
}

func drawA() table.Action { return table.Action{Type: ActionDraw} }
func passA() table.Action { return table.Action{Type: ActionPass} }
func declareA(cs string) table.Action {
	return table.Action{Type: ActionDeclare, Cards: cards.MustParse(cs)}
}
func buryA(cs string) table.Action { return table.Action{Type: ActionBury, Cards: cards.MustParse(cs)} }
func stickA(cs string) table.Action {
	return table.Action{Type: ActionStick, Cards: cards.MustParse(cs)}
}
func reinforceA(cs string) table.Action {
	return table.Action{Type: ActionReinforce, Cards: cards.MustParse(cs)}
}
func exchangeA(cs string) table.Action {
	return table.Action{Type: ActionExchange, Cards: cards.MustParse(cs)}
}
func playA(cs string) table.Action { return table.Action{Type: ActionPlay, Cards: cards.MustParse(cs)} }

// drawRounds has seat 0 draw n rounds.
func drawRounds(t testing.TB, st *table.State, n int) {
	t.Helper()
	for range n {
		gametest.MustAct(t, st, 0, drawA())
	}
}

// closeWindow draws every remaining round and has every seat that has not
// passed pass, in seat order.
func closeWindow(t testing.TB, st *table.State) []table.Payload {
	t.Helper()
	g := gametest.Game[State](st)
	drawRounds(t, st, g.v.handSize-g.round)
	var last []table.Payload
	for i := range seats {
		if !gametest.Game[State](st).passed[i] {
			last = gametest.MustAct(t, st, i, passA())
		}
	}
	return last
}

func hasCode(err error, code string) bool {
	var te *table.Error
	if e, ok := err.(*table.Error); ok {
		te = e
	}
	return te != nil && te.Code == code
}

// ms builds a multiset from notation.
func ms(s string) cards.Multiset { return cards.Of(cards.MustParse(s)) }

// canon is a multiset's key for set comparisons.
func canon(cs []cards.Card) string {
	c := slices.Clone(cs)
	cards.SortCanonical(c)
	return cards.Format(c)
}
