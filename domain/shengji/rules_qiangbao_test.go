package shengji

import (
	"encoding/json"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// qiangbaoLater is a later hand of a qiangbao match dealt by seat 1.
var qiangbaoLater = &matchAt{dealer: 1, levels: [2]int{3, 3}}

// TestQiangbaoDeal: 108 cards, 25 each drawn one per round and an 8-card
// kitty; the level is 3 from the first hand on (shengji.md, qiangbao).
func TestQiangbaoDeal(t *testing.T) {
	r := qiangbaoRules(t)
	st := openTable(t, r, 1, &gametest.SeedSeq{ID: 1})
	g := gametest.Game[State](st)
	all := cards.Of(g.kitty)
	for seat := range seats {
		if len(g.dealt[seat]) != 25 {
			t.Fatalf("seat %d is dealt %d cards, want 25 (shengji.md, qiangbao)", seat, len(g.dealt[seat]))
		}
		all.Add(g.dealt[seat]...)
	}
	if len(g.kitty) != 8 || all != twoDecks {
		t.Fatalf("kitty of %d cards, all 108 dealt: %v (shengji.md, qiangbao: 25 each and 8)", len(g.kitty), all == twoDecks)
	}
	if g.order.Level != 3 || g.levels != [2]int{3, 3} {
		t.Fatalf("level %s, sides %v: want 3 for the whole match (shengji.md, qiangbao)", g.order.Level, g.levels)
	}
	drawRounds(t, st, 24)
	if g.phase != phaseDrawing {
		t.Fatalf("after 24 rounds the hand is %s, want drawing", g.phase)
	}
	drawRounds(t, st, 1)
	if g.phase != phaseWindow || g.held[0].Len() != 25 {
		t.Fatalf("after 25 rounds: %s with %d cards, want the final window and 25", g.phase, g.held[0].Len())
	}
}

// TestQiangbaoShows: 抢报 in the first hand, shows and overrides in later
// hands, jokers never (shengji.md, qiangbao and its Decision).
func TestQiangbaoShows(t *testing.T) {
	r := qiangbaoRules(t)
	first := [4]string{"S3 S4 S3", "H3 H3", "BJ RJ", "D3"}
	type step struct {
		seat int
		show string
		code string // "" when accepted
	}
	cases := []struct {
		name  string
		match *matchAt
		first [4]string // the first three draws when not the test's own
		steps []step
		// dealer and trump when the window closes.
		dealer int
		trump  string
	}{
		{name: "first hand: the first show deals, nothing after it (抢报)", steps: []step{
			{2, "BJ", "invalid_declaration"},    // 常主不可進行報主
			{2, "BJ RJ", "invalid_declaration"}, //
			{0, "S4", "invalid_declaration"},    // not a level card
			{0, "S3 S4", "invalid_declaration"}, //
			{1, "H3 D3", "card_not_in_hand"},    // not drawn
			{3, "D3", ""},                       // the first show
			{1, "H3 H3", "already_declared"},    // 抢报: no override in the first hand
			{0, "S3", "already_declared"},       //
			{0, "S3 S3", "already_declared"},    //
		}, dealer: 3, trump: "D"},
		{name: "later hand: a pair overrides a single, nothing a pair", match: qiangbaoLater, steps: []step{
			{0, "S3", ""},
			{3, "D3", "declaration_too_weak"}, // a single does not override a single
			{0, "S3", "declaration_too_weak"},
			{1, "H3 H3", ""},                     // a pair overrides the single
			{0, "S3 S3", "declaration_too_weak"}, // nothing overrides a pair
			{2, "BJ RJ", "invalid_declaration"},
		}, dealer: 1, trump: "H"},
		{name: "later hand: the declarer's own pair overrides its single", match: qiangbaoLater, steps: []step{
			{0, "S3", ""},
			{0, "S3 S3", ""},
			{1, "H3 H3", "declaration_too_weak"},
		}, dealer: 1, trump: "S"},
		// shengji.md, qiangbao, turn 3 Decision (a change): a seat's own pair
		// overrides its own single only in the same suit.
		{name: "later hand: the declarer's own pair of another suit is refused", match: qiangbaoLater, first: [4]string{"S3 H3 H3", "C3 C3", "BJ RJ", "D3"}, steps: []step{
			{0, "S3", ""},
			{0, "H3 H3", "already_declared"},
			{1, "C3 C3", ""}, // another seat's pair of any suit still does
		}, dealer: 1, trump: "C"},
		{name: "later hand: a pair shown first stands", match: qiangbaoLater, steps: []step{
			{1, "H3 H3", ""},
			{3, "D3", "declaration_too_weak"},
			{0, "S3 S3", "declaration_too_weak"},
		}, dealer: 1, trump: "H"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := first
			if c.first != ([4]string{}) {
				f = c.first
			}
			st := deal{first: f, match: c.match}.build(t, r)
			drawRounds(t, st, 3)
			g := gametest.Game[State](st)
			for _, s := range c.steps {
				a := declareA(s.show)
				evs, err := r.Decide(g, s.seat, a)
				if s.code != "" {
					if !hasCode(err, s.code) {
						t.Fatalf("seat %d shows %s: %v, want %s (shengji.md, qiangbao)", s.seat, s.show, err, s.code)
					}
					continue
				}
				if err != nil {
					t.Fatalf("seat %d shows %s: %v, want it accepted (shengji.md, qiangbao)", s.seat, s.show, err)
				}
				d := evs[0].(TrumpDeclared)
				if d.Jokers != 0 || d.Pairs != len(a.Cards)-1 || d.Suit != a.Cards[0].Suit.Letter() {
					t.Fatalf("seat %d shows %s: %+v", s.seat, s.show, d)
				}
				gametest.MustAct(t, st, s.seat, a)
				// A show is public at once (亮出): every seat sees its suit.
				for other := range seats {
					if v := r.View(g, other).Game.(GameView); trumpOf(v) != d.Suit {
						t.Fatalf("seat %d sees trump %q after seat %d showed %s (shengji.md, qiangbao: level cards are shown)", other, trumpOf(v), s.seat, s.show)
					}
					if e := r.Redact(d, other, false).(TrumpDeclared); e.Suit != d.Suit || len(e.Cards) != len(d.Cards) {
						t.Fatalf("seat %d sees the show as %+v", other, e)
					}
				}
			}
			evs := closeWindow(t, st)
			kt := evs[len(evs)-1].(KittyTaken)
			if kt.Seat != c.dealer || g.order.Trump.Letter() != c.trump || kt.Level != "3" || len(kt.Cards) != 8 {
				t.Fatalf("kitty taken by %d, trump %q, level %s: want dealer %d and trump %s (shengji.md, qiangbao)", kt.Seat, g.order.Trump.Letter(), kt.Level, c.dealer, c.trump)
			}
		})
	}
}

// TestQiangbaoNobodyShows: a later hand takes the trump suit of the kitty's
// third card from the top, none (无主) when it is a joker; a first hand is
// dealt again (shengji.md, qiangbao).
func TestQiangbaoNobodyShows(t *testing.T) {
	r := qiangbaoRules(t)
	cases := []struct {
		name    string
		kitty   string
		match   *matchAt
		voided  bool
		flipped string
		trump   string
	}{
		{name: "third card ♣", kitty: "SA D9 C7 H2 H2 S5 S6 S7", match: qiangbaoLater, flipped: "SA D9 C7", trump: "C"},
		{name: "jokers before the third card do not count", kitty: "RJ BJ H8 C9 S2 S4 S5 S6", match: qiangbaoLater, flipped: "RJ BJ H8", trump: "H"},
		{name: "third card a joker: no trump suit", kitty: "H4 D9 RJ C9 S2 H5 S5 S6", match: qiangbaoLater, flipped: "H4 D9 RJ", trump: ""},
		{name: "third card a level card: its suit", kitty: "H4 D9 D3 C9 S2 H5 S5 S6", match: qiangbaoLater, flipped: "H4 D9 D3", trump: "D"},
		{name: "first hand: dealt again", kitty: "SA D9 C7 H2 H2 S5 S6 S7", voided: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := deal{first: [4]string{"S2", "S3", "S4", "S5"}, kitty: c.kitty, match: c.match}.build(t, r)
			evs := closeWindow(t, st)
			if c.voided {
				if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"DeclarePassed", "DealVoided", "HandDealt", "DealSecret"}) || evs[1].(table.DealVoided).Reason != "no_declaration" {
					t.Fatalf("first hand, nobody shows: %v, want a re-deal (shengji.md, qiangbao)", got)
				}
				return
			}
			if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"DeclarePassed", "KittyFlipped", "KittyTaken"}) {
				t.Fatalf("nobody shows: %v", got)
			}
			f := evs[1].(KittyFlipped)
			g := gametest.Game[State](st)
			if cards.Format(f.Cards) != c.flipped || f.Suit != c.trump || g.order.Trump.Letter() != c.trump {
				t.Fatalf("flipped %s suit %q, trump %q: want %s and %q (shengji.md, qiangbao: the third card)", cards.Format(f.Cards), f.Suit, g.order.Trump.Letter(), c.flipped, c.trump)
			}
			if kt := evs[2].(KittyTaken); kt.Seat != 1 || kt.Declarer != nil {
				t.Fatalf("%+v: the dealer does not change (shengji.md, qiangbao)", kt)
			}
			// 无主 is a known trump: the view says "none", never null.
			want := c.trump
			if want == "" {
				want = "none"
			}
			if v := r.View(g, 0).Game.(GameView); trumpOf(v) != want || cards.Format(v.Flipped) != c.flipped {
				t.Fatalf("seat 0 sees trump %q flipped %s, want %q", trumpOf(v), cards.Format(v.Flipped), want)
			}
		})
	}
}

// TestQiangbaoNoTrump: with no trump suit (无主) the trumps are the jokers
// and the level cards, every level card equal and right under BJ
// (shengji.md, qiangbao; doc.go, Decisions).
func TestQiangbaoNoTrump(t *testing.T) {
	o := Order{Level: 3, Trump: cards.Joker}
	for _, c := range []struct {
		card  string
		trump bool
	}{{"RJ", true}, {"BJ", true}, {"S3", true}, {"D3", true}, {"SA", false}, {"H2", false}} {
		if got := o.IsTrump(cards.MustParse(c.card)[0]); got != c.trump {
			t.Fatalf("无主, level 3: %s trump %v, want %v (shengji.md, qiangbao)", c.card, got, c.trump)
		}
	}
	if o.Pos(cards.MustParse("S3")[0]) != o.Pos(cards.MustParse("D3")[0]) || o.Pos(cards.MustParse("S3")[0])+1 != o.Pos(cards.BJ) {
		t.Fatalf("无主: level cards equal and right under BJ")
	}
	for _, c := range []struct {
		play string
		ok   bool
	}{{"S3 S3 BJ BJ", true}, {"S3 S3 H3 H3", false}, {"BJ BJ RJ RJ", true}, {"SA SA S2 S2", false}, {"SK SK SA SA", true}} {
		rd, ok := o.read(cards.MustParse(c.play))
		if got := ok && rd.shape.Pairs == 2; got != c.ok {
			t.Fatalf("无主: %s a tractor: %v, want %v", c.play, got, c.ok)
		}
	}
}

// TestQiangbaoScore: the points of a hand by the defenders' points X
// (shengji.md, qiangbao: dealer side 1 under 80, 2 under 30, 3 at 0;
// Decision: defenders 1 at 80–115, 2 at 120–155, 3 from 160).
func TestQiangbaoScore(t *testing.T) {
	for _, c := range []struct {
		x          int
		dealerWins bool
		points     int
	}{
		{0, true, 3}, {5, true, 2}, {25, true, 2}, {30, true, 1}, {75, true, 1},
		{80, false, 1}, {115, false, 1}, {120, false, 2}, {155, false, 2}, {160, false, 3}, {200, false, 3}, {600, false, 3},
	} {
		if w, k := qiangbaoScore(c.x, defaultStep); w != c.dealerWins || k != c.points {
			t.Fatalf("X = %d: dealer wins %v with %d, want %v with %d (shengji.md, qiangbao)", c.x, w, k, c.dealerWins, c.points)
		}
	}
}

// TestQiangbaoMatchWinner: after 5 played hands the side with more points
// wins; a tie plays one more hand at a time (shengji.md, qiangbao).
func TestQiangbaoMatchWinner(t *testing.T) {
	for _, c := range []struct {
		name       string
		played     int
		pts        [2]int
		dealer     int
		dealerWins bool
		k          int
		single     bool
		want       []int
		winner     int // -1: the match goes on
	}{
		{"4th hand: no winner yet", 3, [2]int{6, 0}, 0, true, 3, false, []int{9, 0}, -1},
		{"5th hand: the side ahead wins", 4, [2]int{3, 2}, 0, true, 1, false, []int{4, 2}, 0},
		{"5th hand: defenders catch up, tied", 4, [2]int{3, 2}, 0, false, 1, false, []int{3, 3}, -1},
		{"6th hand breaks the tie", 5, [2]int{3, 3}, 2, false, 2, false, []int{3, 5}, 1},
		{"7th hand, still tied before it", 6, [2]int{4, 4}, 1, true, 1, false, []int{4, 5}, 1},
		{"single-hand table: no match", 0, [2]int{0, 0}, 0, true, 3, true, []int{3, 0}, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			opt := ""
			if c.single {
				opt = `{"match":false}`
			}
			s := variantRules(t, "qiangbao", opt).NewState()
			s.played, s.matchPts, s.dealer = c.played, c.pts, c.dealer
			var res Result
			s.qiangbaoMatch(&res, c.dealerWins, c.k)
			winner := -1
			if res.MatchWinner != nil {
				winner = *res.MatchWinner
			}
			if !slices.Equal(res.MatchPoints, c.want) || winner != c.winner {
				t.Fatalf("points %v, winner %d: want %v and %d (shengji.md, qiangbao: 5 hands, ties play on)", res.MatchPoints, winner, c.want, c.winner)
			}
		})
	}
}

// TestQiangbaoBury: the dealer takes the 8-card kitty and buries 8, one
// card per action; Legal lists each distinct card once (shengji.md,
// qiangbao; doc.go: the bury in steps).
func TestQiangbaoBury(t *testing.T) {
	r := qiangbaoRules(t)
	st := deal{first: [4]string{"S2", "S3 S4 S5", "S4", "S5"}, kitty: "H2 H2 H4 H5 H6 H7 H8 H9", match: qiangbaoLater}.build(t, r)
	closeWindow(t, st)
	g := gametest.Game[State](st)
	if g.phase != phaseBurying || g.burier != 1 || g.held[1].Len() != 33 {
		t.Fatalf("%s, burier %d with %d cards: want seat 1 burying with 33", g.phase, g.burier, g.held[1].Len())
	}
	legal := r.Legal(g, 1)
	distinct := len(slices.Compact(g.held[1].Cards()))
	if len(legal) != distinct {
		t.Fatalf("Legal lists %d buries, want one per distinct card: %d", len(legal), distinct)
	}
	for _, a := range legal {
		if len(a.Cards) != 1 || a.Type != ActionBury {
			t.Fatalf("Legal lists %s", gametest.DescribeAction(a))
		}
		if _, err := r.Decide(g, 1, a); err != nil {
			t.Fatalf("Legal offers %s, Decide says %v", gametest.DescribeAction(a), err)
		}
	}
	if _, err := r.Decide(g, 1, buryA("H2 H2")); !hasCode(err, "bury_four") {
		t.Fatalf("two cards in one bury: %v, want bury_four (one card per action)", err)
	}
	if _, err := r.Decide(g, 0, buryA("S2")); !hasCode(err, "not_dealer") {
		t.Fatalf("seat 0 buries: %v, want not_dealer", err)
	}
	for i, c := range cards.MustParse("H2 H2 H4 H5 H6 H7 H8 H9") {
		if g.phase != phaseBurying {
			t.Fatalf("after %d cards buried the hand is %s, want burying until 8", i, g.phase)
		}
		evs := gametest.MustAct(t, st, 1, table.Action{Type: ActionBury, Cards: []cards.Card{c}})
		if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"KittyBuried"}) {
			t.Fatalf("bury %s: %v (a show is public: no TrumpRevealed)", c, got)
		}
		if v := r.View(g, 0).Game.(GameView); v.Kitty != nil {
			t.Fatalf("seat 0 sees the buried %v", v.Kitty)
		}
	}
	if g.phase != phasePlaying || g.turn != 1 || cards.Format(g.buried) != "H2 H2 H4 H5 H6 H7 H8 H9" {
		t.Fatalf("after 8 buries: %s, turn %d, buried %s: want seat 1 to lead", g.phase, g.turn, cards.Format(g.buried))
	}
}

// TestQiangbaoOptions: qiangbao takes ningyang's options (its play and
// kitty multiplier are ningyang's) and records its own rules version.
func TestQiangbaoOptions(t *testing.T) {
	r := variantRules(t, "qiangbao", `{"kitty_multiplier":"double"}`)
	var o map[string]any
	if err := json.Unmarshal(r.Options(), &o); err != nil || o["kitty_multiplier"] != "double" || o["match"] != true {
		t.Fatalf("options %s", r.Options())
	}
	if r.Version() != "shengji/qiangbao/2" { // /2: a seat's own pair only in its single's suit
		t.Fatalf("rules version %q", r.Version())
	}
	if _, err := New().Rules("qiangbao", json.RawMessage(`{"kitty_deduction":true}`)); !hasCode(err, table.ErrBadOption.Code) {
		t.Fatalf("kitty_deduction on qiangbao: %v, want bad option", err)
	}
}

// TestQiangbaoOwnPairSuit: since qiangbao/2 a seat whose single stands may
// show a pair only of that single's suit, and its legal list offers no
// other (shengji.md, qiangbao, turn 3 Decision, a change); a table opened
// under qiangbao/1 replays as recorded, its own pair of any suit accepted.
func TestQiangbaoOwnPairSuit(t *testing.T) {
	for _, tc := range []struct {
		version string
		refused bool
	}{{"shengji/qiangbao/2", true}, {"shengji/qiangbao/1", false}} {
		t.Run(tc.version, func(t *testing.T) {
			r := rulesAt(t, tc.version, "qiangbao")
			st := deal{first: [4]string{"S3 H3 H3", "C3 C3", "BJ RJ", "D3"}, match: qiangbaoLater}.build(t, r)
			drawRounds(t, st, 3)
			gametest.MustAct(t, st, 0, declareA("S3"))
			g := gametest.Game[State](st)
			_, err := r.Decide(g, 0, declareA("H3 H3"))
			offered := false
			for _, a := range r.Legal(g, 0) {
				if a.Type == ActionDeclare && cards.Format(a.Cards) == "H3 H3" {
					offered = true
				}
			}
			if tc.refused && (!hasCode(err, "already_declared") || offered) {
				t.Fatalf("seat 0's own H3 H3 over its S3: %v, offered %v; want refused and not listed", err, offered)
			}
			if !tc.refused && (err != nil || !offered) {
				t.Fatalf("under %s seat 0's own H3 H3 over its S3: %v, offered %v; want accepted as recorded", tc.version, err, offered)
			}
		})
	}
}
