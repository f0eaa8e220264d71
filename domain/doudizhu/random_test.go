package doudizhu

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

var tableSeedFlag = flag.Uint64("doudizhu.table", 0, "run TestRandomGames for this one table seed only")

// randomTableSeeds are the tables TestRandomGames plays; a failure names its
// seed, and -doudizhu.table=<seed> replays that table alone.
var randomTableSeeds = []uint64{
	1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946,
	17711, 28657, 46368, 75025, 121393, 196418, 317811, 514229, 832040, 1346269,
	2178309, 3524578, 5702887, 9227465, 14930352, 24157817, 39088169, 63245986, 102334155, 165580141,
}

const handsPerTable = 250 // × 40 tables = 10,000 settled hands

// TestRandomGames plays 10,000 hands of random legal actions (with an escape
// in about one hand in 25) through table.Join, table.Act and table.Apply, and
// checks after every action that no card is lost or invented, turns go round
// in order, the action chosen from Legal is accepted, every play is read
// correctly and beats the play before it or leads, and every settlement
// follows doudizhu.md and sums to zero. (TestLegalPatterns and
// TestLegalMatchesDecide check every action Legal offers.)
func TestRandomGames(t *testing.T) {
	t.Parallel()
	r := classic(t)
	seeds := randomTableSeeds
	if *tableSeedFlag != 0 {
		seeds = []uint64{*tableSeedFlag}
	}
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
	seeds   *seedSeq
	st      *table.State
	dealt   table.HandDealt // the running deal, as dealt
	settled int             // hands settled
	steps   int             // actions in the running deal
	joins   int
	// escapeAt is the step of the running hand at which escaper escapes; -1: none.
	escapeAt, escaper int
	deck              cards.Multiset // one whole deck
}

func newRandomTable(t testing.TB, r *Rules, seed uint64) *randomTable {
	rt := &randomTable{t: t, r: r, seed: seed, deck: cards.Of(cards.Deck(1)), rng: rand.New(rand.NewPCG(seed, 0x646f75)), seeds: &seedSeq{id: seed}}
	stake := 1 + rt.rng.IntN(5)
	rt.st = table.New(r)
	evs, err := table.Open(r, fmt.Sprint("t", seed), "doudizhu", "classic", stake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	rt.apply(evs)
	for range 3 {
		rt.join()
	}
	return rt
}

func (rt *randomTable) fatalf(format string, args ...any) {
	rt.t.Helper()
	rt.t.Fatalf("table seed %d, hand %d deal %d, step %d: %s", rt.seed, rt.st.Hand, rt.st.Deal, rt.steps, fmt.Sprintf(format, args...))
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
	for _, e := range evs {
		table.Apply(rt.st, e)
		if d, ok := e.(table.HandDealt); ok {
			rt.dealt = d
			rt.steps = 0
			rt.escapeAt = -1
			if d.Deal == 1 && rt.rng.IntN(25) == 0 {
				rt.escapeAt, rt.escaper = rt.rng.IntN(40), rt.rng.IntN(3)
			}
			rt.checkDeal(d)
		}
	}
}

// step makes one action and checks it.
func (rt *randomTable) step() {
	r, g := rt.r, game(rt.st)
	seat, legal := -1, []table.Action(nil)
	for i := range 3 {
		if l := r.Legal(rt.st.G, i); l != nil {
			if seat >= 0 {
				rt.fatalf("seats %d and %d may both act", seat, i)
			}
			seat, legal = i, l
		}
	}
	if seat < 0 || seat != g.turn {
		rt.fatalf("seat %d may act, but it is seat %d's turn", seat, g.turn)
	}
	if g.phase == phaseBidding && seat != (g.firstSeat+len(g.bids))%3 {
		rt.fatalf("seat %d bids, want the seats in turn from the first bidder %d (doudizhu.md, Bidding)", seat, g.firstSeat)
	}
	a := legal[rt.rng.IntN(len(legal))]
	if rt.steps == rt.escapeAt {
		seat, a = rt.escaper, table.Action{Type: table.ActionEscape}
	}
	pre := g.Clone().(*State)
	evs, err := table.Act(rt.st, seat, a, rt.seeds)
	if err != nil { // Decide must accept what Legal offers
		rt.fatalf("seat %d %s: %v", seat, describeAction(a), err)
	}
	rt.steps++
	if rt.steps > 1000 {
		rt.fatalf("the deal does not end")
	}
	rt.checkEvents(pre, seat, a, evs)
	escaped := a.Type == table.ActionEscape
	rt.apply(evs)
	rt.checkCards()
	if post := game(rt.st); post.phase != phaseWaiting && post.hand == pre.hand && post.deal == pre.deal {
		want := (seat + 1) % 3
		if pre.phase == phaseBidding && post.phase == phasePlaying {
			want = post.landlord
		}
		if post.turn != want {
			rt.fatalf("after seat %d the turn is %d's, want %d's (doudizhu.md, Beating: play goes to the next seat)", seat, post.turn, want)
		}
	}
	if escaped {
		rt.join()
	}
}

func (rt *randomTable) checkEvents(pre *State, seat int, a table.Action, evs []table.Payload) {
	switch e := evs[0].(type) {
	case BidMade:
		if a.Type != ActionBid || e.Seat != seat || e.Bid != *a.Bid || e.Bid <= pre.highBid {
			rt.fatalf("seat %d %s emits %+v (doudizhu.md, Bidding)", seat, describeAction(a), e)
		}
	case BidPassed:
		if a.Type != ActionPass || pre.phase != phaseBidding || e.Seat != seat {
			rt.fatalf("seat %d %s emits %+v", seat, describeAction(a), e)
		}
	case PlayPassed:
		if a.Type != ActionPass || pre.phase != phasePlaying || pre.last == nil {
			rt.fatalf("seat %d %s emits %+v: a leader may not pass (doudizhu.md, Beating)", seat, describeAction(a), e)
		}
	case CardsPlayed:
		if a.Type != ActionPlay || e.Seat != seat || cards.Of(e.Cards) != cards.Of(a.Cards) {
			rt.fatalf("seat %d %s emits %+v", seat, describeAction(a), e)
		}
		if !slices.Contains(Classify(e.Cards), e.Reading) || (a.As != "" && e.Reading.Type.String() != a.As) {
			rt.fatalf("%s recorded as %v, which is not one of its readings %v (as %q) (doudizhu.md, Card types)",
				cards.Format(e.Cards), e.Reading, Classify(e.Cards), a.As)
		}
		if pre.last != nil && !e.Reading.Beats(pre.last.reading) {
			rt.fatalf("%v played on %v, which it does not beat (doudizhu.md, Beating)", e.Reading, pre.last.reading)
		}
	case table.PlayerEscaped:
		if a.Type != table.ActionEscape || e.Seat != seat || e.PlayerID != pre.players[seat] {
			rt.fatalf("seat %d %s emits %+v", seat, describeAction(a), e)
		}
	default:
		rt.fatalf("seat %d %s emits %T first", seat, describeAction(a), e)
	}
	for _, e := range evs[1:] {
		switch e := e.(type) {
		case LandlordChosen:
			high, highSeat := pre.highBid, pre.highSeat
			if a.Bid != nil {
				high, highSeat = *a.Bid, seat
			}
			if e.Seat != highSeat || e.Bid != high || cards.Of(e.Kitty) != cards.Of(rt.dealt.Kitty) {
				rt.fatalf("landlord %+v, want the highest bidder %d at %d with the dealt kitty (doudizhu.md, Bidding)", e, highSeat, high)
			}
		case table.DealVoided:
			if pre.highBid != 0 || len(pre.bids) != 2 || e.Reason != "all_passed" {
				rt.fatalf("%+v after bids %v", e, pre.bids)
			}
			rt.checkSeed(e.Seed)
		case table.HandSettled:
			rt.checkSettlement(pre, seat, a, e)
			rt.settled++
		}
	}
}

// checkSeed checks that a revealed seed matches the deal's commitment and
// deals exactly the dealt cards (doudizhu.md, Deal; rules/README.md, Shuffling).
func (rt *randomTable) checkSeed(hex string) {
	rt.t.Helper()
	seed, err := cards.ParseSeed(hex)
	if err != nil || seed.Commitment() != rt.dealt.Commitment {
		rt.fatalf("revealed seed %q does not match the commitment %s", hex, rt.dealt.Commitment)
	}
	deck, _ := cards.Shuffled(seed, 1)
	for i, c := range deck {
		in := rt.dealt.Kitty
		if i < 51 {
			in = rt.dealt.Hands[i%3]
		}
		if !slices.Contains(in, c) {
			rt.fatalf("the seed deals %s to %d, the deal has it elsewhere (doc.go, Dealing)", c, i%3)
		}
	}
}

func (rt *randomTable) checkDeal(d table.HandDealt) {
	rt.t.Helper()
	all := cards.Of(d.Kitty)
	for _, h := range d.Hands {
		if len(h) != 17 {
			rt.fatalf("a hand of %d cards, want 17 (doudizhu.md, Deal)", len(h))
		}
		all.Add(h...)
	}
	if all != cards.Of(cards.Deck(1)) || len(d.Kitty) != 3 {
		rt.fatalf("the deal is not one deck of 54 cards with a kitty of 3 (doudizhu.md, Deal)")
	}
}

// checkCards: the 54 cards are always in the hands, the unshown kitty, or played.
func (rt *randomTable) checkCards() {
	g := game(rt.st)
	all := g.played
	for _, h := range g.hands[:3] {
		for i, k := range h {
			all[i] += k
		}
	}
	if !g.kittyShown {
		all.Add(g.kitty...)
	}
	if all != rt.deck {
		rt.fatalf("cards lost or invented: hands, kitty and plays hold %d cards", all.Len())
	}
}

func (rt *randomTable) checkSettlement(pre *State, seat int, a table.Action, hs table.HandSettled) {
	rt.t.Helper()
	var res Result
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		rt.fatalf("result %s: %v", hs.Result, err)
	}
	stake := rt.st.Stake
	want := make([]int, 3)
	if a.Type == table.ActionEscape {
		// doudizhu.md, Escape: stake × current multiplier × 16 (landlord) or × 8.
		mult, units := 1, 8
		if pre.landlord >= 0 {
			mult = pre.bid
			if seat == pre.landlord {
				units = 16
			}
		}
		p := stake * mult * units
		for i := range want {
			want[i] = p / 2
		}
		want[seat] = -p
	} else {
		// doudizhu.md, Scoring: bid × stake per farmer, ×2 for (anti-)spring.
		l := pre.landlord
		plays := pre.plays
		plays[seat]++
		farmers := 0
		for i, n := range plays {
			if i != l {
				farmers += n
			}
		}
		mult := pre.bid
		if (seat == l && farmers == 0) || (seat != l && plays[l] == 1) {
			mult *= 2
		}
		for i := range want {
			switch {
			case i == l && seat == l:
				want[i] = 2 * stake * mult
			case i == l:
				want[i] = -2 * stake * mult
			case seat == l:
				want[i] = -stake * mult
			default:
				want[i] = stake * mult
			}
		}
		if res.Multiplier != mult || res.Bid != pre.bid || *res.Landlord != l {
			rt.fatalf("result %+v, want multiplier %d", res, mult)
		}
		if pre.hands[seat].Len() != len(a.Cards) {
			rt.fatalf("seat %d settled the hand with cards left", seat)
		}
	}
	if !slices.Equal(hs.Deltas, want) {
		rt.fatalf("seat %d %s settles %v, want %v (doudizhu.md, Scoring / Escape)", seat, describeAction(a), hs.Deltas, want)
	}
	if hs.Hand != pre.hand {
		rt.fatalf("settles hand %d, want %d", hs.Hand, pre.hand)
	}
	rt.checkSeed(hs.Seed)
}
