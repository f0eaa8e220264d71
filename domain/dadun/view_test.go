package dadun

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestViewBeforeTheTurn: after HandDealt and after DealSecret, before
// CardTurned (one batch, but GET /state?at=N stops between them), every seat,
// a spectator and the auditor get a view that encodes, with no turned card,
// banker, friend card or role yet (dadun.md, Deal, banker, friend: the banker is the holder
// of the turned card, so nobody is banker before it is turned).
func TestViewBeforeTheTurn(t *testing.T) {
	r := rulesFor(t)
	st := table.New(r.untyped())
	evs, err := table.Open(r.untyped(), "t", "dadun", "lean", table.MaxStake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	gametest.ApplyAll(st, evs)
	seeds := &gametest.SeedSeq{}
	for i := range seats - 1 {
		evs, err := table.Join(st, fmt.Sprintf("p%d", i), "", -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		gametest.ApplyAll(st, evs)
	}
	evs, err = table.Join(st, "p3", "", -1, seeds)
	if err != nil {
		t.Fatal(err)
	}
	turned := false
	for _, e := range evs {
		table.Apply(st, e)
		if _, ok := e.(CardTurned); ok {
			turned = true
		}
		for _, seat := range []int{0, 1, 2, 3, table.Spectator, table.Auditor} {
			v := r.View(st.G.(*State), seat)
			if _, err := json.Marshal(v); err != nil {
				t.Fatalf("view of seat %d after %s: %v, want an encodable view", seat, e.EventType(), err)
			}
			g := v.Game.(GameView)
			if !turned && (g.Turned != nil || g.Banker != nil || g.FriendCard != nil || g.Role != "") {
				t.Fatalf("view of seat %d after %s, before CardTurned: turned %v banker %v friend card %v role %q, want none yet",
					seat, e.EventType(), g.Turned, g.Banker, g.FriendCard, g.Role)
			}
			if turned && (g.Turned == nil || g.Banker == nil) {
				t.Fatalf("view of seat %d after %s: no turned card or banker", seat, e.EventType())
			}
		}
	}
	if !turned {
		t.Fatalf("the deal's batch %v has no CardTurned", gametest.EventTypes(evs))
	}
}

// TestViewPartners: each seat's partners as the rules let it know them, and
// the points per side once the sides are public (dadun.md, Deal, banker,
// friend: "nobody but the friend knows who it is until that copy is played
// (then the sides are public)"; Points: "Every trick's point cards (5, 10,
// K) go to the side of the player who won it").
func TestViewPartners(t *testing.T) {
	r := rulesFor(t)
	st := friendPosition.build(t, r)
	for i := range seats {
		gametest.MustAct(t, st, i, passA())
	}
	check := func(when string, partners [][]int, sidePoints []int) {
		t.Helper()
		for _, seat := range []int{0, 1, 2, 3, table.Spectator, table.Auditor} {
			g := viewOf(t, r, st, seat)
			var want []int
			if seat >= 0 {
				want = partners[seat]
			}
			if (g.Partners == nil) != (want == nil) || !slices.Equal(g.Partners, want) {
				t.Errorf("%s: seat %d sees partners %v, want %v", when, seat, g.Partners, want)
			}
			if seat == table.Auditor {
				continue // the auditor sees the sides, and their points, always
			}
			if !slices.Equal(g.SidePoints, sidePoints) || (g.SidePoints == nil) != (sidePoints == nil) {
				t.Errorf("%s: seat %d sees side points %v with sides %v, want %v", when, seat, g.SidePoints, g.Sides, sidePoints)
			}
		}
	}
	// The friend (seat 2, holding the other H10) knows the banker is its
	// partner; the banker and the opponents do not know the friend.
	check("before any play", [][]int{nil, nil, {0}, nil}, nil)
	gametest.MustAct(t, st, 0, playA("H10"))
	gametest.MustAct(t, st, 1, passA())
	gametest.MustAct(t, st, 2, playA("SJ"))
	for _, s := range []int{3, 0, 1} {
		gametest.MustAct(t, st, s, passA())
	}
	if g := viewOf(t, r, st, 1); g.Captured[2] != 10 {
		t.Fatalf("seat 2 won H10 SJ: captured %v, want 10 for seat 2", g.Captured)
	}
	check("after a trick, friend hidden", [][]int{nil, nil, {0}, nil}, nil)
	gametest.MustAct(t, st, 2, playA("H10"))
	check("friend card played", [][]int{{2}, {3}, {0}, {1}}, []int{10, 0})

	// 打独: the soloist has no partner, its three opponents are one side.
	p := friendPosition
	p.banker, p.hands[0], p.hands[1] = 1, p.hands[1], p.hands[0]
	st = p.build(t, r)
	gametest.MustAct(t, st, 1, passA())
	gametest.MustAct(t, st, 2, passA())
	gametest.MustAct(t, st, 3, aloneA())
	check("打独", [][]int{{1, 2}, {0, 2}, {0, 1}, {}}, []int{0, 0})
}
