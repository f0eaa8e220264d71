package dadun

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

var tableSeedFlag = flag.Uint64("dadun.table", 0, "run TestRandomHands for this one table seed only")

// randomTableSeeds are the tables TestRandomHands plays; a failure names its
// seed, and -dadun.table=<seed> replays that table.
var randomTableSeeds = []uint64{
	1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946,
}

const handsPerTable = 250 // × 20 tables = 5,000 settled hands

// TestRandomHands plays 5,000 hands of random legal actions (about one in
// eight going alone, one in 25 with an escape) through table.Join,
// table.Act and table.Apply, and checks after every action that none of the
// 108 cards is lost or invented, only the seat on turn may act, the action
// chosen from Legal is accepted and recorded as one of its readings, every
// play beats the play before it or leads, the friend is revealed exactly
// when its card is played and no event or other seat's view names it
// before, every point is accounted (200 in all), and every
// settlement follows dadun.md and sums to zero with the house's share.
func TestRandomHands(t *testing.T) {
	t.Parallel()
	seeds := randomTableSeeds
	if *tableSeedFlag != 0 {
		seeds = []uint64{*tableSeedFlag}
	}
	r := rulesFor(t)
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			rt := newRandomTable(t, r, seed)
			for rt.settled < handsPerTable {
				rt.step()
			}
		})
	}
}

// randomTable drives one table with random legal actions.
type randomTable struct {
	t       testing.TB
	r       *Rules
	seed    uint64
	rng     *rand.Rand
	seeds   *gametest.SeedSeq
	st      *table.State
	dealt   table.HandDealt // the running deal, as dealt
	settled int             // hands settled
	steps   int             // actions in the running deal
	joins   int
	// escapeAt is the step of the running hand at which escaper escapes; -1: none.
	escapeAt, escaper int
	deck              cards.Multiset // two whole decks
	outcomes          map[string]int
	record            func(evs []table.Payload)
}

func newRandomTable(t testing.TB, r *Rules, seed uint64) *randomTable {
	return newRecordedTable(t, r, seed, nil)
}

// newRecordedTable is newRandomTable passing every batch of events, from the
// opening on, to record (when not nil).
func newRecordedTable(t testing.TB, r *Rules, seed uint64, record func([]table.Payload)) *randomTable {
	rt := &randomTable{t: t, r: r, seed: seed, deck: cards.Of(cards.Deck(decks)), record: record,
		rng: rand.New(rand.NewPCG(seed, 0x6464)), seeds: &gametest.SeedSeq{ID: seed}, outcomes: map[string]int{}}
	stake := 1 + rt.rng.IntN(5)
	rt.st = table.New(r.untyped())
	evs, err := table.Open(r.untyped(), fmt.Sprint("t", seed), "dadun", "lean", stake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	rt.apply(evs)
	for range seats {
		rt.join()
	}
	return rt
}

func (rt *randomTable) fatalf(format string, args ...any) {
	rt.t.Helper()
	rt.t.Fatalf("table seed %d, hand %d, step %d: %s", rt.seed, rt.st.Hand, rt.steps, fmt.Sprintf(format, args...))
}

func (rt *randomTable) join() {
	rt.joins++
	evs, err := table.Join(rt.st, fmt.Sprintf("r%d", rt.joins), "", -1, rt.seeds)
	if err != nil {
		rt.fatalf("join: %v", err)
	}
	rt.apply(evs)
}

func (rt *randomTable) apply(evs []table.Payload) {
	if rt.record != nil {
		rt.record(evs)
	}
	for _, e := range evs {
		table.Apply(rt.st, e)
		switch e := e.(type) {
		case table.HandDealt:
			rt.dealt = e
			rt.steps = 0
			rt.escapeAt = -1
			if rt.rng.IntN(25) == 0 {
				rt.escapeAt, rt.escaper = rt.rng.IntN(60), rt.rng.IntN(seats)
			}
			rt.checkDeal(e)
		case CardTurned:
			rt.checkTurned(e)
		}
	}
}

// sampleLead lists the leads of one shape drawn at random, falling back to
// every lead when the hand has none. Whole lead lists run to thousands of
// plays (trio runs with every choice of kickers); TestLegalMatchesDecide
// checks whole lists.
func (rt *randomTable) sampleLead(hand *cards.Multiset) []table.Action {
	g := &gen{h: newHolding(hand)}
	switch k := rt.rng.IntN(9); k {
	case 0, 1:
		g.groups(1, -1)
	case 2:
		g.groups(2, -1)
	case 3:
		g.runs(2, 2+rt.rng.IntN(3), -1)
	case 4:
		g.runs(1, 5+rt.rng.IntN(3), -1)
	case 5:
		g.trios(-1, -1)
	case 6:
		g.trioRuns(2, -1, -1)
	default:
		g.specials()
	}
	if plays := g.plays(nil); len(plays) > 0 {
		return plays
	}
	return legalPlays(hand, nil)
}

// choose picks a random legal action: in the declaring round, alone one time
// in 32; in play a pass one time in three when it may pass (so that tricks
// run longer than one play), else any legal action.
func (rt *randomTable) choose(legal []table.Action) table.Action {
	if legal[0].Type == ActionAlone {
		if rt.rng.IntN(32) == 0 {
			return legal[0]
		}
		return legal[1+rt.rng.IntN(len(legal)-1)]
	}
	last := legal[len(legal)-1]
	if last.Type == ActionPass && (len(legal) == 1 || rt.rng.IntN(3) == 0) {
		return last
	}
	n := len(legal)
	if last.Type == ActionPass {
		n--
	}
	return legal[rt.rng.IntN(n)]
}

// step makes one action and checks it.
func (rt *randomTable) step() {
	r, g := rt.r, game(rt.st)
	seat, legal := -1, []table.Action(nil)
	sampled := g.phase == phasePlaying && g.last == nil && rt.rng.IntN(8) != 0
	for i := range seats {
		if sampled && i == g.turn {
			seat, legal = i, rt.sampleLead(&g.hands[i])
			continue
		}
		if l := r.Legal(rt.st.G.(*State), i); l != nil {
			if seat >= 0 {
				rt.fatalf("seats %d and %d may both act", seat, i)
			}
			seat, legal = i, l
		}
	}
	if seat < 0 || seat != g.turn {
		rt.fatalf("seat %d may act, but it is seat %d's turn", seat, g.turn)
	}
	if g.phase == phasePlaying && g.out(seat) {
		rt.fatalf("seat %d is on turn with no cards (dadun.md, Play: the next seat with cards)", seat)
	}
	a := rt.choose(legal)
	if rt.steps == rt.escapeAt {
		seat, a = rt.escaper, table.Action{Type: table.ActionEscape}
	}
	pre := g.Clone().(*State)
	evs, err := table.Act(rt.st, seat, a, rt.seeds)
	if err != nil { // Decide must accept what Legal offers
		rt.fatalf("seat %d %s: %v", seat, gametest.DescribeAction(a), err)
	}
	rt.steps++
	if rt.steps > 3000 {
		rt.fatalf("the deal does not end")
	}
	rt.checkEvents(pre, seat, a, evs)
	escaped := a.Type == table.ActionEscape
	rt.apply(evs)
	rt.checkCards()
	rt.checkHidden(evs)
	if escaped {
		rt.join()
	}
}

func (rt *randomTable) checkEvents(pre *State, seat int, a table.Action, evs []table.Payload) {
	switch e := evs[0].(type) {
	case AloneDeclared, AloneDeclined, FriendCalled:
		if pre.phase != phaseDeclaring {
			rt.fatalf("%T in phase %s", e, pre.phase)
		}
		if fc, ok := e.(FriendCalled); ok && (seat != pre.banker || !pre.bothCopies || pre.hands[seat].Count(fc.Card) != 1) {
			rt.fatalf("%+v: only the banker holding both turned copies calls a card it holds once (dadun.md, Deal)", fc)
		}
		if _, ok := e.(AloneDeclined); ok && pre.mustCall(seat) {
			rt.fatalf("the banker holding both copies declined without a call")
		}
	case PlayPassed:
		if a.Type != ActionPass || pre.last == nil || e.Seat != seat {
			rt.fatalf("seat %d %s emits %+v: a leader may not pass", seat, gametest.DescribeAction(a), e)
		}
	case CardsPlayed:
		if a.Type != ActionPlay || e.Seat != seat || cards.Of(e.Cards) != cards.Of(a.Cards) {
			rt.fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
		last := pre.hands[seat].Len() == len(e.Cards)
		rs := Classify(e.Cards, last)
		if !slices.Contains(rs, e.Reading) || (a.As != "" && !e.Reading.matches(a.As)) {
			rt.fatalf("%s recorded as %v, which is not one of its readings %v (as %q) (dadun.md, Combinations)", cards.Format(e.Cards), e.Reading, rs, a.As)
		}
		if pre.last != nil && !e.Reading.Beats(pre.last.reading) {
			rt.fatalf("%v played on %v, which it does not beat (dadun.md, Combinations)", e.Reading, pre.last.reading)
		}
		if e.Awards != Awards(e.Cards, e.Reading) {
			rt.fatalf("%s earns %d awards, recorded %d (dadun.md, 盾 awards)", cards.Format(e.Cards), Awards(e.Cards, e.Reading), e.Awards)
		}
		reveals := seat == pre.friend && pre.soloist < 0 && !pre.revealed && slices.Contains(e.Cards, pre.friendCard)
		got := len(evs) > 1 && evs[1].EventType() == "FriendRevealed"
		if reveals != got {
			rt.fatalf("seat %d plays %s (friend %d, friend card %s): FriendRevealed %v, want %v (dadun.md: the sides are public once the friend card is played)",
				seat, cards.Format(e.Cards), pre.friend, pre.friendCard, got, reveals)
		}
	case table.PlayerEscaped:
		if a.Type != table.ActionEscape || e.Seat != seat || e.PlayerID != pre.Players[seat] {
			rt.fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
	default:
		rt.fatalf("seat %d %s emits %T first", seat, gametest.DescribeAction(a), e)
	}
	for _, e := range evs[1:] {
		switch e := e.(type) {
		case PlayerOut:
			if pre.hands[seat].Len() != len(a.Cards) || e.Seat != seat || e.Place != len(pre.finish)+1 {
				rt.fatalf("%+v after seat %d played %d of %d cards", e, seat, len(a.Cards), pre.hands[seat].Len())
			}
		case TrickEnded:
			w := pre.last.seat
			want := w
			if pre.out(w) {
				want = pre.nextWithCards(w)
			}
			if e.Winner != w || e.Leader != want || e.Jiefeng != pre.out(w) || e.Points != pre.trick {
				rt.fatalf("%+v, want winner %d, leader %d, points %d (dadun.md, Play: 接风 to the next seat with cards)", e, w, want, pre.trick)
			}
			if pre.passes+1 != pre.othersWithCards(w) {
				rt.fatalf("trick ended after %d passes with %d others holding cards", pre.passes+1, pre.othersWithCards(w))
			}
		case table.HandSettled:
			rt.checkSettlement(pre, seat, a, e)
			rt.settled++
		}
	}
}

// checkHidden: while the sides are not public, no game event names the
// friend, and no seat's view but the friend's own tells who it is (dadun.md,
// Deal, banker, friend: nobody but the friend knows until its card is
// played).
func (rt *randomTable) checkHidden(evs []table.Payload) {
	g := game(rt.st)
	if g.phase == phaseWaiting || g.sidesPublic() {
		return
	}
	for _, e := range evs {
		if b, err := json.Marshal(e); err != nil || containsKey(b, "friend") {
			rt.fatalf("%s %s names the friend before its card is played", e.EventType(), b)
		}
	}
	for seat := table.Spectator; seat < seats; seat++ {
		v := rt.r.View(g, seat).Game.(GameView)
		if v.Friend != nil || v.Sides != nil || (v.Role == RoleFriend) != (seat >= 0 && seat == g.friend) {
			rt.fatalf("seat %d sees friend %v, sides %v, role %q before the friend card is played (friend %d)", seat, v.Friend, v.Sides, v.Role, g.friend)
		}
	}
}

func (rt *randomTable) checkDeal(d table.HandDealt) {
	rt.t.Helper()
	var all cards.Multiset
	for _, h := range d.Hands {
		if len(h) != handSize {
			rt.fatalf("a hand of %d cards, want 27 (dadun.md: two decks, 27 cards each)", len(h))
		}
		all.Add(h...)
	}
	if all != rt.deck || len(d.Kitty) != 0 {
		rt.fatalf("the deal is not two decks of 108 cards without a kitty (dadun.md)")
	}
}

// checkTurned: the banker holds the turned card and leads the declaring
// round (dadun.md, Deal, banker, friend).
func (rt *randomTable) checkTurned(e CardTurned) {
	g := game(rt.st)
	if g.hands[e.Banker].Count(e.Card) == 0 || e.Banker != rt.dealt.FirstSeat || g.turn != e.Banker || g.phase != phaseDeclaring {
		rt.fatalf("%+v: the banker must hold the turned card and act first", e)
	}
	if g.bothCopies != (g.hands[e.Banker].Count(e.Card) == 2) || (!g.bothCopies && g.hands[g.friend].Count(e.Card) != 1) {
		rt.fatalf("%+v: friend %d is not the holder of the other copy", e, g.friend)
	}
}

// checkSeed checks that a revealed seed matches the deal's commitment and
// deals exactly the dealt cards, and that it turns the recorded card (doc.go,
// Dealing).
func (rt *randomTable) checkSeed(hex string, pre *State) {
	rt.t.Helper()
	seed, err := cards.ParseSeed(hex)
	if err != nil || seed.Commitment() != rt.dealt.Commitment {
		rt.fatalf("revealed seed %q does not match the commitment %s", hex, rt.dealt.Commitment)
	}
	deck, stream := cards.Shuffled(seed, decks)
	var got [seats]cards.Multiset
	for i, c := range deck {
		got[i%seats].Add(c)
	}
	for i := range seats {
		if got[i] != cards.Of(rt.dealt.Hands[i]) {
			rt.fatalf("the seed deals seat %d other cards than the deal holds (doc.go, Dealing)", i)
		}
	}
	at := int(stream.Below(deckCards))
	if deck[at] != pre.turned || at%seats != pre.banker {
		rt.fatalf("the seed turns %s to seat %d, the deal recorded %s to %d (doc.go, Dealing)", deck[at], at%seats, pre.turned, pre.banker)
	}
}

// checkCards: the 108 cards are always in the hands or played.
func (rt *randomTable) checkCards() {
	g := game(rt.st)
	if g.phase == phaseWaiting {
		return
	}
	all := g.played
	for _, h := range g.hands {
		for i, k := range h {
			all[i] += k
		}
	}
	if all != rt.deck {
		rt.fatalf("cards lost or invented: hands and plays hold %d cards", all.Len())
	}
}

// checkSettlement recomputes the settlement from the state before the
// action (dadun.md, Points and result; 盾 awards; Escape).
func (rt *randomTable) checkSettlement(pre *State, seat int, a table.Action, hs table.HandSettled) {
	rt.t.Helper()
	var res Result
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		rt.fatalf("result %s: %v", hs.Result, err)
	}
	stake := rt.st.Stake
	// 盾 awards: every award recorded, each other player paying the earner.
	awards := slices.Clone(pre.awards)
	award := make([]int, seats)
	var all []Award
	all = append(all, awards...)
	if len(res.Awards) != len(all) && len(res.Awards) != len(all)+1 {
		rt.fatalf("%d awards settled, %d earned before the last play", len(res.Awards), len(all))
	}
	for _, aw := range res.Awards {
		for i := range seats {
			if i == aw.Seat {
				award[i] += 3 * aw.Awards * stake
			} else {
				award[i] -= aw.Awards * stake
			}
		}
	}
	want := make([]int, seats)
	house := 0
	if a.Type == table.ActionEscape {
		// dadun.md, Escape Decision: 16 × base shared by the three others.
		each := 16 * stake / 3
		for i := range want {
			want[i] = each
		}
		want[seat] = -16 * stake
		house = 16*stake - 3*each
		rt.outcomes["escape"]++
	} else {
		finish := append(slices.Clone(pre.finish), seat)
		if !slices.Equal(res.Finish, finish) {
			rt.fatalf("finish %v, want %v", res.Finish, finish)
		}
		// Points: 200 in all, in tricks taken, the last trick, or the
		// 末游's hand.
		total := 0
		for _, c := range res.Captured {
			total += c
		}
		for i := range seats {
			if i != seat {
				total += points(pre.hands[i].Cards())
			}
		}
		if total != allPoints {
			rt.fatalf("captured %v and cards left account for %d points, want 200 (rules/README.md)", res.Captured, total)
		}
		sides := pre.sides()
		// dadun.md, Play: the hand ends as soon as both seats of a side are
		// out, or in 打独 the soloist or all three others; never later.
		n := len(finish)
		if pre.soloist >= 0 {
			if slices.Contains(finish[:n-1], pre.soloist) || (finish[n-1] != pre.soloist && n != 3) {
				rt.fatalf("打独 by %d ended with finish %v: only the soloist out or all three others end it", pre.soloist, finish)
			}
		} else {
			var out [2]int
			for i, f := range finish {
				out[pre.side(f)]++
				if (out[0] == 2 || out[1] == 2) != (i == n-1) {
					rt.fatalf("2 vs 2 with sides %v ended with finish %v: the hand ends when both seats of a side are out", sides, finish)
				}
			}
		}
		var wantWin int
		mult := 0
		switch {
		case pre.soloist >= 0:
			mult = 4
			wantWin = 1
			if finish[0] == pre.soloist {
				wantWin = 0
			}
		case n == 2:
			mult, wantWin = 3, pre.side(finish[0])
		default:
			pts := res.Points
			if len(pts) != 2 || pts[0]+pts[1] != allPoints {
				rt.fatalf("side points %v do not sum to 200", pts)
			}
			switch {
			case pts[0] == pts[1]:
				mult, wantWin = 2, pre.side(finish[0])
			case pts[0] == 200 || pts[1] == 200:
				mult, wantWin = 3, slices.Index(pts, 200)
			default:
				mult = 2
				if pts[1] > pts[0] {
					wantWin = 1
				}
			}
		}
		for i := range want {
			m := mult
			if pre.soloist >= 0 {
				if i == pre.soloist {
					m *= 3
				}
			}
			want[i] = -m * stake
			if pre.side(i) == wantWin {
				want[i] = m * stake
			}
		}
		if res.Multiplier != mult || !slices.Equal(res.Winners, sides[wantWin]) {
			rt.fatalf("result %s, want multiplier %d, winners %v", hs.Result, mult, sides[wantWin])
		}
		rt.outcomes[res.Outcome]++
	}
	if !slices.Equal(res.ResultDeltas, want) || !slices.Equal(res.AwardDeltas, award) {
		rt.fatalf("result deltas %v and awards %v, want %v and %v (dadun.md, Points and result; 盾 awards)", res.ResultDeltas, res.AwardDeltas, want, award)
	}
	sum := hs.House
	for i, d := range hs.Deltas {
		sum += d
		if d != want[i]+award[i] {
			rt.fatalf("seat %d settles %d, want %d + %d awards", i, d, want[i], award[i])
		}
	}
	if sum != 0 || hs.House != house {
		rt.fatalf("settlement %v with house %d sums to %d (want house %d)", hs.Deltas, hs.House, sum, house)
	}
	if hs.Hand != pre.hand {
		rt.fatalf("settles hand %d, want %d", hs.Hand, pre.hand)
	}
	rt.checkSeed(hs.Seed, pre)
}
