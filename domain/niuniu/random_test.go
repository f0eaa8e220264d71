package niuniu

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"paiju/audit"
	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
	"paiju/eventstore"
)

var tableSeedFlag = flag.Uint64("niuniu.table", 0, "run TestRandomGames for this one table seed only")

// randomTableSeeds are the tables TestRandomGames plays; a failure names its
// seed, and -niuniu.table=<seed> replays that table alone.
var randomTableSeeds = []uint64{
	1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946,
	17711, 28657, 46368, 75025, 121393, 196418, 317811, 514229, 832040, 1346269,
	2178309, 3524578, 5702887, 9227465, 14930352, 24157817, 39088169, 63245986, 102334155, 165580141,
}

const handsPerTable = 150 // × 40 tables = 6,000 settled hands

// TestRandomGames plays 6,000 hands of random legal actions at tables of 2, 3
// and 4 seats with every banker seat (an escape in about one hand in 30),
// two tables in three with a deadline and a clock that moves on between
// actions, so that reveals are called once the deadline has passed,
// through table.Join, table.Act and table.Apply, checks every event and
// settlement against the rules, and has audit.VerifyTable prove the
// recorded stream of every other table (3,000 hands: re-executing a stream
// costs more than playing it).
func TestRandomGames(t *testing.T) {
	t.Parallel()
	c := randomConfig(*tableSeedFlag, func(seed uint64) bool {
		return *tableSeedFlag != 0 || slices.Index(randomTableSeeds, seed)%2 == 0
	}, false)
	c.Done = randomDone
	gametest.PlayRandom(t, c)
}

// randomDone checks a random table once it has played its hands: a short
// deadline was exercised, and a recorded stream verifies.
func randomDone(t *testing.T, d *gametest.Driver) {
	rt := d.Game.(*randomTable)
	if s := rt.r.opts.ArrangeSeconds; s > 0 && s <= 10 && rt.reveals == 0 {
		t.Fatalf("table seed %d: a deadline of %d s and no reveal called in %d hands: the deadline is not exercised", d.Seed, s, d.Settled)
	}
	if rt.stream == nil {
		return
	}
	rep, err := audit.VerifyTable(func(o table.TableOpened) (table.Rules, error) {
		return New().Rules(o.Variant, o.Options)
	}, rt.stream)
	if err != nil {
		t.Fatalf("table seed %d: the recorded stream does not verify: %v", d.Seed, err)
	}
	if rep.Deals < rt.hands {
		t.Fatalf("table seed %d: %d deals verified, want ≥ %d", d.Seed, rep.Deals, rt.hands)
	}
}

// randomConfig is the random-hand test: the table seeds (only when not 0),
// the hands, the escapes; record says which tables keep their stream for
// the audit; house opens the tables with random house rules (niuniu.md,
// Table options).
func randomConfig(only uint64, record func(seed uint64) bool, house bool) gametest.RandomConfig {
	c := gametest.RandomConfig{
		Seeds: randomTableSeeds, Only: only, Hands: handsPerTable,
		Stream: 0x6e6975, MaxSteps: 500, Catalog: New(),
		Escapes: gametest.Escapes{OneIn: 30, Within: 6},
	}
	if house {
		c.Seeds, c.Hands, c.Stream = optionTableSeeds, optionHandsPerTable, 0x6f7074
	}
	c.New = func(d *gametest.Driver) gametest.RandomGame {
		rt := &randomTable{Driver: d, record: record(d.Seed), now: clockStart, withOptions: house, hands: c.Hands}
		d.Seeds = &datedSeq{SeedSeq: gametest.SeedSeq{ID: d.Seed}, now: &rt.now}
		return rt
	}
	return c
}

// randomTable is niuniu's side of a random table: it picks the actions,
// moves the clock and checks every action.
type randomTable struct {
	*gametest.Driver
	r *Rules
	// now is the table's clock; it moves on by a few seconds an action.
	now     time.Time
	record  bool
	stream  []eventstore.Event // as the store would hold it, when recording
	reveals int                // reveals called after a deadline
	hands   int                // the hands the table plays
	// withOptions opens the table with random house rules; house is the
	// table's, as the test restates them, and banker the running hand's.
	withOptions bool
	house       house
	banker      int
	// arranged is each seat's last arrangement in the running deal, as the
	// test saw it made.
	arranged [maxSeats]*table.Action
	// forfeit is the delta of each player who escaped from the running deal,
	// as the test worked it out when it escaped; nil for the others.
	forfeit [maxSeats]*int
}

// newRandomTable opens a table of random size, banker and stake; record
// keeps its stream for the audit.
func newRandomTable(t testing.TB, seed uint64, record bool) *randomTable {
	c := randomConfig(0, func(uint64) bool { return record }, false)
	return gametest.NewDriver(t, c, seed, nil).Game.(*randomTable)
}

// Open opens a table of random size, banker, deadline and stake.
func (rt *randomTable) Open() (table.Rules, []table.Payload) {
	seats := 2 + rt.Rng.IntN(3)
	deadline := 0
	if rt.Rng.IntN(3) > 0 {
		deadline = 1 + rt.Rng.IntN(60)
	}
	rt.house = house{mode: BankerFixed, b0: rt.Rng.IntN(seats), pay: seedPay}
	options := fmt.Sprintf(`{"seats":%d,"banker":%d,"arrange_seconds":%d}`, seats, rt.house.b0, deadline)
	if rt.withOptions {
		var more string
		rt.house, more = randomHouse(rt.Rng, seats)
		options = fmt.Sprintf(`{"seats":%d,"arrange_seconds":%d%s}`, seats, deadline, more)
	}
	r, err := New().Rules("classic", json.RawMessage(options))
	if err != nil {
		rt.T.Fatal(err)
	}
	rt.r = table.Adapted(r).(*Rules)
	evs, err := table.Open(r, fmt.Sprint("t", rt.Seed), "niuniu", "classic", 1+rt.Rng.IntN(5), "p0")
	if err != nil {
		rt.T.Fatal(err)
	}
	return r, evs
}

// Applied records e in the stream, when recording, and checks each deal.
func (rt *randomTable) Applied(e table.Payload) {
	if rt.record {
		data, err := json.Marshal(e)
		if err != nil {
			rt.Fatalf("encode %s: %v", e.EventType(), err)
		}
		rt.stream = append(rt.stream, eventstore.Event{Stream: "table-" + rt.St.ID, Version: rt.St.Version, Type: e.EventType(), Data: data})
	}
	if d, ok := e.(table.HandDealt); ok {
		rt.arranged = [maxSeats]*table.Action{}
		rt.forfeit = [maxSeats]*int{}
		rt.checkDeal(d)
	}
}

// Choose picks a random seat and one of its actions, moving the clock on.
func (rt *randomTable) Choose() (int, table.Action) {
	n := rt.r.Seats()
	var in []int // the seats still in the hand
	for seat := range n {
		legal := rt.r.Legal(rt.St.G.(*State), seat)
		switch {
		case rt.forfeit[seat] != nil && legal != nil:
			rt.Fatalf("seat %d's player escaped, yet the seat may %v (niuniu.md, Escape: it leaves the hand)", seat, legal)
		case rt.forfeit[seat] == nil && legal == nil:
			rt.Fatalf("seat %d may not act while the hand is arranged (niuniu.md, Arranging: every seat arranges)", seat)
		case rt.forfeit[seat] == nil:
			in = append(in, seat)
		}
	}
	seat := in[rt.Rng.IntN(len(in))]
	rt.now = rt.now.Add(time.Duration(rt.Rng.IntN(8000)) * time.Millisecond)
	legal := rt.r.LegalAt(rt.St.G.(*State), seat, rt.now)
	due := rt.Dealt.At.Add(time.Duration(rt.r.opts.ArrangeSeconds) * time.Second)
	wantReveal := rt.r.opts.ArrangeSeconds > 0 && !rt.now.Before(due)
	if got := slices.ContainsFunc(legal, func(a table.Action) bool { return a.Type == ActionReveal }); got != wantReveal {
		rt.Fatalf("at %s, deadline %s: reveal legal %v, want %v (niuniu.md, Arranging: the table's clock)", rt.now, due, got, wantReveal)
	}
	a := legal[rt.Rng.IntN(len(legal))]
	a.At = rt.now
	return seat, a
}

// After checks that no card moves while the hand is arranged.
func (rt *randomTable) After(gpre table.GameState, _ int, _ table.Action, _ []table.Payload) {
	pre, n := gpre.(*State), rt.r.Seats()
	if g := gametest.Game[State](rt.St); g.phase == phaseArranging && g.hand == pre.hand {
		for i := range n {
			if !slices.Equal(g.hands[i], rt.Dealt.Hands[i]) {
				rt.Fatalf("seat %d holds %s, was dealt %s: cards lost or invented", i, cards.Format(g.hands[i]), cards.Format(rt.Dealt.Hands[i]))
			}
		}
	}
}

// Events checks the events of an action against the state before it.
func (rt *randomTable) Events(gpre table.GameState, seat int, a table.Action, evs []table.Payload) {
	pre := gpre.(*State)
	switch e := evs[0].(type) {
	case HandArranged:
		hand := rt.Dealt.Hands[seat]
		want, _, _ := bruteBull(hand)
		if a.Type == ActionNoBull {
			want = NoBull
			if len(e.Cards) != 0 {
				rt.Fatalf("no_bull recorded with cards %s", cards.Format(e.Cards))
			}
		} else {
			held := cards.Of(hand)
			sum := 0
			for _, c := range e.Cards {
				sum += Value(c)
			}
			if len(e.Cards) != 3 || sum%10 != 0 || cards.Of(e.Cards) != cards.Of(a.Cards) || !held.Contains(e.Cards) {
				rt.Fatalf("seat %d %s recorded as %s (niuniu.md, Arranging)", seat, gametest.DescribeAction(a), cards.Format(e.Cards))
			}
		}
		if e.Seat != seat || e.Reading == nil || *e.Reading != want || e.Hidden {
			rt.Fatalf("seat %d %s of %s recorded as %+v, want %v (niuniu.md, Arranging)", seat, gametest.DescribeAction(a), cards.Format(hand), e, want)
		}
		rt.arranged[seat] = &a
	case table.PlayerEscaped:
		if a.Type != table.ActionEscape || e.Seat != seat || e.PlayerID != pre.Players[seat] {
			rt.Fatalf("seat %d %s emits %+v", seat, gametest.DescribeAction(a), e)
		}
		if b := rt.banker; seat != b {
			// The escaper is 没牛 and loses at once at the banker's multiplier,
			// the banker valued at its arrangement or else its best bull.
			d := -rt.St.Stake * rt.house.pay[rt.value(b)]
			rt.forfeit[seat] = &d
			f, ok := evs[1].(BoutForfeited)
			if !ok || f.Seat != seat || f.Delta != d || f.Multiplier != -d/rt.St.Stake {
				rt.Fatalf("seat %d escapes: %v, want BoutForfeited at delta %d (niuniu.md, Escape)", seat, gametest.EventTypes(evs), d)
			}
			rt.checkForfeitHidden(f)
		}
	case RevealCalled:
		if a.Type != ActionReveal || e.Seat != seat || !e.At.Equal(rt.now) {
			rt.Fatalf("seat %d %s at %s emits %+v", seat, gametest.DescribeAction(a), rt.now, e)
		}
		rt.reveals++
	default:
		rt.Fatalf("seat %d %s emits %T first", seat, gametest.DescribeAction(a), e)
	}
	all, playersIn := true, 0
	for i := range rt.r.Seats() {
		all = all && (rt.arranged[i] != nil || rt.forfeit[i] != nil || i == seat && a.Type != table.ActionEscape)
		if i != rt.banker && rt.forfeit[i] == nil {
			playersIn++
		}
	}
	wantTypes := []string{"HandArranged"}
	switch {
	case a.Type == table.ActionEscape && seat == rt.banker:
		wantTypes = []string{"PlayerEscaped", "HandSettled"}
	case a.Type == table.ActionEscape && playersIn == 0:
		wantTypes = []string{"PlayerEscaped", "BoutForfeited", "HandSettled"}
	case a.Type == table.ActionEscape && all:
		wantTypes = []string{"PlayerEscaped", "BoutForfeited", "HandsRevealed", "HandSettled"}
	case a.Type == table.ActionEscape:
		wantTypes = []string{"PlayerEscaped", "BoutForfeited"}
	case a.Type == ActionReveal:
		wantTypes = []string{"RevealCalled", "HandsRevealed", "HandSettled", "HandDealt", "DealSecret"}
	case all:
		wantTypes = []string{"HandArranged", "HandsRevealed", "HandSettled", "HandDealt", "DealSecret"}
	}
	if !rt.St.Full() && wantTypes[len(wantTypes)-1] == "DealSecret" {
		// A seat an escape freed stays empty until the hand ends: the
		// next deal waits for a player to sit down.
		wantTypes = wantTypes[:len(wantTypes)-2]
	}
	if got := gametest.EventTypes(evs); !slices.Equal(got, wantTypes) {
		rt.Fatalf("seat %d %s emits %v, want %v (niuniu.md, Arranging: the reveal comes when every seat has arranged or declared)", seat, gametest.DescribeAction(a), got, wantTypes)
	}
	switch last := len(wantTypes) - 1; {
	case a.Type == table.ActionEscape && wantTypes[last-1] == "HandsRevealed":
		rt.checkReveal(pre, evs[2].(HandsRevealed), evs[3].(table.HandSettled))
	case a.Type == table.ActionEscape && wantTypes[last] == "HandSettled":
		rt.checkEscape(pre, seat, evs[last].(table.HandSettled))
	case a.Type != table.ActionEscape && (all || a.Type == ActionReveal):
		rt.checkReveal(pre, evs[1].(HandsRevealed), evs[2].(table.HandSettled))
	}
}

// checkForfeitHidden: until the hand ends only the hand's banker (and the
// auditor) sees a forfeited bout whole, its multiplier telling the banker's
// class (doc.go, Hidden information), whoever the banker is this hand.
func (rt *randomTable) checkForfeitHidden(f BoutForfeited) {
	for viewer := table.Auditor; viewer < rt.r.Seats(); viewer++ {
		got := table.Redact(rt.St.Rules, f, viewer, false)
		whole := viewer == rt.banker || viewer == table.Auditor
		if whole != reflect.DeepEqual(got, f) || !whole && !reflect.DeepEqual(got, BoutForfeited{Seat: f.Seat, Hidden: true}) {
			rt.Fatalf("viewer %d sees the forfeit %+v of hand %d (banker %d) as %+v (doc.go, Hidden information)", viewer, f, rt.Dealt.Hand, rt.banker, got)
		}
	}
}

// value is what an escape counts seat's hand as (niuniu.md, Escape): its
// arrangement, or its best bull when it has none; a special class the
// table plays whatever it arranged (Table options, special_hands).
func (rt *randomTable) value(seat int) Bull {
	if b, _ := rt.house.special(rt.Dealt.Hands[seat]); b != NoBull {
		return b
	}
	if rt.arranged[seat] == nil {
		best, _, _ := bruteBull(rt.Dealt.Hands[seat])
		return best
	}
	return rt.reading(seat).Bull
}

// reading is what the test expects of seat at the reveal: its last
// arrangement's class, or no bull when it last declared none or never
// arranged (niuniu.md, Arranging: "不拼牌,按无牛处理").
func (rt *randomTable) reading(seat int) Reading {
	hand := rt.Dealt.Hands[seat]
	r := Reading{High: rt.highest(hand)}
	if a := rt.arranged[seat]; a != nil && a.Type == ActionArrange && rt.forfeit[seat] == nil {
		r.Bull, _, _ = bruteBull(hand)
	}
	if b, four := rt.house.special(hand); b != NoBull && rt.forfeit[seat] == nil {
		r.Bull, r.Four = b, four
	}
	return r
}

// highest is the highest card of hand by niuniu.md's order, spelled out.
func (rt *randomTable) highest(hand []cards.Card) cards.Card {
	key := func(c cards.Card) int {
		switch {
		case c == cards.RJ:
			return 100
		case c == cards.BJ:
			return 99
		case c.Rank == cards.Ace:
			return 4 - int(c.Suit)
		}
		return int(c.Rank)*4 + 3 - int(c.Suit)
	}
	best := hand[0]
	for _, c := range hand {
		if key(c) > key(best) {
			best = c
		}
	}
	return best
}

// bout is a player's delta against the banker (niuniu.md, Comparing and
// Settlement; Table options, multipliers and special_hands), restated.
func (rt *randomTable) bout(stake int, banker, player Reading) int {
	bankerWins := banker.Bull > player.Bull
	switch {
	case banker.Bull != player.Bull:
	case banker.Bull == Bomb:
		bankerWins = banker.Four > player.Four
	case banker.Bull > BullBull: // no banker's edge in special classes
		bankerWins = Higher(banker.High, player.High)
	default:
		edge := rankOrder(banker.High) <= 12 && rankOrder(player.High) <= 12
		bankerWins = edge || Higher(banker.High, player.High)
	}
	if bankerWins {
		return -stake * rt.house.pay[banker.Bull]
	}
	return stake * rt.house.pay[player.Bull]
}

func (rt *randomTable) checkReveal(pre *State, rev HandsRevealed, hs table.HandSettled) {
	n, b, stake := rt.r.Seats(), rt.banker, rt.St.Stake
	if rev.Hand != pre.hand || len(rev.Hands) != n {
		rt.Fatalf("reveal %+v", rev)
	}
	want := make([]int, n)
	for i, h := range rev.Hands {
		exp := rt.reading(i)
		if h.Seat != i || !slices.Equal(h.Cards, rt.Dealt.Hands[i]) || h.Reading != exp {
			rt.Fatalf("seat %d revealed as %+v, want its dealt %s as %+v (niuniu.md, Arranging)", i, h, cards.Format(rt.Dealt.Hands[i]), exp)
		}
		switch {
		case i == b:
		case rt.forfeit[i] != nil:
			want[i] = *rt.forfeit[i] // lost at the escape, whatever the reveal shows
			want[b] -= want[i]
		default:
			want[i] = rt.bout(stake, rt.reading(b), exp)
			want[b] -= want[i]
		}
	}
	rt.checkSettled(pre, hs, want, "niuniu.md, Comparing and Settlement")
}

func (rt *randomTable) checkEscape(pre *State, seat int, hs table.HandSettled) {
	n, b, stake := rt.r.Seats(), rt.banker, rt.St.Stake
	want := make([]int, n)
	for i := range n {
		switch {
		case i == b:
			continue
		case rt.forfeit[i] != nil: // the escapers' bouts stand (the last escaper's included)
			want[i] = *rt.forfeit[i]
		case seat == b:
			want[i] = stake * rt.house.pay[rt.value(i)]
		default:
			rt.Fatalf("the escape of seat %d ends the hand while seat %d plays on (niuniu.md, Escape)", seat, i)
		}
		want[b] -= want[i]
	}
	rt.checkSettled(pre, hs, want, "niuniu.md, Escape")
}

func (rt *randomTable) checkSettled(pre *State, hs table.HandSettled, want []int, rule string) {
	rt.T.Helper()
	sum := 0
	for _, d := range hs.Deltas {
		sum += d
	}
	if !slices.Equal(hs.Deltas, want) || sum != 0 || hs.Hand != pre.hand {
		rt.Fatalf("hand %d settles %v, want %v, summing to 0 (%s)", pre.hand, hs.Deltas, want, rule)
	}
	var res Result
	if err := json.Unmarshal(hs.Result, &res); err != nil {
		rt.Fatalf("result %s: %v", hs.Result, err)
	}
	for _, bt := range res.Bouts {
		if bt.Delta != hs.Deltas[bt.Seat] {
			rt.Fatalf("bout %+v disagrees with deltas %v", bt, hs.Deltas)
		}
	}
	// The revealed seed opens the commitment and deals exactly the dealt hands.
	seed, err := cards.ParseSeed(hs.Seed)
	if err != nil || seed.Commitment() != rt.Dealt.Commitment {
		rt.Fatalf("revealed seed %q does not open the commitment %s (rules/README.md, Shuffling)", hs.Seed, rt.Dealt.Commitment)
	}
	n := rt.r.Seats()
	deck := cards.Deck(1)
	if rt.house.noJokers {
		deck = deck[:52] // niuniu.md, Table options, jokers: without BJ, RJ
	}
	stream := cards.NewStream(seed)
	cards.Shuffle(stream, deck)
	for i, c := range deck[:n*HandSize] {
		if !slices.Contains(rt.Dealt.Hands[i%n], c) {
			rt.Fatalf("the seed deals %s to seat %d, the deal has it elsewhere (doc.go, Dealing)", c, i%n)
		}
	}
	if rt.house.mode == BankerRandom {
		if b := int(stream.Below(uint64(n))); b != rt.Dealt.FirstSeat {
			rt.Fatalf("the seed draws banker %d after the shuffle, the deal names %d (niuniu.md, Table options, banker_mode)", b, rt.Dealt.FirstSeat)
		}
	}
}

func (rt *randomTable) checkDeal(d table.HandDealt) {
	rt.T.Helper()
	var all cards.Multiset
	for _, h := range d.Hands {
		if len(h) != HandSize {
			rt.Fatalf("a hand of %d cards, want 5 (niuniu.md)", len(h))
		}
		all.Add(h...)
	}
	for _, k := range all {
		if k > 1 {
			rt.Fatalf("a card dealt twice from one deck (niuniu.md)")
		}
	}
	if rt.house.noJokers && (all.Count(cards.BJ) > 0 || all.Count(cards.RJ) > 0) {
		rt.Fatalf("a joker dealt at a table without jokers (niuniu.md, Table options, jokers)")
	}
	n := rt.r.Seats()
	want := rt.house.b0 // fixed
	switch rt.house.mode {
	case BankerRotate:
		want = (rt.house.b0 + d.Hand - 1) % n
	case BankerRandom:
		want = d.FirstSeat // the seed's draw, checked at the settlement
	}
	if len(d.Hands) != n || d.FirstSeat != want || d.FirstSeat < 0 || d.FirstSeat >= n || d.Deal != 1 {
		rt.Fatalf("deal %+v: want banker %d (niuniu.md, Table options, banker_mode)", d, want)
	}
	rt.banker = d.FirstSeat
}

// TestTamperingIsFound: the audit re-execution catches a recorded
// arrangement, reveal or settlement that the rules would not have produced.
func TestTamperingIsFound(t *testing.T) {
	rt := newRandomTable(t, 4242, true)
	for rt.Settled < 5 {
		rt.Step()
	}
	rulesOf := func(o table.TableOpened) (table.Rules, error) { return New().Rules(o.Variant, o.Options) }
	if _, err := audit.VerifyTable(rulesOf, rt.stream); err != nil {
		t.Fatalf("the clean stream does not verify: %v", err)
	}
	first := func(typ string) int {
		for i, e := range rt.stream {
			if e.Type == typ {
				return i
			}
		}
		t.Fatalf("no %s in the stream", typ)
		return -1
	}
	for _, tc := range []struct {
		name   string
		typ    string
		tamper func(data []byte) []byte
	}{
		{"an arrangement's class changed", "HandArranged", func(data []byte) []byte {
			var e HandArranged
			json.Unmarshal(data, &e)
			b := (*e.Reading + 1) % (BullBull + 1)
			e.Reading = &b
			out, _ := json.Marshal(e)
			return out
		}},
		{"a revealed class changed", "HandsRevealed", func(data []byte) []byte {
			var e HandsRevealed
			json.Unmarshal(data, &e)
			e.Hands[0].Bull = (e.Hands[0].Bull + 1) % (BullBull + 1)
			out, _ := json.Marshal(e)
			return out
		}},
		{"a bout's winner swapped", "HandSettled", func(data []byte) []byte {
			var e table.HandSettled
			json.Unmarshal(data, &e)
			e.Deltas[0], e.Deltas[1] = e.Deltas[1], e.Deltas[0]
			out, _ := json.Marshal(e)
			return out
		}},
	} {
		evs := slices.Clone(rt.stream)
		i := first(tc.typ)
		evs[i].Data = tc.tamper(evs[i].Data)
		if string(evs[i].Data) == string(rt.stream[i].Data) {
			continue // the change happened to be none (equal deltas)
		}
		_, err := audit.VerifyTable(rulesOf, evs)
		var f *audit.Fault
		if !errors.As(err, &f) || f.Version != evs[i].Version {
			t.Errorf("%s at version %d: got %v, want a fault there", tc.name, evs[i].Version, err)
		}
	}
}
