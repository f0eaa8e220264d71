package shengji

import (
	"encoding/json"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// TestRedact: every event of random hands as each seat and a spectator see
// it before the deal ends (shengji.md: cards only once drawn; declarations
// hidden until the kitty is buried; the kitty only to the dealer), and in
// full afterwards and for the auditor. table.Redact passes the table's cut
// of HandDealt through the game's, which drops even the seat's own cards.
func TestRedact(t *testing.T) {
	r := ningyang(t)
	rt := newRandomTable(t, r, 77, false)
	for rt.Settled < 3 {
		rt.Step()
	}
	var opened bool
	for _, ev := range rt.stream {
		p, err := table.Decode(r.untyped(), ev.Type, ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := p.(table.TableOpened); ok {
			opened = true
		}
		if got := table.Redact(r.untyped(), p, table.Auditor, false); mustJSON(t, got) != string(ev.Data) {
			t.Fatalf("the auditor sees %s redacted", ev.Type)
		}
		for _, seat := range []int{0, 1, 2, 3, table.Spectator} {
			if got := table.Redact(r.untyped(), p, seat, true); mustJSON(t, got) != string(ev.Data) {
				t.Fatalf("seat %d after the deal sees %s redacted", seat, ev.Type)
			}
			got := table.Redact(r.untyped(), p, seat, false)
			switch e := p.(type) {
			case table.DealSecret:
				if got != nil {
					t.Fatalf("seat %d sees the running deal's seed", seat)
				}
			case table.HandDealt:
				d := got.(table.HandDealt)
				for i, h := range d.Hands {
					if len(h) > 0 {
						t.Fatalf("seat %d sees seat %d's undrawn hand in HandDealt (shengji.md, The deal)", seat, i)
					}
				}
				if d.Kitty != nil || d.Commitment != e.Commitment {
					t.Fatalf("seat %d: HandDealt %+v", seat, d)
				}
			case CardsDrawn:
				for i, c := range got.(CardsDrawn).Cards {
					if (i == seat) != (c != nil) {
						t.Fatalf("seat %d sees draw %d of seat %d as %v", seat, e.Round, i, c)
					}
				}
			case TrumpDeclared:
				d := got.(TrumpDeclared)
				if e.Seat != seat && (d.Suit != "" || d.Cards != nil) || d.Pairs != e.Pairs || d.Seat != e.Seat {
					t.Fatalf("seat %d sees %+v of %+v (shengji.md: 暗亮, strength only)", seat, d, e)
				}
			case KittyTaken:
				if e.Seat != seat && got.(KittyTaken).Cards != nil {
					t.Fatalf("seat %d sees the kitty the dealer took (shengji.md, Kitty)", seat)
				}
			case KittyBuried:
				if e.Seat != seat && got.(KittyBuried).Cards != nil {
					t.Fatalf("seat %d sees the buried cards (shengji.md, Kitty)", seat)
				}
			default:
				if mustJSON(t, got) != string(ev.Data) {
					t.Fatalf("seat %d sees public %s redacted", seat, ev.Type)
				}
			}
		}
	}
	if !opened {
		t.Fatal("no stream")
	}
}

// TestViewHidesSecrets: the views of the seats and a spectator at every step
// of a hand name no card the viewer does not hold or may not see, and the
// seed never.
func TestViewHidesSecrets(t *testing.T) {
	r := ningyang(t)
	rt := newRandomTable(t, r, 78, false)
	for rt.Settled < 1 {
		g := rt.g()
		for _, seat := range []int{0, 1, 2, 3, table.Spectator} {
			v := r.View(g, seat)
			gv := v.Game.(GameView)
			if gv.Hands != nil {
				t.Fatalf("seat %d sees every hand", seat)
			}
			if gv.Kitty != nil && seat != g.dealer && g.phase != phaseWaiting {
				t.Fatalf("seat %d sees the kitty", seat)
			}
			checkTrumpShown(t, g, seat, gv)
			if seat >= 0 && canon(v.Hand) != canon(g.held[seat].Cards()) {
				t.Fatalf("seat %d sees hand %s, holds %s", seat, cards.Format(v.Hand), cards.Format(g.held[seat].Cards()))
			}
			if g.Seed != "" && strings.Contains(mustJSON(t, v), g.Seed) {
				t.Fatalf("seat %d sees the seed", seat)
			}
		}
		rt.Step()
	}
	if a := r.View(rt.g(), table.Auditor).Game.(GameView); len(a.Hands) != seats {
		t.Fatal("the auditor sees every hand")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkTrumpShown: a hidden trump (暗亮, shengji.md: "others see who declared
// and its strength, not the suit, until the kitty is buried") is shown, with
// the trump order that gives it away, to the final declarer only; before
// the kitty is taken not even to it (another seat may still override), and
// the trump order comes with the trump, never without.
func checkTrumpShown(t *testing.T, g *State, seat int, gv GameView) {
	t.Helper()
	if (gv.Trump == nil) != (gv.TrumpOrder == nil) {
		t.Fatalf("seat %d sees trump %v with trump order %v", seat, gv.Trump, gv.TrumpOrder)
	}
	// Who wins a trick depends on the trump: tricks come after the reveal.
	if gv.TrickWinner != nil && !g.trumpShown {
		t.Fatalf("seat %d sees trick winner %d before the trump is public", seat, *gv.TrickWinner)
	}
	if gv.Trump == nil || g.trumpShown || g.phase == phaseWaiting {
		return
	}
	if g.declarer < 0 || g.decls[g.declarer].seat != seat {
		t.Fatalf("seat %d sees the hidden trump %s in phase %s", seat, *gv.Trump, g.phase)
	}
	if g.phase == phaseDrawing || g.phase == phaseWindow {
		t.Fatalf("the declarer %d sees trump %s before the kitty is taken", seat, *gv.Trump)
	}
}
