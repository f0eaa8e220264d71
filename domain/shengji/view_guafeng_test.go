package shengji

import (
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// TestGuafengRedact: every event of random 刮风 hands with sticks, as each
// seat and a spectator see it before the deal ends (shengji.md, guafeng:
// declarations and reinforcements hidden until the bury; the kitty only to
// the burier; each card a sticker gives back only to the two seats of the
// exchange, the declaration cards it takes public; the kitty the 粘牌 kitty
// swap opens on and each swap only to the sticker), and in full afterwards
// and for the auditor.
func TestGuafengRedact(t *testing.T) {
	r := guafeng(t)
	var exchanges, swapsOpened int
	for id := uint64(0); exchanges < 2 && id < 100; id++ {
		rt := newRandomTable(t, r, 900+id, false)
		for rt.Settled < 2 {
			rt.Step()
		}
		for _, ev := range rt.stream {
			p, err := table.Decode(r.untyped(), ev.Type, ev.Data)
			if err != nil {
				t.Fatal(err)
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
				case TrumpDeclared:
					d := got.(TrumpDeclared)
					if e.Seat != seat && (d.Suit != "" || d.Cards != nil) || d.Jokers != e.Jokers || d.Pairs != e.Pairs || d.Kind != e.Kind {
						t.Fatalf("seat %d sees %+v of %+v (shengji.md, guafeng: hidden until the kitty is buried)", seat, d, e)
					}
				case TrumpReinforced:
					if d := got.(TrumpReinforced); e.Seat != seat && d.Cards != nil || d.Pairs != e.Pairs || d.Jokers != e.Jokers {
						t.Fatalf("seat %d sees the reinforcement %+v (shengji.md, 續牌)", seat, d)
					}
				case KittyTaken:
					burier := e.Seat
					if e.Burier != nil {
						burier = *e.Burier
					}
					if (burier == seat) != (got.(KittyTaken).Cards != nil) {
						t.Fatalf("seat %d (burier %d) sees the kitty as %v (shengji.md, Kitty, guafeng)", seat, burier, got.(KittyTaken).Cards)
					}
				case KittyBuried:
					if (e.Seat == seat) != (got.(KittyBuried).Cards != nil) {
						t.Fatalf("seat %d sees the buried cards as %v", seat, got.(KittyBuried).Cards)
					}
				case CardGiven:
					if seat == 0 {
						exchanges++
					}
					d := got.(CardGiven)
					if (seat == e.Seat || seat == e.To) != (d.Cards != nil) || d.Left != e.Left || d.To != e.To {
						t.Fatalf("seat %d sees the card given %+v of %+v (doc.go: the card only to the two seats)", seat, d, e)
					}
				case KittySwapOpened:
					if seat == 0 {
						swapsOpened++
					}
					if d := got.(KittySwapOpened); (seat == e.Seat) != (d.Kitty != nil) || d.Seat != e.Seat {
						t.Fatalf("seat %d sees the kitty swap opened as %+v of %+v (shengji.md, 粘牌 kitty swap: the kitty to the sticker only)", seat, d, e)
					}
				case KittySwapped:
					if d := got.(KittySwapped); (seat == e.Seat) != (d.Cards != nil) || d.Seat != e.Seat {
						t.Fatalf("seat %d sees the swap %+v of %+v (the cards to the sticker only)", seat, d, e)
					}
				case LevelDropped, KittyFlipped, CardsPlayed, TrickWon, TrumpRevealed, DeclarationTaken, KittySwapClosed:
					if mustJSON(t, got) != string(ev.Data) {
						t.Fatalf("seat %d sees public %s redacted", seat, ev.Type)
					}
				}
			}
		}
	}
	if exchanges < 2 || swapsOpened == 0 {
		t.Fatalf("%d exchanges and %d kitty swaps redacted: the seeds must reach 粘牌", exchanges, swapsOpened)
	}
}

// TestGuafengViewHidesSecrets: at every step of random 刮风 hands, no seat
// or spectator sees a card it may not: the hidden trump, the kitty but as
// its burier or as the sticker in and after its kitty swap, another seat's
// hand, the seed. The second table reaches a kitty swap with a swap made.
func TestGuafengViewHidesSecrets(t *testing.T) {
	r := guafeng(t)
	swapped := false
	for _, id := range []uint64{905, swapAuditSeed} {
		rt := newRandomTable(t, r, id, false)
		for rt.Settled < 3 {
			viewHidesSecrets(t, r, rt)
			g := rt.g()
			swapped = swapped || (g.swapStep() && canon(g.buried) != canon(rt.buriedBy))
			rt.Step()
		}
	}
	if !swapped {
		t.Fatal("no kitty swap made: the seeds must reach one")
	}
}

// viewHidesSecrets checks the views of every seat and a spectator at one
// step of rt.
func viewHidesSecrets(t *testing.T, r *Rules, rt *randomTable) {
	t.Helper()
	g := rt.g()
	for _, seat := range []int{0, 1, 2, 3, table.Spectator} {
		v := r.View(g, seat)
		gv := v.Game.(GameView)
		if gv.Hands != nil {
			t.Fatalf("seat %d sees every hand", seat)
		}
		// The kitty: the burier's, and the sticker's once its kitty
		// swap opens (shengji.md, 粘牌 kitty swap); the burier sees it
		// as it buried it, not the sticker's swaps.
		if gv.Kitty != nil && seat != g.burier && (g.swapper < 0 || seat != g.swapper) && g.phase != phaseWaiting {
			t.Fatalf("seat %d sees the kitty; seat %d buries, seat %d swaps", seat, g.burier, g.swapper)
		}
		if seat == g.burier && g.buried != nil && g.phase != phaseWaiting && canon(gv.Kitty) != canon(rt.buriedBy) {
			t.Fatalf("the burier %d sees the kitty as %s, it buried %s", seat, cards.Format(gv.Kitty), cards.Format(rt.buriedBy))
		}
		checkTrumpShown(t, g, seat, gv)
		for _, d := range gv.Declarations {
			if d.Seat != seat && d.Suit != "" && !g.trumpShown && g.phase != phaseWaiting {
				t.Fatalf("seat %d sees seat %d's declaration %+v", seat, d.Seat, d)
			}
		}
		if seat >= 0 && canon(v.Hand) != canon(g.held[seat].Cards()) {
			t.Fatalf("seat %d sees hand %s, holds %s", seat, cards.Format(v.Hand), cards.Format(g.held[seat].Cards()))
		}
		if g.Seed != "" && strings.Contains(mustJSON(t, v), g.Seed) {
			t.Fatalf("seat %d sees the seed", seat)
		}
	}
}
