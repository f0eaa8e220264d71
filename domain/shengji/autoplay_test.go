package shengji

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

func isTimeout(p gametest.Player) bool {
	return reflect.ValueOf(p).Pointer() == reflect.ValueOf(gametest.Player(gametest.TimeoutPlayer)).Pointer()
}

func containsAction(legal []table.Action, a table.Action) bool {
	return slices.ContainsFunc(legal, func(l table.Action) bool { return reflect.DeepEqual(l, a) })
}

// handDriver plays a table's hands: at each step the next seat in rotation
// that may act (and, for a seat that only times out, is awaited) acts by
// its player, so that in the draw every seat gets its chance to declare.
type handDriver struct {
	t       testing.TB
	st      *table.State
	seeds   table.SeedSource
	players []gametest.Player
	next    int
	// visit, when set, sees every position before the step.
	visit func(st *table.State)
}

// step makes one action and returns its events.
func (d *handDriver) step() []table.Payload {
	r := table.Adapted(d.st.Rules).(*Rules)
	aw := r.Awaited(d.st.G.(*State))
	for k := range seats {
		seat := (d.next + k) % seats
		if isTimeout(d.players[seat]) && !slices.Contains(aw, seat) {
			continue
		}
		legal := r.Legal(d.st.G.(*State), seat)
		if len(legal) == 0 {
			continue
		}
		d.next = seat + 1
		a := d.players[seat](d.st, seat, legal)
		evs, err := table.Act(d.st, seat, a, d.seeds)
		if err != nil {
			d.t.Fatalf("hand %d (%s): seat %d %s: %v", d.st.Hand, r.View(d.st.G.(*State), seat).Phase, seat, gametest.DescribeAction(a), err)
		}
		gametest.ApplyAll(d.st, evs)
		return evs
	}
	d.t.Fatalf("hand %d (%s): nobody may act; awaited %v", d.st.Hand, r.View(d.st.G.(*State), 0).Phase, aw)
	return nil
}

// hand plays until the running hand settles and returns the settlement.
func (d *handDriver) hand() table.HandSettled {
	for steps := 0; steps < 2000; steps++ {
		if d.visit != nil {
			d.visit(d.st)
		}
		for _, e := range d.step() {
			if hs, ok := e.(table.HandSettled); ok {
				return hs
			}
		}
	}
	d.t.Fatalf("hand %d does not settle in 2000 actions: the table stalls", d.st.Hand)
	return table.HandSettled{}
}

func variants() []string { return []string{"ningyang", "guafeng", "qiangbao"} }

// TestTimeoutActions: at every position of random hands (fixed seeds), each
// awaited seat's TimeoutAction is one of its Legal actions and Decide
// accepts it; the only seats that may act without being awaited are those
// of the draw, where any seat may draw or declare (doc.go, Turn clock).
// Every phase of each variant is seen timing out.
func TestTimeoutActions(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, variant := range variants() {
		t.Run(variant, func(t *testing.T) {
			r := variantRules(t, variant, "")
			phases := map[string]int{}
			check := func(st *table.State) {
				g := gametest.Game[State](st)
				aw := r.Awaited(st.G.(*State))
				if !slices.IsSorted(aw) {
					t.Fatalf("awaited %v not in seat order", aw)
				}
				for seat := range seats {
					if !slices.Contains(aw, seat) {
						if len(r.Legal(st.G.(*State), seat)) > 0 && g.phase != phaseDrawing {
							t.Fatalf("hand %d, %s: seat %d may act and is not awaited (doc.go, Turn clock)", g.hand, g.phase, seat)
						}
						continue
					}
					legal := r.Legal(st.G.(*State), seat)
					a := r.TimeoutAction(st.G.(*State), seat)
					if !containsAction(legal, a) {
						t.Fatalf("hand %d, %s: seat %d times out with %s, not one of its %d legal actions", g.hand, g.phase, seat, gametest.DescribeAction(a), len(legal))
					}
					if _, err := r.Decide(st.G.(*State), seat, a); err != nil {
						t.Fatalf("hand %d, %s: seat %d times out with %s: %v", g.hand, g.phase, seat, gametest.DescribeAction(a), err)
					}
					if why := timeoutPolicyBroken(g, seat, a, legal); why != "" {
						t.Fatalf("hand %d, %s: seat %d times out with %s: %s (doc.go, Turn clock)", g.hand, g.phase, seat, gametest.DescribeAction(a), why)
					}
					phases[g.phase.String()]++
					if g.swapStep() {
						phases["kitty_swap"]++
					}
				}
			}
			hands := 30
			if variant == "guafeng" {
				hands = 80 // 粘牌 exchanges are rarer
			}
			for i := range hands {
				id := uint64(7100 + i)
				seeds := &gametest.SeedSeq{ID: id}
				rng := rand.New(rand.NewPCG(id, 1))
				rp := gametest.RandomPlayer(rng)
				d := &handDriver{t: t, st: openTable(t, variantRules(t, variant, `{"match":false}`), 1, seeds), seeds: seeds,
					players: []gametest.Player{rp, rp, rp, rp}, visit: check}
				d.hand()
			}
			want := []string{"drawing", "declaring", "burying", "playing"}
			if variant == "guafeng" {
				want = append(want, "exchanging", "kitty_swap")
			}
			for _, p := range want {
				if phases[p] == 0 {
					t.Errorf("no seat timed out in phase %s: %v", p, phases)
				}
			}
			t.Logf("timeouts checked per phase: %v", phases)
		})
	}
}

// timeoutPolicyBroken says how a, seat's timeout action, breaks doc.go's
// policy, or "": draw; pass (a declaration only in guafeng's first hand
// with none standing); no card kept lower than one buried (jokers aside in
// guafeng); the lowest single led; no legal follow or give lower (by the
// sum of the cards' keys, checked against Legal when it is short).
func timeoutPolicyBroken(s *State, seat int, a table.Action, legal []table.Action) string {
	sum := func(cs []cards.Card) int {
		n := 0
		for _, c := range cs {
			n += s.timeoutKey(c)
		}
		return n
	}
	switch s.phase {
	case phaseDrawing:
		if a.Type != ActionDraw {
			return "want draw"
		}
	case phaseWindow:
		// A timeout never declares (rules README, Clocks, timeouts and
		// absent players); the versions before did in a first hand.
		first := s.v.timeoutDeclares && (s.v.menPai || s.v.qiangbao) && s.dealer < 0 && s.declarer < 0
		if a.Type == ActionDeclare && !first || a.Type != ActionPass && a.Type != ActionDeclare {
			return "want pass"
		}
		if first && a.Type == ActionPass && slices.ContainsFunc(legal, func(l table.Action) bool { return l.Type == ActionDeclare }) {
			return "guafeng's first hand, no declaration standing: want a declaration, not a deal voided"
		}
	case phaseBurying:
		kept := s.buryable(seat)
		kept.Remove(a.Cards)
		for _, b := range a.Cards {
			for _, k := range kept.Cards() {
				if !(s.v.partnerBuries && b.IsJoker()) && !k.IsJoker() && s.timeoutKey(k) < s.timeoutKey(b) {
					return fmt.Sprintf("keeps %s, lower than %s", k, b)
				}
			}
		}
	case phasePlaying, phaseExchanging:
		if s.swapStep() {
			// The kitty swap is optional: a seat timing out keeps the
			// kitty as it is.
			if a.Type != ActionPass {
				return "want pass: the kitty swap is the sticker's option"
			}
			return ""
		}
		if s.phase == phasePlaying && len(s.trick) == 0 {
			if len(a.Cards) != 1 {
				return "want a single lead"
			}
			for _, c := range s.held[seat].Cards() {
				if s.timeoutKey(c) < s.timeoutKey(a.Cards[0]) {
					return fmt.Sprintf("holds %s, lower", c)
				}
			}
			return ""
		}
		if len(legal) > 20000 {
			return ""
		}
		for _, l := range legal {
			if sum(l.Cards) < sum(a.Cards) {
				return fmt.Sprintf("%s is lower (lead %s, hand %s)", cards.Format(l.Cards), cards.Format(s.trick[0].cards), cards.Format(s.held[seat].Cards()))
			}
		}
	}
	return ""
}

// TestTimeoutHandsSettle: hands in which every seat only ever times out
// reach a settlement in every variant (60 each, in matches: later hands
// included), and so do hands in which two seats play random legal actions
// and the other two only time out. In guafeng's and qiangbao's first hand,
// where a timeout never declares and a window nobody declared in deals
// again (rules README, Clocks), seat 0 declares for itself (firstDeclarer).
func TestTimeoutHandsSettle(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, variant := range variants() {
		for _, mixed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/mixed=%v", variant, mixed), func(t *testing.T) {
				id := uint64(7300)
				if mixed {
					id++
				}
				seeds := &gametest.SeedSeq{ID: id}
				players := []gametest.Player{firstDeclarer, gametest.TimeoutPlayer, gametest.TimeoutPlayer, gametest.TimeoutPlayer}
				if mixed {
					rng := rand.New(rand.NewPCG(id, 2))
					players[1], players[2] = gametest.RandomPlayer(rng), gametest.RandomPlayer(rng)
				}
				r := variantRules(t, variant, "")
				d := &handDriver{t: t, st: openTable(t, r, 1, seeds), seeds: seeds, players: players}
				for settled := 0; settled < 60; settled++ {
					if d.st.Closed {
						d.st = openTable(t, r, 1, seeds)
					}
					hs := d.hand()
					sum := 0
					for _, x := range hs.Deltas {
						sum += x
					}
					if sum != 0 {
						t.Fatalf("hand %d: deltas %v (shengji.md, Scoring: zero-sum)", d.st.Hand, hs.Deltas)
					}
				}
			})
		}
	}
}

// firstDeclarer times out but in a first hand's final window with nothing
// declared, where it makes its first legal declaration, as a present player
// would: timeouts alone throw such a deal in (rules README, Clocks, timeouts
// and absent players).
func firstDeclarer(st *table.State, seat int, legal []table.Action) table.Action {
	g := st.G.(*State)
	if g.phase == phaseWindow && g.dealer < 0 && g.declarer < 0 {
		for _, a := range legal {
			if a.Type == ActionDeclare {
				return a
			}
		}
	}
	return gametest.TimeoutPlayer(st, seat, legal)
}
