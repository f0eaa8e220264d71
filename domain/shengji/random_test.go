package shengji

import (
	"encoding/json"
	"flag"
	"fmt"
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

var tableSeedFlag = flag.Uint64("shengji.table", 0, "run TestRandomHands and TestGuafengRandomHands for this one table seed only")

const (
	randomTables  = 40
	handsPerTable = 130 // × 40 tables = 5,200 hands settled

	// randomStream is the second word of the random tables' PCG generator
	// (goldenStream is the golden hands').
	randomStream = 0x736a
	// maxDealActions bounds the actions of one deal: 100 draws, the
	// declarations and passes, a bury, the exchanges and 104 plays stay
	// far below it.
	maxDealActions = 1000
	// maxDealTries bounds the random picks of one deal, a draw picking a
	// seat that may not act included, so that a deal where no seat may act
	// fails instead of hanging.
	maxDealTries = 100_000
)

// ningyangRandom is TestRandomHands: the tables without escapes are
// audited and, since a settlement's house share balances an escape
// (shengji.md, Escape), one kind with them.
var ningyangRandom = randomVariant{
	rules: ningyang, firstSeed: 1000, tables: randomTables, hands: handsPerTable,
	audited: func(seed uint64) bool { return seed%8 <= 1 }, minDeals: 10,
	reach: []string{"TrumpDeclared", "override", "KittyFlipped", "escape", "kitty_multiplier", "defenders_win", "dealer_wins", "TableClosed", "tractor_lead", "ruff_wins"},
}

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
	playRandom(t, ningyangRandom)
}

// randomVariant is the random-hand test of one variant: its tables (seeds
// from firstSeed on), the hands each settles, which tables audit.VerifyTable
// replays (needing at least minDeals deals recomputed), and the rule paths
// (count keys) the hands must reach.
type randomVariant struct {
	rules         func(testing.TB) *Rules
	firstSeed     uint64
	tables, hands int
	audited       func(seed uint64) bool
	minDeals      int
	measureBury   bool
	reach         []string
}

// playRandom plays the tables of v through gametest.PlayRandom; a seat
// escapes in about one deal in 40 at every table whose seed is not a
// multiple of 8.
func playRandom(t *testing.T, v randomVariant) {
	r := v.rules(t)
	c := randomConfig(r, randomStream, func(seed uint64) randomOptions {
		return randomOptions{escapes: seed%8 != 0, keep: v.audited(seed), measureBury: v.measureBury}
	})
	for i := range uint64(v.tables) {
		c.Seeds = append(c.Seeds, v.firstSeed+i)
	}
	c.Only, c.Hands = *tableSeedFlag, v.hands
	if c.Only == 0 && len(v.reach) > 0 {
		// The random hands must reach every rule path they claim to test.
		t.Cleanup(func() {
			if t.Skipped() {
				// Under -race PlayRandom skips (gametest.SkipUnderRace):
				// no hand was played to reach anything.
				return
			}
			seen.Lock()
			defer seen.Unlock()
			t.Logf("random hands: %v", seen.n)
			legalMax.Lock()
			defer legalMax.Unlock()
			t.Logf("longest Legal lists: %v", legalMax.n)
			for _, k := range v.reach {
				if seen.n[countKey(r.v.name, k)] == 0 {
					t.Errorf("no random %s hand reached %s", r.v.name, k)
				}
			}
		})
	}
	c.Done = func(t *testing.T, d *gametest.Driver) {
		rt := d.Game.(*randomTable)
		if !rt.keep {
			return
		}
		first := rt.first // the first match's stream
		if first == nil {
			first = rt.stream
		}
		rep, err := audit.VerifyTable(func(o table.TableOpened) (table.Rules, error) {
			return New().Rules(o.Variant, o.Options)
		}, first)
		if err != nil {
			t.Fatalf("table %d: a recorded legal game fails audit.VerifyTable: %v", d.Seed, err)
		}
		// Command re-creates each give of a 粘牌 exchange (guafeng).
		if slices.ContainsFunc(first, func(ev eventstore.Event) bool { return ev.Type == "CardGiven" }) {
			rt.count("audited_exchange")
		}

		if rep.Deals < v.minDeals {
			t.Fatalf("table %d: audit recomputed %d deals", d.Seed, rep.Deals)
		}
	}
	gametest.PlayRandom(t, c)
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

// countKey is the key of rule path k in variant (guafeng's keys are
// prefixed).
func countKey(variant, k string) string {
	if variant != "ningyang" {
		return variant + "/" + k
	}
	return k
}

// count counts a rule path of rt's variant.
func (rt *randomTable) count(k string) { count(countKey(rt.r.v.name, k)) }

var twoDecks = cards.Of(cards.Deck(decks))

// randomOptions are the choices of one random table.
type randomOptions struct {
	escapes bool // a seat escapes in about one deal in 40
	keep    bool // record the stream (for audit.VerifyTable)
	// noDeclare: never declare (the kitty is flipped).
	noDeclare bool
	// measureBury lists the bury of one hand in ten through Legal, for
	// its length only (listing every bury is slow).
	measureBury bool
}

// randomTable is 升级's side of a random table, for both variants: it
// picks the actions and checks every event (the variant's own checks where
// the rules differ) against the state before it.
type randomTable struct {
	*gametest.Driver
	r *Rules
	randomOptions
	stream []eventstore.Event // the running table's, when keep
	first  []eventstore.Event // the first closed table's, when keep

	// The escape of the running deal: at the escapeAt-th pick (-1: none)
	// seat escaper escapes. 升级 plans its escapes itself, not through
	// gametest.Escapes: it counts the picks of a seat that may not draw,
	// and draws nothing for the pick it replaces.
	escapeAt, escaper int
	// pointsChecked is the deal (a count of deals) whose views
	// checkPointsShown read: whether points show depends on the table's
	// options, not on the trick, so one trick a deal is enough.
	pointsChecked int
	tries         int            // picks in the running deal
	played        cards.Multiset // cards played this deal
	playedBy      [seats]int
	follows       int
	levelsBefore  [2]int
	dealerBefore  int
	// The running hand's 粘牌 exchanges (guafeng), by stuck seat: cards
	// still owed, trumps owed, exchange trumps (jokers, level cards, 2, 3,
	// 5) given, trumps given, and exchange trumps the sticker held as the
	// seat's exchange began.
	exOwed, exTrumps, exGot [seats]int
	exTrumpGot, exHeld      [seats]int
	exTaken                 [seats]bool
	// The 粘牌 kitty swap (guafeng): opened, closed; the kitty as buried.
	swapOpened, swapClosed bool
	buriedBy               []cards.Card
}

// randomConfig is a random table of r, its generator seeded with the table
// seed and stream, opts choosing per table seed. Players join as p0, p1, ….
func randomConfig(r *Rules, stream uint64, opts func(seed uint64) randomOptions) gametest.RandomConfig {
	return gametest.RandomConfig{
		Stream: stream, MaxSteps: maxDealActions, Catalog: New(),
		Player: func(n int) string { return fmt.Sprintf("p%d", n-1) },
		New: func(d *gametest.Driver) gametest.RandomGame {
			return &randomTable{Driver: d, r: r, randomOptions: opts(d.Seed), escapeAt: -1}
		},
	}
}

// newRandomTable opens a random table of r at seed id, recording its stream
// when it has no escapes.
func newRandomTable(t testing.TB, r *Rules, id uint64, escapes bool) *randomTable {
	c := randomConfig(r, randomStream, func(uint64) randomOptions { return randomOptions{escapes: escapes, keep: !escapes} })
	return gametest.NewDriver(t, c, id, nil).Game.(*randomTable)
}

// Open opens a new table (a new match) at a random stake.
func (rt *randomTable) Open() (table.Rules, []table.Payload) {
	if rt.first == nil {
		rt.first = rt.stream
	}
	rt.stream = nil
	evs, err := table.Open(rt.r.untyped(), "t", "shengji", rt.r.v.name, 1+rt.Rng.IntN(3), "p0")
	if err != nil {
		rt.T.Fatal(err)
	}
	return rt.r.untyped(), evs
}

func (rt *randomTable) g() *State { return gametest.Game[State](rt.St) }

// Applying checks each event against the state before it: a hand's
// settlement, a trick, a play's turn.
func (rt *randomTable) Applying(e table.Payload) {
	if rt.r.v.qiangbao {
		rt.qiangbaoApplying(e)
	}
	switch e := e.(type) {
	case table.HandDealt:
		rt.played = cards.Multiset{}
		rt.playedBy = [seats]int{}
		rt.tries, rt.escapeAt = 0, -1
		rt.exOwed, rt.exTrumps, rt.exGot, rt.exTaken = [seats]int{}, [seats]int{}, [seats]int{}, [seats]bool{}
		rt.exTrumpGot, rt.exHeld = [seats]int{}, [seats]int{}
		rt.swapOpened, rt.swapClosed = false, false
		rt.levelsBefore, rt.dealerBefore = rt.g().levels, rt.g().matchDealer
		if rt.escapes && rt.Rng.IntN(40) == 0 {
			rt.escapeAt, rt.escaper = rt.Rng.IntN(200), rt.Rng.IntN(seats)
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
	case KittyBuried:
		rt.buriedBy = e.Cards
	case KittySwapOpened, KittySwapped, KittySwapClosed:
		rt.count(e.EventType())
		rt.checkSwap(e)
	case LevelDropped:
		rt.count(e.EventType())
		o := rt.r.o
		if want := max(o.first(), rt.levelsBefore[e.Side]-1); o.levelNumber(e.Level) != want {
			rt.Fatalf("悶牌: side %d at %s drops to %s (shengji.md, guafeng 悶牌: one level, not below the start level)", e.Side, o.levelName(rt.levelsBefore[e.Side]), e.Level)
		}
		rt.levelsBefore[e.Side] = o.levelNumber(e.Level)
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
	}
}

// Applied records the stream, when keep, as the store would hold it.
func (rt *randomTable) Applied(e table.Payload) {
	if !rt.keep {
		return
	}
	data, err := json.Marshal(e)
	if err != nil {
		rt.T.Fatal(err)
	}
	rt.stream = append(rt.stream, eventstore.Event{Stream: "table-T", Version: rt.St.Version, Type: e.EventType(), Data: data})
}

// Events has nothing to check that Applying does not: 升级 checks each
// event against the state the events before it left.
func (rt *randomTable) Events(table.GameState, int, table.Action, []table.Payload) {}

// After checks the cards once an action's events are applied.
func (rt *randomTable) After(_ table.GameState, _ int, _ table.Action, evs []table.Payload) {
	// Cards move between places only at a trick's end, a draw, the kitty's
	// taking and burying: check there (a lone play only leaves a hand).
	if _, lone := evs[len(evs)-1].(CardsPlayed); rt.St.InDeal && !lone {
		rt.checkCards()
	}
	if _, trick := evs[len(evs)-1].(TrickWon); trick && rt.St.InDeal && rt.pointsChecked != rt.Settled+1 {
		rt.pointsChecked = rt.Settled + 1
		rt.checkPointsShown()
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
		if g.phase == phaseDrawing || g.round < g.v.handSize {
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
		rt.Fatalf("hand %d (%s): the 108 cards are not all accounted for (shengji.md: two decks)", g.hand, g.phase)
	}
	for seat := range seats {
		if g.phase == phasePlaying && g.held[seat].Len() != g.v.handSize-rt.playedBy[seat] {
			rt.Fatalf("hand %d: seat %d holds %d cards after playing %d", g.hand, seat, g.held[seat].Len(), rt.playedBy[seat])
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
		rt.Fatalf("hand %d trick %d: seat %d played, want seat %d (shengji.md, Plays: the winner leads next)", g.hand, g.tricks+1, e.Seat, want)
	}
}

// checkTrick re-judges a trick with a plain restatement of the rule: among
// plays of the lead's shape in the led class or in trumps, trumps outrank
// side cards, then the top card decides, the first of equals winning.
func (rt *randomTable) checkTrick(e TrickWon) {
	g := rt.g()
	o := g.order
	if len(g.trick) != seats {
		rt.Fatalf("hand %d: trick %d won after %d plays", g.hand, e.Trick, len(g.trick))
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
		rt.Fatalf("hand %d trick %d: won by %d with %d points, want %d with %d (shengji.md, Plays)", g.hand, e.Trick, e.Seat, e.Points, win, pts)
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
		rt.T.Fatal(err)
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
				rt.Fatalf("escape with %d cards left: seat %d gets %d, want %d (shengji.md, Escape)", x, i, d, want)
			}
		}
		if sum+res.House != 0 {
			rt.Fatalf("escape: deltas sum to %d, house %d: they must balance (shengji.md, Escape Decision)", sum, res.House)
		}
		return
	}
	if sum != 0 {
		rt.Fatalf("hand %d: deltas %v sum to %d (shengji.md, Scoring: stake multiples, zero-sum)", g.hand, e.Deltas, sum)
	}
	if rt.r.v.qiangbao {
		rt.checkQiangbaoSettled(e, res)
		return
	}
	kittyPts := points(g.buried)
	if g.defPts+g.dealPts+kittyPts != totalPoints {
		rt.Fatalf("hand %d: defenders %d + dealer side %d + kitty %d points ≠ 200", g.hand, g.defPts, g.dealPts, kittyPts)
	}
	x := g.defPts
	if g.isDefender(res.LastTrick) {
		x += kittyPts * rt.checkKittyFactor(res)
	}
	if res.DefenderPoints != x || res.TrickPoints != g.defPts {
		rt.Fatalf("hand %d: result says X = %d (tricks %d), the tricks say %d (tricks %d)", g.hand, res.DefenderPoints, res.TrickPoints, x, g.defPts)
	}
	score := expectedScoreStep(x, rt.r.o.step())
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
		levels[dside] = rt.wantLevel(levels[dside], score, true)
	} else {
		levels[1-dside] = rt.wantLevel(levels[1-dside], -score-1, false)
		next = (g.dealer + 1) % seats
	}
	for seat, d := range e.Deltas {
		want := score * g.Stake
		if sideOf(seat) != dside {
			want = -want
		}
		if d != want {
			rt.Fatalf("hand %d, X = %d: seat %d gets %d, want %d (shengji.md, Scoring and levels)", g.hand, x, seat, d, want)
		}
	}
	if *res.NextDealer != next {
		rt.Fatalf("hand %d, X = %d: next dealer %d, want %d (shengji.md, Scoring: next dealer)", g.hand, x, *res.NextDealer, next)
	}
	rt.checkLevels(res, levels, x, "shengji.md, Scoring Decision: level steps")
	if rt.dealerBefore >= 0 && g.dealer != rt.dealerBefore {
		rt.Fatalf("hand %d: dealt by %d, the last settlement named %d", g.hand, g.dealer, rt.dealerBefore)
	}
	if rt.dealerBefore < 0 && g.declarer >= 0 && g.dealer != partner(g.decls[g.declarer].seat) {
		rt.Fatalf("hand %d: first hand dealt by %d, declarer %d (shengji.md: the declarer's partner deals)", g.hand, g.dealer, g.decls[g.declarer].seat)
	}
}

// Choose picks one random legal action, or the planned escape; at a deal's
// first pick it checks the cards as dealt.
func (rt *randomTable) Choose() (int, table.Action) {
	if !rt.St.InDeal {
		rt.Fatalf("no deal to act in")
	}
	if rt.tries == 0 {
		rt.checkCards()
	}
	for {
		rt.tries++
		if rt.tries == rt.escapeAt {
			return rt.escaper, table.Action{Type: table.ActionEscape}
		}
		if seat, a, ok := rt.pick(); ok {
			return seat, a
		}
		if rt.tries > maxDealTries {
			rt.Fatalf("%d picks and no seat may act (%s)", rt.tries, rt.g().phase)
		}
	}
}

// pick picks a random legal action; !ok when it picked a drawing seat that
// may not act.
func (rt *randomTable) pick() (seat int, a table.Action, ok bool) {
	g := rt.g()
	switch g.phase {
	case phaseDrawing, phaseWindow:
		seat := rt.Rng.IntN(seats)
		legal := rt.r.Legal(g, seat)
		rt.noteLegal("declare", len(legal))
		if len(legal) == 0 {
			return 0, table.Action{}, false
		}
		a := legal[0] // draw or pass
		// noDeclare leaves guafeng's and qiangbao's first hand alone:
		// nobody declaring there deals it again (悶牌 and qiangbao's
		// third card are a later hand's).
		quiet := rt.noDeclare && !(g.v.menPai && g.hand == 1) && !(g.v.qiangbao && g.matchDealer < 0)
		if len(legal) > 1 && rt.Rng.IntN(4) == 0 && !quiet {
			a = legal[1+rt.Rng.IntN(len(legal)-1)]
		}
		return seat, a, true
	case phaseBurying:
		if rt.measureBury && g.hand%10 == 0 {
			rt.noteLegal("bury", len(rt.r.Legal(g, g.burier)))
		}
		if g.v.partnerBuries {
			return g.burier, table.Action{Type: ActionBury, Cards: rt.randomBury()}, true
		}
		if g.v.qiangbao {
			// One card per bury (shengji.md, qiangbao), picked from Legal.
			legal := rt.r.Legal(g, g.burier)
			rt.noteLegal("bury", len(legal))
			return g.burier, legal[rt.Rng.IntN(len(legal))], true
		}
		cs := g.held[g.dealer].Cards()
		rt.Rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		return g.dealer, table.Action{Type: ActionBury, Cards: cs[:kittyLen]}, true
	case phaseExchanging:
		legal := rt.r.Legal(g, g.turn)
		if g.swapStep() {
			rt.noteLegal("kitty_swap", len(legal))
		} else {
			rt.noteLegal("exchange", len(legal))
		}
		if distinct := len(slices.Compact(g.handCards(g.turn, g.order))); len(g.owed) > 0 && len(legal) < distinct {
			rt.count("exchange_trump_forced")
		}
		if len(legal) == 0 {
			rt.Fatalf("hand %d: the sticker %d has no card to give (holds %s)", g.hand, g.turn, cards.Format(g.held[g.turn].Cards()))
		}
		return g.turn, legal[rt.Rng.IntN(len(legal))], true
	case phasePlaying:
		seat := g.turn
		legal := rt.r.Legal(g, seat)
		rt.noteLegal("play", len(legal))
		if len(legal) == 0 {
			rt.Fatalf("hand %d: seat %d on turn has no legal play (holds %s, trick %v)", g.hand, seat, cards.Format(g.held[seat].Cards()), g.trick)
		}
		if len(g.trick) > 0 {
			rt.follows++
			if rt.follows%25 == 0 && len(g.trick[0].cards) <= 4 {
				crossCheck(rt.T, g.order, g.held[seat], g.trick[0].cards)
			}
		}
		return seat, legal[rt.Rng.IntN(len(legal))], true
	}
	return 0, table.Action{}, false
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
