package shuangkou

import (
	"slices"
	"testing"

	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestViewSides: the partnerships are fixed and public from the start
// (shuangkou.md: "Four players in two partnerships (0&2, 1&3)"), so every
// view lists them and a seated viewer sees its partner; spectators and the
// auditor have none.
func TestViewSides(t *testing.T) {
	r := rulesFor(t, "baibian")
	st := openTable(t, r, 1, &gametest.SeedSeq{ID: 11})
	for _, seat := range []int{0, 1, 2, 3, table.Spectator, table.Auditor} {
		g := r.View(gametest.Game[State](st), seat).Game.(GameView)
		if len(g.Sides) != 2 || !slices.Equal(g.Sides[0], []int{0, 2}) || !slices.Equal(g.Sides[1], []int{1, 3}) {
			t.Errorf("seat %d sees sides %v, want [[0 2] [1 3]]", seat, g.Sides)
		}
		switch {
		case seat < 0 && g.Partner != nil:
			t.Errorf("viewer %d sees partner %d, want none", seat, *g.Partner)
		case seat >= 0 && (g.Partner == nil || *g.Partner != (seat+2)%seats):
			t.Errorf("seat %d sees partner %v, want %d (the seat opposite)", seat, g.Partner, (seat+2)%seats)
		}
	}
}

// TestViewTrickMoves: every viewer sees each seat's move in the current
// trick (plays and passes are public): the lead clears the trick before
// it, a pass shows as a pass, a seat yet to move as nothing.
func TestViewTrickMoves(t *testing.T) {
	r := rulesFor(t, "classic")
	st := openTable(t, r, 1, &gametest.SeedSeq{ID: 11})
	g := r.View(gametest.Game[State](st), 0).Game.(GameView)
	if len(g.TrickMoves) != seats || slices.ContainsFunc(g.TrickMoves, func(m *climb.MoveView) bool { return m != nil }) {
		t.Fatalf("before the first play trick_moves = %v, want %d nulls", g.TrickMoves, seats)
	}
	// Lead, then pass at every seat until the trick ends and the next lead.
	leader := *r.View(gametest.Game[State](st), 0).Turn
	lead := gametest.TimeoutPlayer(st, leader, nil)
	gametest.MustAct(t, st, leader, lead)
	for i := 1; i < seats; i++ {
		seat := (leader + i) % seats
		gametest.MustAct(t, st, seat, passA())
		for _, viewer := range []int{0, 1, 2, 3, table.Spectator, table.Auditor} {
			g := r.View(gametest.Game[State](st), viewer).Game.(GameView)
			if m := g.TrickMoves[leader]; m == nil || !slices.Equal(m.Cards, lead.Cards) {
				t.Fatalf("viewer %d: the leader's move is %v, want its play %v", viewer, m, lead.Cards)
			}
			if m := g.TrickMoves[seat]; m == nil || !m.Pass {
				t.Fatalf("viewer %d: seat %d's move is %v, want a pass", viewer, seat, m)
			}
		}
	}
	// The trick is over; the leader leads again, which clears it.
	again := gametest.TimeoutPlayer(st, leader, nil)
	gametest.MustAct(t, st, leader, again)
	g = r.View(gametest.Game[State](st), 1).Game.(GameView)
	for seat, m := range g.TrickMoves {
		switch {
		case seat == leader && (m == nil || !slices.Equal(m.Cards, again.Cards)):
			t.Errorf("after the new lead seat %d's move is %v, want %v", seat, m, again.Cards)
		case seat != leader && m != nil:
			t.Errorf("after the new lead seat %d's move is %v, want none (the trick before is cleared)", seat, m)
		}
	}
}
