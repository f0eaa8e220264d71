package doudizhu

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

func TestGameAndOptions(t *testing.T) {
	g := New()
	if g.Name() != "doudizhu" || !slices.Equal(g.Variants(), []string{"classic", "hubei", "fourplayer"}) {
		t.Fatalf("game %q variants %v", g.Name(), g.Variants())
	}
	for _, tc := range []struct {
		variant, version string
		seats            int
	}{
		// classic keeps its version so that old tables replay (DESIGN.md, The aggregate).
		{"classic", "doudizhu/classic/2", 3}, // /2: a timeout never bids (doc.go, Rules versions)
		{"hubei", "doudizhu/hubei/3", 3},     // /2: the revised grab; /3: a timeout never bids
		{"fourplayer", "doudizhu/fourplayer/3", 4},
	} {
		for _, opts := range []string{"", " ", "null", "{}", " { } "} {
			r, err := g.Rules(tc.variant, json.RawMessage(opts))
			if err != nil {
				t.Fatalf("%s with options %q: %v, want accepted", tc.variant, opts, err)
			}
			if string(r.Options()) != "{}" || r.Version() != tc.version || r.Seats() != tc.seats {
				t.Fatalf("%s rules: options %s version %s seats %d", tc.variant, r.Options(), r.Version(), r.Seats())
			}
		}
		for _, tc2 := range []struct{ opts, norm string }{
			{`{"hands":5}`, `{"hands":5}`},
			{` {"hands": 1} `, `{"hands":1}`},
		} {
			r, err := g.Rules(tc.variant, json.RawMessage(tc2.opts))
			if err != nil || string(r.Options()) != tc2.norm {
				t.Errorf("%s with options %s: %v, options %v; want accepted as %s (doudizhu.md, Tournament)", tc.variant, tc2.opts, err, r, tc2.norm)
			}
		}
		for _, tc2 := range []struct{ opts, key string }{
			{`{"stake":2}`, `"stake"`},
			{`{"zeta":1,"alpha":true}`, `"alpha"`},
			{`{"hands":5,"extra":1}`, `"extra"`},
			{`[1]`, "JSON object"},
			{`"x"`, "JSON object"},
			{`{"hands":0}`, "hands"},
			{`{"hands":-1}`, "hands"},
			{`{"hands":2.5}`, "hands"},
			{`{"hands":5.0}`, "hands"},
			{`{"hands":"5"}`, "hands"},
			{`{"hands":true}`, "hands"},
			{`{"hands":null}`, "hands"},
			{`{"hands":1e12}`, "hands"},
		} {
			_, err := g.Rules(tc.variant, json.RawMessage(tc2.opts))
			if !errors.Is(err, table.ErrBadOption) || !strings.Contains(err.Error(), tc2.key) {
				t.Errorf("%s with options %s: %v, want invalid_option naming %s (hands is an integer ≥ 1; unknown options are rejected)", tc.variant, tc2.opts, err, tc2.key)
			}
		}
	}
	for _, v := range []string{"", "Classic", "hubei2"} {
		if _, err := g.Rules(v, nil); !errors.Is(err, table.ErrUnknownVariant) {
			t.Errorf("variant %q: %v, want unknown_variant", v, err)
		}
	}
}

// TestDealOrder re-implements the deal order doc.go promises auditors.
func TestDealOrder(t *testing.T) {
	r := classic(t)
	seed := cards.Seed{0xde, 0xa1}
	evs, err := r.Deal(r.NewState(), table.DealNumber{Hand: 1, Deal: 1}, seed)
	if err != nil {
		t.Fatal(err)
	}
	if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"HandDealt", "DealSecret"}) {
		t.Fatalf("Deal emits %v, want HandDealt, DealSecret", got)
	}
	d := evs[0].(table.HandDealt)
	deck, st := cards.Shuffled(seed, 1)
	want := make([][]cards.Card, 3)
	for i := range 51 {
		want[i%3] = append(want[i%3], deck[i])
	}
	for i := range want {
		climb.Sort(want[i])
		if !slices.Equal(d.Hands[i], want[i]) {
			t.Errorf("seat %d holds %s, want cards i%%3 == %d of the shuffled deck in display order: %s (doc.go, Dealing)",
				i, cards.Format(d.Hands[i]), i, cards.Format(want[i]))
		}
	}
	kitty := slices.Clone(deck[51:])
	climb.Sort(kitty)
	if !slices.Equal(d.Kitty, kitty) {
		t.Errorf("kitty %s, want the last 3 cards %s (doudizhu.md, Deal)", cards.Format(d.Kitty), cards.Format(kitty))
	}
	if first := int(st.Below(3)); d.FirstSeat != first {
		t.Errorf("first bidder %d, want stream.Below(3) after the shuffle = %d (doudizhu.md, Deal: chosen from the seed)", d.FirstSeat, first)
	}
	if d.Commitment != seed.Commitment() || d.Hand != 1 || d.Deal != 1 {
		t.Errorf("HandDealt %d/%d commitment %s", d.Hand, d.Deal, d.Commitment)
	}
	if s := evs[1].(table.DealSecret); s.Seed != seed.String() || s.Hand != 1 || s.Deal != 1 {
		t.Errorf("DealSecret %+v, want the seed of deal 1/1", s)
	}
}

func TestBidding(t *testing.T) {
	const rule = "doudizhu.md, Bidding, classic (seed 002 叫牌)"
	r := classic(t)
	pos := position{hands: []string{"S3 S4", "S5 S6", "S7 S8"}, kitty: "SJ SQ SK", first: 1}

	t.Run("higher bids only", func(t *testing.T) {
		st := pos.build(t, r)
		gametest.MustAct(t, st, 1, bidA(2))
		for _, b := range []int{1, 2} {
			if _, err := table.Act(st, 2, bidA(b), &gametest.SeedSeq{}); !errors.Is(err, table.ErrBidTooLow) {
				t.Errorf("bid %d after a 2: %v, want bid_too_low (%s: a bid must be higher than every earlier bid)", b, err, rule)
			}
		}
		if got := r.Legal(st.G.(*State), 2); len(got) != 2 || *got[0].Bid != 3 || got[1].Type != ActionPass {
			t.Errorf("legal after a 2: %v, want bid 3 and pass (%s)", got, rule)
		}
	})
	t.Run("3 ends the bidding at once", func(t *testing.T) {
		st := pos.build(t, r)
		evs := gametest.MustAct(t, st, 1, bidA(3))
		if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"BidMade", "LandlordChosen"}) {
			t.Fatalf("bid 3 emits %v, want BidMade, LandlordChosen (%s: a bid of 3 ends bidding at once)", got, rule)
		}
		lc := evs[1].(LandlordChosen)
		if lc.Seat != 1 || lc.Bid != 3 || cards.Format(lc.Kitty) != "SJ SQ SK" {
			t.Fatalf("landlord %+v, want seat 1 at 3 with the kitty SJ SQ SK", lc)
		}
		g := gametest.Game[State](st)
		if g.phase != phasePlaying || g.turn != 1 || g.hands[1].Len() != 5 {
			t.Fatalf("after the bidding: phase %s turn %d landlord holds %d cards, want playing, the landlord to lead, kitty in hand (doudizhu.md, Deal, Beating)",
				g.phase, g.turn, g.hands[1].Len())
		}
		v := r.View(st.G.(*State), table.Spectator).Game.(GameView)
		if cards.Format(v.Kitty) != "SJ SQ SK" {
			t.Errorf("spectator sees kitty %v, want it shown to all once the landlord is decided (doudizhu.md, Deal)", v.Kitty)
		}
	})
	t.Run("highest bidder after all spoke", func(t *testing.T) {
		st := pos.build(t, r)
		gametest.MustAct(t, st, 1, bidA(1))
		gametest.MustAct(t, st, 2, passA())
		evs := gametest.MustAct(t, st, 0, bidA(2))
		if lc, ok := evs[len(evs)-1].(LandlordChosen); !ok || lc.Seat != 0 || lc.Bid != 2 {
			t.Fatalf("bids 1, pass, 2: %v, want seat 0 landlord at 2 (%s)", gametest.EventTypes(evs), rule)
		}
		st = pos.build(t, r)
		gametest.MustAct(t, st, 1, bidA(2))
		gametest.MustAct(t, st, 2, passA())
		evs = gametest.MustAct(t, st, 0, passA())
		if lc, ok := evs[len(evs)-1].(LandlordChosen); !ok || lc.Seat != 1 || lc.Bid != 2 {
			t.Fatalf("bids 2, pass, pass: %v, want seat 1 landlord at 2 (%s)", gametest.EventTypes(evs), rule)
		}
	})
	t.Run("turn and phase", func(t *testing.T) {
		st := pos.build(t, r)
		for _, tc := range []struct {
			seat int
			a    table.Action
			want error
		}{
			{0, bidA(1), table.ErrNotYourTurn},
			{2, passA(), table.ErrNotYourTurn},
			{1, playA("S5"), table.ErrWrongPhase},
			{1, bidA(0), table.ErrBadAction},
			{1, bidA(4), table.ErrBadAction},
			{1, table.Action{Type: ActionBid}, table.ErrBadAction},
			{1, table.Action{Type: ActionBid, Bid: table.Seat(1), Cards: cards.MustParse("S5")}, table.ErrBadAction},
			{1, table.Action{Type: ActionPass, Bid: table.Seat(1)}, table.ErrBadAction},
			{1, table.Action{Type: "double"}, table.ErrUnknownAction},
		} {
			if _, err := r.Decide(st.G.(*State), tc.seat, tc.a); !errors.Is(err, tc.want) {
				t.Errorf("seat %d %s while seat 1 bids: %v, want %v", tc.seat, gametest.DescribeAction(tc.a), err, tc.want)
			}
		}
	})
}

func TestAllPassRedealAndRotation(t *testing.T) {
	const rule = "doudizhu.md, Bidding, classic and Deal"
	r := classic(t)
	seeds := &gametest.SeedSeq{ID: 7}
	st := openTable(t, r, 1, seeds)
	first := gametest.Game[State](st).firstSeat
	if st.Hand != 1 || st.Deal != 1 {
		t.Fatalf("first deal is %d/%d", st.Hand, st.Deal)
	}
	secret := gametest.Game[State](st).Seed
	var evs []table.Payload
	for i := range 3 {
		evs = gametest.MustAct(t, st, (first+i)%3, passA())
	}
	if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"BidPassed", "DealVoided", "HandDealt", "DealSecret"}) {
		t.Fatalf("third pass emits %v, want BidPassed, DealVoided, HandDealt, DealSecret (%s: all pass, re-deal)", got, rule)
	}
	dv := evs[1].(table.DealVoided)
	if dv.Reason != "all_passed" || dv.Seed != secret || dv.Hand != 1 || dv.Deal != 1 {
		t.Fatalf("DealVoided %+v, want reason all_passed revealing the seed %s", dv, secret)
	}
	hd := evs[2].(table.HandDealt)
	if hd.Hand != 1 || hd.Deal != 2 || hd.FirstSeat != first {
		t.Fatalf("re-deal %d/%d first bidder %d, want 1/2 with the same first bidder %d (%s)", hd.Hand, hd.Deal, hd.FirstSeat, first, rule)
	}
	// Hand 1 ends by escape; hand 2's first bidder is the next seat.
	gametest.MustAct(t, st, first, table.Action{Type: table.ActionEscape})
	gametest.ApplyAll(st, mustJoin(t, st, "p9", seeds))
	if gametest.Game[State](st).hand != 2 || gametest.Game[State](st).firstSeat != (first+1)%3 {
		t.Fatalf("hand %d first bidder %d, want hand 2 first bidder %d (%s: the first bidder rotates)", gametest.Game[State](st).hand, gametest.Game[State](st).firstSeat, (first+1)%3, rule)
	}
}

func mustJoin(t testing.TB, st *table.State, player string, seeds table.SeedSource) []table.Payload {
	t.Helper()
	evs, err := table.Join(st, player, player, -1, seeds)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestPlayErrors(t *testing.T) {
	r := classic(t)
	pos := position{hands: []string{"S3 H3 S4 S5 BJ", "S6 H6 C7", "S8 H8 D8"}, kitty: "SK HK CK"}
	st := pos.playing(t, r, 0, 3) // seat 0 holds S3 H3 S4 S5 BJ SK HK CK
	for _, tc := range []struct {
		seat int
		a    table.Action
		want error
		rule string
	}{
		{1, playA("S6"), table.ErrNotYourTurn, "doudizhu.md, Beating: the landlord leads"},
		{0, passA(), table.ErrCannotPass, "doudizhu.md, Beating: a leader may not pass"},
		{0, bidA(1), table.ErrWrongPhase, "bidding is over"},
		{0, playA("S3 S4"), table.ErrInvalidCombo, "doudizhu.md, Card types"},
		{0, playA("D3"), table.ErrCardNotInHand, "a player plays their own cards"},
		{0, playAs("S3 H3", "single"), table.ErrInvalidCombo, "as names a type the cards do not read as"},
		{0, playAs("S3 H3", "double"), table.ErrBadAction, "as names no type"},
		{0, table.Action{Type: ActionPlay}, table.ErrBadAction, "a play needs cards"},
		{0, table.Action{Type: ActionPlay, Cards: []cards.Card{{Suit: 9, Rank: 3}}}, table.ErrBadAction, "a play needs real cards"},
		{0, table.Action{Type: ActionPlay, Cards: cards.MustParse("S3"), Bid: table.Seat(1)}, table.ErrBadAction, "a play takes no bid"},
	} {
		if _, err := r.Decide(st.G.(*State), tc.seat, tc.a); !errors.Is(err, tc.want) {
			t.Errorf("seat %d %s: %v, want %v (%s)", tc.seat, gametest.DescribeAction(tc.a), err, tc.want, tc.rule)
		}
	}
	_, err := r.Decide(st.G.(*State), 0, playA("S3 D3 HK D4"))
	if !errors.Is(err, table.ErrCardNotInHand) || !strings.Contains(err.Error(), "D3 D4") || strings.Contains(err.Error(), "S3") {
		t.Errorf("playing D3 and D4 not held: %v, want card_not_in_hand naming exactly D3 D4", err)
	}

	gametest.MustAct(t, st, 0, playA("S4"))
	_, err = r.Decide(st.G.(*State), 1, playA("S6 H6"))
	if !errors.Is(err, table.ErrDoesNotBeat) {
		t.Errorf("a pair on a single: %v, want does_not_beat (doudizhu.md, Beating: same type)", err)
	}
	// Another seat's hidden cards never appear in an error.
	for _, a := range []table.Action{playA("S3"), playA("S8 H8 D8"), playA("S6 C7")} {
		_, err := r.Decide(st.G.(*State), 1, a)
		if err == nil {
			t.Fatalf("seat 1 %s accepted", gametest.DescribeAction(a))
		}
		for _, hidden := range []string{"S8", "H8", "D8", "S3", "H3", "S5", "BJ"} {
			if strings.Contains(err.Error(), hidden) && !strings.Contains(gametest.DescribeAction(a), hidden) {
				t.Errorf("seat 1's error %q names %s, which seat 1 does not hold (DESIGN.md: hidden cards never leave the server)", err, hidden)
			}
		}
	}
	gametest.MustAct(t, st, 1, playA("H6"))
	gametest.MustAct(t, st, 2, passA())
	gametest.MustAct(t, st, 0, passA())
	if g := gametest.Game[State](st); g.last != nil || g.turn != 1 {
		t.Fatalf("after two passes: last play %v, turn %d; want seat 1 to lead anything (doudizhu.md, Beating)", g.last, g.turn)
	}
	if _, err := r.Decide(st.G.(*State), 1, passA()); !errors.Is(err, table.ErrCannotPass) {
		t.Errorf("seat 1 leading passes: %v, want cannot_pass", err)
	}
	gametest.MustAct(t, st, 1, playA("C7"))
}

func TestAmbiguousPlay(t *testing.T) {
	const rule = "doudizhu.md, Card types: the client may name the type of an ambiguous play"
	r := classic(t)
	pos := position{hands: []string{"S6 H6 C6 H7 C7 D7 H8 C8 D9", "S3 S4", "S5 S9"}, kitty: "D8 H9 C9"}
	st := pos.playing(t, r, 0, 3) // seat 0 holds 666777888999
	var as []string
	for _, a := range r.Legal(st.G.(*State), 0) {
		if len(a.Cards) == 12 {
			as = append(as, a.As)
		}
	}
	if !slices.Equal(as, []string{"airplane", "airplane_singles"}) {
		t.Fatalf("legal plays of all 12 cards name %v, want airplane and airplane_singles (%s)", as, rule)
	}
	all := "S6 H6 C6 H7 C7 D7 H8 C8 D8 H9 C9 D9"
	for _, tc := range []struct {
		as   string
		want Reading
	}{
		{"", rd(Airplane, climb.Rank9, 4)},
		{"airplane_singles", rd(AirplaneSingles, climb.Rank9, 3)},
		{"airplane", rd(Airplane, climb.Rank9, 4)},
	} {
		evs, err := r.Decide(st.G.(*State), 0, playAs(all, tc.as))
		if err != nil {
			t.Fatal(err)
		}
		if got := evs[0].(CardsPlayed).Reading; got != tc.want {
			t.Errorf("666777888999 as %q reads %v, want %v (%s)", tc.as, got, tc.want, rule)
		}
	}
}

func TestLeadReadingOrder(t *testing.T) {
	const rule = "doudizhu.md, Card types Decision: leading without a type, the highest main rank, then the longer chain"
	r := classic(t)
	tests := []struct {
		name, hand, kitty, play string
		want                    Reading
	}{
		{"the highest main rank", "S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6 S7", "H7 C7 S8", "S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6 S7 H7 C7 S8",
			rd(AirplaneSingles, climb.Rank7, 4)}, // not 333444555666 + 7 7 7 8 (main 6)
		{"equal main ranks: the longer chain", "S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6 SK", "HK CK DK", "S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6",
			rd(Airplane, climb.Rank6, 4)}, // not 444555666 + 3 3 3 (main 6, three trios)
		{"three kicker singles of one rank", "S3 H3 C3 S4 H4 C4 S5 H5 C5 S7 H7 C7 SK", "HK CK DK", "S3 H3 C3 S4 H4 C4 S5 H5 C5 S7 H7 C7",
			rd(AirplaneSingles, climb.Rank5, 3)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos := position{hands: []string{tc.hand, "SA", "HA"}, kitty: tc.kitty}
			st := pos.playing(t, r, 0, 3)
			cs := cards.MustParse(tc.play)
			if !slices.ContainsFunc(r.Legal(st.G.(*State), 0), func(a table.Action) bool { return slices.Equal(a.Cards, cs) }) {
				t.Fatalf("%s is not among the leader's legal plays (%s)", tc.play, rule)
			}
			evs := gametest.MustAct(t, st, 0, playA(tc.play))
			if got := evs[0].(CardsPlayed).Reading; got != tc.want {
				t.Errorf("leading %s reads %v, want %v (%s)", tc.play, got, tc.want, rule)
			}
		})
	}
}

func TestScoring(t *testing.T) {
	const rule = "doudizhu.md, Scoring, classic (seed 002)"
	r := classic(t)
	// Seat 0 is the landlord; the kitty SK HK CK joins its hand.
	type step struct {
		seat int
		a    table.Action
	}
	tests := []struct {
		name       string
		hands      []string
		bid, stake int
		steps      []step
		deltas     []int
		winner     string
		spring     bool
		anti       bool
	}{
		{
			name:  "landlord wins",
			hands: []string{"S3 S5", "S4 H7", "C4 C7"}, bid: 2, stake: 3,
			steps: []step{
				{0, playA("S3")}, {1, playA("S4")}, {2, passA()}, {0, playA("S5")}, {1, passA()}, {2, passA()},
				{0, playA("SK HK CK")},
			},
			deltas: []int{12, -6, -6}, winner: "landlord",
		},
		{
			name:  "spring: the farmers never played",
			hands: []string{"S3 S5", "S4 H4", "C4 D4"}, bid: 3, stake: 1,
			steps: []step{
				{0, playA("S3")}, {1, passA()}, {2, passA()}, {0, playA("S5")}, {1, passA()}, {2, passA()},
				{0, playA("SK HK CK")},
			},
			deltas: []int{12, -6, -6}, winner: "landlord", spring: true,
		},
		{
			name:  "farmers win",
			hands: []string{"S3 S5 S6", "S4 SA", "C4 C7"}, bid: 1, stake: 2,
			steps: []step{
				{0, playA("S3")}, {1, playA("S4")}, {2, passA()}, {0, playA("S5")}, {1, playA("SA")},
			},
			deltas: []int{-4, 2, 2}, winner: "farmers",
		},
		{
			name:  "anti-spring: the landlord made only the opening play",
			hands: []string{"S3 S5 S6", "S4 SA", "C4 C7"}, bid: 2, stake: 5,
			steps: []step{
				{0, playA("S3")}, {1, playA("S4")}, {2, passA()}, {0, passA()}, {1, playA("SA")},
			},
			deltas: []int{-40, 20, 20}, winner: "farmers", anti: true,
		},
		{
			name:  "the other farmer goes out",
			hands: []string{"S3 S5 S6", "S4 SA", "C4"}, bid: 3, stake: 1,
			steps: []step{
				{0, playA("S3")}, {1, passA()}, {2, playA("C4")},
			},
			deltas: []int{-12, 6, 6}, winner: "farmers", anti: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := position{hands: tc.hands, kitty: "SK HK CK", stake: tc.stake}.playing(t, r, 0, tc.bid)
			var evs []table.Payload
			for _, s := range tc.steps {
				evs = gametest.MustAct(t, st, s.seat, s.a)
			}
			hs, res := gametest.SettledOf[Result](t, evs)
			if !slices.Equal(hs.Deltas, tc.deltas) {
				t.Errorf("deltas %v, want %v (%s: each farmer pays or receives bid × stake, ×2 for spring or anti-spring)", hs.Deltas, tc.deltas, rule)
			}
			if res.Winner != tc.winner || res.Spring != tc.spring || res.AntiSpring != tc.anti || res.Bid != tc.bid {
				t.Errorf("result %+v, want winner %s spring %v anti-spring %v bid %d (%s)", res, tc.winner, tc.spring, tc.anti, tc.bid, rule)
			}
			if hs.Seed != (cards.Seed{1, 2, 3}).String() {
				t.Errorf("HandSettled reveals seed %q, want the deal's seed", hs.Seed)
			}
			if sum := hs.Deltas[0] + hs.Deltas[1] + hs.Deltas[2]; sum != 0 {
				t.Errorf("deltas sum to %d, want 0", sum)
			}
		})
	}
}

func TestEscape(t *testing.T) {
	const rule = "doudizhu.md, Escape"
	r := classic(t)
	pos := position{hands: []string{"S3 S5", "S4 H7", "C4 C7"}, kitty: "SK HK CK", first: 0}
	tests := []struct {
		name   string
		stake  int
		bid    int // 0: escape during the bidding
		seat   int
		deltas []int
		why    string
	}{
		{"farmer before the landlord is known", 5, 0, 1, []int{20, -40, 20}, "stake × 1 × 8: before bidding ends the escaper counts as a farmer"},
		{"landlord", 1, 3, 0, []int{-48, 24, 24}, "stake × bid × 16"},
		{"farmer", 2, 2, 2, []int{16, 16, -32}, "stake × bid × 8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := pos
			p.stake = tc.stake
			st := p.build(t, r)
			if tc.bid > 0 {
				st = p.playing(t, r, 0, tc.bid)
			} else {
				gametest.MustAct(t, st, 0, bidA(1))
			}
			evs := gametest.MustAct(t, st, tc.seat, table.Action{Type: table.ActionEscape})
			if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"PlayerEscaped", "HandSettled"}) {
				t.Fatalf("escape emits %v, want PlayerEscaped, HandSettled", got)
			}
			if pe := evs[0].(table.PlayerEscaped); pe.Seat != tc.seat || pe.PlayerID != "p"+string(rune('0'+tc.seat)) || pe.Hand != 1 {
				t.Errorf("PlayerEscaped %+v", pe)
			}
			hs, res := gametest.SettledOf[Result](t, evs)
			if !slices.Equal(hs.Deltas, tc.deltas) {
				t.Errorf("deltas %v, want %v (%s: %s, shared by those who stayed)", hs.Deltas, tc.deltas, rule, tc.why)
			}
			if res.End != "escape" || res.Escaper == nil || *res.Escaper != tc.seat || res.Penalty != -tc.deltas[tc.seat] {
				t.Errorf("result %+v", res)
			}
			if st.Players[tc.seat] != "" || st.InDeal {
				t.Errorf("after the escape seat %d holds %q, in deal %v; want the seat empty and no deal", tc.seat, st.Players[tc.seat], st.InDeal)
			}
		})
	}
	t.Run("remainder to the lowest seat that stayed", func(t *testing.T) {
		// Three seats always split an even penalty; four seats (fourplayer) do not.
		for _, tc := range []struct {
			penalty, escaper, seats int
			want                    []int
		}{
			{8, 0, 4, []int{-8, 4, 2, 2}},
			{8, 1, 4, []int{4, -8, 2, 2}},
			{16, 3, 4, []int{6, 5, 5, -16}},
			{24, 1, 3, []int{12, -24, 12}},
		} {
			if got := splitPenalty(tc.penalty, tc.escaper, tc.seats); !slices.Equal(got, tc.want) {
				t.Errorf("penalty %d of seat %d among %d: %v, want %v (%s Decision: remainder to the lowest seat that stayed)",
					tc.penalty, tc.escaper, tc.seats, got, tc.want, rule)
			}
		}
	})
	t.Run("no hand running", func(t *testing.T) {
		st := pos.build(t, r)
		g := gametest.Game[State](st).Clone().(*State)
		g.phase = phaseWaiting
		if _, err := r.Decide(g, 0, table.Action{Type: table.ActionEscape}); !errors.Is(err, table.ErrWrongPhase) {
			t.Errorf("escape between hands: %v, want wrong_phase", err)
		}
	})
}

func TestViewAndRedact(t *testing.T) {
	r := classic(t)
	seeds := &gametest.SeedSeq{ID: 3}
	st := openTable(t, r, 1, seeds)
	g := gametest.Game[State](st)
	for seat := range 3 {
		v := r.View(st.G.(*State), seat)
		if v.Phase != "bidding" || v.Turn == nil || *v.Turn != g.firstSeat || len(v.Hand) != 17 {
			t.Fatalf("seat %d view: phase %s turn %v hand %d cards", seat, v.Phase, v.Turn, len(v.Hand))
		}
		gv := v.Game.(GameView)
		if gv.Kitty != nil || gv.Hands != nil {
			t.Errorf("seat %d sees the kitty %v or hands before the landlord is known (doudizhu.md, Deal: nobody sees the kitty)", seat, gv.Kitty)
		}
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), g.Seed) {
			t.Errorf("seat %d's view contains the secret seed", seat)
		}
	}
	if v := r.View(st.G.(*State), table.Spectator); v.Hand != nil {
		t.Errorf("a spectator sees a hand %v", v.Hand)
	}
	av := r.View(st.G.(*State), table.Auditor).Game.(GameView)
	if len(av.Hands) != 3 || len(av.Kitty) != 3 {
		t.Errorf("the auditor sees %d hands and kitty %v, want everything", len(av.Hands), av.Kitty)
	}

	secret := table.DealSecret{Hand: 1, Deal: 1, Seed: g.Seed}
	for _, seat := range []int{0, 1, 2, table.Spectator} {
		if p := table.Redact(r.untyped(), secret, seat, false); p != nil {
			t.Errorf("seat %d sees DealSecret %v during the deal, want nil (not visible at all)", seat, p)
		}
		if p := table.Redact(r.untyped(), secret, seat, true); p == nil {
			t.Errorf("seat %d does not see DealSecret after the deal, when the seed is revealed anyway", seat)
		}
	}
	if p := table.Redact(r.untyped(), secret, table.Auditor, false); p == nil {
		t.Error("the auditor does not see DealSecret")
	}
	played := CardsPlayed{Seat: 0, Cards: cards.MustParse("S3"), Reading: rd(Single, climb.Rank3, 1)}
	if p := table.Redact(r.untyped(), played, 1, false); p == nil {
		t.Error("a play is hidden, want public")
	}
}

func TestDecodeEvents(t *testing.T) {
	r := classic(t)
	evs := []table.Payload{
		table.DealSecret{Hand: 1, Deal: 2, Seed: strings.Repeat("ab", 32)},
		BidMade{Seat: 1, Bid: 2},
		BidPassed{Seat: 2},
		LandlordChosen{Seat: 1, Bid: 2, Kitty: cards.MustParse("S3 HQ RJ")},
		CardsPlayed{Seat: 1, Cards: cards.MustParse("S3 H3 C3 D9"), Reading: rd(TrioSingle, climb.Rank3, 1)},
		PlayPassed{Seat: 2},
	}
	for _, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		back, err := table.Decode(r.untyped(), e.EventType(), b)
		if err != nil {
			t.Fatalf("decode %s %s: %v", e.EventType(), b, err)
		}
		b2, _ := json.Marshal(back)
		if string(b) != string(b2) || back.EventType() != e.EventType() {
			t.Errorf("%s round-trips as %s", b, b2)
		}
	}
	if _, err := r.Decode("Nonsense", []byte(`{}`)); err == nil {
		t.Error("an unknown event type decodes")
	}
	if _, err := r.Decode("CardsPlayed", []byte(`{"cards":["S1"]}`)); err == nil {
		t.Error("a bad card decodes")
	}
}

func TestCloneIsDeep(t *testing.T) {
	r := classic(t)
	st := position{hands: []string{"S3 S5", "S4 H7", "C4 C7"}, kitty: "SK HK CK"}.playing(t, r, 0, 1)
	gametest.MustAct(t, st, 0, playA("S3"))
	before := gametest.Game[State](st)
	c := before.Clone().(*State)
	r.Evolve(c, CardsPlayed{Seat: 1, Cards: cards.MustParse("S4"), Reading: rd(Single, climb.Rank4, 1)})
	r.Evolve(c, table.PlayerSeated{Seat: 2, PlayerID: "zz"})
	r.Evolve(c, BidPassed{Seat: 0})
	if before.hands[1].Len() != 2 || before.last.seat != 0 || before.Players[2] != "p2" || before.plays[1] != 0 || len(before.bids) != 3 {
		t.Fatal("evolving a clone changed the original")
	}
}
