package shuangkou

import (
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

var tableSeedFlag = flag.Uint64("shuangkou.table", 0, "run TestRandomHands for this one table seed only")

// randomTableSeeds are the tables TestRandomHands plays in each variant; a
// failure names its seed, and -shuangkou.table=<seed> replays that table.
var randomTableSeeds = []uint64{
	1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946,
}

const handsPerTable = 125 // × 20 tables × 2 variants = 5,000 settled hands

// TestRandomHands plays 5,000 hands of random legal actions (with an escape
// in about one hand in 25) through table.Join, table.Act and table.Apply, and
// checks after every action that none of the 108 cards is lost or invented,
// only the seat on turn may act and turns go round the seats with cards, the
// action chosen from Legal is accepted and recorded as one of its readings,
// every play beats the play before it or leads, and every settlement follows
// shuangkou.md and sums to zero.
func TestRandomHands(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"baibian", "classic"} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			gametest.PlayRandom(t, randomConfig(rulesFor(t, variant), *tableSeedFlag))
		})
	}
}

// randomConfig is the random-hand test of r's variant: the table seeds
// (only when not 0), the hands, the escapes.
func randomConfig(r *Rules, only uint64) gametest.RandomConfig {
	return gametest.RandomConfig{
		Seeds: randomTableSeeds, Only: only, Hands: handsPerTable,
		Stream: 0x736b, MaxSteps: 2000, Catalog: New(),
		Escapes: gametest.Escapes{OneIn: 25, Within: 60},
		New: func(d *gametest.Driver) gametest.RandomGame {
			return &randomTable{Driver: d, r: r, deck: cards.Of(cards.Deck(decks))}
		},
	}
}

// randomTable is shuangkou's side of a random table: it picks the actions
// and checks every one.
type randomTable struct {
	*gametest.Driver
	r    *Rules
	deck cards.Multiset // two whole decks

	// randomOptions: each table opens with options drawn from Rng
	// (TestRandomHandsOptions), read into r.
	randomOptions bool
	// What the table has seen, for the options' checks: each seat's bombs
	// this deal as 相 (shuangkou.md, Table options, bomb_bonus), the
	// seats' totals and the hands settled at this table.
	xiangs  [seats][]int
	totals  [seats]int
	settled int
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
	if rt.randomOptions {
		raw := randomOptions(rt.Rng)
		r, err := New().Rules(rt.r.v.name, raw)
		if err != nil {
			rt.T.Fatalf("options %s: %v", raw, err)
		}
		rt.r = table.Adapted(r).(*Rules)
	}
	rt.totals, rt.settled = [seats]int{}, 0
	stake := 1 + rt.Rng.IntN(5)
	evs, err := table.Open(rt.r.untyped(), fmt.Sprint("t", rt.Seed), "shuangkou", rt.r.v.name, stake, "p0")
	if err != nil {
		rt.T.Fatal(err)
	}
	return rt.r.untyped(), evs
}

func (rt *randomTable) Applied(e table.Payload) {
	switch e := e.(type) {
	case table.HandDealt:
		rt.checkDeal(e)
		rt.xiangs = [seats][]int{}
	case CardsPlayed:
		if x := bombXiang(e); x > 0 {
			rt.xiangs[e.Seat] = append(rt.xiangs[e.Seat], x)
		}
	case table.HandSettled:
		rt.settled++
		for i, d := range e.Deltas {
			rt.totals[i] += d
		}
	}
}

// sampleLead lists the leads of one shape drawn at random (a type, and a
// length for runs), falling back to every lead when the hand has none.
func (rt *randomTable) sampleLead(hand *cards.Multiset) []table.Action {
	g := newGen(hand, rt.r.v.cardTypes())
	switch k := rt.Rng.IntN(8); k {
	case 0, 1, 2:
		g.groups([...]Type{Single, Pair, Trio}[k], -1)
	case 3:
		g.bombs(4)
		g.jokersAlone()
	default:
		t := [...]Type{PairRun, TrioRun, Straight, Straight}[k-4]
		g.runs(t, minRun(t)+rt.Rng.IntN(3), -1)
	}
	if plays := g.plays(nil); len(plays) > 0 {
		return plays
	}
	return legalPlays(hand, nil, rt.r.v.cardTypes())
}

// choose picks a random legal action: a pass one time in three when it may
// pass (so that tricks run longer than one play), else any legal action.
func (rt *randomTable) choose(legal []table.Action) table.Action {
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
	// A lead lists hundreds of plays in 百变 (BenchmarkLegalLead); most
	// leads draw from the plays of one random shape instead, which keeps
	// 5,000 hands fast under -race. TestLegalMatchesDecide checks whole lists.
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
	if g.out(seat) {
		rt.Fatalf("seat %d is on turn with no cards (shuangkou.md: play goes to the next seat with cards)", seat)
	}
	return seat, rt.choose(legal)
}

// After checks the cards and the turn once an action is applied.
func (rt *randomTable) After(gpre table.GameState, seat int, a table.Action, evs []table.Payload) {
	pre := gpre.(*State)
	rt.checkCards()
	post := gametest.Game[State](rt.St)
	if post.phase != phaseWaiting && post.hand == pre.hand {
		want := post.nextWithCards(seat)
		if te, ok := evs[len(evs)-1].(TrickEnded); ok {
			want = te.Leader
		}
		if post.turn != want {
			rt.Fatalf("after seat %d the turn is %d's, want %d's (shuangkou.md: play goes to the next seat with cards)", seat, post.turn, want)
		}
	}
}

// Events checks the events of an action against the state before it.
func (rt *randomTable) Events(gpre table.GameState, seat int, a table.Action, evs []table.Payload) {
	pre := gpre.(*State)
	switch e := evs[0].(type) {
	case PlayPassed:
		if a.Type != ActionPass || pre.last == nil || e.Seat != seat {
			rt.Fatalf("seat %d %s emits %+v: a leader may not pass", seat, gametest.DescribeAction(a), e)
		}
	case CardsPlayed:
		if a.Type != ActionPlay || e.Seat != seat || cards.Of(e.Cards) != cards.Of(a.Cards) {
			rt.Fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
		rs := Classify(e.Cards, rt.r.v.wild)
		if !slices.ContainsFunc(rs, func(r Reading) bool { return r.same(e.Reading) && slices.Equal(r.Wild, e.Reading.Wild) }) ||
			(a.As != "" && !e.Reading.matches(a.As)) {
			rt.Fatalf("%s recorded as %v, which is not one of its readings %v (as %q) (shuangkou.md, Combinations)",
				cards.Format(e.Cards), e.Reading, rs, a.As)
		}
		if pre.last != nil && !e.Reading.Beats(pre.last.reading) {
			rt.Fatalf("%v played on %v, which it does not beat (shuangkou.md, Combinations)", e.Reading, pre.last.reading)
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
				want = partner(w)
				if pre.out(want) {
					want = pre.nextWithCards(w)
				}
			}
			if e.Winner != w || e.Leader != want || e.Jiefeng != (want == partner(w) && pre.out(w)) {
				rt.Fatalf("%+v, want the lead to %d (shuangkou.md: 接风 to the partner)", e, want)
			}
			if pre.passes+1 != pre.othersWithCards(w) {
				rt.Fatalf("trick ended after %d passes with %d others holding cards", pre.passes+1, pre.othersWithCards(w))
			}
		case table.HandSettled:
			rt.checkSettlement(pre, seat, a, e, evs[0])
			rt.checkMatch(e, evs)
		}
	}
}

// checkSeed checks that a revealed seed matches the deal's commitment and
// deals exactly the dealt cards (doc.go, Dealing; rules/README.md, Shuffling).
func (rt *randomTable) checkSeed(hex string) {
	rt.T.Helper()
	seed, err := cards.ParseSeed(hex)
	if err != nil || seed.Commitment() != rt.Dealt.Commitment {
		rt.Fatalf("revealed seed %q does not match the commitment %s", hex, rt.Dealt.Commitment)
	}
	deck, _ := cards.Shuffled(seed, decks)
	var got [seats]cards.Multiset
	for i, c := range deck {
		got[i%seats].Add(c)
	}
	for i := range seats {
		if got[i] != cards.Of(rt.Dealt.Hands[i]) {
			rt.Fatalf("the seed deals seat %d other cards than the deal holds (doc.go, Dealing)", i)
		}
	}
}

func (rt *randomTable) checkDeal(d table.HandDealt) {
	rt.T.Helper()
	var all cards.Multiset
	for _, h := range d.Hands {
		if len(h) != handSize {
			rt.Fatalf("a hand of %d cards, want 27 (shuangkou.md: two decks, 27 cards each)", len(h))
		}
		all.Add(h...)
	}
	if all != rt.deck || len(d.Kitty) != 0 {
		rt.Fatalf("the deal is not two decks of 108 cards without a kitty (shuangkou.md)")
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

func (rt *randomTable) checkSettlement(pre *State, seat int, a table.Action, hs table.HandSettled, firstEv table.Payload) {
	rt.T.Helper()
	var res Result
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		rt.Fatalf("result %s: %v", hs.Result, err)
	}
	stake := rt.St.Stake
	want := make([]int, seats)
	if a.Type == table.ActionEscape {
		// shuangkou.md, Escape: the escaper pays 6 × base, the partner 0,
		// each opponent wins 3 × base.
		for i := range want {
			if sideOf(i) != sideOf(seat) {
				want[i] = 3 * stake
			}
		}
		want[seat] = -6 * stake
		if res.Xiang != nil || res.Bonus != 0 || res.Capped != 0 {
			rt.Fatalf("an escape's result %+v names 相 or the cap (shuangkou.md, Table options: escapes unchanged)", res)
		}
	} else {
		lastPlay := firstEv.(CardsPlayed)
		finish := append(slices.Clone(pre.finish), seat)
		first := finish[0]
		// shuangkou.md, Result: the hand ends when a side is out.
		if !slices.Contains(finish, partner(seat)) {
			rt.Fatalf("settled with finish %v: no side is out", finish)
		}
		for _, s := range finish[:len(finish)-1] {
			if slices.Contains(finish[:len(finish)-1], partner(s)) {
				rt.Fatalf("the hand went on after side of %d was out (finish %v)", s, finish)
			}
		}
		mult := 1 // 1st and 4th
		if sideOf(seat) == sideOf(first) {
			mult = 5 - len(finish) // out 2nd: 双扣 3; out 3rd: 单扣 2
		}
		units := rt.optionUnits(mult, sideOf(first), lastPlay, res)
		for i := range want {
			want[i] = -stake * units
			if sideOf(i) == sideOf(first) {
				want[i] = stake * units
			}
		}
		if res.Multiplier != mult || !slices.Equal(res.Finish, finish) {
			rt.Fatalf("result %+v, want multiplier %d, finish %v", res, mult, finish)
		}
	}
	sum := 0
	for _, d := range hs.Deltas {
		sum += d
	}
	if sum != 0 || !slices.Equal(hs.Deltas, want) {
		rt.Fatalf("seat %d %s settles %v, want %v (shuangkou.md, Result / Escape)", seat, gametest.DescribeAction(a), hs.Deltas, want)
	}
	if hs.Hand != pre.hand {
		rt.Fatalf("settles hand %d, want %d", hs.Hand, pre.hand)
	}
	rt.checkSeed(hs.Seed)
}
