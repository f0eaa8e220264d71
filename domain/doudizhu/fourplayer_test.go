package doudizhu

import (
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

func fourplayer(t testing.TB) *Rules { return rulesOf(t, "fourplayer", "") }

// TestFourplayerDeal re-implements the two-deck deal doc.go promises auditors.
func TestFourplayerDeal(t *testing.T) {
	const rule = "doudizhu.md, fourplayer: two decks, 25 each, an 8-card kitty"
	r := fourplayer(t)
	seed := cards.Seed{0x44, 0x02}
	evs, err := r.Deal(r.NewState(), table.DealNumber{Hand: 1, Deal: 1}, seed)
	if err != nil {
		t.Fatal(err)
	}
	d := evs[0].(table.HandDealt)
	deck, st := cards.Shuffled(seed, 2)
	for seat := range 4 {
		var want []cards.Card
		for i := seat; i < 100; i += 4 {
			want = append(want, deck[i])
		}
		climb.Sort(want)
		if !slices.Equal(d.Hands[seat], want) {
			t.Errorf("seat %d holds %s, want cards i%%4 == %d of the two shuffled decks (%s)", seat, cards.Format(d.Hands[seat]), seat, rule)
		}
	}
	kitty := slices.Clone(deck[100:])
	climb.Sort(kitty)
	if !slices.Equal(d.Kitty, kitty) || len(kitty) != 8 {
		t.Errorf("kitty %s, want the last 8 cards %s (%s)", cards.Format(d.Kitty), cards.Format(kitty), rule)
	}
	if first := int(st.Below(4)); d.FirstSeat != first {
		t.Errorf("first bidder %d, want stream.Below(4) = %d (doudizhu.md, Deal)", d.FirstSeat, first)
	}
}

func TestFourplayerClassify(t *testing.T) {
	const rule = "doudizhu.md, fourplayer Decision"
	r := fourplayer(t)
	bomb := func(m climb.Rank, n int) Reading { return Reading{Type: Bomb, Main: m, Length: 1, Count: n} }
	for _, tc := range []struct {
		cards string
		want  []Reading
		why   string
	}{
		{"BJ BJ", []Reading{rd(Pair, climb.RankBJ, 1)}, "two jokers of the same colour are a pair"},
		{"RJ RJ", []Reading{rd(Pair, climb.RankRJ, 1)}, "two jokers of the same colour are a pair"},
		{"BJ RJ", nil, "BJ + RJ is no pair, and the rocket is the four jokers"},
		{"BJ BJ RJ RJ", []Reading{{Type: Rocket, Main: climb.RankRJ, Length: 1, Count: 4}}, "the four jokers are the rocket"},
		{"S3 S3 H3 C3", []Reading{bomb(climb.Rank3, 4)}, "a bomb of 4"},
		{"S3 S3 H3 H3 C3", []Reading{bomb(climb.Rank3, 5)}, "a bomb of 5"},
		{"S2 S2 H2 H2 C2 C2 D2 D2", []Reading{bomb(climb.Rank2, 8)}, "a bomb of 8"},
		{"S3 S3 H3", []Reading{rd(Trio, climb.Rank3, 1)}, "identical copies make a trio"},
		{"S3 S3 H3 S5 S5", []Reading{rd(TrioPair, climb.Rank3, 1)}, "identical copies make a pair"},
		{"S3 S3 H3 BJ BJ", []Reading{rd(TrioPair, climb.Rank3, 1)}, "a joker pair is a kicker pair"},
		{"S4 H4 C4 D4 BJ RJ", []Reading{rd(FourTwoSingles, climb.Rank4, 1)}, "BJ + RJ is not the rocket with two decks"},
		{"S4 H4 C4 D4 BJ BJ RJ RJ", nil, "kickers may never be the rocket"},
		{"S3 H3 C3 S4 H4 C4 BJ BJ RJ RJ", nil, "kicker pairs may never be the rocket"},
		{"S3 H3 C3 S4 H4 C4 BJ BJ", []Reading{rd(AirplaneSingles, climb.Rank4, 2)}, "single kickers may pair"},
		{"S3 S3 H3 S4 S4 H4 S5 S5 H5 S6 S6 H6 BJ BJ RJ RJ", nil, "single kickers may never be the rocket"},
		{"S3 S3 H3 H3 C3 S4", nil, "five of a rank with a kicker is no type"},
	} {
		got := r.Classify(cards.MustParse(tc.cards))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s reads %v, want %v: %s (%s)", tc.cards, got, tc.want, tc.why, rule)
		}
		for _, rd := range got {
			if rd.Size() != len(cards.MustParse(tc.cards)) {
				t.Errorf("%s: %v says %d cards", tc.cards, rd, rd.Size())
			}
		}
	}
}

func TestFourplayerBeats(t *testing.T) {
	const rule = "doudizhu.md, fourplayer Decision: bombs by card count, then rank; the four jokers on top"
	r := fourplayer(t)
	one := func(cs string) Reading {
		rs := r.Classify(cards.MustParse(cs))
		if len(rs) != 1 {
			t.Fatalf("%s reads %v", cs, rs)
		}
		return rs[0]
	}
	for _, tc := range []struct {
		play, lead string
		want       bool
	}{
		{"S3 S3 H3 H3 C3", "S2 S2 H2 H2", true},
		{"S2 S2 H2 H2", "S3 S3 H3 H3 C3", false},
		{"S4 S4 H4 H4", "S3 S3 H3 H3", true},
		{"S3 S3 H3 H3 C3 C3 D3 D3", "SA SA HA HA CA CA DA", true},
		{"BJ BJ RJ RJ", "S3 S3 H3 H3 C3 C3 D3 D3", true},
		{"S2 S2 H2 H2 C2 C2 D2 D2", "BJ BJ RJ RJ", false},
		{"S3 S3 H3 H3", "S4 H5 C6 D7 S8", true},
		{"RJ RJ", "BJ BJ", true},
		{"BJ BJ", "S2 H2", true},
		{"S2 H2", "BJ BJ", false},
	} {
		if got := one(tc.play).Beats(one(tc.lead)); got != tc.want {
			t.Errorf("%s on %s: %v, want %v (%s)", tc.play, tc.lead, got, tc.want, rule)
		}
	}
}

// TestFourplayerPerft counts legal plays where two decks give identical
// copies: a multiset of cards is one play however its copies are chosen.
func TestFourplayerPerft(t *testing.T) {
	const rule = "doudizhu.md, fourplayer; rules/README.md: a play names cards, never copy ids"
	r := fourplayer(t)
	for _, tc := range []struct {
		hand string
		want int
	}{
		// singles S3, H3; pairs S3S3, S3H3; trio S3S3H3.
		{"S3 S3 H3", 5},
		// singles 3; pairs S3S3 S3H3 S3C3 H3H3 H3C3 = 5; trios S3S3H3 S3S3C3 S3H3H3
		// S3H3C3 H3H3C3 = 5; bombs of 4: S3S3H3H3 S3S3H3C3 S3H3H3C3 = 3; of 5: 1.
		{"S3 S3 H3 H3 C3", 17},
		// singles BJ, RJ; pairs BJBJ, RJRJ; the rocket; BJ+RJ is nothing.
		{"BJ BJ RJ RJ", 5},
	} {
		pos := position{hands: []string{tc.hand, "SA", "HA", "CA"}, kitty: "DA SK HK CK DK SQ HQ CQ"}
		g := gametest.Game[State](pos.build(t, r))
		g.phase, g.turn, g.landlord = phasePlaying, 0, 1
		if got := r.Legal(g, 0); len(got) != tc.want {
			var names []string
			for _, a := range got {
				names = append(names, gametest.DescribeAction(a))
			}
			t.Errorf("%s leads %d plays, want %d (%s): %v", tc.hand, len(got), tc.want, rule, names)
		}
	}
}

func TestFourplayerBiddingAndScoring(t *testing.T) {
	const rule = "doudizhu.md, fourplayer: bidding and scoring as hubei"
	r := fourplayer(t)
	pos := position{hands: []string{"S3 S5", "S4 H7", "C4 C7", "D4 D7"}, kitty: "SK HK CK DK SQ HQ CQ DQ", first: 0}
	t.Run("four grabs stop at the ceiling 24", func(t *testing.T) {
		st := pos.build(t, r)
		gametest.MustAct(t, st, 0, bidA(3))
		var evs []table.Payload
		for _, seat := range []int{1, 2, 3, 0} {
			evs = gametest.MustAct(t, st, seat, grabA())
		}
		lc := evs[len(evs)-1].(LandlordChosen)
		if lc.Seat != 0 || lc.Multiplier != 24 || len(lc.Kitty) != 8 {
			t.Fatalf("%+v, want seat 0 at 24: 3 × 2⁴ = 48 stops at the ceiling (%s; 004 最大…24倍)", lc, rule)
		}
	})
	t.Run("the landlord against three", func(t *testing.T) {
		p := pos
		p.kitty = "S8 S8 H8 H8 C8 SJ SJ HJ"
		st := p.playing(t, r, 0, 2)
		var evs []table.Payload
		for _, s := range []struct {
			seat int
			a    table.Action
		}{
			{0, playA("S3")}, {1, passA()}, {2, passA()}, {3, passA()},
			{0, playA("S8 S8 H8 H8 C8")}, {1, passA()}, {2, passA()}, {3, passA()},
			{0, playA("S5")}, {1, passA()}, {2, passA()}, {3, passA()},
			{0, playA("SJ SJ HJ")},
		} {
			evs = gametest.MustAct(t, st, s.seat, s.a)
		}
		hs, res := gametest.SettledOf[Result](t, evs)
		// bid 2 × bomb 2 × spring 4 = 16, paid by each of the three farmers.
		if res.Multiplier != 16 || !res.Spring || res.Bombs != 1 || !slices.Equal(hs.Deltas, []int{48, -16, -16, -16}) {
			t.Errorf("settles %v with %+v, want multiplier 16 and deltas [48 -16 -16 -16] (%s)", hs.Deltas, res, rule)
		}
	})
	t.Run("an escape is shared by the three who stayed", func(t *testing.T) {
		st := pos.build(t, r)
		hs, res := gametest.SettledOf[Result](t, gametest.MustAct(t, st, 2, table.Action{Type: table.ActionEscape}))
		// A farmer at ×1: 8, shared 2 + 2 + 2 with the remainder 2 to the lowest seat.
		if res.Penalty != 8 || !slices.Equal(hs.Deltas, []int{4, 2, -8, 2}) {
			t.Errorf("escape settles %v (%+v), want [4 2 -8 2] (doudizhu.md, Escape Decision)", hs.Deltas, res)
		}
	})
}

func TestFourplayerAmbiguousPlay(t *testing.T) {
	const rule = "doudizhu.md, Card types: the client may name the type of an ambiguous play"
	r := fourplayer(t)
	all := "S3 S3 H3 S4 S4 H4 S5 S5 H5 S6 S6 H6"
	pos := position{hands: []string{all, "SA", "HA", "CA"}, kitty: "DA SK HK CK DK SQ HQ CQ"}
	g := gametest.Game[State](pos.build(t, r))
	g.phase, g.turn, g.landlord = phasePlaying, 0, 0
	for _, tc := range []struct {
		as   string
		want Reading
	}{
		{"", rd(Airplane, climb.Rank6, 4)},
		{"airplane", rd(Airplane, climb.Rank6, 4)},
		{"airplane_singles", rd(AirplaneSingles, climb.Rank6, 3)},
	} {
		evs, err := r.Decide(g, 0, playAs(all, tc.as))
		if err != nil {
			t.Fatal(err)
		}
		if got := evs[0].(CardsPlayed).Reading; got != tc.want {
			t.Errorf("%s as %q reads %v, want %v (%s)", all, tc.as, got, tc.want, rule)
		}
	}
}

// FuzzClassifyTwoDecks reads each byte as a card of two decks (byte mod 54,
// at most two copies of a card) and checks that the two-deck classifier
// never panics, that every reading accounts for exactly the cards, that the
// order of the cards does not matter, and that bombs and the rocket are
// read only as themselves (doudizhu.md, fourplayer Decision).
func FuzzClassifyTwoDecks(f *testing.F) {
	for _, seed := range []string{"\x00\x00\x0d\x0d\x1a", "\x34\x34\x35\x35", "\x00\x00\x0d\x01\x01\x0e\x34\x34", "\x34\x35"} {
		f.Add([]byte(seed))
	}
	r := &Rules{v: mustVariant("fourplayer")}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 40 {
			return
		}
		var copies [cards.DeckSize]int
		var cs []cards.Card
		for _, b := range data {
			i := int(b) % cards.DeckSize
			if copies[i] < 2 {
				copies[i]++
				cs = append(cs, cards.FromIndex(i))
			}
		}
		got := r.Classify(cs)
		for _, rd := range got {
			if rd.Size() != len(cs) {
				t.Fatalf("%s reads as %v of %d cards", cards.Format(cs), rd, rd.Size())
			}
			if (rd.Type == Bomb || rd.Type == Rocket) && len(got) != 1 {
				t.Fatalf("%s reads as %v and more: %v", cards.Format(cs), rd, got)
			}
			if rd.Type == Rocket && cards.Format(cs) != "BJ BJ RJ RJ" && len(cs) != 4 {
				t.Fatalf("%s reads as the rocket", cards.Format(cs))
			}
		}
		rev := slices.Clone(cs)
		slices.Reverse(rev)
		if again := r.Classify(rev); !slices.Equal(again, got) {
			t.Fatalf("%s reads as %v, reversed as %v", cards.Format(cs), got, again)
		}
	})
}
