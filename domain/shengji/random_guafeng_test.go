package shengji

import (
	"encoding/json"
	"fmt"
	"testing"

	"paiju/audit"
	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/eventstore"
)

const (
	guafengTables        = 40
	guafengHandsPerTable = 125 // × 40 tables = 5,000 hands settled
)

// TestGuafengRandomHands plays 5,000 刮风 hands of random legal actions —
// declarations, 沖主, 續牌, 粘牌 and the exchanges after the bury, passes,
// burials that hold every joker, plays of winds, rains and thunders, and an
// escape in about one hand in 40 — with the invariants of TestRandomHands:
// the 108 cards accounted for after every action, plays in turn, each trick
// re-judged, trick points of both sides plus the buried cards' face points
// 200, and every settlement restated from seed 003's table (levels, points,
// negative rows, next dealer, zero-sum). A quarter of the tables are
// replayed by audit.VerifyTable.
func TestGuafengRandomHands(t *testing.T) {
	t.Parallel()
	r := guafeng(t)
	ids := make([]uint64, 0, guafengTables)
	for i := range uint64(guafengTables) {
		ids = append(ids, 3000+i)
	}
	if *tableSeedFlag != 0 {
		ids = []uint64{*tableSeedFlag}
	} else {
		t.Cleanup(func() {
			seen.Lock()
			defer seen.Unlock()
			t.Logf("random hands: %v", seen.n)
			for _, k := range []string{"guafeng_override", "guafeng_stick", "TrumpReinforced", "CardsExchanged",
				"LevelDropped", "no_declaration", "rain_lead", "thunder_lead", "gf_kitty_deducted", "gf_negative",
				"gf_kitty_defenders", "gf_partner_buries", "gf_defenders_win", "escape", "TableClosed"} {
				if seen.n["guafeng/"+k] == 0 {
					t.Errorf("no random guafeng hand reached %s", k)
				}
			}
		})
	}
	for _, id := range ids {
		t.Run(fmt.Sprint(id), func(t *testing.T) {
			t.Parallel()
			audited := id%4 == 0
			rt := newRandomTableKeep(t, r, id, id%8 != 0, audited)
			var first []eventstore.Event
			for rt.settled < guafengHandsPerTable {
				if rt.st.Closed {
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
				// A 刮风 match is short: a side climbs up to 4 levels a hand.
				if rep.Deals < 3 {
					t.Fatalf("table %d: audit recomputed %d deals", id, rep.Deals)
				}
			}
		})
	}
}

// randomBury is a random bury of the rules: every joker the burier may
// bury (at most 4), then random cards that are not declaration cards a
// stick takes.
func (rt *randomTable) randomBury() []cards.Card {
	g := rt.g()
	free := g.buryable(g.burier)
	var out, rest []cards.Card
	for _, c := range free.Cards() {
		if c.IsJoker() && len(out) < kittyLen {
			out = append(out, c)
		} else if !c.IsJoker() {
			rest = append(rest, c)
		}
	}
	rt.rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	return append(out, rest[:kittyLen-len(out)]...)
}

// randomExchange is a random exchange of the sticker with the next stuck
// seat: one exchange trump per joker taken, the rest any cards.
func (rt *randomTable) randomExchange() []cards.Card {
	g := rt.g()
	st := g.owed[0]
	hand := g.held[g.turn]
	hand.Add(st.cards...)
	var trumps []cards.Card
	for _, c := range hand.Cards() {
		if g.order.isExchangeTrump(c) {
			trumps = append(trumps, c)
		}
	}
	rt.rng.Shuffle(len(trumps), func(i, j int) { trumps[i], trumps[j] = trumps[j], trumps[i] })
	out := trumps[:st.jokers]
	hand.Remove(out)
	rest := hand.Cards()
	rt.rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	return append(out, rest[:len(st.cards)-len(out)]...)
}

// gfExpectedScore restates seed 003's table (shengji.md, Scoring, guafeng):
// the points of each dealer-side seat (negative: the defenders win), the
// dealer side's and the defenders' level steps.
func gfExpectedScore(x int) (pts, dealerUp, defUp int) {
	rows := []struct{ lo, hi, dealerUp, defUp, pts int }{
		{-80, -45, 5, 0, 5},
		{-40, -5, 4, 0, 4},
		{0, 0, 3, 0, 3},
		{5, 35, 2, 0, 2},
		{40, 75, 1, 0, 1},
		{80, 115, 0, 0, -1},
		{120, 155, 0, 1, -2},
		{160, 195, 0, 2, -3},
		{200, 235, 0, 3, -4},
	}
	for _, row := range rows {
		if x >= row.lo && x <= row.hi {
			return row.pts, row.dealerUp, row.defUp
		}
	}
	if x < 0 { // every further 40 below: one more
		k := 5 + (-x-45)/40
		return k, k, 0
	}
	k := 4 + (x-200)/40
	return -k, 0, k - 1
}

// gfKittyWorth restates seed 003 note 3: RJ 100, BJ 50, a level card 20,
// other 10/K 10, other 5 5.
func gfKittyWorth(level cards.Rank, kitty []cards.Card) int {
	n := 0
	for _, c := range kitty {
		switch {
		case c == cards.RJ:
			n += 100
		case c == cards.BJ:
			n += 50
		case c.Rank == level:
			n += 20
		case c.Rank == 10 || c.Rank == cards.King:
			n += 10
		case c.Rank == 5:
			n += 5
		}
	}
	return n
}

func (rt *randomTable) checkGuafengSettled(e table.HandSettled) {
	g := rt.g()
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
		if sum+res.House != 0 || res.Penalty != 16*g.Stake {
			rt.t.Fatalf("escape: deltas %v, house %d, penalty %d (shengji.md, Escape)", e.Deltas, res.House, res.Penalty)
		}
		return
	}
	if sum != 0 {
		rt.t.Fatalf("hand %d: deltas %v sum to %d (shengji.md, Scoring: zero-sum)", g.hand, e.Deltas, sum)
	}
	if g.defPts+g.dealPts+points(g.buried) != totalPoints {
		rt.t.Fatalf("hand %d: defenders %d + dealer side %d + kitty %d points ≠ 200", g.hand, g.defPts, g.dealPts, points(g.buried))
	}
	if g.burier != g.dealer {
		rt.count("gf_partner_buries")
		if g.burier != partner(g.dealer) || g.decls[g.declarer].seat != g.dealer {
			rt.t.Fatalf("hand %d: seat %d buried for dealer %d, declarer %v (shengji.md, Kitty, guafeng)", g.hand, g.burier, g.dealer, res.Declarer)
		}
	} else if g.declarer >= 0 && g.decls[g.declarer].seat == g.dealer {
		rt.t.Fatalf("hand %d: the dealer declared and buried (shengji.md, Kitty, guafeng: the partner buries)", g.hand)
	}
	// The last trick's winning play: its size and whether it is trumps.
	var win []cards.Card
	for _, p := range g.lastTrick {
		if p.seat == res.LastTrick {
			win = p.cards
		}
	}
	trump := true
	for _, c := range win {
		trump = trump && g.order.IsTrump(c)
	}
	worth := gfKittyWorth(g.order.Level, g.buried)
	x := g.defPts
	switch {
	case !trump:
	case g.isDefender(res.LastTrick):
		x += worth * len(win)
		rt.count("gf_kitty_defenders")
	default:
		x -= worth * len(win)
		if worth > 0 {
			rt.count("gf_kitty_deducted")
		}
	}
	if res.DefenderPoints != x || res.KittyPoints != worth {
		rt.t.Fatalf("hand %d: X %d kitty %d, want %d and %d (trick points %d, last trick %s by %d; shengji.md, Kitty, guafeng)", g.hand, res.DefenderPoints, res.KittyPoints, x, worth, g.defPts, cards.Format(win), res.LastTrick)
	}
	if x < 0 {
		rt.count("gf_negative")
	}
	pts, dealerUp, defUp := gfExpectedScore(x)
	dside := sideOf(g.dealer)
	levels := rt.levelsBefore
	levels[dside] += dealerUp
	levels[1-dside] += defUp
	next := partner(g.dealer)
	if pts < 0 {
		next = (g.dealer + 1) % seats
		rt.count("gf_defenders_win")
	}
	for seat, d := range e.Deltas {
		want := pts * g.Stake
		if sideOf(seat) != dside {
			want = -want
		}
		if d != want {
			rt.t.Fatalf("hand %d, X = %d: seat %d gets %d, want %d (shengji.md, Scoring and levels, guafeng)", g.hand, x, seat, d, want)
		}
	}
	if *res.NextDealer != next {
		rt.t.Fatalf("hand %d, X = %d: next dealer %d, want %d (shengji.md, Scoring, guafeng: next dealer)", g.hand, x, *res.NextDealer, next)
	}
	for side, l := range levels {
		if res.Levels[side] != levelName(l) {
			rt.t.Fatalf("hand %d, X = %d, levels %v: side %d goes to %s, want %s (shengji.md, Scoring and levels, guafeng)", g.hand, x, rt.levelsBefore, side, res.Levels[side], levelName(l))
		}
	}
	if rt.dealerBefore >= 0 && g.dealer != rt.dealerBefore {
		rt.t.Fatalf("hand %d: dealt by %d, the last settlement named %d (shengji.md: later hands, the dealer does not change)", g.hand, g.dealer, rt.dealerBefore)
	}
	if rt.dealerBefore < 0 && g.dealer != g.decls[g.declarer].seat {
		rt.t.Fatalf("hand %d: first hand dealt by %d, final declarer %d (shengji.md, guafeng: the declarer is the dealer)", g.hand, g.dealer, g.decls[g.declarer].seat)
	}
}
