package shengji

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
)

// guafengGoldenIDs are the seeds of the guafeng golden hands, in the order
// of goldenCases; TestFindGuafengGolden finds them.
var guafengGoldenIDs = [9]uint64{3, 5, 30, 1, 18, 4, 1, 55, 387}

var findGolden = flag.Bool("shengji.findgolden", false, "search seeds for the guafeng golden hands and log them")

// TestFindGuafengGolden searches, with -shengji.findgolden, the first seed
// whose random table shows what each guafeng golden case is about.
func TestFindGuafengGolden(t *testing.T) { findGoldenSeeds(t, "guafeng") }

// findGoldenSeeds logs, for each golden case of variant, the first table seed
// whose recorded hands show the events and texts the case asks for.
func findGoldenSeeds(t *testing.T, variant string) {
	if !*findGolden {
		t.Skip("a seed search: run with -shengji.findgolden")
	}
	for _, c := range goldenCases {
		if c.variant != variant {
			continue
		}
	search:
		for id := uint64(1); id < 3000; id++ {
			gf := recordGolden(t, c.variant, id, c.options, c.hands, c.noDeclare)
			raw, err := json.Marshal(gf)
			if err != nil {
				t.Fatal(err)
			}
			n := map[string]int{}
			for _, step := range gf.Steps {
				for _, e := range step.Events {
					n[e.Type]++
				}
			}
			for typ, want := range c.shows {
				if n[typ] != want {
					continue search
				}
			}
			for _, h := range c.has {
				if !bytes.Contains(raw, []byte(h)) {
					continue search
				}
			}
			t.Logf("%s: seed %d", c.name, id)
			break
		}
	}
}

var findRESTSeed = flag.Bool("shengji.findrestseed", false, "search the api test seed whose first guafeng deal allows a 粘牌 over a one-pair declaration")

// TestFindRESTStickSeed searches, with -shengji.findrestseed, a seed for
// the api package's guafeng hand: the first deal of its test seed source
// (seed i of base b is 32 bytes of PCG(b, i), as api's harness draws them)
// gives one seat a joker and a pair, and another a joker and a two-pair
// tractor to stick with.
func TestFindRESTStickSeed(t *testing.T) {
	if !*findRESTSeed {
		t.Skip("a seed search: run with -shengji.findrestseed")
	}
	o := Order{Level: cards.Ace, Trump: cards.Joker, Fixed: true}
	for base := uint64(1); base < 500; base++ {
		var seed cards.Seed
		r := rand.New(rand.NewPCG(base, 1))
		for i := range seed {
			seed[i] = byte(r.Uint32())
		}
		deck, _ := cards.Shuffled(seed, decks)
		s := State{order: o, declarer: -1}
		for i, c := range deck[:seats*handSize] {
			s.held[i%seats].Add(c)
		}
		var declare, stick []int
		for seat := range seats {
			if len(s.guafengDeclarations(seat, "")) > 0 {
				declare = append(declare, seat)
			}
			for _, cs := range s.guafengDeclarations(seat, "") {
				if len(cs) == 5 && !cs[1].IsJoker() {
					stick = append(stick, seat)
					break
				}
			}
		}
		if len(declare) >= 2 && len(stick) >= 1 {
			t.Logf("base %d: declarers %v, stickers %v", base, declare, stick)
		}
	}
}
