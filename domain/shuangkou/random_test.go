package shuangkou

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
	seeds := randomTableSeeds
	if *tableSeedFlag != 0 {
		seeds = []uint64{*tableSeedFlag}
	}
	for _, variant := range []string{"baibian", "classic"} {
		r := rulesFor(t, variant)
		for _, seed := range seeds {
			t.Run(fmt.Sprint(variant, "/", seed), func(t *testing.T) {
				t.Parallel()
				rt := newRandomTable(t, r, seed)
				for rt.settled < handsPerTable {
					rt.step()
				}
			})
		}
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
	record            func(evs []table.Payload)
}

func newRandomTable(t testing.TB, r *Rules, seed uint64) *randomTable {
	return newRecordedTable(t, r, seed, nil)
}

// newRecordedTable is newRandomTable passing every batch of events, from the
// opening on, to record (when not nil).
func newRecordedTable(t testing.TB, r *Rules, seed uint64, record func([]table.Payload)) *randomTable {
	rt := &randomTable{t: t, r: r, seed: seed, deck: cards.Of(cards.Deck(decks)), record: record,
		rng: rand.New(rand.NewPCG(seed, 0x736b)), seeds: &gametest.SeedSeq{ID: seed}}
	stake := 1 + rt.rng.IntN(5)
	rt.st = table.New(r.untyped())
	evs, err := table.Open(r.untyped(), fmt.Sprint("t", seed), "shuangkou", r.v.name, stake, "p0")
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
	rt.t.Fatalf("%s table seed %d, hand %d, step %d: %s", rt.r.v.name, rt.seed, rt.st.Hand, rt.steps, fmt.Sprintf(format, args...))
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
		if d, ok := e.(table.HandDealt); ok {
			rt.dealt = d
			rt.steps = 0
			rt.escapeAt = -1
			if rt.rng.IntN(25) == 0 {
				rt.escapeAt, rt.escaper = rt.rng.IntN(60), rt.rng.IntN(seats)
			}
			rt.checkDeal(d)
		}
	}
}

// sampleLead lists the leads of one shape drawn at random (a type, and a
// length for runs), falling back to every lead when the hand has none.
func (rt *randomTable) sampleLead(hand *cards.Multiset) []table.Action {
	g := newGen(hand, rt.r.v.wild)
	switch k := rt.rng.IntN(8); k {
	case 0, 1, 2:
		g.groups([...]Type{Single, Pair, Trio}[k], -1)
	case 3:
		g.bombs(4)
		g.jokersAlone()
	default:
		t := [...]Type{PairRun, TrioRun, Straight, Straight}[k-4]
		g.runs(t, minRun(t)+rt.rng.IntN(3), -1)
	}
	if plays := g.plays(nil); len(plays) > 0 {
		return plays
	}
	return legalPlays(hand, nil, rt.r.v.wild)
}

// choose picks a random legal action: a pass one time in three when it may
// pass (so that tricks run longer than one play), else any legal action.
func (rt *randomTable) choose(legal []table.Action) table.Action {
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
	// A lead lists hundreds of plays in 百变 (BenchmarkLegalLead); most
	// leads draw from the plays of one random shape instead, which keeps
	// 5,000 hands fast under -race. TestLegalMatchesDecide checks whole lists.
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
	if g.out(seat) {
		rt.fatalf("seat %d is on turn with no cards (shuangkou.md: play goes to the next seat with cards)", seat)
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
	if rt.steps > 2000 {
		rt.fatalf("the deal does not end")
	}
	rt.checkEvents(pre, seat, a, evs)
	escaped := a.Type == table.ActionEscape
	rt.apply(evs)
	rt.checkCards()
	post := game(rt.st)
	if post.phase != phaseWaiting && post.hand == pre.hand {
		want := post.nextWithCards(seat)
		if te, ok := evs[len(evs)-1].(TrickEnded); ok {
			want = te.Leader
		}
		if post.turn != want {
			rt.fatalf("after seat %d the turn is %d's, want %d's (shuangkou.md: play goes to the next seat with cards)", seat, post.turn, want)
		}
	}
	if escaped {
		rt.join()
	}
}

func (rt *randomTable) checkEvents(pre *State, seat int, a table.Action, evs []table.Payload) {
	switch e := evs[0].(type) {
	case PlayPassed:
		if a.Type != ActionPass || pre.last == nil || e.Seat != seat {
			rt.fatalf("seat %d %s emits %+v: a leader may not pass", seat, gametest.DescribeAction(a), e)
		}
	case CardsPlayed:
		if a.Type != ActionPlay || e.Seat != seat || cards.Of(e.Cards) != cards.Of(a.Cards) {
			rt.fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
		rs := Classify(e.Cards, rt.r.v.wild)
		if !slices.ContainsFunc(rs, func(r Reading) bool { return r.same(e.Reading) && slices.Equal(r.Wild, e.Reading.Wild) }) ||
			(a.As != "" && !e.Reading.matches(a.As)) {
			rt.fatalf("%s recorded as %v, which is not one of its readings %v (as %q) (shuangkou.md, Combinations)",
				cards.Format(e.Cards), e.Reading, rs, a.As)
		}
		if pre.last != nil && !e.Reading.Beats(pre.last.reading) {
			rt.fatalf("%v played on %v, which it does not beat (shuangkou.md, Combinations)", e.Reading, pre.last.reading)
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
				want = partner(w)
				if pre.out(want) {
					want = pre.nextWithCards(w)
				}
			}
			if e.Winner != w || e.Leader != want || e.Jiefeng != (want == partner(w) && pre.out(w)) {
				rt.fatalf("%+v, want the lead to %d (shuangkou.md: 接风 to the partner)", e, want)
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

// checkSeed checks that a revealed seed matches the deal's commitment and
// deals exactly the dealt cards (doc.go, Dealing; rules/README.md, Shuffling).
func (rt *randomTable) checkSeed(hex string) {
	rt.t.Helper()
	seed, err := cards.ParseSeed(hex)
	if err != nil || seed.Commitment() != rt.dealt.Commitment {
		rt.fatalf("revealed seed %q does not match the commitment %s", hex, rt.dealt.Commitment)
	}
	deck, _ := cards.Shuffled(seed, decks)
	var got [seats]cards.Multiset
	for i, c := range deck {
		got[i%seats].Add(c)
	}
	for i := range seats {
		if got[i] != cards.Of(rt.dealt.Hands[i]) {
			rt.fatalf("the seed deals seat %d other cards than the deal holds (doc.go, Dealing)", i)
		}
	}
}

func (rt *randomTable) checkDeal(d table.HandDealt) {
	rt.t.Helper()
	var all cards.Multiset
	for _, h := range d.Hands {
		if len(h) != handSize {
			rt.fatalf("a hand of %d cards, want 27 (shuangkou.md: two decks, 27 cards each)", len(h))
		}
		all.Add(h...)
	}
	if all != rt.deck || len(d.Kitty) != 0 {
		rt.fatalf("the deal is not two decks of 108 cards without a kitty (shuangkou.md)")
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

func (rt *randomTable) checkSettlement(pre *State, seat int, a table.Action, hs table.HandSettled) {
	rt.t.Helper()
	var res Result
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		rt.fatalf("result %s: %v", hs.Result, err)
	}
	stake := rt.st.Stake
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
	} else {
		finish := append(slices.Clone(pre.finish), seat)
		first := finish[0]
		// shuangkou.md, Result: the hand ends when a side is out.
		if !slices.Contains(finish, partner(seat)) {
			rt.fatalf("settled with finish %v: no side is out", finish)
		}
		for _, s := range finish[:len(finish)-1] {
			if slices.Contains(finish[:len(finish)-1], partner(s)) {
				rt.fatalf("the hand went on after side of %d was out (finish %v)", s, finish)
			}
		}
		mult := 1 // 1st and 4th
		if sideOf(seat) == sideOf(first) {
			mult = 5 - len(finish) // out 2nd: 双扣 3; out 3rd: 单扣 2
		}
		for i := range want {
			want[i] = -stake * mult
			if sideOf(i) == sideOf(first) {
				want[i] = stake * mult
			}
		}
		if res.Multiplier != mult || !slices.Equal(res.Finish, finish) {
			rt.fatalf("result %+v, want multiplier %d, finish %v", res, mult, finish)
		}
	}
	sum := 0
	for _, d := range hs.Deltas {
		sum += d
	}
	if sum != 0 || !slices.Equal(hs.Deltas, want) {
		rt.fatalf("seat %d %s settles %v, want %v (shuangkou.md, Result / Escape)", seat, gametest.DescribeAction(a), hs.Deltas, want)
	}
	if hs.Hand != pre.hand {
		rt.fatalf("settles hand %d, want %d", hs.Hand, pre.hand)
	}
	rt.checkSeed(hs.Seed)
}
