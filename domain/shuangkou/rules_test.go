package shuangkou

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestVariantsAndOptions: the game plays "baibian" and "classic", takes no
// options, and records the variant's rules version.
func TestVariantsAndOptions(t *testing.T) {
	for _, v := range []string{"baibian", "classic"} {
		r, err := New().Rules(v, json.RawMessage(`{}`))
		if err != nil {
			t.Fatalf("variant %s: %v", v, err)
		}
		if r.Seats() != 4 || r.Version() != "shuangkou/"+v+"/1" {
			t.Errorf("variant %s: %d seats, version %s; want 4 seats (shuangkou.md)", v, r.Seats(), r.Version())
		}
	}
	if _, err := New().Rules("sichuan", nil); !errors.Is(err, table.ErrUnknownVariant) {
		t.Errorf("unknown variant: got %v, want unknown_variant", err)
	}
	if _, err := New().Rules("baibian", json.RawMessage(`{"wild":false}`)); !errors.Is(err, table.ErrBadOption) {
		t.Errorf("an option: got %v, want invalid_option", err)
	}
}

// TestDeal: two decks, 27 cards to each of four seats, no kitty; the seed
// draws the first leader of the first hand, and each later hand moves it on
// (shuangkou.md, opening lines; doc.go, Dealing Decision).
func TestDeal(t *testing.T) {
	r := rulesFor(t, "baibian")
	seeds := &gametest.SeedSeq{ID: 11}
	st := openTable(t, r, 1, seeds)
	g := gametest.Game[State](st)
	first := g.firstSeat
	seed, _ := (&gametest.SeedSeq{ID: 11}).NewSeed()
	deck, stream := cards.Shuffled(seed, 2)
	if want := int(stream.Below(4)); first != want {
		t.Errorf("first leader %d, want %d drawn after the shuffle (doc.go, Dealing)", first, want)
	}
	for i := range seats {
		var want cards.Multiset
		for k := i; k < len(deck); k += 4 {
			want.Add(deck[k])
		}
		if g.hands[i] != want || want.Len() != 27 {
			t.Errorf("seat %d holds %d cards, not deck cards %d, %d+4, … (shuangkou.md: 27 each)", i, g.hands[i].Len(), i, i)
		}
	}
	if g.turn != first {
		t.Errorf("turn %d, want the first leader %d", g.turn, first)
	}
	// Escape ends the hand; the next hand's leader is the next seat.
	gametest.MustAct(t, st, 1, table.Action{Type: table.ActionEscape})
	evs, err := table.Join(st, "late", "", 1, seeds)
	if err != nil {
		t.Fatal(err)
	}
	gametest.ApplyAll(st, evs)
	if g := gametest.Game[State](st); g.hand != 2 || g.firstSeat != (first+1)%4 || g.turn != g.firstSeat {
		t.Errorf("hand %d first leader %d, want hand 2 led by %d (doc.go, Dealing Decision)", g.hand, g.firstSeat, (first+1)%4)
	}
}

// TestClimbing: the leader plays anything and may not pass; the next seats
// beat or pass; when the other three pass, the last player leads again
// (shuangkou.md, climbing play as in dadun.md).
func TestClimbing(t *testing.T) {
	r := rulesFor(t, "classic")
	st := position{hands: [4]string{"S3 H3 S9", "S4 H4 SK", "S5 H5 SQ", "S6 H6 SJ"}}.build(t, r)
	if _, err := table.Act(st, 0, passA(), nil); !errors.Is(err, table.ErrCannotPass) {
		t.Fatalf("leader passes: got %v, want cannot_pass (shuangkou.md: lead anything)", err)
	}
	if _, err := table.Act(st, 1, playA("S4"), nil); !errors.Is(err, table.ErrNotYourTurn) {
		t.Fatalf("seat 1 plays on seat 0's lead: got %v, want not_your_turn", err)
	}
	if _, err := table.Act(st, 0, playA("S3 S9"), nil); !errors.Is(err, table.ErrInvalidCombo) {
		t.Fatalf("3 9: got %v, want invalid_combination (shuangkou.md, Combinations)", err)
	}
	if _, err := table.Act(st, 0, playA("D3"), nil); !errors.Is(err, table.ErrCardNotInHand) {
		t.Fatalf("a card not held: got %v, want card_not_in_hand", err)
	}
	gametest.MustAct(t, st, 0, playA("S3 H3"))
	if _, err := table.Act(st, 1, playA("SK"), nil); !errors.Is(err, table.ErrDoesNotBeat) {
		t.Fatalf("a single on a pair: got %v, want does_not_beat (shuangkou.md: same type and length)", err)
	}
	gametest.MustAct(t, st, 1, playA("S4 H4"))
	gametest.MustAct(t, st, 2, passA())
	gametest.MustAct(t, st, 3, passA())
	evs := gametest.MustAct(t, st, 0, passA())
	want := TrickEnded{Winner: 1, Leader: 1}
	if te, ok := evs[len(evs)-1].(TrickEnded); !ok || te != want {
		t.Fatalf("three passes emit %v, want %+v (shuangkou.md: three passes give the lead back)", gametest.EventTypes(evs), want)
	}
	if g := gametest.Game[State](st); g.turn != 1 || g.last != nil {
		t.Fatalf("turn %d, want seat 1 to lead", g.turn)
	}
}

// TestJiefeng: a player goes out and the others all pass: the partner leads
// (shuangkou.md, 接风 Decision); out seats are skipped in the turn order.
func TestJiefeng(t *testing.T) {
	r := rulesFor(t, "classic")
	st := position{hands: [4]string{"S3", "S4 H4", "S5 H5", "S6 H6"}}.build(t, r)
	evs := gametest.MustAct(t, st, 0, playA("S3"))
	if out, ok := evs[1].(PlayerOut); !ok || out != (PlayerOut{Seat: 0, Place: 1}) {
		t.Fatalf("going out emits %v, want PlayerOut seat 0 place 1", gametest.EventTypes(evs))
	}
	gametest.MustAct(t, st, 1, passA())
	gametest.MustAct(t, st, 2, passA())
	evs = gametest.MustAct(t, st, 3, passA())
	want := TrickEnded{Winner: 0, Leader: 2, Jiefeng: true}
	if te, ok := evs[len(evs)-1].(TrickEnded); !ok || te != want {
		t.Fatalf("all pass on the last play of seat 0: %v, want %+v (shuangkou.md, 接风 to the partner)", evs, want)
	}
	gametest.MustAct(t, st, 2, playA("S5"))
	if g := gametest.Game[State](st); g.turn != 3 {
		t.Fatalf("after seat 2 the turn is %d's, want 3", g.turn)
	}
	gametest.MustAct(t, st, 3, playA("S6"))
	if g := gametest.Game[State](st); g.turn != 1 {
		t.Fatalf("after seat 3 the turn is %d's, want 1: seat 0 is out and skipped", g.turn)
	}
}

// TestResults: the three results of shuangkou.md, Result, each ending the
// hand as soon as a side is out, at stake 2.
func TestResults(t *testing.T) {
	type act struct {
		seat int
		a    table.Action
	}
	for _, c := range []struct {
		name    string
		hands   [4]string
		acts    []act
		outcome string
		finish  []int
		deltas  []int
	}{
		{"shuangkou: 1st and 2nd win 3 × base", [4]string{"S3", "S4 H4", "S5", "S6 H6"},
			[]act{{0, playA("S3")}, {1, passA()}, {2, playA("S5")}},
			OutcomeShuangkou, []int{0, 2}, []int{6, -6, 6, -6}},
		{"dankou: 1st and 3rd win 2 × base", [4]string{"S3", "S4", "S6 H6", "S5 H5 C5"},
			[]act{{0, playA("S3")}, {1, playA("S4")}, {2, playA("S6")}, {3, passA()}, {2, playA("H6")}},
			OutcomeDankou, []int{0, 1, 2}, []int{4, -4, 4, -4}},
		{"1st and 4th: the 1st's side wins 1 × base", [4]string{"S3", "S4", "S5 H5", "S6 H6"},
			[]act{{0, playA("S3")}, {1, playA("S4")}, {2, playA("S5")}, {3, playA("S6")}, {2, passA()}, {3, playA("H6")}},
			OutcomePingkou, []int{0, 1, 3}, []int{2, -2, 2, -2}},
		{"1st and 4th for seats 1 & 3, after 接风", [4]string{"S4 H4", "S3", "S6 H6", "S5"},
			[]act{{1, playA("S3")}, {2, playA("S6")}, {3, passA()}, {0, passA()}, {2, playA("H6")}, {3, passA()}, {0, passA()}, {0, playA("S4 H4")}},
			OutcomePingkou, []int{1, 2, 0}, []int{-2, 2, -2, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := position{hands: c.hands, first: c.acts[0].seat, stake: 2}.build(t, rulesFor(t, "classic"))
			var evs []table.Payload
			for i, x := range c.acts {
				if !st.InDeal {
					t.Fatalf("the hand ended before action %d", i)
				}
				evs = gametest.MustAct(t, st, x.seat, x.a)
			}
			hs, res := gametest.SettledOf[Result](t, evs)
			if res.Outcome != c.outcome || !slices.Equal(res.Finish, c.finish) || !slices.Equal(hs.Deltas, c.deltas) {
				t.Fatalf("settled %s finish %v deltas %v, want %s %v %v (shuangkou.md, Result)", res.Outcome, res.Finish, hs.Deltas, c.outcome, c.finish, c.deltas)
			}
			// The next hand is dealt in the same batch once the result is known.
			if hs.Hand != 1 || gametest.Game[State](st).hand != 2 || hs.Seed == "" {
				t.Fatalf("the hand goes on after a side is out, or the seed is not revealed (shuangkou.md: the hand ends as soon as the result is known)")
			}
		})
	}
}

// TestEscape: the escaper's side loses as in 双扣, the escaper paying 6 ×
// base and the partner 0 (shuangkou.md, Escape Decision).
func TestEscape(t *testing.T) {
	for escaper := range seats {
		st := position{hands: [4]string{"S3 H3", "S4 H4", "S5 H5", "S6 H6"}, stake: 3}.build(t, rulesFor(t, "baibian"))
		evs := gametest.MustAct(t, st, escaper, table.Action{Type: table.ActionEscape})
		hs, res := gametest.SettledOf[Result](t, evs)
		want := []int{9, 9, 9, 9}
		want[escaper], want[partner(escaper)] = -18, 0
		if !slices.Equal(hs.Deltas, want) || res.End != "escape" || res.Penalty != 18 || *res.Escaper != escaper {
			t.Errorf("seat %d escapes: deltas %v result %+v, want %v (shuangkou.md, Escape)", escaper, hs.Deltas, res, want)
		}
		if _, ok := evs[0].(table.PlayerEscaped); !ok {
			t.Errorf("escape emits %v first, want PlayerEscaped", gametest.EventTypes(evs))
		}
	}
}

// TestWildReadingRecorded: in 百变 the play names its cards and the event
// records the reading, chosen by the client's "as" or else the strongest
// that may be played (shuangkou.md, 百变; doc.go, Reading a play).
func TestWildReadingRecorded(t *testing.T) {
	r := rulesFor(t, "baibian")
	hands := [4]string{"S5 S6 S7 BJ RJ S3", "S4 S5 S6 S7 S8 S9", "S3 S4 S5 S6 S7 S8", "S7 H7 BJ RJ S3"}
	for _, c := range []struct {
		as   string
		want string
	}{
		{"", `{"type":"straight","main":"9","length":5,"wild":["8","9"]}`},
		{"straight", `{"type":"straight","main":"9","length":5,"wild":["8","9"]}`},
		{"straight:7", `{"type":"straight","main":"7","length":5,"wild":["3","4"]}`},
		{"straight:8", `{"type":"straight","main":"8","length":5,"wild":["4","8"]}`},
	} {
		st := position{hands: hands}.build(t, r)
		evs := gametest.MustAct(t, st, 0, playAs("S5 S6 S7 BJ RJ", c.as))
		got, _ := json.Marshal(evs[0].(CardsPlayed).Reading)
		if string(got) != c.want {
			t.Errorf("as %q: reading %s, want %s (shuangkou.md, 百变: the reading is recorded)", c.as, got, c.want)
		}
	}
	st := position{hands: hands}.build(t, r)
	for _, c := range []struct {
		as   string
		want error
	}{
		{"bomb", table.ErrInvalidCombo},
		{"straight:10", table.ErrInvalidCombo},
		{"flush", table.ErrBadAction},
		{"straight:11", table.ErrBadAction},
	} {
		if _, err := table.Act(st, 0, playAs("S5 S6 S7 BJ RJ", c.as), nil); !errors.Is(err, c.want) {
			t.Errorf("as %q: got %v, want %v", c.as, err, c.want)
		}
	}
	// Following a straight topped by 8, only the reading topped by 9 beats it.
	st = position{hands: hands, first: 1}.build(t, r)
	gametest.MustAct(t, st, 1, playA("S4 S5 S6 S7 S8"))
	gametest.MustAct(t, st, 2, passA())
	gametest.MustAct(t, st, 3, passA())
	if _, err := table.Act(st, 0, playAs("S5 S6 S7 BJ RJ", "straight:8"), nil); !errors.Is(err, table.ErrDoesNotBeat) {
		t.Errorf("straight:8 on straight:8: got %v, want does_not_beat", err)
	}
	evs := gametest.MustAct(t, st, 0, playA("S5 S6 S7 BJ RJ"))
	if rd := evs[0].(CardsPlayed).Reading; rd.Main != climb.Rank9 {
		t.Errorf("read as %v, want the straight to 9, the reading that beats", rd)
	}
	// ♠7 ♥7 RJ BJ is a 4-card bomb of 7s (shuangkou.md, 百变).
	gametest.MustAct(t, st, 1, passA())
	gametest.MustAct(t, st, 2, passA())
	evs = gametest.MustAct(t, st, 3, playA("S7 H7 RJ BJ"))
	if rd := evs[0].(CardsPlayed).Reading; rd.Type != Bomb || rd.Main != climb.Rank7 || rd.Length != 4 || !slices.Equal(rd.Wild, []climb.Rank{climb.Rank7, climb.Rank7}) {
		t.Errorf("S7 H7 RJ BJ read as %v, want a 4-card bomb of 7s (shuangkou.md, 百变)", rd)
	}
}

// TestClassicNoWilds: in classic a joker never joins natural cards
// (shuangkou.md: classic, no wilds); jokers alone still play as themselves.
func TestClassicNoWilds(t *testing.T) {
	r := rulesFor(t, "classic")
	st := position{hands: [4]string{"S7 H7 BJ RJ BJ", "S4", "S5", "S6"}}.build(t, r)
	if _, err := table.Act(st, 0, playA("S7 H7 BJ RJ"), nil); !errors.Is(err, table.ErrInvalidCombo) {
		t.Fatalf("S7 H7 BJ RJ in classic: got %v, want invalid_combination", err)
	}
	evs := gametest.MustAct(t, st, 0, playA("BJ BJ"))
	if rd := evs[0].(CardsPlayed).Reading; rd.Type != Pair || rd.Main != climb.RankBJ {
		t.Fatalf("BJ BJ read as %v, want a pair of black jokers (shuangkou.md: BJ BJ is a pair)", rd)
	}
}

// TestNoHandRunning: actions between hands are a wrong phase.
func TestNoHandRunning(t *testing.T) {
	r := rulesFor(t, "baibian")
	s := r.NewState()
	if _, err := r.Decide(s, 0, playA("S3")); !errors.Is(err, table.ErrWrongPhase) {
		t.Errorf("play with no hand: got %v, want wrong_phase", err)
	}
	if _, err := r.Decide(s, 0, table.Action{Type: "bid"}); !errors.Is(err, table.ErrUnknownAction) {
		t.Errorf("bid: got %v, want unknown_action", err)
	}
	if r.Legal(s, 0) != nil {
		t.Errorf("legal actions with no hand running")
	}
}
