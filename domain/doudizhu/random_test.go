package doudizhu

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

var tableSeedFlag = flag.Uint64("doudizhu.table", 0, "run TestRandomGames for this one table seed only")

// randomTableSeeds are the tables TestRandomGames plays; a failure names its
// seed, and -doudizhu.table=<seed> replays that table alone.
var randomTableSeeds = []uint64{
	1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946,
	17711, 28657, 46368, 75025, 121393, 196418, 317811, 514229, 832040, 1346269,
	2178309, 3524578, 5702887, 9227465, 14930352, 24157817, 39088169, 63245986, 102334155, 165580141,
}

const handsPerTable = 250 // × 40 tables = 10,000 settled hands per variant

// TestRandomGames plays, for each variant, 10,000 hands of random legal
// actions (with an escape in about one hand in 25) through table.Join,
// table.Act and table.Apply, and checks after every action that no card is
// lost or invented, turns go round in order, the action chosen from Legal is
// accepted, every play is read correctly and beats the play before it or
// leads, every settlement follows doudizhu.md (its multiplier recomputed
// from the events seen) and sums to zero. A quarter of the tables play
// matches of 1 to 6 hands (option "hands"), which must end with the right
// standings and a closed table; a new table then takes over.
// (TestLegalPatterns and TestLegalMatchesDecide check every action Legal
// offers.)
func TestRandomGames(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"classic", "hubei", "fourplayer"} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			gametest.PlayRandom(t, randomConfig(variant, *tableSeedFlag))
		})
	}
}

// randomConfig is the random-hand test of a variant: the table seeds (only
// when not 0), the hands, the escapes (in a hand's first deal only).
func randomConfig(variant string, only uint64) gametest.RandomConfig {
	return gametest.RandomConfig{
		Seeds: randomTableSeeds, Only: only, Hands: handsPerTable,
		Stream: 0x646f75, MaxSteps: 2000, Catalog: New(),
		Escapes: gametest.Escapes{OneIn: 25, Within: 40, FirstDealOnly: true},
		New: func(d *gametest.Driver) gametest.RandomGame {
			v, _ := variantNamed(variant)
			return &randomTable{Driver: d, variant: variant, n: v.seats, deck: cards.Of(cards.Deck(v.decks))}
		},
	}
}

// randomTable is doudizhu's side of a random table: it picks the actions
// and checks every one.
type randomTable struct {
	*gametest.Driver
	variant string
	r       *Rules         // the running table's
	n       int            // seats
	deck    cards.Multiset // the whole deck(s)

	// What the events of the running deal showed, tallied independently of
	// State, to recompute multipliers: the winning call, the grabs, open play,
	// bombs and rockets.
	bid, grabs     int
	grabBack, open bool
	bombs, rockets int
	// The doubling phase's words (option double): each farmer's double and
	// the landlord's double-back.
	doubled [maxSeats]bool
	back    bool

	// The match's end, when the events of the last action held it.
	ended  *MatchEnded
	closed *table.TableClosed

	pl plan // reused by randomPlay
}

func newRandomTable(t testing.TB, variant string, seed uint64) *randomTable {
	return gametest.NewDriver(t, randomConfig(variant, 0), seed, nil).Game.(*randomTable)
}

// Open opens a new table: endless, or (one in four) a match; one table in
// three plays a random combination of the table options (doudizhu.md,
// Table options).
func (rt *randomTable) Open() (table.Rules, []table.Payload) {
	opts := map[string]any{}
	if rt.Rng.IntN(4) == 0 {
		opts["hands"] = 1 + rt.Rng.IntN(6)
	}
	if rt.Rng.IntN(3) == 0 {
		rt.randomOptions(opts)
	}
	b, err := json.Marshal(opts)
	if err != nil {
		rt.T.Fatal(err)
	}
	rt.r = rulesOf(rt.T, rt.variant, string(b))
	stake := 1 + rt.Rng.IntN(5)
	evs, err := table.Open(rt.r.untyped(), fmt.Sprint("t", rt.Seed, "-", rt.Tables), "doudizhu", rt.variant, stake, "p0")
	if err != nil {
		rt.T.Fatal(err)
	}
	return rt.r.untyped(), evs
}

// randomOptions adds to opts each table option at random, often at its
// default (which the recorded options then leave out).
func (rt *randomTable) randomOptions(opts map[string]any) {
	rng := rt.Rng
	if rng.IntN(2) == 0 {
		opts["cap"] = []int{3, 4, 6, 8, 24, 96}[rng.IntN(6)]
	}
	if rt.variant == "classic" && rng.IntN(2) == 0 {
		opts["bomb_double"] = rng.IntN(2) == 0
	}
	if rng.IntN(2) == 0 {
		opts["spring"] = 1 + rng.IntN(4)
	}
	if rng.IntN(2) == 0 {
		opts["double"] = true
	}
	if rng.IntN(2) == 0 {
		opts["show_counts"] = rng.IntN(3) == 0
	}
}

func (rt *randomTable) Applied(e table.Payload) {
	if d, ok := e.(table.HandDealt); ok {
		rt.bid, rt.grabs, rt.grabBack, rt.open, rt.bombs, rt.rockets = 0, 0, false, false, 0, 0
		rt.doubled, rt.back = [maxSeats]bool{}, false
		rt.checkDeal(d)
	}
}

// Choose checks that only the seat on turn may act, in the order of the
// bidding, and picks one of its actions.
func (rt *randomTable) Choose() (int, table.Action) {
	r, g, n := rt.r, gametest.Game[State](rt.St), rt.n
	seat := g.turn
	for i := range n {
		if i != seat && r.Legal(rt.St.G.(*State), i) != nil {
			rt.Fatalf("seat %d may act, but it is seat %d's turn", i, g.turn)
		}
	}
	switch {
	case g.phase == phaseBidding && seat != (g.firstSeat+len(g.bids))%n:
		rt.Fatalf("seat %d bids, want the seats in turn from the first bidder %d (doudizhu.md, Bidding)", seat, g.firstSeat)
	case g.phase == phaseGrabbing && len(g.grabRecords) < len(mayGrab(g)) && seat != mayGrab(g)[len(g.grabRecords)]:
		rt.Fatalf("seat %d grabs, want the seats in turn after the caller %d that did not pass the call (doudizhu.md, Bidding, hubei, revised)", seat, g.caller)
	case g.phase == phaseGrabbing && len(g.grabRecords) >= len(mayGrab(g)) && (seat != g.caller || g.grabs == 0):
		rt.Fatalf("seat %d speaks after every other seat grabbed or declined; only the caller %d grabs back, and only after a grab (doudizhu.md, Bidding, hubei)", seat, g.caller)
	case g.phase == phaseDoubling && seat != rt.doubleSeat(g):
		rt.Fatalf("seat %d doubles, want seat %d: the farmers from the landlord's next seat, then the landlord (doudizhu.md, Table options, double)", seat, rt.doubleSeat(g))
	}
	if g.speaking() {
		rt.checkWordsLegal(g, seat)
	}
	// With show_counts false, every step where a count reaches the
	// threshold (2 or fewer shows) and every fourth step otherwise: six
	// views a step were a quarter of the test's time. The condition draws
	// nothing from Rng, so the games played stay those of the seeds.
	if rt.r.v.opt.hideCounts && (rt.Steps%4 == 0 || slices.Min(g.cardsLeft()) <= 3) || !rt.r.v.opt.hideCounts && rt.Rng.IntN(32) == 0 {
		rt.checkCountsShown(g)
	}
	return seat, rt.randomLegal(g, seat)
}

// doubleSeat is the seat to speak next in the doubling phase, from the
// words the events showed: the farmers in seat order from the landlord's
// next seat, then the landlord (doudizhu.md, Table options, double).
func (rt *randomTable) doubleSeat(g *State) int {
	if words := g.doubleWords; words < rt.n-1 {
		return (g.landlord + 1 + words) % rt.n
	}
	return g.landlord
}

// checkWordsLegal: outside the play, Decide accepts exactly the word
// actions Legal lists (Legal⇔Decide in the bidding, grab and doubling
// phases), and a timeout and the bot pick one of them.
func (rt *randomTable) checkWordsLegal(g *State, seat int) {
	legal := rt.r.Legal(g, seat)
	words := []table.Action{passA(), grabA(), doubleA(), openA(), bidA(1), bidA(2), bidA(3), playA(cards.Format(g.handCards(seat)[:1]))}
	for _, a := range words {
		_, err := rt.r.Decide(g, seat, a)
		listed := slices.ContainsFunc(legal, func(l table.Action) bool { return sameType(l, a) && (l.Bid == nil || *l.Bid == *a.Bid) })
		if (err == nil) != listed {
			rt.Fatalf("seat %d in the %s phase: Decide %s says %v, Legal lists it: %v", seat, g.phase, gametest.DescribeAction(a), err, listed)
		}
	}
	if g.phase == phaseDoubling {
		if a := rt.r.TimeoutAction(g, seat); a.Type != ActionPass {
			rt.Fatalf("a timeout in the doubling phase is %s, want pass (doudizhu.md, Table options, double)", gametest.DescribeAction(a))
		}
		if a := rt.r.BotAction(rt.r.View(g, seat), legal); a.Type != ActionPass {
			rt.Fatalf("the bot in the doubling phase chooses %s, want pass (doudizhu.md, Table options, double)", gametest.DescribeAction(a))
		}
	}
}

// checkCountsShown holds cards_left to show_counts (doudizhu.md, Table
// options): by default every count; with show_counts false each seat sees
// its own count, another's only at 2 or fewer (or the open landlord's),
// null else; a spectator alike; the auditor everything.
func (rt *randomTable) checkCountsShown(g *State) {
	for _, viewer := range []int{0, 1, 2, rt.n - 1, table.Spectator, table.Auditor} {
		got := rt.r.View(g, viewer).Game.(GameView).CardsLeft
		for i, n := range g.cardsLeft() {
			want := n
			if rt.r.v.opt.hideCounts && viewer != table.Auditor && i != viewer && n > 2 && !(g.open && i == g.landlord) {
				want = -1
			}
			if got[i] != want {
				rt.Fatalf("seat %d sees cards_left %v, want %d for seat %d (holding %d; show_counts %v)", viewer, got, want, i, n, !rt.r.v.opt.hideCounts)
			}
		}
	}
}

// After checks the match, the cards and the turn once an action is applied.
func (rt *randomTable) After(gpre table.GameState, seat int, a table.Action, evs []table.Payload) {
	pre, n := gpre.(*State), rt.n
	rt.checkMatch(pre, rt.ended, rt.closed)
	rt.checkCards()
	if post := gametest.Game[State](rt.St); post.phase != phaseWaiting && post.hand == pre.hand && post.deal == pre.deal {
		want := (seat + 1) % n
		switch {
		case post.phase == phasePlaying && pre.phase != phasePlaying:
			want = post.landlord
			if pre.phase == phaseDoubling && rt.doubleWordsWanted() != post.doubleWords {
				rt.Fatalf("the doubling phase ends after %d words, want %d (the landlord speaks only after a farmer doubled)", post.doubleWords, rt.doubleWordsWanted())
			}
		case post.phase == phaseDoubling:
			want = rt.doubleSeat(post)
		case post.phase == phaseGrabbing && len(post.grabRecords) == len(mayGrab(post)):
			want = post.caller
		case post.phase == phaseGrabbing:
			want = mayGrab(post)[len(post.grabRecords)]
		case a.Type == ActionOpen:
			want = seat
		}
		if post.turn != want {
			rt.Fatalf("after seat %d the turn is %d's, want %d's (doudizhu.md, Beating: play goes to the next seat)", seat, post.turn, want)
		}
	}
	if rt.St.Closed && pre.v.matchHands == 0 {
		rt.Fatalf("an endless table closed")
	}
}

// doubleWordsWanted is the words of a whole doubling phase: the farmers',
// and the landlord's after a farmer doubled.
func (rt *randomTable) doubleWordsWanted() int {
	if slices.Contains(rt.doubled[:], true) {
		return rt.n
	}
	return rt.n - 1
}

// randomLegal picks a random legal action of seat, leanly: outside the play
// one of Legal's; in the play 明牌 one time in three when offered, a pass one
// time in four when following, else a play of a random type (among those
// the seat can play) drawn from Legal's own plan for that type only, so
// that a lead of thousands of plays is never expanded. One step in 128 (512
// with two decks) it checks that Legal lists the pick.
func (rt *randomTable) randomLegal(g *State, seat int) table.Action {
	if g.phase != phasePlaying {
		legal := rt.r.Legal(g, seat)
		return legal[rt.Rng.IntN(len(legal))]
	}
	a := rt.randomPlay(g, seat)
	if rt.Rng.IntN(128<<(2*(rt.r.v.decks-1))) == 0 { // two-deck leads list tens of thousands
		if !slices.ContainsFunc(rt.r.Legal(g, seat), func(l table.Action) bool {
			return l.Type == a.Type && l.As == a.As && slices.Equal(l.Cards, a.Cards)
		}) {
			rt.Fatalf("the random pick %s is not among the legal actions", gametest.DescribeAction(a))
		}
	}
	return a
}

func (rt *randomTable) randomPlay(g *State, seat int) table.Action {
	if g.mayOpen(seat) && rt.Rng.IntN(3) == 0 {
		return table.Action{Type: ActionOpen}
	}
	var lead *Reading
	var gens []Type
	if g.last != nil {
		if rt.Rng.IntN(4) == 0 {
			return table.Action{Type: ActionPass}
		}
		lead = &g.last.reading
		gens = []Type{lead.Type, Bomb, Rocket}
	} else {
		gens = slices.Clone(allTypes[:])
	}
	rt.Rng.Shuffle(len(gens), func(i, j int) { gens[i], gens[j] = gens[j], gens[i] })
	pl := &rt.pl
	for _, t := range gens {
		pl.makeOf(&g.hands[seat], lead, rt.r.v.cardTypes(), []Type{t})
		if pl.actions > 0 {
			return pl.at(rt.Rng.IntN(pl.actions))
		}
	}
	if lead == nil {
		rt.Fatalf("a leader has no play")
	}
	return table.Action{Type: ActionPass}
}

// Events checks the events of an action against the state before it; it
// keeps the match's end, if the events hold one, for After.
func (rt *randomTable) Events(gpre table.GameState, seat int, a table.Action, evs []table.Payload) {
	pre := gpre.(*State)
	switch e := evs[0].(type) {
	case BidMade:
		if a.Type != ActionBid || e.Seat != seat || e.Bid != *a.Bid || e.Bid <= pre.highBid {
			rt.Fatalf("seat %d %s emits %+v (doudizhu.md, Bidding)", seat, gametest.DescribeAction(a), e)
		}
		rt.bid = e.Bid
	case BidPassed:
		if a.Type != ActionPass || pre.phase != phaseBidding || e.Seat != seat {
			rt.Fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
	case GrabMade:
		rt.grabs++
		want := min(rt.bid<<rt.grabs, 24)
		if a.Type != ActionGrab || pre.phase != phaseGrabbing || e.Seat != seat || e.Back != (seat == pre.caller) || e.Multiplier != want {
			rt.Fatalf("seat %d %s emits %+v, want multiplier %d (doudizhu.md, Bidding, hubei: each grab ×2, at most 24)", seat, gametest.DescribeAction(a), e, want)
		}
		rt.grabBack = e.Back
	case GrabDeclined:
		if a.Type != ActionPass || pre.phase != phaseGrabbing || e.Seat != seat {
			rt.Fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
	case HandOpened:
		rt.open = true
		if a.Type != ActionOpen || e.Seat != pre.landlord || pre.plays[seat] != 0 || cards.Of(e.Cards) != pre.hands[seat] {
			rt.Fatalf("seat %d %s emits %+v: only the landlord opens, before the first play, showing the whole hand (doudizhu.md, hubei 明牌)", seat, gametest.DescribeAction(a), e)
		}
		if want := rt.currentMult(); e.Multiplier != want {
			rt.Fatalf("open play multiplier %d, want %d", e.Multiplier, want)
		}
	case PlayPassed:
		if a.Type != ActionPass || pre.phase != phasePlaying || pre.last == nil {
			rt.Fatalf("seat %d %s emits %+v: a leader may not pass (doudizhu.md, Beating)", seat, gametest.DescribeAction(a), e)
		}
	case CardsPlayed:
		if a.Type != ActionPlay || e.Seat != seat || cards.Of(e.Cards) != cards.Of(a.Cards) {
			rt.Fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
		if !slices.Contains(rt.r.Classify(e.Cards), e.Reading) || (a.As != "" && e.Reading.Type.String() != a.As) {
			rt.Fatalf("%s recorded as %v, which is not one of its readings %v (as %q) (doudizhu.md, Card types)",
				cards.Format(e.Cards), e.Reading, rt.r.Classify(e.Cards), a.As)
		}
		if pre.last != nil && !e.Reading.Beats(pre.last.reading) {
			rt.Fatalf("%v played on %v, which it does not beat (doudizhu.md, Beating)", e.Reading, pre.last.reading)
		}
		switch e.Reading.Type {
		case Bomb:
			rt.bombs++
		case Rocket:
			rt.rockets++
		}
	case DoubleMade:
		if a.Type != ActionDouble || pre.phase != phaseDoubling || e.Seat != seat || e.Back != (seat == pre.landlord) || !rt.r.v.opt.double {
			rt.Fatalf("seat %d %s emits %+v (doudizhu.md, Table options, double: the landlord's double is its double-back)", seat, gametest.DescribeAction(a), e)
		}
		if e.Back {
			rt.back = true
		} else {
			rt.doubled[seat] = true
		}
	case DoublePassed:
		if a.Type != ActionPass || pre.phase != phaseDoubling || e.Seat != seat {
			rt.Fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
	case table.PlayerEscaped:
		if a.Type != table.ActionEscape || e.Seat != seat || e.PlayerID != pre.Players[seat] {
			rt.Fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
	default:
		rt.Fatalf("seat %d %s emits %T first", seat, gametest.DescribeAction(a), e)
	}
	rt.ended, rt.closed = nil, nil
	for i, e := range evs[1:] {
		switch e := e.(type) {
		case CallWon:
			high, highSeat := pre.highBid, pre.highSeat
			if a.Bid != nil {
				high, highSeat = *a.Bid, seat
			}
			if !rt.r.v.grab || e.Seat != highSeat || e.Bid != high {
				rt.Fatalf("call won %+v, want the highest caller %d at %d (doudizhu.md, Bidding, hubei)", e, highSeat, high)
			}
			rt.bid = high
		case LandlordChosen:
			high, landlord := pre.highBid, pre.highSeat
			if a.Bid != nil {
				high, landlord = *a.Bid, seat
			}
			if pre.phase == phaseGrabbing {
				landlord = pre.provisional
				if a.Type == ActionGrab {
					landlord = seat
				}
			}
			wantMult := 0
			if rt.r.v.grab {
				wantMult = min(rt.bid<<rt.grabs, 24)
			}
			if e.Seat != landlord || e.Bid != high || cards.Of(e.Kitty) != cards.Of(rt.Dealt.Kitty) || e.Multiplier != wantMult {
				rt.Fatalf("landlord %+v, want seat %d at %d (multiplier %d) with the dealt kitty (doudizhu.md, Bidding)", e, landlord, high, wantMult)
			}
		case table.DealVoided:
			if pre.highBid != 0 || len(pre.bids) != rt.n-1 || e.Reason != "all_passed" {
				rt.Fatalf("%+v after bids %v", e, pre.bids)
			}
			rt.checkSeed(e.Seed)
		case table.HandSettled:
			rt.checkSettlement(pre, seat, a, e)
		case MatchEnded:
			if i == 0 {
				rt.Fatalf("MatchEnded before the hand settled")
			}
			rt.ended = &e
		case table.TableClosed:
			rt.closed = &e
		}
	}
}

// checkMatch checks the end of a match (doudizhu.md, Tournament): after the
// last hand of the option "hands", or a later one, as soon as exactly one
// seat leads; the standings rank the table's totals; TableClosed follows.
func (rt *randomTable) checkMatch(pre *State, ended *MatchEnded, closed *table.TableClosed) {
	totals := rt.St.Totals
	leaders := 0
	for _, t := range totals {
		if t == slices.Max(totals) {
			leaders++
		}
	}
	played := gametest.Game[State](rt.St).handsDone
	settledNow := played != pre.handsDone
	wantEnd := pre.v.matchHands > 0 && settledNow && played >= pre.v.matchHands && leaders == 1
	if (ended != nil) != wantEnd || (closed != nil) != wantEnd {
		rt.Fatalf("after hand %d of a match of %d, totals %v: match ended %v, table closed %v; want %v (doudizhu.md, Tournament: a tie for first plays extra hands)",
			played, pre.v.matchHands, totals, ended != nil, closed != nil, wantEnd)
	}
	if !wantEnd {
		if settledNow && rt.St.InDeal != rt.St.Full() {
			rt.Fatalf("after a hand of a running match the next is dealt: %v, want %v (every seat filled)", rt.St.InDeal, rt.St.Full())
		}
		return
	}
	if ended.Hands != played || closed.Reason != "match_over" || !slices.Equal(closed.Totals, totals) || gametest.Game[State](rt.St).NeedsDeal() {
		rt.Fatalf("match end %+v / %+v, want %d hands, reason match_over, totals %v, no deal wanted", ended, closed, played, totals)
	}
	for i, s := range ended.Standings {
		place := 1
		for _, t := range totals {
			if t > s.Total {
				place++
			}
		}
		if s.Total != totals[s.Seat] || s.Place != place || (i > 0 && s.Place < ended.Standings[i-1].Place) || s.PlayerID != s.Players[len(s.Players)-1] {
			rt.Fatalf("standing %+v in %+v for totals %v", s, ended.Standings, totals)
		}
	}
	if ended.Standings[0].Place != 1 || ended.Standings[1].Place == 1 {
		rt.Fatalf("standings %+v: want one first", ended.Standings)
	}
}

// currentMult is the multiplier so far as the events showed it
// (doudizhu.md, Scoring, hubei): bid × 2 per grab (at most 24), × 2 if open,
// × 2 per bomb, × 4 per rocket; in classic the bid (Table options,
// bomb_double: × 2 per bomb and rocket).
func (rt *randomTable) currentMult() int {
	if !rt.r.v.grab {
		// classic: the bid, × 2 per bomb and rocket with bomb_double.
		if rt.r.v.opt.bombDouble {
			return rt.bid << (rt.bombs + rt.rockets)
		}
		return rt.bid
	}
	m := min(rt.bid<<rt.grabs, 24)
	if rt.open {
		m *= 2
	}
	for range rt.bombs {
		m *= 2
	}
	for range rt.rockets {
		m *= 4
	}
	return m
}

// checkSeed checks that a revealed seed matches the deal's commitment and
// deals exactly the dealt cards (doudizhu.md, Deal; rules/README.md, Shuffling).
func (rt *randomTable) checkSeed(hex string) {
	rt.T.Helper()
	seed, err := cards.ParseSeed(hex)
	if err != nil || seed.Commitment() != rt.Dealt.Commitment {
		rt.Fatalf("revealed seed %q does not match the commitment %s", hex, rt.Dealt.Commitment)
	}
	deck, _ := cards.Shuffled(seed, rt.r.v.decks)
	dealt := rt.n * rt.r.v.handSize()
	for i, c := range deck {
		in := rt.Dealt.Kitty
		if i < dealt {
			in = rt.Dealt.Hands[i%rt.n]
		}
		if !slices.Contains(in, c) {
			rt.Fatalf("the seed deals %s to %d, the deal has it elsewhere (doc.go, Dealing)", c, i%rt.n)
		}
	}
}

func (rt *randomTable) checkDeal(d table.HandDealt) {
	rt.T.Helper()
	all := cards.Of(d.Kitty)
	for _, h := range d.Hands {
		if len(h) != rt.r.v.handSize() {
			rt.Fatalf("a hand of %d cards, want %d (doudizhu.md, Deal)", len(h), rt.r.v.handSize())
		}
		all.Add(h...)
	}
	if all != rt.deck || len(d.Kitty) != rt.r.v.kitty || len(d.Hands) != rt.n {
		rt.Fatalf("the deal is not the whole deck(s) with a kitty of %d (doudizhu.md, Deal)", rt.r.v.kitty)
	}
}

// checkCards: every card is always in a hand, the unshown kitty, or played.
func (rt *randomTable) checkCards() {
	g := gametest.Game[State](rt.St)
	if g.hand == 0 {
		return
	}
	all := g.played
	for _, h := range g.hands[:rt.n] {
		for i, k := range h {
			all[i] += k
		}
	}
	if !g.kittyShown {
		all.Add(g.kitty...)
	}
	if all != rt.deck {
		rt.Fatalf("cards lost or invented: hands, kitty and plays hold %d cards", all.Len())
	}
}

func (rt *randomTable) checkSettlement(pre *State, seat int, a table.Action, hs table.HandSettled) {
	rt.T.Helper()
	var res Result
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		rt.Fatalf("result %s: %v", hs.Result, err)
	}
	stake, n, grab := rt.St.Stake, rt.n, rt.r.v.grab
	want := make([]int, n)
	if a.Type == table.ActionEscape {
		// doudizhu.md, Escape: stake × current multiplier × 16 (landlord) or × 8;
		// in the grab phase the provisional landlord counts as the landlord.
		mult, units, landlord := 1, 8, pre.landlord
		switch {
		case !grab && pre.landlord >= 0:
			mult = rt.currentMult()
		case grab && pre.phase == phaseGrabbing:
			mult, landlord = min(rt.bid<<rt.grabs, 24), pre.provisional
		case grab && pre.landlord >= 0:
			mult = rt.currentMult()
		}
		if landlord >= 0 && seat == landlord {
			units = 16
		}
		// Table options, cap: min(current, cap) × 16 or × 8; the double
		// factors are ignored.
		charged := mult
		if c := rt.r.v.opt.cap; c > 0 {
			charged = min(mult, c)
		}
		p := stake * charged * units
		share, rem := p/(n-1), p%(n-1)
		for i := range want {
			if i != seat {
				want[i], rem = share+rem, 0
			}
		}
		want[seat] = -p
		if res.Multiplier != mult || res.Penalty != p {
			rt.Fatalf("escape result %+v, want multiplier %d penalty %d", res, mult, p)
		}
	} else {
		// doudizhu.md, Scoring.
		l := pre.landlord
		plays := pre.plays
		plays[seat]++
		farmers := 0
		for i, k := range plays[:n] {
			if i != l {
				farmers += k
			}
		}
		spring, anti := seat == l && farmers == 0, seat != l && plays[l] == 1
		// Table options: the spring factor (default 2 in classic, 4 else),
		// classic's 反春 alike, hubei's and fourplayer's 反春 ×2.
		mult := rt.currentMult()
		switch {
		case spring || (anti && !grab):
			mult *= rt.r.v.opt.spring
		case anti:
			mult *= 2
		}
		settled := rt.settledMultipliers(l, mult)
		for i := range want {
			if i == l {
				continue
			}
			want[i] = stake * settled[i]
			if seat == l {
				want[i] = -want[i]
			}
			want[l] -= want[i]
		}
		if res.Multiplier != mult || res.Bid != pre.bid || *res.Landlord != l || res.Spring != spring || res.AntiSpring != anti {
			rt.Fatalf("result %+v, want multiplier %d spring %v anti-spring %v", res, mult, spring, anti)
		}
		changed := false
		for i, s := range settled {
			changed = changed || (i != l && s != mult)
		}
		if changed != (res.Settled != nil) || (changed && !slices.Equal(res.Settled, settled)) {
			rt.Fatalf("result settled %v, want %v (present only when a farmer's differs from the multiplier %d)", res.Settled, settled, mult)
		}
		if !grab && rt.r.v.opt.bombDouble && (res.Bombs != rt.bombs || res.Rockets != rt.rockets) {
			rt.Fatalf("result %+v, want bombs %d rockets %d (doudizhu.md, Table options, bomb_double)", res, rt.bombs, rt.rockets)
		}
		if grab && (res.Grabs != rt.grabs || res.GrabBack != rt.grabBack || res.Open != rt.open || res.Bombs != rt.bombs || res.Rockets != rt.rockets ||
			res.BidMultiplier != min(rt.bid<<rt.grabs, 24)) {
			rt.Fatalf("result %+v, want grabs %d (back %v) open %v bombs %d rockets %d (doudizhu.md, Scoring, hubei)", res, rt.grabs, rt.grabBack, rt.open, rt.bombs, rt.rockets)
		}
		if pre.hands[seat].Len() != len(a.Cards) {
			rt.Fatalf("seat %d settled the hand with cards left", seat)
		}
	}
	sum := 0
	for _, d := range hs.Deltas {
		sum += d
	}
	if !slices.Equal(hs.Deltas, want) || sum != 0 {
		rt.Fatalf("seat %d %s settles %v, want %v summing to 0 (doudizhu.md, Scoring / Escape)", seat, gametest.DescribeAction(a), hs.Deltas, want)
	}
	if hs.Hand != pre.hand {
		rt.Fatalf("settles hand %d, want %d", hs.Hand, pre.hand)
	}
	rt.checkSeed(hs.Seed)
}

// settledMultipliers is each seat's settled multiplier of a hand played out
// at mult (doudizhu.md, Table options): farmer f at S_f = min(mult × its
// double factor, cap), the landlord l at their sum.
func (rt *randomTable) settledMultipliers(l, mult int) []int {
	out := make([]int, rt.n)
	for i := range out {
		if i == l {
			continue
		}
		f := 1
		if rt.doubled[i] {
			f = 2
			if rt.back {
				f = 4
			}
		}
		out[i] = mult * f
		if c := rt.r.v.opt.cap; c > 0 {
			out[i] = min(out[i], c)
		}
		out[l] += out[i]
	}
	return out
}

// mayGrab lists, from the bids alone, the seats that may grab from the
// caller in the order they speak: the seats after the caller that did not
// pass the call (doudizhu.md, Bidding, hubei, revised Decision).
func mayGrab(g *State) []int {
	passed := map[int]bool{}
	for _, b := range g.bids {
		if b.bid == 0 {
			passed[b.seat] = true
		}
	}
	var out []int
	for i := 1; i < g.v.seats; i++ {
		if s := (g.caller + i) % g.v.seats; !passed[s] {
			out = append(out, s)
		}
	}
	return out
}
