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
	gametest.PlayRandom(t, randomConfig(rulesFor(t), *tableSeedFlag))
}

// optionTableSeeds are the tables TestRandomHandsOptions plays, each table
// under options drawn from its seed.
var optionTableSeeds = []uint64{7, 11, 17, 19, 23, 29, 31, 37}

// TestRandomHandsOptions is TestRandomHands under random combinations of
// the table options (dadun.md, Table options), drawn anew for every table
// from its fixed seed: 8 tables of 60 hands, with the same checks, each
// read under the table's options (the order of combinations, the awards,
// the 接风 to the partner once the sides are public).
func TestRandomHandsOptions(t *testing.T) {
	t.Parallel()
	c := randomConfig(nil, *tableSeedFlag)
	c.Seeds, c.Hands = optionTableSeeds, 60
	gametest.PlayRandom(t, c)
}

// randomOptions draws a combination of the table options: each key left
// out or set to one of its values.
func randomOptions(rng *rand.Rand) json.RawMessage {
	m := map[string]any{}
	for _, o := range []struct {
		key    string
		values [2]any
	}{
		{optBombOrder, [2]any{bombOrderSeed, bombOrderHigh}},
		{optPureSuits, [2]any{pureSuitsTie, pureSuitsSuit}},
		{optJokerBombs, [2]any{jokerBombsSeed, jokerBombsTwo}},
		{optDunAwards, [2]any{true, false}},
		{optLeadAfterOut, [2]any{leadNext, leadPartner}},
	} {
		if k := rng.IntN(3); k < 2 {
			m[o.key] = o.values[k]
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// randomConfig is the random-hand test: the table seeds (only when not 0),
// the hands, the escapes. Every table plays r, or when r is nil options
// drawn at random for it.
func randomConfig(r *Rules, only uint64) gametest.RandomConfig {
	return gametest.RandomConfig{
		Seeds: randomTableSeeds, Only: only, Hands: handsPerTable,
		Stream: 0x6464, MaxSteps: 3000, Catalog: New(),
		Escapes: gametest.Escapes{OneIn: 25, Within: 60},
		New: func(d *gametest.Driver) gametest.RandomGame {
			return &randomTable{Driver: d, r: r, deck: cards.Of(cards.Deck(decks)), outcomes: map[string]int{}}
		},
	}
}

// randomTable is dadun's side of a random table: it picks the actions and
// checks every one.
type randomTable struct {
	*gametest.Driver
	r        *Rules
	deck     cards.Multiset // two whole decks
	outcomes map[string]int
	drawn    bool // r's options were drawn at random: draw again for a new table
}

func newRandomTable(t testing.TB, r *Rules, seed uint64) *randomTable {
	return newRecordedTable(t, r, seed, nil)
}

// newRecordedTable is newRandomTable passing every batch of events, from the
// opening on, to record (when not nil).
func newRecordedTable(t testing.TB, r *Rules, seed uint64, record func([]table.Payload)) *randomTable {
	return gametest.NewDriver(t, randomConfig(r, 0), seed, record).Game.(*randomTable)
}

func (rt *randomTable) Open() (table.Rules, []table.Payload) {
	if rt.r == nil || rt.drawn {
		opts := randomOptions(rt.Rng)
		rt.r, rt.drawn = rulesWith(rt.T, string(opts)), true
	}
	stake := 1 + rt.Rng.IntN(5)
	evs, err := table.Open(rt.r.untyped(), fmt.Sprint("t", rt.Seed), "dadun", "lean", stake, "p0")
	if err != nil {
		rt.T.Fatal(err)
	}
	return rt.r.untyped(), evs
}

func (rt *randomTable) Applied(e table.Payload) {
	switch e := e.(type) {
	case table.HandDealt:
		rt.checkDeal(e)
	case CardTurned:
		rt.checkTurned(e)
	}
}

// sampleLead lists the leads of one shape drawn at random, falling back to
// every lead when the hand has none. Whole lead lists run to thousands of
// plays (trio runs with every choice of kickers); TestLegalMatchesDecide
// checks whole lists.
func (rt *randomTable) sampleLead(hand *cards.Multiset) []table.Action {
	v := gametest.Game[State](rt.St).v
	g := &gen{v: v, h: newHolding(hand)}
	switch k := rt.Rng.IntN(9); k {
	case 0, 1:
		g.groups(1, -1)
	case 2:
		g.groups(2, -1)
	case 3:
		g.runs(2, 2+rt.Rng.IntN(3), -1)
	case 4:
		g.runs(1, 5+rt.Rng.IntN(3), -1)
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
	return legalPlays(v, hand, nil)
}

// choose picks a random legal action: in the declaring round, alone one time
// in 32; in play a pass one time in three when it may pass (so that tricks
// run longer than one play), else any legal action.
func (rt *randomTable) choose(legal []table.Action) table.Action {
	if legal[0].Type == ActionAlone {
		if rt.Rng.IntN(32) == 0 {
			return legal[0]
		}
		return legal[1+rt.Rng.IntN(len(legal)-1)]
	}
	last := legal[len(legal)-1]
	if last.Type == ActionPass && (len(legal) == 1 || rt.Rng.IntN(3) == 0) {
		return last
	}
	n := len(legal)
	if last.Type == ActionPass {
		n--
	}
	return legal[rt.Rng.IntN(n)]
}

// Choose finds the one seat that may act and picks one of its actions.
func (rt *randomTable) Choose() (int, table.Action) {
	r, g := rt.r, gametest.Game[State](rt.St)
	seat, legal := -1, []table.Action(nil)
	sampled := g.phase == phasePlaying && g.last == nil && rt.Rng.IntN(8) != 0
	for i := range seats {
		if sampled && i == g.turn {
			seat, legal = i, rt.sampleLead(&g.hands[i])
			continue
		}
		if l := r.Legal(rt.St.G.(*State), i); l != nil {
			if seat >= 0 {
				rt.Fatalf("seats %d and %d may both act", seat, i)
			}
			seat, legal = i, l
		}
	}
	if seat < 0 || seat != g.turn {
		rt.Fatalf("seat %d may act, but it is seat %d's turn", seat, g.turn)
	}
	if g.phase == phasePlaying && g.out(seat) {
		rt.Fatalf("seat %d is on turn with no cards (dadun.md, Play: the next seat with cards)", seat)
	}
	return seat, rt.choose(legal)
}

// After checks the cards and what the seats see once an action is applied.
func (rt *randomTable) After(_ table.GameState, _ int, _ table.Action, evs []table.Payload) {
	rt.checkCards()
	rt.checkHidden(evs)
}

// Events checks the events of an action against the state before it.
func (rt *randomTable) Events(gpre table.GameState, seat int, a table.Action, evs []table.Payload) {
	pre := gpre.(*State)
	switch e := evs[0].(type) {
	case AloneDeclared, AloneDeclined, FriendCalled:
		if pre.phase != phaseDeclaring {
			rt.Fatalf("%T in phase %s", e, pre.phase)
		}
		if fc, ok := e.(FriendCalled); ok && (seat != pre.banker || !pre.bothCopies || pre.hands[seat].Count(fc.Card) != 1) {
			rt.Fatalf("%+v: only the banker holding both turned copies calls a card it holds once (dadun.md, Deal)", fc)
		}
		if _, ok := e.(AloneDeclined); ok && pre.mustCall(seat) {
			rt.Fatalf("the banker holding both copies declined without a call")
		}
	case PlayPassed:
		if a.Type != ActionPass || pre.last == nil || e.Seat != seat {
			rt.Fatalf("seat %d %s emits %+v: a leader may not pass", seat, gametest.DescribeAction(a), e)
		}
	case CardsPlayed:
		if a.Type != ActionPlay || e.Seat != seat || cards.Of(e.Cards) != cards.Of(a.Cards) {
			rt.Fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
		last := pre.hands[seat].Len() == len(e.Cards)
		rs := pre.v.classify(e.Cards, last)
		if !slices.Contains(rs, e.Reading) || (a.As != "" && !e.Reading.matches(a.As)) {
			rt.Fatalf("%s recorded as %v, which is not one of its readings %v (as %q) (dadun.md, Combinations)", cards.Format(e.Cards), e.Reading, rs, a.As)
		}
		if pre.last != nil && !pre.v.beats(pre.v.refine(e.Reading, e.Cards), pre.last.reading) {
			rt.Fatalf("%v played on %v, which it does not beat (dadun.md, Combinations)", e.Reading, pre.last.reading)
		}
		want := Awards(e.Cards, e.Reading)
		if pre.v.opts.noAwards {
			want = 0 // dadun.md, Table options, dun_awards false
		}
		if e.Awards != want {
			rt.Fatalf("%s earns %d awards, recorded %d (dadun.md, 盾 awards)", cards.Format(e.Cards), want, e.Awards)
		}
		reveals := seat == pre.friend && pre.soloist < 0 && !pre.revealed && slices.Contains(e.Cards, pre.friendCard)
		got := len(evs) > 1 && evs[1].EventType() == "FriendRevealed"
		if reveals != got {
			rt.Fatalf("seat %d plays %s (friend %d, friend card %s): FriendRevealed %v, want %v (dadun.md: the sides are public once the friend card is played)",
				seat, cards.Format(e.Cards), pre.friend, pre.friendCard, got, reveals)
		}
	case table.PlayerEscaped:
		if a.Type != table.ActionEscape || e.Seat != seat || e.PlayerID != pre.Players[seat] {
			rt.Fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
	default:
		rt.Fatalf("seat %d %s emits %T first", seat, gametest.DescribeAction(a), e)
	}
	for _, e := range evs[1:] {
		switch e := e.(type) {
		case PlayerOut:
			if pre.hands[seat].Len() != len(a.Cards) || e.Seat != seat || e.Place != len(pre.finish)+1 {
				rt.Fatalf("%+v after seat %d played %d of %d cards", e, seat, len(a.Cards), pre.hands[seat].Len())
			}
		case TrickEnded:
			w := pre.last.seat
			want := w
			if pre.out(w) {
				want = pre.nextWithCards(w)
				if p := partnerWithCards(pre, w); p >= 0 {
					want = p // dadun.md, Table options, lead_after_out partner
				}
			}
			if e.Winner != w || e.Leader != want || e.Jiefeng != pre.out(w) || e.Points != pre.trick {
				rt.Fatalf("%+v, want winner %d, leader %d, points %d (dadun.md, Play: 接风 to the next seat with cards)", e, w, want, pre.trick)
			}
			if pre.passes+1 != pre.othersWithCards(w) {
				rt.Fatalf("trick ended after %d passes with %d others holding cards", pre.passes+1, pre.othersWithCards(w))
			}
		case table.HandSettled:
			rt.checkSettlement(pre, seat, a, e)
		}
	}
}

// partnerWithCards is the seat that leads after w under lead_after_out
// "partner" when the sides are public: the first seat after w on its side
// with cards; -1 when the option or the sides say nothing, or none has.
func partnerWithCards(s *State, w int) int {
	if !s.v.opts.partnerLead || (s.soloist < 0 && !s.revealed) {
		return -1
	}
	for i := 1; i < seats; i++ {
		p := (w + i) % seats
		if s.side(p) == s.side(w) && s.hands[p].Len() > 0 {
			return p
		}
	}
	return -1
}

// checkHidden: while the sides are not public, no game event names the
// friend, and no seat's view but the friend's own tells who it is (dadun.md,
// Deal, banker, friend: nobody but the friend knows until its card is
// played).
func (rt *randomTable) checkHidden(evs []table.Payload) {
	g := gametest.Game[State](rt.St)
	if g.phase == phaseWaiting || g.sidesPublic() {
		return
	}
	for _, e := range evs {
		if b, err := json.Marshal(e); err != nil || containsKey(b, "friend") {
			rt.Fatalf("%s %s names the friend before its card is played", e.EventType(), b)
		}
	}
	for seat := table.Spectator; seat < seats; seat++ {
		v := rt.r.View(g, seat).Game.(GameView)
		if v.Friend != nil || v.Sides != nil || (v.Role == RoleFriend) != (seat >= 0 && seat == g.friend) {
			rt.Fatalf("seat %d sees friend %v, sides %v, role %q before the friend card is played (friend %d)", seat, v.Friend, v.Sides, v.Role, g.friend)
		}
		// Partners and side points would name the friend as surely.
		if v.SidePoints != nil || (v.Partners != nil && (seat != g.friend || !slices.Equal(v.Partners, []int{g.banker}))) {
			rt.Fatalf("seat %d sees partners %v, side points %v before the friend card is played (friend %d)", seat, v.Partners, v.SidePoints, g.friend)
		}
	}
}

func (rt *randomTable) checkDeal(d table.HandDealt) {
	rt.T.Helper()
	var all cards.Multiset
	for _, h := range d.Hands {
		if len(h) != handSize {
			rt.Fatalf("a hand of %d cards, want 27 (dadun.md: two decks, 27 cards each)", len(h))
		}
		all.Add(h...)
	}
	if all != rt.deck || len(d.Kitty) != 0 {
		rt.Fatalf("the deal is not two decks of 108 cards without a kitty (dadun.md)")
	}
}

// checkTurned: the banker holds the turned card and leads the declaring
// round (dadun.md, Deal, banker, friend).
func (rt *randomTable) checkTurned(e CardTurned) {
	g := gametest.Game[State](rt.St)
	if g.hands[e.Banker].Count(e.Card) == 0 || e.Banker != rt.Dealt.FirstSeat || g.turn != e.Banker || g.phase != phaseDeclaring {
		rt.Fatalf("%+v: the banker must hold the turned card and act first", e)
	}
	if g.bothCopies != (g.hands[e.Banker].Count(e.Card) == 2) || (!g.bothCopies && g.hands[g.friend].Count(e.Card) != 1) {
		rt.Fatalf("%+v: friend %d is not the holder of the other copy", e, g.friend)
	}
}

// checkSeed checks that a revealed seed matches the deal's commitment and
// deals exactly the dealt cards, and that it turns the recorded card (doc.go,
// Dealing).
func (rt *randomTable) checkSeed(hex string, pre *State) {
	rt.T.Helper()
	seed, err := cards.ParseSeed(hex)
	if err != nil || seed.Commitment() != rt.Dealt.Commitment {
		rt.Fatalf("revealed seed %q does not match the commitment %s", hex, rt.Dealt.Commitment)
	}
	deck, stream := cards.Shuffled(seed, decks)
	var got [seats]cards.Multiset
	for i, c := range deck {
		got[i%seats].Add(c)
	}
	for i := range seats {
		if got[i] != cards.Of(rt.Dealt.Hands[i]) {
			rt.Fatalf("the seed deals seat %d other cards than the deal holds (doc.go, Dealing)", i)
		}
	}
	at := int(stream.Below(deckCards))
	if deck[at] != pre.turned || at%seats != pre.banker {
		rt.Fatalf("the seed turns %s to seat %d, the deal recorded %s to %d (doc.go, Dealing)", deck[at], at%seats, pre.turned, pre.banker)
	}
}

// checkCards: the 108 cards are always in the hands or played.
func (rt *randomTable) checkCards() {
	g := gametest.Game[State](rt.St)
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
		rt.Fatalf("cards lost or invented: hands and plays hold %d cards", all.Len())
	}
}

// checkSettlement recomputes the settlement from the state before the
// action (dadun.md, Points and result; 盾 awards; Escape).
func (rt *randomTable) checkSettlement(pre *State, seat int, a table.Action, hs table.HandSettled) {
	rt.T.Helper()
	var res Result
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		rt.Fatalf("result %s: %v", hs.Result, err)
	}
	stake := rt.St.Stake
	// 盾 awards: every award recorded, each other player paying the earner.
	awards := slices.Clone(pre.awards)
	award := make([]int, seats)
	var all []Award
	all = append(all, awards...)
	if len(res.Awards) != len(all) && len(res.Awards) != len(all)+1 {
		rt.Fatalf("%d awards settled, %d earned before the last play", len(res.Awards), len(all))
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
			rt.Fatalf("finish %v, want %v", res.Finish, finish)
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
			rt.Fatalf("captured %v and cards left account for %d points, want 200 (rules/README.md)", res.Captured, total)
		}
		sides := pre.sides()
		// dadun.md, Play: the hand ends as soon as both seats of a side are
		// out; in 打独 as soon as the first player is out, the soloist or an
		// opponent (dadun.md, Rulings: the result is decided); never later.
		n := len(finish)
		if pre.soloist >= 0 {
			if n != 1 {
				rt.Fatalf("打独 by %d ended with finish %v: the first player out ends it (dadun.md, Rulings)", pre.soloist, finish)
			}
		} else {
			var out [2]int
			for i, f := range finish {
				out[pre.side(f)]++
				if (out[0] == 2 || out[1] == 2) != (i == n-1) {
					rt.Fatalf("2 vs 2 with sides %v ended with finish %v: the hand ends when both seats of a side are out", sides, finish)
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
				rt.Fatalf("side points %v do not sum to 200", pts)
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
			rt.Fatalf("result %s, want multiplier %d, winners %v", hs.Result, mult, sides[wantWin])
		}
		rt.outcomes[res.Outcome]++
	}
	if !slices.Equal(res.ResultDeltas, want) || !slices.Equal(res.AwardDeltas, award) {
		rt.Fatalf("result deltas %v and awards %v, want %v and %v (dadun.md, Points and result; 盾 awards)", res.ResultDeltas, res.AwardDeltas, want, award)
	}
	sum := hs.House
	for i, d := range hs.Deltas {
		sum += d
		if d != want[i]+award[i] {
			rt.Fatalf("seat %d settles %d, want %d + %d awards", i, d, want[i], award[i])
		}
	}
	if sum != 0 || hs.House != house {
		rt.Fatalf("settlement %v with house %d sums to %d (want house %d)", hs.Deltas, hs.House, sum, house)
	}
	if hs.Hand != pre.hand {
		rt.Fatalf("settles hand %d, want %d", hs.Hand, pre.hand)
	}
	rt.checkSeed(hs.Seed, pre)
}
