package shengji

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"paiju/audit"
	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
	"paiju/eventstore"
)

var tableSeedFlag = flag.Uint64("shengji.table", 0, "run TestRandomHands for this one table seed only")

const (
	randomTables  = 40
	handsPerTable = 130 // × 40 tables = 5,200 hands settled
)

// TestRandomHands plays 5,200 hands of random legal actions (draws,
// declarations and overrides, passes, burials, plays, and an escape in about
// one hand in 40) through table.Join, table.Act and table.Apply. After every
// action: the 108 cards are all accounted for; plays come in turn order;
// the play chosen from Legal is accepted. After every trick: the winner is
// the one shengji.md names. After every hand: trick points of both sides
// plus the kitty's are 200, and the settlement, levels and next dealer are
// those of the scoring table. Every 25th follow, Legal is cross-checked
// against checkFollow over all subsets of the hand (up to 4 cards). The
// streams of a quarter of the tables, with and without escapes, are verified
// by audit.VerifyTable.
func TestRandomHands(t *testing.T) {
	t.Parallel()
	r := ningyang(t)
	var ids []uint64
	for i := range uint64(randomTables) {
		ids = append(ids, 1000+i)
	}
	if *tableSeedFlag != 0 {
		ids = []uint64{*tableSeedFlag}
	} else {
		// The random hands must reach every rule path they claim to test.
		t.Cleanup(func() {
			seen.Lock()
			defer seen.Unlock()
			t.Logf("random hands: %v", seen.n)
			for _, k := range []string{"TrumpDeclared", "override", "KittyFlipped", "escape", "kitty_multiplier", "defenders_win", "dealer_wins", "TableClosed", "tractor_lead", "ruff_wins"} {
				if seen.n[k] == 0 {
					t.Errorf("no random hand reached %s", k)
				}
			}
		})
	}
	for _, id := range ids {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			t.Parallel()
			// Audit the tables without escapes and, since a settlement's
			// house share balances an escape (shengji.md, Escape), one kind
			// with them.
			audited := id%8 <= 1
			rt := newRandomTableKeep(t, r, id, id%8 != 0, audited)
			var first []eventstore.Event // the first match's stream
			for rt.settled < handsPerTable {
				if rt.st.Closed {
					// A side passed K: the next match opens a new table.
					if first == nil {
						first = rt.stream
					}
					rt.open()
				}
				rt.step()
			}
			if audited {
				if first == nil {
					first = rt.stream
				}
				rep, err := audit.VerifyTable(func(o table.TableOpened) (table.Rules, error) {
					return New().Rules(o.Variant, o.Options)
				}, first)
				if err != nil {
					t.Fatalf("table %d: a recorded legal game fails audit.VerifyTable: %v", id, err)
				}
				if rep.Deals < 10 {
					t.Fatalf("table %d: audit recomputed %d deals", id, rep.Deals)
				}
			}
		})
	}
}

// seen counts rule paths the random hands reached.
var seen = struct {
	sync.Mutex
	n map[string]int
}{n: map[string]int{}}

// legalMax is the longest Legal list seen per variant and phase.
var legalMax = struct {
	sync.Mutex
	n map[string]int
}{n: map[string]int{}}

// noteLegal records a Legal list of n actions in phase.
func (rt *randomTable) noteLegal(phase string, n int) {
	k := rt.r.v.name + "/" + phase
	legalMax.Lock()
	legalMax.n[k] = max(legalMax.n[k], n)
	legalMax.Unlock()
}

func count(k string) {
	seen.Lock()
	seen.n[k]++
	seen.Unlock()
}

// count counts a rule path of rt's variant (guafeng's keys are prefixed).
func (rt *randomTable) count(k string) {
	if rt.r.v.name != "ningyang" {
		k = rt.r.v.name + "/" + k
	}
	count(k)
}

var twoDecks = cards.Of(cards.Deck(decks))

type randomTable struct {
	t       testing.TB
	r       *Rules
	rng     *rand.Rand
	seeds   *gametest.SeedSeq
	st      *table.State
	escapes bool
	keep    bool // record the stream (for audit.VerifyTable)
	stream  []eventstore.Event

	settled, joins int
	escapeAt       int // action of the running hand at which seat escaper escapes; -1 none
	escaper, steps int
	played         cards.Multiset // cards played this deal
	playedBy       [seats]int
	follows        int
	levelsBefore   [2]int
	dealerBefore   int
	// noDeclare: never declare (the kitty is flipped); record: sees every
	// command and its events, for golden files.
	noDeclare bool
	record    func(join string, seat int, a *table.Action, evs []table.Payload)
	// The running hand's 粘牌 exchanges (guafeng), by stuck seat: cards
	// still owed, exchange trumps owed and exchange trumps given.
	exOwed, exTrumps, exGot [seats]int
	exTaken                 [seats]bool
	// measureBury lists the bury of one hand in ten through Legal, for
	// its length only (listing every bury is slow).
	measureBury bool
}

func newRandomTable(t testing.TB, r *Rules, id uint64, escapes bool) *randomTable {
	return newRandomTableKeep(t, r, id, escapes, !escapes)
}

// newRandomTableKeep is newRandomTable that records the stream when keep.
func newRandomTableKeep(t testing.TB, r *Rules, id uint64, escapes, keep bool) *randomTable {
	rt := &randomTable{t: t, r: r, rng: rand.New(rand.NewPCG(id, 0x736a)), seeds: &gametest.SeedSeq{ID: id}, escapes: escapes, keep: keep, escapeAt: -1}
	rt.open()
	return rt
}

// open opens a new table (a new match) and seats four players.
func (rt *randomTable) open() {
	rt.st = table.New(rt.r.untyped())
	rt.stream = nil
	evs, err := table.Open(rt.r.untyped(), "t", "shengji", rt.r.v.name, 1+rt.rng.IntN(3), "p0")
	if err != nil {
		rt.t.Fatal(err)
	}
	rt.apply(evs)
	for range seats {
		rt.join()
	}
}

func (rt *randomTable) join() {
	p := fmt.Sprintf("p%d", rt.joins)
	evs, err := table.Join(rt.st, p, "", -1, rt.seeds)
	rt.joins++
	if err != nil {
		rt.t.Fatal(err)
	}
	if rt.record != nil {
		rt.record(p, 0, nil, evs)
	}
	rt.apply(evs)
}

func (rt *randomTable) g() *State { return game(rt.st) }

// apply folds events, checking each hand's settlement before applying it.
func (rt *randomTable) apply(evs []table.Payload) {
	for _, e := range evs {
		switch e := e.(type) {
		case table.HandDealt:
			rt.played = cards.Multiset{}
			rt.playedBy = [seats]int{}
			rt.steps, rt.escapeAt = 0, -1
			rt.exOwed, rt.exTrumps, rt.exGot, rt.exTaken = [seats]int{}, [seats]int{}, [seats]int{}, [seats]bool{}
			rt.levelsBefore, rt.dealerBefore = rt.g().levels, rt.g().matchDealer
			if rt.escapes && rt.rng.IntN(40) == 0 {
				rt.escapeAt, rt.escaper = rt.rng.IntN(200), rt.rng.IntN(seats)
			}
		case TrumpDeclared:
			rt.count(e.EventType())
			if rt.g().declarer >= 0 {
				rt.count("override")
			}
			if e.Kind != "" {
				rt.count("guafeng_" + e.Kind)
			}
			if len(e.Stuck) > 1 {
				rt.count("several_stuck")
			}
		case TrumpReinforced:
			rt.count(e.EventType())
		case DeclarationTaken:
			rt.count(e.EventType())
			rt.checkTaken(e)
		case CardGiven:
			rt.count(e.EventType())
			rt.checkGiven(e)
		case LevelDropped:
			rt.count(e.EventType())
			if want := max(1, rt.levelsBefore[e.Side]-1); levelNumber(e.Level) != want {
				rt.t.Fatalf("悶牌: side %d at %s drops to %s (shengji.md, guafeng 悶牌: one level, not below A)", e.Side, levelName(rt.levelsBefore[e.Side]), e.Level)
			}
			rt.levelsBefore[e.Side] = levelNumber(e.Level)
		case KittyFlipped, table.TableClosed:
			rt.count(e.EventType())
		case table.DealVoided:
			rt.count(e.EventType())
			rt.count(e.Reason)
		case CardsPlayed:
			if len(rt.g().trick) == 0 && len(e.Cards) >= 4 {
				rt.count("tractor_lead")
			}
			switch {
			case len(rt.g().trick) > 0:
			case strings.HasPrefix(e.Shape, "rain"):
				rt.count("rain_lead")
			case e.Shape == "thunder":
				rt.count("thunder_lead")
			}
			rt.checkTurn(e)
			if rt.g().tricks == 0 && len(rt.g().trick) == 0 {
				rt.checkExchanged()
			}
			rt.played.Add(e.Cards...)
			rt.playedBy[e.Seat] += len(e.Cards)
		case TrickWon:
			rt.checkTrick(e)
		case table.HandSettled:
			rt.checkSettled(e)
			rt.settled++
		}
		if rt.keep {
			data, err := json.Marshal(e)
			if err != nil {
				rt.t.Fatal(err)
			}
			table.Apply(rt.st, e)
			rt.stream = append(rt.stream, eventstore.Event{Stream: "table-T", Version: rt.st.Version, Type: e.EventType(), Data: data})
			continue
		}
		table.Apply(rt.st, e)
	}
	// Cards move between places only at a trick's end, a draw, the kitty's
	// taking and burying: check there (a lone play only leaves a hand).
	if _, lone := evs[len(evs)-1].(CardsPlayed); rt.st.InDeal && !lone {
		rt.checkCards()
	}
}

// checkCards: every one of the 108 cards is in a hand, undrawn, in the kitty
// (before the dealer takes it), buried, or played (shengji.md: two decks, 26
// cards each, a 4-card kitty).
func (rt *randomTable) checkCards() {
	g := rt.g()
	var all cards.Multiset
	for seat := range seats {
		for i, k := range g.held[seat] {
			all[i] += k
		}
		if g.phase == phaseDrawing || g.round < handSize {
			all.Add(g.dealt[seat][g.round:]...)
		}
	}
	if g.phase <= phaseWindow {
		all.Add(g.kitty...)
	}
	all.Add(g.buried...)
	for i, k := range rt.played {
		all[i] += k
	}
	if all != twoDecks {
		rt.t.Fatalf("hand %d (%s): the 108 cards are not all accounted for (shengji.md: two decks)", g.hand, g.phase)
	}
	for seat := range seats {
		if g.phase == phasePlaying && g.held[seat].Len() != handSize-rt.playedBy[seat] {
			rt.t.Fatalf("hand %d: seat %d holds %d cards after playing %d", g.hand, seat, g.held[seat].Len(), rt.playedBy[seat])
		}
	}
}

// checkTurn: the dealer leads the first trick, each trick's winner the next;
// plays go round in seat order.
func (rt *randomTable) checkTurn(e CardsPlayed) {
	g := rt.g()
	want := g.dealer
	if g.lastWin >= 0 {
		want = g.lastWin
	}
	want = (want + len(g.trick)) % seats
	if e.Seat != want {
		rt.t.Fatalf("hand %d trick %d: seat %d played, want seat %d (shengji.md, Plays: the winner leads next)", g.hand, g.tricks+1, e.Seat, want)
	}
}

// checkTrick re-judges a trick with a plain restatement of the rule: among
// plays of the lead's shape in the led class or in trumps, trumps outrank
// side cards, then the top card decides, the first of equals winning.
func (rt *randomTable) checkTrick(e TrickWon) {
	g := rt.g()
	o := g.order
	if len(g.trick) != seats {
		rt.t.Fatalf("hand %d: trick %d won after %d plays", g.hand, e.Trick, len(g.trick))
	}
	lead, _ := o.read(g.trick[0].cards)
	win, best := -1, -1
	pts := 0
	for _, p := range g.trick {
		pts += points(p.cards)
		r, ok := o.read(p.cards)
		if !ok || r.shape != lead.shape || (r.class != lead.class && r.class != trumpClass) {
			continue
		}
		key := r.top
		if r.class == trumpClass {
			key += 100
		}
		if key > best {
			win, best = p.seat, key
		}
	}
	if win != g.trick[0].seat && lead.class != trumpClass && o.IsTrump(g.trick[slices.IndexFunc(g.trick, func(p trickPlay) bool { return p.seat == win })].cards[0]) {
		rt.count("ruff_wins")
	}
	if e.Seat != win || e.Points != pts {
		rt.t.Fatalf("hand %d trick %d: won by %d with %d points, want %d with %d (shengji.md, Plays)", g.hand, e.Trick, e.Seat, e.Points, win, pts)
	}
}

// expectedScore restates the scoring table of shengji.md (ningyang) row by
// row: positive for the dealer side, negative for the defenders.
func expectedScore(x int) int {
	rows := []struct{ lo, hi, score int }{
		{0, 0, 3}, {5, 40, 2}, {45, 75, 1}, {80, 115, -1}, {120, 155, -2}, {160, 195, -3},
	}
	for _, row := range rows {
		if x >= row.lo && x <= row.hi {
			return row.score
		}
	}
	return -3 - (x-160)/40 // every further 40: one more
}

func (rt *randomTable) checkSettled(e table.HandSettled) {
	g := rt.g()
	if rt.r.v.name == "guafeng" {
		rt.checkGuafengSettled(e)
		return
	}
	var res Result
	if err := json.Unmarshal(e.Result, &res); err != nil {
		rt.t.Fatal(err)
	}
	sum := 0
	for _, d := range e.Deltas {
		sum += d
	}
	if res.End == endEscape {
		rt.count("escape")
		x := res.CardsLeft[*res.Escaper]
		bonus := 0
		if x < 5 {
			bonus = 2
		} else if x < 10 {
			bonus = 1
		}
		for i, d := range e.Deltas {
			want := bonus * g.Stake
			if i == *res.Escaper {
				want = -16 * g.Stake
			}
			if d != want {
				rt.t.Fatalf("escape with %d cards left: seat %d gets %d, want %d (shengji.md, Escape)", x, i, d, want)
			}
		}
		if sum+res.House != 0 {
			rt.t.Fatalf("escape: deltas sum to %d, house %d: they must balance (shengji.md, Escape Decision)", sum, res.House)
		}
		return
	}
	if sum != 0 {
		rt.t.Fatalf("hand %d: deltas %v sum to %d (shengji.md, Scoring: stake multiples, zero-sum)", g.hand, e.Deltas, sum)
	}
	kittyPts := points(g.buried)
	if g.defPts+g.dealPts+kittyPts != totalPoints {
		rt.t.Fatalf("hand %d: defenders %d + dealer side %d + kitty %d points ≠ 200", g.hand, g.defPts, g.dealPts, kittyPts)
	}
	x := g.defPts
	if g.isDefender(res.LastTrick) {
		x += kittyPts * res.KittyMultiplier
		if res.KittyMultiplier < 2 {
			rt.t.Fatalf("hand %d: defenders won the last trick, kitty multiplier %d", g.hand, res.KittyMultiplier)
		}
	}
	if res.DefenderPoints != x || res.TrickPoints != g.defPts {
		rt.t.Fatalf("hand %d: result says X = %d (tricks %d), the tricks say %d (tricks %d)", g.hand, res.DefenderPoints, res.TrickPoints, x, g.defPts)
	}
	score := expectedScore(x)
	if res.KittyMultiplier > 0 {
		rt.count("kitty_multiplier")
	}
	if score > 0 {
		rt.count("dealer_wins")
	} else {
		rt.count("defenders_win")
	}
	dside := sideOf(g.dealer)
	levels := rt.levelsBefore
	next := partner(g.dealer)
	if score > 0 {
		levels[dside] += score
	} else {
		levels[1-dside] += -score - 1
		next = (g.dealer + 1) % seats
	}
	for seat, d := range e.Deltas {
		want := score * g.Stake
		if sideOf(seat) != dside {
			want = -want
		}
		if d != want {
			rt.t.Fatalf("hand %d, X = %d: seat %d gets %d, want %d (shengji.md, Scoring and levels)", g.hand, x, seat, d, want)
		}
	}
	if *res.NextDealer != next {
		rt.t.Fatalf("hand %d, X = %d: next dealer %d, want %d (shengji.md, Scoring: next dealer)", g.hand, x, *res.NextDealer, next)
	}
	for side, l := range levels {
		if res.Levels[side] != levelName(l) {
			rt.t.Fatalf("hand %d, X = %d, levels %v: side %d goes to %s, want %s (shengji.md, Scoring Decision: level steps)", g.hand, x, rt.levelsBefore, side, res.Levels[side], levelName(l))
		}
	}
	if rt.dealerBefore >= 0 && g.dealer != rt.dealerBefore {
		rt.t.Fatalf("hand %d: dealt by %d, the last settlement named %d", g.hand, g.dealer, rt.dealerBefore)
	}
	if rt.dealerBefore < 0 && g.declarer >= 0 && g.dealer != partner(g.decls[g.declarer].seat) {
		rt.t.Fatalf("hand %d: first hand dealt by %d, declarer %d (shengji.md: the declarer's partner deals)", g.hand, g.dealer, g.decls[g.declarer].seat)
	}
}

// step takes one random legal action.
func (rt *randomTable) step() {
	if !rt.st.InDeal {
		rt.join()
		return
	}
	g := rt.g()
	rt.steps++
	if rt.steps == rt.escapeAt {
		rt.do(rt.escaper, table.Action{Type: table.ActionEscape})
		return
	}
	switch g.phase {
	case phaseDrawing, phaseWindow:
		seat := rt.rng.IntN(seats)
		legal := rt.r.Legal(g, seat)
		rt.noteLegal("declare", len(legal))
		if len(legal) == 0 {
			return
		}
		a := legal[0] // draw or pass
		// noDeclare leaves guafeng's first hand alone: nobody declaring
		// there deals it again (悶牌 is a later hand's).
		quiet := rt.noDeclare && !(g.v.menPai && g.hand == 1)
		if len(legal) > 1 && rt.rng.IntN(4) == 0 && !quiet {
			a = legal[1+rt.rng.IntN(len(legal)-1)]
		}
		rt.do(seat, a)
	case phaseBurying:
		if rt.measureBury && g.hand%10 == 0 {
			rt.noteLegal("bury", len(rt.r.Legal(g, g.burier)))
		}
		if g.v.partnerBuries {
			rt.do(g.burier, table.Action{Type: ActionBury, Cards: rt.randomBury()})
			return
		}
		cs := g.held[g.dealer].Cards()
		rt.rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		rt.do(g.dealer, table.Action{Type: ActionBury, Cards: cs[:kittyLen]})
	case phaseExchanging:
		legal := rt.r.Legal(g, g.turn)
		rt.noteLegal("exchange", len(legal))
		if distinct := len(slices.Compact(g.handCards(g.turn, g.order))); len(legal) < distinct {
			rt.count("exchange_trump_forced")
		}
		if len(legal) == 0 {
			rt.t.Fatalf("hand %d: the sticker %d has no card to give (holds %s)", g.hand, g.turn, cards.Format(g.held[g.turn].Cards()))
		}
		rt.do(g.turn, legal[rt.rng.IntN(len(legal))])
	case phasePlaying:
		seat := g.turn
		legal := rt.r.Legal(g, seat)
		rt.noteLegal("play", len(legal))
		if len(legal) == 0 {
			rt.t.Fatalf("hand %d: seat %d on turn has no legal play (holds %s, trick %v)", g.hand, seat, cards.Format(g.held[seat].Cards()), g.trick)
		}
		if len(g.trick) > 0 {
			rt.follows++
			if rt.follows%25 == 0 && len(g.trick[0].cards) <= 4 {
				crossCheck(rt.t, g.order, g.held[seat], g.trick[0].cards)
			}
		}
		rt.do(seat, legal[rt.rng.IntN(len(legal))])
	}
}

func (rt *randomTable) do(seat int, a table.Action) {
	evs, err := table.Act(rt.st, seat, a, rt.seeds)
	if err != nil {
		rt.t.Fatalf("hand %d (%s): seat %d: legal action %s rejected: %v", rt.g().hand, rt.g().phase, seat, gametest.DescribeAction(a), err)
	}
	if rt.record != nil {
		rt.record("", seat, &a, evs)
	}
	rt.apply(evs)
}

// crossCheck compares follows (constructive) with checkFollow (predicate)
// over every sub-multiset of the hand of the lead's size.
func crossCheck(t testing.TB, o Order, hand cards.Multiset, lead []cards.Card) {
	t.Helper()
	legal := map[string]bool{}
	for _, f := range o.follows(hand, lead) {
		k := canon(f)
		if legal[k] {
			t.Fatalf("lead %s, hand %s: follows lists %s twice", cards.Format(lead), cards.Format(hand.Cards()), k)
		}
		legal[k] = true
	}
	n := 0
	subMultisets(hand, len(lead), func(pick []cards.Card) {
		ok := o.checkFollow(hand, lead, pick) == nil
		if ok != legal[canon(pick)] {
			t.Fatalf("lead %s (level %s, trump %s), hand %s: %s is legal by checkFollow: %v, listed by follows: %v (shengji.md, Plays)",
				cards.Format(lead), o.Level, o.Trump.Letter(), cards.Format(hand.Cards()), canon(pick), ok, legal[canon(pick)])
		}
		if ok {
			n++
		}
	})
	if n != len(legal) {
		t.Fatalf("lead %s, hand %s: %d legal subsets, follows lists %d", cards.Format(lead), cards.Format(hand.Cards()), n, len(legal))
	}
}
