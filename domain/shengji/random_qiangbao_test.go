package shengji

import (
	"slices"
	"strconv"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

const (
	qiangbaoTables        = 40
	qiangbaoHandsPerTable = 125 // × 40 tables = 5,000 hands settled
)

// qiangbaoRandom is TestQiangbaoRandomHands: a quarter of the tables are
// audited (a match is 5 hands or more).
var qiangbaoRandom = randomVariant{
	rules: qiangbaoRules, firstSeed: 5000, tables: qiangbaoTables, hands: qiangbaoHandsPerTable,
	audited:  func(seed uint64) bool { return seed%4 == 0 },
	minDeals: 5,
	reach: []string{"TrumpDeclared", "qb_first_show", "qb_later_show", "override", "qb_pair_first", "KittyFlipped", "qb_no_trump",
		"qb_bury_done", "escape", "kitty_multiplier", "dealer_wins", "qb_small", "defenders_win", "qb_defenders_2",
		"qb_tiebreak", "TableClosed", "tractor_lead", "ruff_wins"},
}

func qiangbaoRules(t testing.TB) *Rules { return variantRules(t, "qiangbao", "") }

// TestQiangbaoRandomHands plays 5,000 hands of seed 002's team match
// (shengji.md, qiangbao) with random legal actions — shows during the draw
// and the final window, overrides by a pair, one-card buries, plays, and an
// escape in about one hand in 40 — with the invariants of TestRandomHands:
// the 108 cards accounted for after every action (25 each and an 8-card
// kitty), plays in turn, each trick re-judged. Besides: the first hand is
// dealt by the first to show, later hands by the last settlement's next
// dealer; the trump is the standing show's suit, else the kitty's third
// card's (none for a joker); trick points of both sides plus the buried
// cards' are 200; each settlement is restated from the match table (1/2/3
// points a side, zero-sum stakes, the level 3 throughout) and the match
// ends exactly when 5 hands or more are played out and the points are
// untied. Escapes pay 16 × stake and the house share balances them.
func TestQiangbaoRandomHands(t *testing.T) {
	t.Parallel()
	playRandom(t, qiangbaoRandom)
}

// qiangbaoApplying checks the qiangbao events against the state before
// them (shengji.md, qiangbao).
func (rt *randomTable) qiangbaoApplying(e table.Payload) {
	switch e.(type) {
	case TrumpDeclared, KittyFlipped, KittyTaken, KittyBuried, table.DealVoided, CardsPlayed:
	default:
		return // the table's own events come before any game state
	}
	g := rt.g()
	switch e := e.(type) {
	case TrumpDeclared:
		switch {
		case g.matchDealer < 0 && g.declarer >= 0:
			rt.Fatalf("hand %d: seat %d shows after seat %d in a first hand (shengji.md, qiangbao: 抢报, the first show deals)", g.hand, e.Seat, g.decls[g.declarer].seat)
		case g.declarer >= 0 && (e.Pairs != 1 || g.decls[g.declarer].pairs != 0):
			rt.Fatalf("hand %d: a show of %d pairs over one of %d (shengji.md, qiangbao Decision: a pair overrides a single, nothing a pair)", g.hand, e.Pairs, g.decls[g.declarer].pairs)
		case g.matchDealer < 0:
			rt.count("qb_first_show")
		default:
			rt.count("qb_later_show")
		}
		if g.declarer < 0 && e.Pairs == 1 {
			rt.count("qb_pair_first")
		}
		for _, c := range e.Cards {
			if c.IsJoker() || c.Rank != 3 || suitName(c.Suit) != e.Suit {
				rt.Fatalf("hand %d: show %s of suit %s (shengji.md, qiangbao: level cards, never jokers)", g.hand, cards.Format(e.Cards), e.Suit)
			}
		}
	case KittyFlipped:
		third := g.kitty[2]
		want := ""
		if !third.IsJoker() {
			want = suitName(third.Suit)
		} else {
			rt.count("qb_no_trump")
		}
		if g.declarer >= 0 || g.matchDealer < 0 || e.Suit != want || !slices.Equal(e.Cards, g.kitty[:3]) {
			rt.Fatalf("hand %d: kitty %s flipped to %s, suit %q (shengji.md, qiangbao: nobody shows in a later hand, the third card's suit, none for a joker)", g.hand, cards.Format(g.kitty), cards.Format(e.Cards), e.Suit)
		}
	case KittyTaken:
		want := g.matchDealer
		if want < 0 {
			want = g.decls[0].seat
		}
		if e.Seat != want || e.Level != "3" || len(e.Cards) != 8 {
			rt.Fatalf("hand %d: kitty of %d cards taken by %d at level %s, want seat %d at 3 (shengji.md, qiangbao)", g.hand, len(e.Cards), e.Seat, e.Level, want)
		}
	case KittyBuried:
		if len(e.Cards) != 1 || e.Seat != g.dealer {
			rt.Fatalf("hand %d: seat %d buries %s (shengji.md, qiangbao: the dealer buries, one card per action)", g.hand, e.Seat, cards.Format(e.Cards))
		}
		if len(g.buried) == 7 {
			rt.count("qb_bury_done")
		}
	case table.DealVoided:
		if g.matchDealer >= 0 || g.declarer >= 0 {
			rt.Fatalf("hand %d: deal voided (%s) with dealer %d, declarer %d (shengji.md, qiangbao: only a first hand nobody shows in)", g.hand, e.Reason, g.matchDealer, g.declarer)
		}
	case CardsPlayed:
		if g.tricks == 0 && len(g.trick) == 0 {
			rt.checkQiangbaoTrump()
		}
	}
}

// checkQiangbaoTrump: at the first lead, the trump suit is the standing
// show's, or the third kitty card's (shengji.md, qiangbao).
func (rt *randomTable) checkQiangbaoTrump() {
	g := rt.g()
	want := cards.Joker
	switch {
	case g.declarer >= 0:
		want = g.decls[g.declarer].suit
	case !g.kitty[2].IsJoker():
		want = g.kitty[2].Suit
	}
	if g.order.Trump != want || g.order.Level != 3 || len(g.buried) != 8 {
		rt.Fatalf("hand %d: trump %q level %s after %d buried, want %q level 3 and 8 (shengji.md, qiangbao)", g.hand, g.order.Trump.Letter(), g.order.Level, len(g.buried), want.Letter())
	}
}

// expectedQiangbao restates the match table (shengji.md, qiangbao):
// positive for the dealer side, negative for the defenders.
func expectedQiangbao(x int) int {
	rows := []struct{ lo, hi, score int }{
		{0, 0, 3}, {5, 25, 2}, {30, 75, 1}, {80, 115, -1}, {120, 155, -2},
	}
	for _, row := range rows {
		if x >= row.lo && x <= row.hi {
			return row.score
		}
	}
	return -3
}

// checkQiangbaoSettled restates a played-out qiangbao hand's settlement.
func (rt *randomTable) checkQiangbaoSettled(e table.HandSettled, res Result) {
	g := rt.g()
	kittyPts := points(g.buried)
	if g.defPts+g.dealPts+kittyPts != totalPoints {
		rt.Fatalf("hand %d: defenders %d + dealer side %d + kitty %d points ≠ 200", g.hand, g.defPts, g.dealPts, kittyPts)
	}
	x := g.defPts
	if g.isDefender(res.LastTrick) {
		x += kittyPts * rt.checkKittyFactor(res)
		rt.count("kitty_multiplier")
	}
	if res.DefenderPoints != x || res.TrickPoints != g.defPts {
		rt.Fatalf("hand %d: result says X = %d (tricks %d), the tricks say %d (tricks %d)", g.hand, res.DefenderPoints, res.TrickPoints, x, g.defPts)
	}
	score := expectedQiangbao(x)
	dside := sideOf(g.dealer)
	won, next := dside, partner(g.dealer)
	switch {
	case score > 0:
		rt.count("dealer_wins")
		if score >= 2 {
			rt.count("qb_small")
		}
	default:
		rt.count("defenders_win")
		if score <= -2 {
			rt.count("qb_defenders_2")
		}
		won, next = 1-dside, (g.dealer+1)%seats
		score = -score
	}
	for seat, d := range e.Deltas {
		want := score * g.Stake
		if sideOf(seat) != won {
			want = -want
		}
		if d != want {
			rt.Fatalf("hand %d, X = %d: seat %d gets %d, want %d (shengji.md, qiangbao: 1/2/3 a hand)", g.hand, x, seat, d, want)
		}
	}
	if *res.NextDealer != next || !slices.Equal(res.Levels, []string{"3", "3"}) || res.LevelSteps != 0 {
		rt.Fatalf("hand %d, X = %d: next dealer %d, levels %v (+%d), want %d and 3 for the whole match (shengji.md, qiangbao)", g.hand, x, *res.NextDealer, res.Levels, res.LevelSteps, next)
	}
	pts := g.matchPts
	pts[won] += score
	if !slices.Equal(res.MatchPoints, pts[:]) {
		rt.Fatalf("hand %d: match points %v, want %v", g.hand, res.MatchPoints, pts)
	}
	played := g.played + 1
	over := played >= 5 && pts[0] != pts[1]
	if over != (res.MatchWinner != nil) || (over && pts[*res.MatchWinner] < pts[1-*res.MatchWinner]) {
		rt.Fatalf("hand %d (%d played), points %v: match winner %v (shengji.md, qiangbao: 5 hands, then one more at a time while tied)", g.hand, played, pts, res.MatchWinner)
	}
	if played > 5 {
		rt.count("qb_tiebreak")
		rt.count("qb_tiebreak_hand_" + strconv.Itoa(played))
	}
}
