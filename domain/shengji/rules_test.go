package shengji

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

func TestGameAndOptions(t *testing.T) {
	g := New()
	if g.Name() != "shengji" || !slices.Equal(g.Variants(), []string{"ningyang", "guafeng", "qiangbao"}) {
		t.Fatalf("game %q variants %v", g.Name(), g.Variants())
	}
	r := ningyang(t)
	if string(r.Options()) != `{"match":true,"kitty_multiplier":"by_shape"}` {
		t.Fatalf("default options %s (shengji.md, Kitty Decision and Levels: match by default)", r.Options())
	}
	if r.Seats() != 4 {
		t.Fatalf("seats %d, want 4 (shengji.md: 4 players in two partnerships)", r.Seats())
	}
	for _, bad := range []string{`{"match":1}`, `{"kitty_multiplier":"triple"}`, `{"speed":2}`, `[1]`} {
		if _, err := g.Rules("ningyang", json.RawMessage(bad)); !errors.Is(err, table.ErrBadOption) {
			t.Errorf("options %s: got %v, want invalid_option", bad, err)
		}
	}
	if _, err := g.Rules("dahei", nil); !errors.Is(err, table.ErrUnknownVariant) {
		t.Errorf("variant dahei: got %v, want unknown_variant", err)
	}
	r2 := rulesOf(t, `{"match":false,"kitty_multiplier":"double"}`)
	if string(r2.Options()) != `{"match":false,"kitty_multiplier":"double"}` {
		t.Fatalf("options %s", r2.Options())
	}
}

// TestDrawOrder: card i of the shuffled deck is seat i mod 4's draw i/4+1,
// the last four are the kitty (doc.go, Dealing); a seat holds and sees only
// what it has drawn (shengji.md, The deal: "a player can only declare with
// cards already drawn").
func TestDrawOrder(t *testing.T) {
	r := ningyang(t)
	st := openTable(t, r, 1, &gametest.SeedSeq{ID: 7})
	seed, _ := (&gametest.SeedSeq{ID: 7}).NewSeed()
	deck, _ := cards.Shuffled(seed, decks)
	g := gametest.Game[State](st)
	for seat := range seats {
		for k := range handSize {
			if g.dealt[seat][k] != deck[4*k+seat] {
				t.Fatalf("seat %d draw %d: %s, deck card %d is %s (doc.go, Dealing)", seat, k+1, g.dealt[seat][k], 4*k+seat, deck[4*k+seat])
			}
		}
	}
	if !slices.Equal(g.kitty, deck[104:]) {
		t.Fatalf("kitty %s, want deck cards 104..107 %s", cards.Format(g.kitty), cards.Format(deck[104:]))
	}
	for round := 0; round <= handSize; round++ {
		for seat := range seats {
			want := slices.Clone(g.dealt[seat][:round])
			g.order.Sort(want)
			if got := r.View(g, seat).Hand; !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("after %d rounds seat %d sees %s, want its first %d draws %s", round, seat, cards.Format(got), round, cards.Format(want))
			}
		}
		if round < handSize {
			gametest.MustAct(t, st, round%seats, drawA())
		}
	}
	if g.phase != phaseWindow {
		t.Fatalf("after 26 rounds the phase is %s, want the final declaration window", g.phase)
	}
	if _, err := gametest.Act(st, 0, drawA()); !errors.Is(err, table.ErrWrongPhase) {
		t.Fatalf("a 27th draw: %v, want wrong_phase", err)
	}
}

// TestDeclarations: the worked examples and the declaration rules of
// shengji.md (The deal and trump declaration, ningyang).
func TestDeclarations(t *testing.T) {
	r := ningyang(t)
	d := deal{first: [4]string{
		"C2 C3 C4 C6 C8 C9 CJ",
		"BJ H9 H9 S2 S2 S3",
		"RJ S9 S9 S10 S10 H3 H3",
		"BJ D4 D4 D5 D5 D6 D6",
	}, kitty: "C7 C7 C10 C10"}
	st := d.build(t, r)
	drawRounds(t, st, 7)
	cases := []struct {
		seat int
		a    table.Action
		code string
		rule string
	}{
		{0, declareA("C2 C3"), "invalid_declaration", "a joker and a pair"},
		{1, declareA("H9 H9"), "invalid_declaration", "no joker"},
		{1, declareA("BJ S2 S3"), "invalid_declaration", "not a pair"},
		{1, declareA("BJ H9 H9 S2 S2"), "invalid_declaration", "pairs of two suits"},
		{2, declareA("RJ S9 S9 H3 H3"), "invalid_declaration", "pairs of two suits"},
		{1, declareA("BJ S2 S2 S3"), "invalid_declaration", "odd cards"},
		{2, declareA("RJ S10 S10 S10"), "card_not_in_hand", "three of a card"},
		{3, declareA("BJ D4 D4 D6 D6"), "invalid_declaration", "pairs not consecutive"},
		{3, declareA("RJ D4 D4"), "card_not_in_hand", "a joker not drawn"},
		{1, declareA("BJ H9 H9"), "", "BJ + H9 H9 declares hearts"},
		{1, declareA("BJ S2 S2"), "already_declared", "the declarer does not override itself"},
		{3, declareA("BJ D4 D4"), "declaration_too_weak", "equal strength: the first stands"},
		{2, declareA("RJ S9 S9 S10 S10"), "", "a tractor beats a pair"},
		{3, declareA("BJ D5 D5 D6 D6"), "declaration_too_weak", "two pairs do not beat two pairs"},
		{3, declareA("BJ D4 D4 D5 D5 D6 D6"), "", "three pairs beat two"},
		{1, declareA("BJ S2 S2 S3 S3"), "card_not_in_hand", "S3 S3 not drawn"},
		{1, passA(), "wrong_phase", "pass only in the final window"},
	}
	for _, c := range cases {
		_, err := gametest.Act(st, c.seat, c.a)
		switch {
		case c.code == "" && err != nil:
			t.Fatalf("seat %d %s: %v, want accepted (shengji.md, ningyang declarations: %s)", c.seat, gametest.DescribeAction(c.a), err, c.rule)
		case c.code != "" && !hasCode(err, c.code):
			t.Fatalf("seat %d %s: %v, want %s (shengji.md, ningyang declarations: %s)", c.seat, gametest.DescribeAction(c.a), err, c.code, c.rule)
		}
	}
	g := gametest.Game[State](st)
	if len(g.decls) != 3 || g.decls[g.declarer].seat != 3 || g.decls[g.declarer].suit != cards.Diamonds {
		t.Fatalf("declarations %+v", g.decls)
	}
	// Hidden (暗亮): seat 0 sees who declared and how strong, never the suit.
	v := r.View(g, 0).Game.(GameView)
	for _, dv := range v.Declarations {
		if dv.Suit != "" || dv.Cards != nil {
			t.Fatalf("seat 0 sees declaration %+v before the kitty is buried (shengji.md: hidden until the kitty is buried)", dv)
		}
	}
	if trumpOf(v) != "" || v.Declarations[2].Pairs != 3 || v.Declarations[2].Jokers != 1 || *v.Declarer != 3 {
		t.Fatalf("seat 0's view of the declarations: %+v, trump %q", v.Declarations, trumpOf(v))
	}
	if own := r.View(g, 3).Game.(GameView).Declarations[2]; own.Suit != "D" {
		t.Fatalf("the declarer sees its own declaration %+v", own)
	}
	// Final window: a seat passes once; after passing it may not declare.
	closeWindowExcept(t, st, 0)
	if _, err := gametest.Act(st, 2, declareA("RJ S9 S9 S10 S10")); !errors.Is(err, ErrAlreadyPassed) {
		t.Fatalf("declaring after passing: %v, want already_passed (doc.go, Decisions: a seat passes once)", err)
	}
	if _, err := gametest.Act(st, 2, passA()); !errors.Is(err, ErrAlreadyPassed) {
		t.Fatalf("passing twice: %v, want already_passed", err)
	}
	evs := gametest.MustAct(t, st, 0, passA())
	if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"DeclarePassed", "KittyTaken"}) {
		t.Fatalf("last pass: %v, want DeclarePassed KittyTaken", got)
	}
	kt := evs[1].(KittyTaken)
	if kt.Seat != 1 || *kt.Declarer != 3 || kt.Level != "A" {
		t.Fatalf("%+v: want dealer 1, the partner of the final declarer 3, level A (shengji.md: first hand, the declarer's partner deals)", kt)
	}
	if g.order.Trump != cards.Diamonds {
		t.Fatalf("trump %v, want the final declaration's suit ♦", g.order.Trump)
	}
	// Bury: the dealer only, four cards; the suit is revealed with it.
	if _, err := gametest.Act(st, 0, buryA("C2 C3 C4 C6")); !errors.Is(err, ErrNotDealer) {
		t.Fatalf("seat 0 buries: %v, want not_dealer (shengji.md, Kitty: the dealer buries)", err)
	}
	if _, err := gametest.Act(st, 1, buryA("C7 C7 C10")); !errors.Is(err, ErrBuryFour) {
		t.Fatalf("burying 3: %v, want bury_four", err)
	}
	if v := r.View(g, 0).Game.(GameView); v.Kitty != nil || trumpOf(v) != "" {
		t.Fatalf("seat 0 sees the kitty %v or trump %q while the dealer buries", v.Kitty, trumpOf(v))
	}
	if v := r.View(g, 1).Game.(GameView); canon(v.Kitty) != canon(cards.MustParse("C7 C7 C10 C10")) || len(r.View(g, 1).Hand) != 30 {
		t.Fatalf("dealer sees kitty %v and %d cards, want the kitty and 30", v.Kitty, len(r.View(g, 1).Hand))
	}
	evs = gametest.MustAct(t, st, 1, buryA("C7 C7 C10 C10"))
	if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"KittyBuried", "TrumpRevealed"}) {
		t.Fatalf("bury: %v", got)
	}
	if rv := evs[1].(TrumpRevealed); rv.Seat != 3 || rv.Suit != "D" {
		t.Fatalf("revealed %+v", rv)
	}
	v = r.View(g, 0).Game.(GameView)
	if trumpOf(v) != "D" || v.Kitty != nil || v.Declarations[2].Suit != "D" || v.Declarations[0].Suit != "" {
		t.Fatalf("after the bury seat 0 sees trump %q kitty %v declarations %+v: want the trump and final declaration, not the kitty nor overridden declarations", trumpOf(v), v.Kitty, v.Declarations)
	}
	if r.View(g, 1).Game.(GameView).Kitty == nil {
		t.Fatal("the burier no longer sees the buried cards")
	}
	if *r.View(g, 0).Turn != 1 {
		t.Fatal("the dealer leads the first trick (shengji.md, 每輪牌都由莊家先出牌)")
	}
}

// closeWindowExcept draws out and has every seat but keep pass.
func closeWindowExcept(t *testing.T, st *table.State, keep int) []table.Payload {
	t.Helper()
	drawRounds(t, st, handSize-gametest.Game[State](st).round)
	var evs []table.Payload
	for i := range seats {
		if i != keep {
			evs = gametest.MustAct(t, st, i, passA())
		}
	}
	return evs
}

// TestKittyFlip: nobody declares: the first non-joker of the kitty, in
// order, names the trump; four jokers: re-deal (shengji.md, ningyang).
func TestKittyFlip(t *testing.T) {
	r := ningyang(t)
	st := deal{first: [4]string{"S2", "S3", "S4", "S5"}, kitty: "RJ BJ H8 C9", fallback: 2}.build(t, r)
	evs := closeWindow(t, st)
	if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"DeclarePassed", "KittyFlipped", "KittyTaken"}) {
		t.Fatalf("no declaration: %v", got)
	}
	if f := evs[1].(KittyFlipped); f.Suit != "H" || cards.Format(f.Cards) != "RJ BJ H8" {
		t.Fatalf("flipped %+v, want RJ BJ H8 and trump ♥ (the first non-joker)", f)
	}
	if kt := evs[2].(KittyTaken); kt.Seat != 2 || kt.Declarer != nil {
		t.Fatalf("%+v: nobody declared in the first hand: the seed-drawn seat 2 deals (doc.go, Decisions)", kt)
	}
	if v := r.View(gametest.Game[State](st), 0).Game.(GameView); trumpOf(v) != "H" || cards.Format(v.Flipped) != "RJ BJ H8" {
		t.Fatalf("a flipped trump is public at once: seat 0 sees %q %v", trumpOf(v), v.Flipped)
	}

	st = deal{first: [4]string{"S2", "S3", "S4", "S5"}, kitty: "RJ BJ RJ BJ"}.build(t, r)
	evs = closeWindow(t, st)
	if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"DeclarePassed", "DealVoided", "HandDealt", "DealSecret"}) || evs[1].(table.DealVoided).Reason != "kitty_all_jokers" {
		t.Fatalf("four jokers in the kitty: %v, want a re-deal (shengji.md: 极限底牌4张王，重新发牌)", got)
	}
	if d := evs[2].(table.HandDealt); d.Hand != 1 || d.Deal != 2 || gametest.Game[State](st).phase != phaseDrawing {
		t.Fatalf("re-deal: hand %d deal %d, phase %s", d.Hand, d.Deal, gametest.Game[State](st).phase)
	}
}

// TestTrumpOrder: shengji.md, Trump order (ningyang) and the tractor
// example, with level 7 and trump ♠.
func TestTrumpOrder(t *testing.T) {
	o := Order{Level: 7, Trump: cards.Spades}
	high := cards.MustParse("RJ BJ S7 H7 SA SK SQ SJ S10 S9 S8 S6 S5 S4 S3 S2")
	for i := 1; i < len(high); i++ {
		a, b := high[i-1], high[i]
		if !o.IsTrump(a) || !(o.Pos(a) > o.Pos(b)) {
			t.Fatalf("%s must outrank %s (shengji.md, Trump order: RJ > BJ > trump level > other level > trump suit A…2)", a, b)
		}
	}
	if o.Pos(cards.MustParse("H7")[0]) != o.Pos(cards.MustParse("D7")[0]) {
		t.Fatal("level cards of side suits are equal (shengji.md, Trump order)")
	}
	side := cards.MustParse("HA HK HQ HJ H10 H9 H8 H6 H5 H4 H3 H2")
	for i := 1; i < len(side); i++ {
		if o.IsTrump(side[i]) || o.Pos(side[i-1]) <= o.Pos(side[i]) {
			t.Fatalf("side suit order: %s must outrank %s (level rank excluded)", side[i-1], side[i])
		}
	}
	tractors := []struct {
		cs    string
		pairs int // 0: not one combination of this size
	}{
		{"S6 S6 S8 S8", 2}, // the rules file's example: the level 7 gap closes
		{"SA SA H7 H7", 2}, // trump A then other level card
		{"H7 H7 S7 S7", 2}, // other level, trump level
		{"S7 S7 BJ BJ", 2}, // trump level, BJ
		{"BJ BJ RJ RJ", 2}, // the jokers
		{"SA SA H7 H7 S7 S7", 3},
		{"H7 H7 D7 D7", 0}, // equal, not consecutive
		{"H6 H6 H8 H8", 2}, // side suit with the level gap
		{"H8 H8 H9 H9 H10 H10", 3},
		{"H8 H8 H10 H10", 0}, // a gap
		{"H8 H8 C9 C9", 0},   // two suits
		{"HA HA S2 S2", 0},   // side A and trump: two classes
		{"S5 S5 S6", 0},
		{"S5 S6", 0}, // not a pair
		{"H7 D7", 0}, // equal cards of two suits are no pair
		{"S5 S5 S5 S5", 0},
	}
	for _, c := range tractors {
		r, ok := o.read(cards.MustParse(c.cs))
		if got := map[bool]int{true: r.shape.Pairs}[ok]; got != c.pairs || (c.pairs == 0 && ok) {
			t.Errorf("%s with level 7, trump ♠: read as %d pairs (ok %v), want %d (shengji.md, ningyang combinations: tractor)", c.cs, r.shape.Pairs, ok, c.pairs)
		}
	}
}

// TestFollowRules: shengji.md, Plays (ningyang): follow the led suit-class,
// pairs for pairs, highest trumps without pairs on a trump pair lead, any
// cards of a side suit without pairs.
func TestFollowRules(t *testing.T) {
	o := Order{Level: 7, Trump: cards.Spades}
	cases := []struct {
		hand, lead, play string
		code             string
	}{
		{"H2 H3 C4", "H9", "H2", ""},
		{"H2 H3 C4", "H9", "C4", "must_follow_suit"},
		{"H7 C4", "S9", "H7", ""}, // a level card is a trump
		{"H7 C4", "S9", "C4", "must_follow_suit"},
		{"H7 C4", "H9", "C4", ""}, // H7 is no heart: void in hearts
		{"C4 S3", "H9", "S3", ""}, // ruff
		{"H2 H2 H3 C4", "H9 H9", "H2 H2", ""},
		{"H2 H2 H3 C4", "H9 H9", "H2 H3", "must_play_pairs"},
		{"H2 H3 H4 C4", "H9 H9", "H2 H4", ""}, // side: any
		{"H2 C3 C4", "H9 H9", "H2 C4", ""},    // one heart: it and any
		{"H2 C3 C4", "H9 H9", "C3 C4", "must_follow_suit"},
		{"BJ H7 S3 S4 C5", "S9 S9", "BJ H7", ""}, // highest trumps
		{"BJ H7 S3 S4 C5", "S9 S9", "BJ S4", "must_play_highest"},
		{"BJ H7 D7 S3 C5", "S9 S9", "BJ D7", ""}, // equal level cards
		{"S2 S2 BJ H7 S3 S4", "S9 S9 S10 S10", "S2 S2 BJ H7", ""},
		{"S2 S2 BJ H7 S3 S4", "S9 S9 S10 S10", "S2 S2 S3 S4", "must_play_highest"},
		{"S2 S2 BJ H7 S3 S4", "S9 S9 S10 S10", "BJ H7 S3 S4", "must_play_pairs"},
		{"H2 H2 H4 H5 H6", "H9 H9 H10 H10", "H2 H2 H4 H6", ""}, // side: the rest free
		{"H2 H2 H4 H4 H6", "H9 H9 H10 H10", "H2 H2 H4 H4", ""}, // pairs, no tractor needed
		{"H2 H2 H4 H4 H6", "H9 H9 H10 H10", "H2 H2 H4 H6", "must_play_pairs"},
		{"D3 D4 S5 H6 H6", "D9 D9 D10 D10", "D3 D4 H6 H6", ""},
		{"D3 D4 S5 H6 H6", "D9 D9 D10 D10", "D3 S5 H6 H6", "must_follow_suit"},
		{"H2 H3", "H9 H9", "H2", "wrong_card_count"},
	}
	for _, c := range cases {
		err := o.checkFollow(ms(c.hand), cards.MustParse(c.lead), cards.MustParse(c.play))
		if (c.code == "" && err != nil) || (c.code != "" && !hasCode(err, c.code)) {
			t.Errorf("hand %s, lead %s, follow %s (level 7, trump ♠): got %v, want %q (shengji.md, Plays)", c.hand, c.lead, c.play, err, c.code)
		}
	}
}

// TestTrickWinner: shengji.md, Plays: the highest play of the lead's shape;
// a ruff wins only with the lead's shape; equal cards, the first.
func TestTrickWinner(t *testing.T) {
	o := Order{Level: 7, Trump: cards.Spades}
	cases := []struct {
		plays [4]string // seats 0..3, seat 0 leads
		win   int
		why   string
	}{
		{[4]string{"H9", "H10", "H2", "C3"}, 1, "highest of the led suit"},
		{[4]string{"H9", "HA", "S2", "C3"}, 2, "a ruff beats the suit"},
		{[4]string{"H9", "S2", "S3", "BJ"}, 3, "the highest ruff"},
		{[4]string{"H9", "CA", "DA", "H8"}, 0, "other side suits never win"},
		{[4]string{"H7", "D7", "C7", "S5"}, 0, "equal level cards: the first"},
		{[4]string{"S9", "H7", "S7", "D7"}, 2, "trump level card above other level cards"},
		{[4]string{"H9 H9", "HA HK", "S2 S3", "C3 C3"}, 0, "no pair: no win"},
		{[4]string{"H9 H9", "H10 H10", "S2 S2", "HA HA"}, 2, "a trump pair ruffs a pair"},
		{[4]string{"H9 H9 H10 H10", "S2 S2 S4 S4", "S3 S3 S4 S4", "HA HA HK HK"}, 2, "a ruff needs a tractor"},
		{[4]string{"H9 H9 H10 H10", "HA HA HK HK", "HJ HJ HQ HQ", "H2 H3 H4 H5"}, 1, "the higher tractor"},
		{[4]string{"SA", "SA", "H7", "C2"}, 2, "identical cards: the first; a level card beats A"},
	}
	for _, c := range cases {
		var plays []trickPlay
		for seat, p := range c.plays {
			plays = append(plays, trickPlay{seat: seat, cards: cards.MustParse(p)})
		}
		if w, _, _ := o.trickWinner(plays); w != c.win {
			t.Errorf("trick %v (level 7, trump ♠): seat %d wins, want %d: %s (shengji.md, Plays)", c.plays, w, c.win, c.why)
		}
	}
}

// TestScoring: shengji.md, Scoring and levels (ningyang) and Kitty: every row
// of the table, the next dealer, the level steps, the kitty multiplier, the
// match end.
func TestScoring(t *testing.T) {
	r := ningyang(t)
	cases := []struct {
		trickPts, kittyPts int
		last               int // the last trick's winner
		shape              Shape
		x                  int
		deltaDealer        int // per dealer-side seat, stake 2
		next               int
		levels             [2]string
	}{
		{0, 0, 0, Shape{Pairs: 0}, 0, 6, 2, [2]string{"4", "3"}},
		{40, 0, 0, Shape{Pairs: 0}, 40, 4, 2, [2]string{"3", "3"}},
		{45, 0, 0, Shape{Pairs: 0}, 45, 2, 2, [2]string{"2", "3"}},
		{75, 0, 0, Shape{Pairs: 0}, 75, 2, 2, [2]string{"2", "3"}},
		{80, 0, 0, Shape{Pairs: 0}, 80, -2, 1, [2]string{"A", "3"}},
		{115, 0, 0, Shape{Pairs: 0}, 115, -2, 1, [2]string{"A", "3"}},
		{120, 0, 0, Shape{Pairs: 0}, 120, -4, 1, [2]string{"A", "4"}},
		{160, 0, 0, Shape{Pairs: 0}, 160, -6, 1, [2]string{"A", "5"}},
		{200, 0, 0, Shape{Pairs: 0}, 200, -8, 1, [2]string{"A", "6"}},
		{40, 10, 1, Shape{Pairs: 0}, 60, 2, 2, [2]string{"2", "3"}},   // single: ×2
		{40, 10, 3, Shape{Pairs: 1}, 80, -2, 1, [2]string{"A", "3"}},  // pair: ×4
		{40, 10, 1, Shape{Pairs: 2}, 120, -4, 1, [2]string{"A", "4"}}, // tractor of 2: ×8
		{40, 10, 2, Shape{Pairs: 2}, 40, 4, 2, [2]string{"3", "3"}},   // the dealer side won the last trick
	}
	for _, c := range cases {
		s := newState(r.v, r.o)
		s.Stake, s.dealer, s.levels, s.order = 2, 0, [2]int{1, 3}, Order{Level: cards.Ace, Trump: cards.Hearts}
		s.buried = kittyWorth(c.kittyPts)
		evs := settledOut(t, s, c.last, c.shape, false, c.trickPts)
		hs := evs[0].(table.HandSettled)
		var res Result
		if err := json.Unmarshal(hs.Result, &res); err != nil {
			t.Fatal(err)
		}
		want := []int{c.deltaDealer, -c.deltaDealer, c.deltaDealer, -c.deltaDealer}
		if res.DefenderPoints != c.x || !slices.Equal(hs.Deltas, want) || *res.NextDealer != c.next || res.Levels[0] != c.levels[0] || res.Levels[1] != c.levels[1] {
			t.Errorf("dealer 0 at A, defenders at 3; trick points %d, kitty %d, last trick seat %d with a %s: X %d deltas %v next %d levels %v; want X %d deltas %v next %d levels %v (shengji.md, Scoring and levels; Kitty Decision)",
				c.trickPts, c.kittyPts, c.last, c.shape, res.DefenderPoints, hs.Deltas, *res.NextDealer, res.Levels, c.x, want, c.next, c.levels)
		}
	}
	// The kitty multiplier option "double": ×2 whatever the shape.
	s := newState(r.v, options{Match: true, KittyMultiplier: KittyDouble})
	s.Stake, s.dealer, s.order = 1, 0, Order{Level: cards.Ace, Trump: cards.Hearts}
	s.buried = kittyWorth(10)
	if _, res := gametest.SettledOf[Result](t, settledOut(t, s, 1, Shape{Pairs: 2}, false, 40)); res.DefenderPoints != 60 {
		t.Errorf("kitty_multiplier double: X %d, want 40 + 10×2", res.DefenderPoints)
	}
	// Passing K wins the match and closes the table.
	s = newState(r.v, r.o)
	s.Stake, s.dealer, s.levels, s.order = 1, 1, [2]int{5, 12}, Order{Level: cards.Queen, Trump: cards.Hearts}
	evs := settledOut(t, s, 1, Shape{Pairs: 0}, false, 0)
	_, res := gametest.SettledOf[Result](t, evs)
	if res.MatchWinner == nil || *res.MatchWinner != 1 || res.Levels[1] != "won" || evs[len(evs)-1].EventType() != "TableClosed" {
		t.Errorf("side 1 at Q scores +3: result %+v, events %v: want the match won and the table closed (shengji.md, Levels: a side that would pass K has won)", res, gametest.EventTypes(evs))
	}
	// A single-hand table closes after its hand.
	s = newState(r.v, options{Match: false, KittyMultiplier: KittyByShape})
	s.Stake, s.dealer, s.order = 1, 1, Order{Level: cards.Ace, Trump: cards.Hearts}
	if evs := settledOut(t, s, 1, Shape{Pairs: 0}, false, 50); evs[len(evs)-1].(table.TableClosed).Reason != "hand_over" {
		t.Errorf("single-hand table: %v", gametest.EventTypes(evs))
	}
}

// kittyWorth is four cards worth pts points (pts ∈ {0, 5, 10, …, 40}).
func kittyWorth(pts int) []cards.Card {
	var cs []cards.Card
	for pts >= 10 && len(cs) < 4 {
		cs, pts = append(cs, cards.MustParse("C10")...), pts-10
	}
	if pts == 5 {
		cs = append(cs, cards.MustParse("C5")...)
	}
	for len(cs) < 4 {
		cs = append(cs, cards.MustParse("C2")...)
	}
	return cs
}

// TestEscape: shengji.md, Escape (000): 16 × stake; bonus by cards left.
func TestEscape(t *testing.T) {
	r := ningyang(t)
	for _, c := range []struct{ left, bonus int }{{0, 2}, {4, 2}, {5, 1}, {9, 1}, {10, 0}, {26, 0}} {
		s := newState(r.v, r.o)
		s.Stake, s.phase, s.dealer, s.hand = 3, phasePlaying, 0, 1
		s.held[2] = cards.Of(cards.Deck(1)[:c.left])
		evs, err := s.escape(2)
		if err != nil {
			t.Fatal(err)
		}
		hs, res := gametest.SettledOf[Result](t, evs)
		want := []int{3 * c.bonus, 3 * c.bonus, -48, 3 * c.bonus}
		if !slices.Equal(hs.Deltas, want) || res.House != 48-9*c.bonus || res.Penalty != 48 {
			t.Errorf("escape with %d cards left at stake 3: deltas %v house %d, want %v house %d (shengji.md, Escape and its Decision)", c.left, hs.Deltas, res.House, want, 48-9*c.bonus)
		}
	}
	// During the draw, undrawn cards count as left.
	st := deal{first: [4]string{"S2", "S3", "S4", "S5"}}.build(t, r)
	drawRounds(t, st, 3)
	evs := gametest.MustAct(t, st, 1, table.Action{Type: table.ActionEscape})
	if _, res := gametest.SettledOf[Result](t, evs); res.CardsLeft[1] != 26 || res.Bonus != 0 {
		t.Fatalf("escape in the draw: %+v", res)
	}
	if gametest.Game[State](st).matchDealer != -1 || gametest.Game[State](st).levels != [2]int{1, 1} {
		t.Fatal("an escape changes no level and no dealer (doc.go, Decisions)")
	}
}

// TestNextHand: the settlement's next dealer deals the next hand at its
// side's level, and its declarations only choose the trump.
func TestNextHand(t *testing.T) {
	r := ningyang(t)
	rt := newRandomTable(t, r, 3, false)
	st := rt.St
	for st.Hand < 2 || gametest.Game[State](st).phase != phaseWindow {
		rt.Step()
	}
	g := gametest.Game[State](st)
	var res Result
	if err := json.Unmarshal(st.Last.Result, &res); err != nil {
		t.Fatal(err)
	}
	closeWindow(t, st)
	if g.dealer != *res.NextDealer || g.order.Level != levelRank(levelNumber(res.Levels[sideOf(g.dealer)])) {
		t.Fatalf("hand 2 dealt by %d at level %s; hand 1 named %d and levels %v (shengji.md, Scoring: next dealer)", g.dealer, g.order.Level, *res.NextDealer, res.Levels)
	}
	if r.View(g, 0).Game.(GameView).Levels[0] != res.Levels[0] {
		t.Fatal("view levels")
	}
}

// TestActionValidation: malformed actions and actions out of phase or turn
// are rejected with the table's codes, and nothing changes.
func TestActionValidation(t *testing.T) {
	r := ningyang(t)
	st := deal{first: [4]string{"S2", "S3", "S4", "S5"}, kitty: "H2 H2 H3 H4", fallback: 0}.build(t, r)
	bid := 1
	cases := []struct {
		seat int
		a    table.Action
		err  *table.Error
	}{
		{0, table.Action{Type: ActionDraw, Bid: &bid}, table.ErrBadAction},
		{0, table.Action{Type: "bid", Bid: &bid}, table.ErrUnknownAction},
		{0, table.Action{Type: ActionDraw, Cards: cards.MustParse("S2")}, table.ErrBadAction},
		{0, table.Action{Type: ActionDraw, As: "pair"}, table.ErrBadAction},
		{0, table.Action{Type: ActionDeclare}, table.ErrBadAction},
		{0, table.Action{Type: "throw", Cards: cards.MustParse("S2")}, table.ErrUnknownAction},
		{0, playA("S2"), table.ErrWrongPhase},
		{0, buryA("S2 S2 S3 S3"), table.ErrWrongPhase},
		{0, passA(), table.ErrWrongPhase},
		{5, drawA(), table.ErrNotSeated}, // the table answers first
	}
	for _, c := range cases {
		if _, err := gametest.Act(st, c.seat, c.a); !errors.Is(err, c.err) {
			t.Errorf("seat %d %s: %v, want %s", c.seat, gametest.DescribeAction(c.a), err, c.err.Code)
		}
	}
	closeWindow(t, st)
	gametest.MustAct(t, st, 0, buryA("H2 H2 H3 H4"))
	g := gametest.Game[State](st)
	lead := g.held[0].Cards()[0]
	for _, c := range []struct {
		seat int
		a    table.Action
		err  *table.Error
	}{
		{1, playA("S3"), table.ErrNotYourTurn},
		{0, table.Action{Type: ActionPlay, Cards: []cards.Card{cards.RJ, cards.RJ, cards.RJ}}, table.ErrCardNotInHand},
		{0, drawA(), table.ErrWrongPhase},
	} {
		if _, err := gametest.Act(st, c.seat, c.a); !errors.Is(err, c.err) {
			t.Errorf("seat %d %s: %v, want %s", c.seat, gametest.DescribeAction(c.a), err, c.err.Code)
		}
	}
	// A throw (two different singles) never leads (shengji.md: 不能甩牌).
	hand := g.held[0].Cards()
	for _, c := range hand[1:] {
		if c != lead && g.order.Class(c) == g.order.Class(lead) {
			if _, err := gametest.Act(st, 0, table.Action{Type: ActionPlay, Cards: []cards.Card{lead, c}}); !errors.Is(err, table.ErrInvalidCombo) {
				t.Fatalf("lead %s %s: %v, want invalid_combination (no throws)", lead, c, err)
			}
			break
		}
	}
}

// settledOut is s.settlePlayedOut for a settlement that must not be refused.
func settledOut(t *testing.T, s *State, last int, sh Shape, trump bool, def int) []table.Payload {
	t.Helper()
	evs, err := s.settlePlayedOut(last, sh, trump, def)
	if err != nil {
		t.Fatalf("settle the hand: %v", err)
	}
	return evs
}
