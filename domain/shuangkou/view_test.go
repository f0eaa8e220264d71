package shuangkou

import (
	"slices"
	"testing"

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
