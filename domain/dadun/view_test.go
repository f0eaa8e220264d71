package dadun

import (
	"encoding/json"
	"fmt"
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
