package service_test

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/games"
)

// hashSeeds is a deterministic seed source: the n-th seed of table id is
// SHA-256(id ‖ n).
type hashSeeds struct{ id, n uint64 }

func (h *hashSeeds) NewSeed() (cards.Seed, error) {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], h.id)
	binary.BigEndian.PutUint64(b[8:], h.n)
	h.n++
	return cards.Seed(sha256.Sum256(b[:])), nil
}

// randomTable plays one table of a variant by random legal actions, in
// memory, through the same table functions the service calls: a source of
// the positions the legal-action tests look at. A closed table is replaced
// by a new one.
type randomTable struct {
	t     testing.TB
	gv    variantCase
	seed  uint64
	rng   *rand.Rand
	seeds *hashSeeds
	st    *table.State
	// hands counts the hands settled so far, over every table opened.
	hands int
	// events are the events of the table open now, in order.
	events []table.Payload
}

func newRandomTable(t testing.TB, gv variantCase, seed uint64) *randomTable {
	rt := &randomTable{t: t, gv: gv, seed: seed, rng: rand.New(rand.NewPCG(seed, 11)), seeds: &hashSeeds{id: seed}}
	rt.open()
	return rt
}

func (rt *randomTable) open() {
	rt.t.Helper()
	g := games.All()[rt.gv.game]
	r, err := g.Rules(rt.gv.variant, nil)
	if err != nil {
		rt.t.Fatal(err)
	}
	evs, err := table.Open(r, "T", rt.gv.game, rt.gv.variant, 1, "p0")
	if err != nil {
		rt.t.Fatal(err)
	}
	rt.st = table.New(r)
	rt.events = nil
	rt.apply(evs)
	for seat := range rt.gv.seats {
		evs, err := table.Join(rt.st, fmt.Sprintf("p%d", seat), "", seat, rt.seeds)
		if err != nil {
			rt.t.Fatalf("join seat %d: %v", seat, err)
		}
		rt.apply(evs)
	}
}

func (rt *randomTable) apply(evs []table.Payload) {
	for _, e := range evs {
		table.Apply(rt.st, e)
		rt.events = append(rt.events, e)
		if _, ok := e.(table.HandSettled); ok {
			rt.hands++
		}
	}
}

// gameActions is what seat may do in the game now: its legal actions without
// the table's own (escape, delegate).
func gameActions(legal []table.Action) []table.Action {
	var out []table.Action
	for _, a := range legal {
		switch a.Type {
		case table.ActionEscape, table.ActionLeave, "delegate", "resume":
			continue
		}
		out = append(out, a)
	}
	return out
}

// position is one seat's legal actions at one moment of a random table.
type position struct {
	st    *table.State
	seat  int
	legal []table.Action // as the service lists them (table.PlayerLegal)
}

// step shows visit every seat that may act now, then makes one random game
// action of one of them. visit must not keep the state.
func (rt *randomTable) step(visit func(position)) {
	rt.t.Helper()
	var actors []int
	var choices [][]table.Action
	for seat := range rt.gv.seats {
		legal := table.Legal(rt.st, seat)
		game := gameActions(legal)
		if len(game) == 0 {
			continue
		}
		if visit != nil {
			visit(position{st: rt.st, seat: seat, legal: legal})
		}
		actors = append(actors, seat)
		choices = append(choices, game)
	}
	if len(actors) == 0 {
		rt.t.Fatalf("%s/%s seed %d: nobody may act at version %d", rt.gv.game, rt.gv.variant, rt.seed, rt.st.Version)
	}
	k := rt.rng.IntN(len(actors))
	a := choices[k][rt.rng.IntN(len(choices[k]))]
	evs, err := table.Act(rt.st, actors[k], a, rt.seeds)
	if err != nil {
		rt.t.Fatalf("%s/%s seed %d: seat %d %v: %v", rt.gv.game, rt.gv.variant, rt.seed, actors[k], a, err)
	}
	rt.apply(evs)
	if rt.st.Closed {
		rt.open()
	}
}
