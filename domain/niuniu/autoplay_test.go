package niuniu

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// playHand plays the running hand to its settlement: each awaited seat in
// turn, by its player, from its Legal at now (so a reveal is offered
// once the deadline has passed). It returns the settlement.
func playHand(t testing.TB, st *table.State, seeds table.SeedSource, now time.Time, players []gametest.Player) table.HandSettled {
	t.Helper()
	r := table.Adapted(st.Rules).(*Rules)
	hand := st.Hand
	for step := 0; ; step++ {
		if step > 50 {
			t.Fatalf("hand %d does not end: awaited %v", hand, r.Awaited(st.G.(*State)))
		}
		aw := r.Awaited(st.G.(*State))
		if len(aw) == 0 {
			t.Fatalf("hand %d: nobody awaited while arranging", hand)
		}
		seat := aw[0]
		legal := r.LegalAt(st.G.(*State), seat, now)
		a := players[seat](st, seat, legal)
		a.At = now
		evs, err := table.Act(st, seat, a, seeds)
		if err != nil {
			t.Fatalf("hand %d: seat %d %s: %v", hand, seat, gametest.DescribeAction(a), err)
		}
		gametest.ApplyAll(st, evs)
		for _, e := range evs {
			if hs, ok := e.(table.HandSettled); ok {
				return hs
			}
		}
	}
}

// TestTimeoutActions: at every position of random hands, each awaited
// seat's TimeoutAction (no_bull) is in its Legal and Decide accepts it; a
// seat that is not awaited but may act has arranged already (doc.go: an
// arrangement may be replaced, and the reveal called, but the hand ends
// without either). Every phase with a deadline, "arranging", is seen timing
// out (niuniu.md, Arranging: "不拼牌,按无牛处理").
func TestTimeoutActions(t *testing.T) {
	phases := map[string]int{}
	for _, id := range []uint64{11, 12, 13, 14, 15, 16} {
		seats := 2 + int(id%3)
		r := rulesWith(t, fmt.Sprintf(`{"seats":%d,"banker":%d,"arrange_seconds":30}`, seats, int(id)%seats))
		seeds := &datedSeq{SeedSeq: gametest.SeedSeq{ID: id}, now: new(time.Time)}
		*seeds.now = clockStart
		st := openTable(t, r, 1, seeds)
		rng := rand.New(rand.NewPCG(id, 7))
		for step := 0; st.Hand <= 40; step++ {
			g := gametest.Game[State](st)
			aw := r.Awaited(st.G.(*State))
			if !slices.IsSorted(aw) {
				t.Fatalf("awaited %v not in seat order", aw)
			}
			for seat := range seats {
				legal := r.Legal(st.G.(*State), seat)
				if !slices.Contains(aw, seat) {
					if len(legal) > 0 && !g.arr[seat].done {
						t.Fatalf("hand %d: seat %d may act, has not arranged and is not awaited (doc.go, Turn clock)", g.hand, seat)
					}
					continue
				}
				if g.arr[seat].done {
					t.Fatalf("hand %d: seat %d is awaited after arranging", g.hand, seat)
				}
				a := r.TimeoutAction(st.G.(*State), seat)
				if !slices.ContainsFunc(legal, func(l table.Action) bool { return reflect.DeepEqual(l, a) }) {
					t.Fatalf("hand %d: seat %d times out with %s, not in Legal", g.hand, seat, gametest.DescribeAction(a))
				}
				if _, err := table.Act(st, seat, a, seeds); err != nil {
					t.Fatalf("hand %d: seat %d times out with %s: %v", g.hand, seat, gametest.DescribeAction(a), err)
				}
				phases[st.Rules.View(st.G, seat).Phase]++
			}
			// Move on with a random legal action of a random awaited seat.
			seat := aw[rng.IntN(len(aw))]
			legal := r.Legal(st.G.(*State), seat)
			evs, err := table.Act(st, seat, legal[rng.IntN(len(legal))], seeds)
			if err != nil {
				t.Fatal(err)
			}
			gametest.ApplyAll(st, evs)
		}
	}
	if phases["arranging"] == 0 {
		t.Fatalf("no seat timed out while arranging: %v", phases)
	}
}

// TestTimeoutHandsSettle: hands where every seat only times out settle
// (every seat 没牛: the banker wins every bout by its edge or high card),
// and so do hands where some seats play at random and the others time out.
func TestTimeoutHandsSettle(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, mixed := range []bool{false, true} {
		r := rulesWith(t, `{"seats":4,"banker":1}`)
		seeds := &gametest.SeedSeq{ID: 21}
		st := openTable(t, r, 1, seeds)
		rng := rand.New(rand.NewPCG(21, 1))
		players := []gametest.Player{gametest.TimeoutPlayer, gametest.TimeoutPlayer, gametest.TimeoutPlayer, gametest.TimeoutPlayer}
		if mixed {
			players[0], players[3] = gametest.RandomPlayer(rng), gametest.RandomPlayer(rng)
		}
		for range 60 {
			hs := playHand(t, st, seeds, time.Time{}, players)
			if !mixed {
				_, res := gametest.SettledOf[Result](t, []table.Payload{hs})
				for _, b := range res.Readings {
					if b != NoBull {
						t.Fatalf("every seat timed out, yet a reading is %v (niuniu.md: 不拼牌,按无牛处理)", b)
					}
				}
			}
		}
	}
}

// TestEscapedSeatNotAwaited: after a player escapes, the turn clock waits
// only for the seats still in the hand (an escaped seat is never awaited);
// when they time out the hand settles with the escaper's forfeited bout
// (niuniu.md, Escape, revised Decision; doc.go, Turn clock).
func TestEscapedSeatNotAwaited(t *testing.T) {
	r := rulesWith(t, `{"seats":4,"banker":1}`)
	seeds := &gametest.SeedSeq{ID: 22}
	st := openTable(t, r, 1, seeds)
	evs, err := table.Act(st, 2, table.Action{Type: table.ActionEscape}, seeds)
	if err != nil {
		t.Fatal(err)
	}
	gametest.ApplyAll(st, evs)
	if aw := r.Awaited(st.G.(*State)); !slices.Equal(aw, []int{0, 1, 3}) {
		t.Fatalf("after seat 2 escapes the clock awaits %v, want [0 1 3] (the others play on)", aw)
	}
	players := []gametest.Player{gametest.TimeoutPlayer, gametest.TimeoutPlayer, nil, gametest.TimeoutPlayer}
	hs := playHand(t, st, seeds, time.Time{}, players)
	_, res := gametest.SettledOf[Result](t, []table.Payload{hs})
	if len(res.Bouts) != 3 || !slices.Equal(res.Escaped, []int{2}) {
		t.Fatalf("bouts %+v escaped %v, want all three players' bouts with seat 2's forfeited", res.Bouts, res.Escaped)
	}
	for _, b := range res.Bouts {
		if (b.Seat == 2) != (b.By == ByEscape) || (b.Seat == 2 && b.Winner != "banker") {
			t.Errorf("bout %+v: want seat 2's lost to the banker by escape, the others played out", b)
		}
	}
}
