package shengji

import (
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestViewBeforeTheFirstDeal: a table with no deal yet knows each side's
// level (shengji.md, Levels: "Levels run A, 2, 3, …, K", both sides start
// at A) but no hand's level, trump, trump order, side order or roles: the
// view says null, never a made-up value.
func TestViewBeforeTheFirstDeal(t *testing.T) {
	for _, variant := range []string{"ningyang", "guafeng", "qiangbao"} {
		r := variantRules(t, variant, "")
		st := table.New(r.untyped())
		table.Apply(st, table.TableOpened{TableID: "new", Game: "shengji", Variant: variant, Options: r.Options(), Stake: 1, Seats: seats, RulesVersion: r.Version()})
		for _, seat := range []int{0, table.Spectator, table.Auditor} {
			g := r.View(gametest.Game[State](st), seat).Game.(GameView)
			if g.Level != nil || g.Trump != nil || g.TrumpOrder != nil || g.SideOrder != nil {
				t.Fatalf("%s, seat %d, no deal yet: level %v trump %v trump order %v side order %v, want all null", variant, seat, g.Level, g.Trump, g.TrumpOrder, g.SideOrder)
			}
			want := "A"
			if variant == "qiangbao" {
				want = "3" // shengji.md, qiangbao: "The level is 3 for the whole match"
			}
			if len(g.Sides) != 2 || !slices.Equal(g.Sides[0].Seats, []int{0, 2}) || !slices.Equal(g.Sides[1].Seats, []int{1, 3}) ||
				g.Sides[0].Level != want || g.Sides[1].Level != want || g.Sides[0].Role != nil || g.Sides[1].Role != nil {
				t.Fatalf("%s: sides %+v, want seats 0&2 and 1&3 at level %s, no roles yet (shengji.md: partnerships 0&2, 1&3)", variant, g.Sides, want)
			}
		}
	}
}

// TestViewTrumpOrder: the trump order a view lists, against shengji.md, Trump
// order (high to low), and its worked examples; the side order leaves out
// the ranks that are trumps.
func TestViewTrumpOrder(t *testing.T) {
	cases := []struct {
		name  string
		o     Order
		trump string
		side  string
		rule  string
	}{
		{
			name:  "ningyang, level 7, trump ♠",
			o:     Order{Level: 7, Trump: cards.Spades},
			trump: "RJ | BJ | S7 | H7 C7 D7 | SA | SK | SQ | SJ | S10 | S9 | S8 | S6 | S5 | S4 | S3 | S2",
			side:  "A K Q J 10 9 8 6 5 4 3 2",
			rule:  "RJ > BJ > level card of the trump suit > level cards of other suits (equal) > trump suit A K Q J 10 9 … 2 (level rank excluded)",
		},
		{
			name:  "guafeng, level 7, trump ♠",
			o:     Order{Level: 7, Trump: cards.Spades, Fixed: true},
			trump: "RJ | BJ | S7 | H7 C7 D7 | S5 | S3 | S2 | H5 C5 D5 | H3 C3 D3 | H2 C2 D2 | SA | SK | SQ | SJ | S10 | S9 | S8 | S6 | S4",
			side:  "A K Q J 10 9 8 6 4",
			rule:  "S7 > H7 = C7 = D7 > S5 > S3 > S2 > H5 = C5 = D5 > H3 = … > H2 = … > SA > … > S4",
		},
		{
			name:  "guafeng, level 5: the 5s are level cards, not fixed trumps",
			o:     Order{Level: 5, Trump: cards.Hearts, Fixed: true},
			trump: "RJ | BJ | H5 | S5 C5 D5 | H3 | H2 | S3 C3 D3 | S2 C2 D2 | HA | HK | HQ | HJ | H10 | H9 | H8 | H7 | H6 | H4",
			side:  "A K Q J 10 9 8 7 6 4",
			rule:  "when the level is 2, 3 or 5, those cards rank as level cards (above the other fixed trumps)",
		},
		{
			name:  "qiangbao, 无主",
			o:     Order{Level: 3, Trump: cards.Joker},
			trump: "RJ | BJ | S3 H3 C3 D3",
			side:  "A K Q J 10 9 8 7 6 5 4 2",
			rule:  "no trump suit (无主: trumps are the jokers and the level cards)",
		},
	}
	for _, c := range cases {
		var got []string
		for _, class := range c.o.trumpOrder() {
			got = append(got, cards.Format(class))
		}
		if g := joinClasses(got); g != c.trump {
			t.Errorf("%s: trump order %s, want %s (shengji.md, Trump order: %s)", c.name, g, c.trump, c.rule)
		}
		if g := joinRanks(c.o.sideOrder()); g != c.side {
			t.Errorf("%s: side order %s, want %s (shengji.md: side suits A K Q … 2, without level cards, and in guafeng without 2/3/5)", c.name, g, c.side)
		}
	}
}

func joinClasses(cs []string) string {
	out := ""
	for i, c := range cs {
		if i > 0 {
			out += " | "
		}
		out += c
	}
	return out
}

func joinRanks(rs []string) string {
	out := ""
	for i, r := range rs {
		if i > 0 {
			out += " "
		}
		out += r
	}
	return out
}

// TestViewDuringAHand follows one ningyang first hand through the views:
// the final declarer sees its trump, and its order, from the moment the
// kitty is taken while the others do not (暗亮: "others see who declared
// and its strength, not the suit, until the kitty is buried"); after the
// bury everyone does; the sides carry their roles (the dealer side and the
// defenders, who collect point cards); the trick shows who is winning it.
func TestViewDuringAHand(t *testing.T) {
	r := ningyang(t)
	st := deal{first: [4]string{
		"C2 C3 C4 C6 C8 C9 CJ",
		"S3 H9 H9 S2 S2 C5",
		"SK S9 S9 S10 S10 H3 H3",
		"BJ D4 D4 D5 D5 D6 D6",
	}, kitty: "C7 C7 C10 C10"}.build(t, r)
	g := gametest.Game[State](st)
	drawRounds(t, st, 7)
	gametest.MustAct(t, st, 3, declareA("BJ D4 D4 D5 D5 D6 D6"))
	for _, seat := range []int{0, 1, 2, 3, table.Spectator} {
		v := r.View(g, seat).Game.(GameView)
		if v.Trump != nil || v.TrumpOrder != nil {
			t.Fatalf("seat %d sees trump %v before the kitty is taken: another seat may still override (shengji.md, 反主)", seat, *v.Trump)
		}
		if v.Level == nil || *v.Level != "A" || joinRanks(v.SideOrder) != "K Q J 10 9 8 7 6 5 4 3 2" {
			t.Fatalf("seat %d: level %v side order %v, want A and the side suits without the level (shengji.md, Trump order)", seat, v.Level, v.SideOrder)
		}
	}
	closeWindowExcept(t, st, -1)
	if g.phase != phaseBurying || g.dealer != 1 {
		t.Fatalf("phase %s dealer %d, want seat 1 burying (the declarer's partner deals)", g.phase, g.dealer)
	}
	for _, seat := range []int{0, 1, 2, table.Spectator} {
		v := r.View(g, seat).Game.(GameView)
		if v.Trump != nil || v.TrumpOrder != nil {
			t.Fatalf("seat %d sees trump %s while the dealer buries (shengji.md: hidden until the kitty is buried)", seat, *v.Trump)
		}
	}
	v := r.View(g, 3).Game.(GameView)
	wantOrder := "RJ | BJ | DA | SA HA CA | DK | DQ | DJ | D10 | D9 | D8 | D7 | D6 | D5 | D4 | D3 | D2"
	if trumpOf(v) != "D" || joinClasses(formatClasses(v.TrumpOrder)) != wantOrder {
		t.Fatalf("the declarer sees trump %q order %v while its partner buries, want D and %s", trumpOf(v), formatClasses(v.TrumpOrder), wantOrder)
	}
	sides := v.Sides
	if sides[1].Role == nil || *sides[1].Role != RoleDealer || sides[0].Role == nil || *sides[0].Role != RoleDefenders {
		t.Fatalf("sides %+v: want seats 1&3 the dealer side, 0&2 the defenders", sides)
	}
	gametest.MustAct(t, st, 1, buryA("C7 C7 C10 C10"))
	for _, seat := range []int{0, 1, 2, 3, table.Spectator} {
		v := r.View(g, seat).Game.(GameView)
		if trumpOf(v) != "D" || joinClasses(formatClasses(v.TrumpOrder)) != wantOrder {
			t.Fatalf("seat %d after the bury sees trump %q order %v, want D and %s", seat, trumpOf(v), formatClasses(v.TrumpOrder), wantOrder)
		}
		if v.TrickWinner != nil {
			t.Fatalf("seat %d sees a trick winner %d before the first lead", seat, *v.TrickWinner)
		}
	}

	// The dealer leads S3; SK beats it; seat 3 either follows ♠ below the
	// K (SA is a level card: a trump) or, void, plays what it likes.
	gametest.MustAct(t, st, 1, playA("S3"))
	if w := r.View(g, 0).Game.(GameView).TrickWinner; w == nil || *w != 1 {
		t.Fatalf("after the lead the trick winner is %v, want the leader 1", w)
	}
	gametest.MustAct(t, st, 2, playA("SK"))
	if w := r.View(g, 0).Game.(GameView).TrickWinner; w == nil || *w != 2 {
		t.Fatalf("SK on S3: the trick winner is %v, want 2 (shengji.md, Side suits: A K Q … 2)", w)
	}
	third := firstPlay(t, r, g, 3)
	gametest.MustAct(t, st, 3, third)
	want := 2
	if g.order.IsTrump(third.Cards[0]) {
		want = 3 // a ruff of a single: a trump beats a side card
	}
	if w := r.View(g, 1).Game.(GameView).TrickWinner; w == nil || *w != want {
		t.Fatalf("seat 3 plays %s: the trick winner is %v, want %d (shengji.md, Plays)", cards.Format(third.Cards), w, want)
	}
	evs := gametest.MustAct(t, st, 0, firstPlay(t, r, g, 0))
	won := evs[len(evs)-1].(TrickWon)
	v = r.View(g, 2).Game.(GameView)
	if v.TrickWinner != nil || len(v.LastTrick) != seats {
		t.Fatalf("after the trick: winner %v, last trick %v; want no running trick", v.TrickWinner, v.LastTrick)
	}
	for side, sv := range v.Sides {
		pts := 0
		if side == sideOf(won.Seat) {
			pts = won.Points
		}
		if sv.Points == nil || *sv.Points != pts {
			t.Fatalf("seat %d won %d points: side %d shows %v, want %d (shengji.md: the defenders collect point cards from the tricks they win)", won.Seat, won.Points, side, sv.Points, pts)
		}
	}
	if v.DefenderPoints == nil || *v.Sides[0].Points != *v.DefenderPoints {
		t.Fatalf("the defenders' side shows %d points, defender_points %v", *v.Sides[0].Points, v.DefenderPoints)
	}
}

func formatClasses(classes [][]cards.Card) []string {
	var out []string
	for _, c := range classes {
		out = append(out, cards.Format(c))
	}
	return out
}

// firstPlay is the first play seat's legal list offers.
func firstPlay(t *testing.T, r *Rules, g *State, seat int) table.Action {
	t.Helper()
	for _, a := range r.Legal(g, seat) {
		if a.Type == ActionPlay {
			return a
		}
	}
	t.Fatalf("seat %d has no legal play", seat)
	return table.Action{}
}
