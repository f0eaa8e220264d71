package niuniu

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

func TestGame(t *testing.T) {
	g := New()
	if g.Name() != "niuniu" || !slices.Equal(g.Variants(), []string{"classic"}) {
		t.Fatalf("game %q variants %v", g.Name(), g.Variants())
	}
	if v := rulesWith(t, "").Version(); v != "niuniu/classic/2" { // /2: the revised escape (doc.go, Rules versions)
		t.Fatalf("rules version %q", v)
	}
}

// TestOptions: 2–4 seats (niuniu.md), the banker a seat named by the table
// (seed 004: "庄位由房间指定位置"); defaults 4 seats, banker 0.
func TestOptions(t *testing.T) {
	ok := []struct {
		in, norm string
	}{
		{"", `{"seats":4,"banker":0}`},
		{"null", `{"seats":4,"banker":0}`},
		{"{}", `{"seats":4,"banker":0}`},
		{`{"seats":2}`, `{"seats":2,"banker":0}`},
		{`{"seats":3,"banker":2}`, `{"seats":3,"banker":2}`},
		{`{"banker":3}`, `{"seats":4,"banker":3}`},
	}
	for _, tc := range ok {
		r, err := New().Rules("classic", json.RawMessage(tc.in))
		if err != nil {
			t.Fatalf("options %q: %v", tc.in, err)
		}
		if got := string(r.Options()); got != tc.norm {
			t.Errorf("options %q normalize to %s, want %s", tc.in, got, tc.norm)
		}
		var o Options
		json.Unmarshal(r.Options(), &o)
		if r.Seats() != o.Seats {
			t.Errorf("options %q: %d seats, options say %d", tc.in, r.Seats(), o.Seats)
		}
	}
	bad := []string{`{"seats":1}`, `{"seats":5}`, `{"seats":2,"banker":2}`, `{"banker":-1}`, `{"seats":"4"}`, `{"seats":2.5}`, `{"stake":3}`, `[]`, `{"seats":2} {}`}
	for _, in := range bad {
		_, err := New().Rules("classic", json.RawMessage(in))
		if !errors.Is(err, table.ErrBadOption) {
			t.Errorf("options %s: got %v, want invalid_option (niuniu.md: 2–4 players; doc.go, Table options)", in, err)
		}
	}
	if _, err := New().Rules("fast", nil); !errors.Is(err, table.ErrUnknownVariant) {
		t.Errorf("variant fast: got %v, want unknown_variant", err)
	}
}

// TestDeal deals 5 cards each from one deck of 54 as doc.go (Dealing)
// specifies, for every table size, the banker first.
func TestDeal(t *testing.T) {
	for seats := minSeats; seats <= maxSeats; seats++ {
		r := rulesWith(t, `{"seats":`+string(rune('0'+seats))+`,"banker":1}`)
		seed := cards.Seed{9, byte(seats)}
		evs, err := r.Deal(r.NewState(), table.DealNumber{Hand: 3, Deal: 1}, seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"HandDealt", "DealSecret"}) {
			t.Fatalf("deal emits %v", got)
		}
		d := evs[0].(table.HandDealt)
		deck, _ := cards.Shuffled(seed, 1)
		all := cards.Multiset{}
		for s, h := range d.Hands {
			var want []cards.Card
			for i := s; i < seats*HandSize; i += seats {
				want = append(want, deck[i])
			}
			Sort(want)
			if !slices.Equal(h, want) {
				t.Fatalf("%d seats: seat %d dealt %s, want %s (doc.go, Dealing)", seats, s, cards.Format(h), cards.Format(want))
			}
			all.Add(h...)
		}
		if len(d.Hands) != seats || all.Len() != seats*HandSize || len(d.Kitty) != 0 {
			t.Fatalf("%d seats: %d hands of %d cards and a kitty of %d, want 5 each, none left (niuniu.md)", seats, len(d.Hands), all.Len(), len(d.Kitty))
		}
		for _, k := range all {
			if k > 1 {
				t.Fatalf("a card dealt twice from one deck")
			}
		}
		if d.FirstSeat != 1 || d.Hand != 3 || d.Commitment != seed.Commitment() {
			t.Fatalf("deal %+v: want the banker 1 as first seat and the seed's commitment", d)
		}
		if s := evs[1].(table.DealSecret); s.Seed != seed.String() {
			t.Fatalf("DealSecret holds %s, want the seed", s.Seed)
		}
	}
}

// fourSeats is a position: banker 0 holds 牛6 (high CK), seat 1 牛牛, seat 2
// 牛8, seat 3 no bull.
const (
	hand0 = "S3 H7 CK D2 S4"
	hand1 = "S10 HJ CQ DK HQ"
	hand2 = "H3 C7 SK D4 H4"
	hand3 = "D10 S5 C2 HA D6"
)

// TestArrangeErrors: an arrangement that is not valid is rejected with a
// clear error and changes nothing (niuniu.md, Arranging).
func TestArrangeErrors(t *testing.T) {
	r := rulesWith(t, "")
	st := position(t, r, 1, hand0, hand1, hand2, hand3)
	seven := 7
	tests := []struct {
		name string
		a    table.Action
		want error
	}{
		{"two cards", arrangeA("S3 H7"), table.ErrBadAction},
		{"four cards", arrangeA("S3 H7 CK D2"), table.ErrBadAction},
		{"no cards", table.Action{Type: ActionArrange}, table.ErrBadAction},
		{"a card twice", arrangeA("S3 S3 CK"), table.ErrBadAction},
		{"a bid", table.Action{Type: ActionArrange, Cards: cards.MustParse("S3 H7 CK"), Bid: &seven}, table.ErrBadAction},
		{"an as", table.Action{Type: ActionArrange, Cards: cards.MustParse("S3 H7 CK"), As: "bull"}, table.ErrBadAction},
		{"an invalid card", table.Action{Type: ActionArrange, Cards: []cards.Card{{Suit: 7, Rank: 3}, {}, {}}}, table.ErrBadAction},
		{"a card of another seat", arrangeA("S3 H7 S10"), table.ErrCardNotInHand},
		{"not a multiple of 10", arrangeA("S3 CK S4"), ErrNotABull},
		{"no_bull with cards", table.Action{Type: ActionNoBull, Cards: cards.MustParse("S3")}, table.ErrBadAction},
		{"no_bull with a bid", table.Action{Type: ActionNoBull, Bid: &seven}, table.ErrBadAction},
		{"an unknown action", table.Action{Type: "play", Cards: cards.MustParse("S3")}, table.ErrUnknownAction},
		{"a pass", table.Action{Type: "pass"}, table.ErrUnknownAction},
	}
	for _, tc := range tests {
		before := *gametest.Game[State](st)
		_, err := r.Decide(st.G.(*State), 0, tc.a)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s (%s): got %v, want %v (niuniu.md, Arranging: an invalid arrangement is rejected)", tc.name, gametest.DescribeAction(tc.a), err, tc.want)
		}
		var te *table.Error
		if errors.As(err, &te) {
			for _, other := range []string{hand1, hand2, hand3} {
				for _, c := range cards.MustParse(other) {
					if strings.Contains(te.Msg, c.String()) && !slices.Contains(tc.a.Cards, c) {
						t.Errorf("%s: the error %q names %s, another seat's card", tc.name, te.Msg, c)
					}
				}
			}
		}
		if !reflect.DeepEqual(*gametest.Game[State](st), before) {
			t.Fatalf("%s: a rejected action changed the state", tc.name)
		}
	}
	if _, err := r.Decide(st.G.(*State), 4, noBullA()); !errors.Is(err, table.ErrNoSuchSeat) {
		t.Errorf("seat 4 of 4: got %v, want no_such_seat", err)
	}
	between := r.NewState()
	for _, a := range []table.Action{arrangeA("S3 H7 CK"), noBullA(), {Type: table.ActionEscape}} {
		if _, err := r.Decide(between, 0, a); !errors.Is(err, table.ErrWrongPhase) {
			t.Errorf("%s between hands: got %v, want wrong_phase", gametest.DescribeAction(a), err)
		}
	}
}

// TestArrangeAnyOrder: the bull may be named in any order; the event records
// it in display order with its class.
func TestArrangeAnyOrder(t *testing.T) {
	r := rulesWith(t, "")
	st := position(t, r, 1, hand0, hand1, hand2, hand3)
	evs := gametest.MustAct(t, st, 0, arrangeA("CK H7 S3"))
	e := evs[0].(HandArranged)
	if cards.Format(e.Cards) != "S3 H7 CK" || *e.Reading != 6 || e.Seat != 0 || len(evs) != 1 {
		t.Fatalf("arranging CK H7 S3 of %s: %+v, want S3 H7 CK read as bull_6 (niuniu.md, Arranging)", hand0, e)
	}
}

// TestResubmitUntilReveal: an arrangement may be replaced until the reveal;
// the reveal comes with the last seat's arrangement (niuniu.md, Arranging).
func TestResubmitUntilReveal(t *testing.T) {
	r := rulesWith(t, `{"seats":2}`)
	st := position(t, r, 2, hand0, hand2)
	gametest.MustAct(t, st, 1, noBullA())
	gametest.MustAct(t, st, 1, arrangeA("H3 C7 SK"))
	gametest.MustAct(t, st, 1, noBullA())
	evs := gametest.MustAct(t, st, 1, arrangeA("H3 C7 SK"))
	if len(evs) != 1 || gametest.Game[State](st).phase != phaseArranging {
		t.Fatalf("seat 1 re-arranging alone ends the hand: %v (niuniu.md, Arranging: the reveal waits for every seat)", gametest.EventTypes(evs))
	}
	evs = gametest.MustAct(t, st, 0, arrangeA("S3 H7 CK"))
	if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"HandArranged", "HandsRevealed", "HandSettled", "HandDealt", "DealSecret"}) {
		t.Fatalf("the last arrangement emits %v, want the reveal, the settlement and the next deal", got)
	}
	rev := evs[1].(HandsRevealed)
	if rev.Hands[1].Bull != 8 || cards.Format(rev.Hands[1].BullCards) != "H3 C7 SK" {
		t.Fatalf("seat 1 revealed as %+v, want its last arrangement, bull_8", rev.Hands[1])
	}
	hs, res := gametest.SettledOf[Result](t, evs)
	// 牛8 beats 牛6: the player wins stake 2 × 3.
	if !slices.Equal(hs.Deltas, []int{-6, 6}) || res.Bouts[0].Winner != "player" || res.Bouts[0].Multiplier != 3 {
		t.Fatalf("settled %v %+v, want [-6 6]: 牛8 wins ×3 at stake 2 (niuniu.md, Settlement)", hs.Deltas, res.Bouts)
	}
	if _, err := r.Decide(st.G.(*State), 1, noBullA()); err != nil {
		t.Fatalf("the next hand is dealt: %v", err)
	}
}

// TestRevealAndSettle plays a 4-seat hand to its settlement: each player
// against the banker, the loser paying stake × the winner's multiplier; a
// seat that declares no bull is 没牛 even with a bull in hand (seed 004:
// "不拼牌,按无牛处理").
func TestRevealAndSettle(t *testing.T) {
	r := rulesWith(t, "")
	st := position(t, r, 3, hand0, hand1, hand2, hand3)
	gametest.MustAct(t, st, 3, noBullA())
	gametest.MustAct(t, st, 1, arrangeA("S10 HJ CQ"))
	gametest.MustAct(t, st, 2, noBullA()) // holds 牛8 but declares no bull
	evs := gametest.MustAct(t, st, 0, arrangeA("S3 H7 CK"))
	rev := evs[1].(HandsRevealed)
	wantClasses := []Bull{6, BullBull, NoBull, NoBull}
	for i, h := range rev.Hands {
		dealt := cards.MustParse([]string{hand0, hand1, hand2, hand3}[i])
		Sort(dealt)
		if h.Seat != i || h.Bull != wantClasses[i] || !slices.Equal(h.Cards, dealt) || h.High != Highest(dealt) {
			t.Fatalf("revealed %+v, want seat %d's dealt %s as %v (niuniu.md, Arranging)", h, i, cards.Format(dealt), wantClasses[i])
		}
	}
	hs, res := gametest.SettledOf[Result](t, evs)
	// Seat 1 牛牛 beats 牛6: +3×5. Seat 2 (no bull) loses to 牛6: -3.
	// Seat 3 no bull loses: -3. The banker: -15 + 3 + 3.
	want := []int{-9, 15, -3, -3}
	if !slices.Equal(hs.Deltas, want) {
		t.Fatalf("deltas %v, want %v (niuniu.md, Settlement)", hs.Deltas, want)
	}
	if res.End != "revealed" || res.Banker != 0 || len(res.Bouts) != 3 || !slices.Equal(res.Readings, wantClasses) {
		t.Fatalf("result %+v", res)
	}
	if res.High[0].String() != "CK" || res.Bouts[1].By != ByClass || hs.Seed != (cards.Seed{1, 2, 3}).String() {
		t.Fatalf("result %+v seed %s", res, hs.Seed)
	}
}

// TestBankerSeat: the banker named by the table option plays against every
// other seat, and is not seat 0.
func TestBankerSeat(t *testing.T) {
	r := rulesWith(t, `{"seats":3,"banker":2}`)
	// The banker (seat 2) holds 牛8; seat 0 牛6, seat 1 牛牛.
	st := position(t, r, 1, hand0, hand1, hand2)
	var evs []table.Payload
	for seat := range 3 {
		evs = arrangeBest(t, st, seat)
	}
	hs, res := gametest.SettledOf[Result](t, evs)
	if !slices.Equal(hs.Deltas, []int{-3, 5, -2}) || res.Banker != 2 {
		t.Fatalf("deltas %v banker %d, want [-3 5 -2] with banker 2 (niuniu.md, Settlement; doc.go, Table options)", hs.Deltas, res.Banker)
	}
}

// TestEscape follows niuniu.md, Escape (revised Decision): a player who
// leaves is 没牛 and loses to the banker at once at the banker's multiplier,
// and everyone else plays on to the reveal and settles as usual; one seat's
// escape never cancels another's bout. A banker who leaves ends the hand,
// losing to every player still in it at that player's multiplier. The side
// that stays is valued at its arrangement, or at its best bull when it has
// none (doc.go).
//
// The position (stake 2, banker seat 0): the banker's best is 牛6; seat 1
// holds 牛牛, seat 2 牛8, seat 3 no bull. Played out, the bouts are +10, +6
// and -2: [-14 10 6 -2].
func TestEscape(t *testing.T) {
	const rule = "niuniu.md, Escape (revised Decision)"
	type step struct {
		seat int
		a    table.Action // nil Type: the seat arranges its first bull (or no bull)
	}
	esc := table.Action{Type: table.ActionEscape}
	best := table.Action{}
	tests := []struct {
		name    string
		steps   []step
		last    []string // the event types of the last step
		want    []int
		end     string
		escaper int // the result's escaper; -1 for none
		escaped []int
	}{
		{"a player escapes; the others play on (its 牛牛 forfeited at the banker's ×1)",
			[]step{{1, esc}, {0, best}, {2, best}, {3, best}},
			[]string{"HandArranged", "HandsRevealed", "HandSettled"}, []int{-2, -2, 6, -2}, "revealed", -1, []int{1}},
		{"a player with a bull escapes: 没牛, it pays the banker's ×1",
			[]step{{2, arrangeA("H3 C7 SK")}, {2, esc}, {1, best}, {0, best}, {3, best}},
			[]string{"HandArranged", "HandsRevealed", "HandSettled"}, []int{-6, 10, -2, -2}, "revealed", -1, []int{2}},
		{"a player escapes, the banker declared: ×1, the others still win",
			[]step{{0, noBullA()}, {3, esc}, {1, best}, {2, best}},
			[]string{"HandArranged", "HandsRevealed", "HandSettled"}, []int{-14, 10, 6, -2}, "revealed", -1, []int{3}},
		{"another seat's escape never cancels an arranged 牛牛 (×5 still paid)",
			[]step{{1, best}, {3, esc}, {0, best}, {2, best}},
			[]string{"HandArranged", "HandsRevealed", "HandSettled"}, []int{-14, 10, 6, -2}, "revealed", -1, []int{3}},
		{"the last seat to arrange escapes: the reveal follows at once",
			[]step{{0, best}, {1, best}, {2, best}, {3, esc}},
			[]string{"PlayerEscaped", "BoutForfeited", "HandsRevealed", "HandSettled"}, []int{-14, 10, 6, -2}, "revealed", -1, []int{3}},
		{"every player escapes: the hand ends with the last",
			[]step{{1, esc}, {2, esc}, {3, esc}},
			[]string{"PlayerEscaped", "BoutForfeited", "HandSettled"}, []int{6, -2, -2, -2}, "escape", 3, []int{1, 2, 3}},
		// Players: 牛牛 ×5, 牛8 ×3, no bull ×1, each valued at its best.
		{"the banker escapes", []step{{0, esc}},
			[]string{"PlayerEscaped", "HandSettled"}, []int{-18, 10, 6, 2}, "escape", 0, nil},
		// Seat 1 declared no bull: it is paid at ×1, not at its 牛牛's ×5.
		{"the banker escapes, a player declared", []step{{1, noBullA()}, {2, arrangeA("H3 C7 SK")}, {0, esc}},
			[]string{"PlayerEscaped", "HandSettled"}, []int{-10, 2, 6, 2}, "escape", 0, nil},
		{"a player escapes, then the banker: the forfeited bout stands",
			[]step{{3, esc}, {0, esc}},
			[]string{"PlayerEscaped", "HandSettled"}, []int{-14, 10, 6, -2}, "escape", 0, []int{3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rulesWith(t, "")
			st := position(t, r, 2, hand0, hand1, hand2, hand3)
			var evs []table.Payload
			for i, s := range tc.steps {
				if !st.InDeal {
					t.Fatalf("step %d: the hand is over before seat %d acts (%s: the others play on)", i, s.seat, rule)
				}
				if s.a.Type == "" {
					evs = arrangeBest(t, st, s.seat)
				} else {
					evs = gametest.MustAct(t, st, s.seat, s.a)
				}
				if s.a.Type != table.ActionEscape {
					continue
				}
				if e := evs[0].(table.PlayerEscaped); e.Seat != s.seat || e.PlayerID == "" || e.Hand != 1 {
					t.Fatalf("escape event %+v", e)
				}
				if s.seat != 0 {
					if f, ok := evs[1].(BoutForfeited); !ok || f.Seat != s.seat || f.Delta != -2 || f.Multiplier != 1 {
						t.Fatalf("seat %d escapes: %v, want BoutForfeited at the banker's ×1, delta -2 (%s)", s.seat, gametest.EventTypes(evs), rule)
					}
				}
				if i < len(tc.steps)-1 {
					if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"PlayerEscaped", "BoutForfeited"}) {
						t.Fatalf("seat %d escapes: %v, want PlayerEscaped, BoutForfeited and the hand running on (%s)", s.seat, got, rule)
					}
					if r.Legal(st.G.(*State), s.seat) != nil || slices.Contains(r.Awaited(st.G.(*State)), s.seat) {
						t.Fatalf("seat %d escaped yet may act or is awaited (%s: it leaves the hand)", s.seat, rule)
					}
				}
			}
			if got := gametest.EventTypes(evs); !slices.Equal(got, tc.last) {
				t.Fatalf("the last step emits %v, want %v (%s)", got, tc.last, rule)
			}
			hs, res := gametest.SettledOf[Result](t, evs)
			if !slices.Equal(hs.Deltas, tc.want) {
				t.Fatalf("deltas %v, want %v (%s)", hs.Deltas, tc.want, rule)
			}
			if res.End != tc.end || (tc.escaper < 0) != (res.Escaper == nil) || (res.Escaper != nil && *res.Escaper != tc.escaper) || !slices.Equal(res.Escaped, tc.escaped) {
				t.Fatalf("result end %q escaper %v escaped %v, want %q, %d, %v", res.End, res.Escaper, res.Escaped, tc.end, tc.escaper, tc.escaped)
			}
			if len(res.Bouts) != 3 {
				t.Fatalf("%d bouts settled, want every player's 3 (%s: no bout is cancelled)", len(res.Bouts), rule)
			}
			for _, b := range res.Bouts {
				if b.Delta != hs.Deltas[b.Seat] || (slices.Contains(tc.escaped, b.Seat) && (b.By != ByEscape || b.Winner != "banker")) {
					t.Fatalf("bout %+v against deltas %v", b, hs.Deltas)
				}
				if slices.Contains(tc.escaped, b.Seat) && res.Readings[b.Seat] != NoBull {
					t.Fatalf("escaped seat %d settled as %v, want no_bull", b.Seat, res.Readings[b.Seat])
				}
			}
			if st.InDeal {
				t.Fatalf("after the last step the hand runs on")
			}
		})
	}
}

// TestEscapedSeatTaken: nobody may sit down in the seat of an escaper while
// the hand runs (its dealt cards are the escaper's), and the escaper's
// forfeited bout stands (niuniu.md, Escape).
func TestEscapedSeatTaken(t *testing.T) {
	const rule = "niuniu.md, Escape (revised Decision)"
	r := rulesWith(t, "")
	st := position(t, r, 2, hand0, hand1, hand2, hand3)
	gametest.MustAct(t, st, 1, table.Action{Type: table.ActionEscape})
	if _, err := table.Join(st, "late", "Late", 1, &gametest.SeedSeq{ID: 9}); !errors.Is(err, table.ErrWrongPhase) {
		t.Fatalf("a newcomer sits down in the escaper's seat mid-hand: %v, want wrong_phase (%s)", err, rule)
	}
	if v := r.View(st.G.(*State), 2).Game.(GameView); !slices.Equal(v.Escaped, []int{1}) {
		t.Errorf("seat 2 sees escaped %v, want [1]", v.Escaped)
	}
	if got := table.Legal(st, 1); got != nil {
		t.Errorf("the empty seat 1 may %v, want nothing", got)
	}
	if _, err := r.Decide(st.G.(*State), 1, arrangeA("S10 HJ CQ")); !errors.Is(err, table.ErrWrongPhase) {
		t.Errorf("the escaped seat arranges: %v, want wrong_phase (%s)", err, rule)
	}
	var evs []table.Payload
	for seat := range 4 {
		if seat != 1 {
			evs = arrangeBest(t, st, seat)
		}
	}
	hs, _ := gametest.SettledOf[Result](t, evs)
	if !slices.Equal(hs.Deltas, []int{-2, -2, 6, -2}) {
		t.Errorf("deltas %v, want [-2 -2 6 -2]: seat 1's forfeit at ×1, the others played out (%s)", hs.Deltas, rule)
	}
}

// TestForfeitRedacted: a forfeited bout's multiplier tells the banker's
// class, so until the hand ends only the banker sees it (doc.go, Hidden
// information).
func TestForfeitRedacted(t *testing.T) {
	r := rulesWith(t, "")
	st := position(t, r, 2, hand0, hand1, hand2, hand3)
	evs := gametest.MustAct(t, st, 3, table.Action{Type: table.ActionEscape})
	f := evs[1].(BoutForfeited)
	for _, tc := range []struct {
		seat     int
		handOver bool
		want     table.Payload
	}{
		{0, false, f},
		{table.Auditor, false, f},
		{1, false, BoutForfeited{Seat: 3, Hidden: true}},
		{table.Spectator, false, BoutForfeited{Seat: 3, Hidden: true}},
		{1, true, f},
	} {
		if got := table.Redact(r.untyped(), f, tc.seat, tc.handOver); got != tc.want {
			t.Errorf("viewer %d (hand over %v) sees %+v, want %+v", tc.seat, tc.handOver, got, tc.want)
		}
	}
}

// TestRedact: until the hand ends another seat sees only that a seat
// arranged, never its bull or class; the seat itself, the auditor, and
// everyone once the hand is over see it all (niuniu.md; doc.go, Hidden
// information).
func TestRedact(t *testing.T) {
	r := rulesWith(t, "")
	six := Bull(6)
	e := HandArranged{Seat: 1, Cards: cards.MustParse("S3 H7 CK"), Reading: &six}
	hidden := HandArranged{Seat: 1, Hidden: true}
	none := NoBull
	declared := HandArranged{Seat: 1, Reading: &none}
	for _, ev := range []HandArranged{e, declared} {
		for _, seat := range []int{0, 2, 3, table.Spectator} {
			got := table.Redact(r.untyped(), ev, seat, false)
			b, _ := json.Marshal(got)
			if !reflect.DeepEqual(got, hidden) || string(b) != `{"seat":1,"hidden":true}` {
				t.Fatalf("seat %d sees seat 1's running arrangement as %s, want only that it arranged", seat, b)
			}
			if got := table.Redact(r.untyped(), ev, seat, true); !reflect.DeepEqual(got, ev) {
				t.Fatalf("seat %d sees the ended hand's arrangement as %+v, want it whole", seat, got)
			}
		}
		for _, seat := range []int{1, table.Auditor} {
			if got := table.Redact(r.untyped(), ev, seat, false); !reflect.DeepEqual(got, ev) {
				t.Fatalf("seat %d sees %+v, want it whole", seat, got)
			}
		}
	}
	rev := HandsRevealed{Hand: 1}
	if got := table.Redact(r.untyped(), rev, 0, true); !reflect.DeepEqual(got, rev) {
		t.Fatalf("the reveal is redacted: %+v", got)
	}
}

// TestView: every seat arranges at once (no turn); a seat sees its own five
// cards and arrangement and who has arranged; the auditor sees everything.
func TestView(t *testing.T) {
	r := rulesWith(t, "")
	st := position(t, r, 1, hand0, hand1, hand2, hand3)
	gametest.MustAct(t, st, 2, arrangeA("H3 C7 SK"))
	for seat := range 4 {
		v := r.View(st.G.(*State), seat)
		g := v.Game.(GameView)
		dealt := cards.MustParse([]string{hand0, hand1, hand2, hand3}[seat])
		Sort(dealt)
		if v.Phase != "arranging" || v.Turn != nil || !slices.Equal(v.Hand, dealt) {
			t.Fatalf("seat %d view: phase %s turn %v hand %s", seat, v.Phase, v.Turn, cards.Format(v.Hand))
		}
		if !slices.Equal(g.Arranged, []bool{false, false, true, false}) || g.Banker == nil || *g.Banker != 0 || g.Hands != nil || g.Arrangements != nil {
			t.Fatalf("seat %d game view %+v", seat, g)
		}
		if (g.Arrangement != nil) != (seat == 2) {
			t.Fatalf("seat %d sees arrangement %+v, want only its own", seat, g.Arrangement)
		}
	}
	if g := r.View(st.G.(*State), 2).Game.(GameView); g.Arrangement.Reading != 8 || cards.Format(g.Arrangement.Cards) != "H3 C7 SK" {
		t.Fatalf("seat 2 sees its arrangement as %+v", g.Arrangement)
	}
	spec := r.View(st.G.(*State), table.Spectator)
	if spec.Hand != nil || spec.Game.(GameView).Arrangement != nil {
		t.Fatalf("a spectator sees %+v", spec)
	}
	aud := r.View(st.G.(*State), table.Auditor).Game.(GameView)
	if len(aud.Hands) != 4 || aud.Arrangements[2] == nil || aud.Arrangements[0] != nil {
		t.Fatalf("the auditor sees %+v", aud)
	}
	// After the hand: the reveal is public.
	for _, seat := range []int{0, 1, 3} {
		gametest.MustAct(t, st, seat, noBullA())
	}
	g := r.View(st.G.(*State), table.Spectator).Game.(GameView)
	if g.LastReveal == nil || len(g.LastReveal.Hands) != 4 || g.Hand != 2 {
		t.Fatalf("after the reveal a spectator sees %+v", g)
	}
}

// TestCommand: each HandArranged names the action that made it, for the
// auditor; the other events follow in a batch.
func TestCommand(t *testing.T) {
	r := rulesWith(t, "")
	st := position(t, r, 1, hand0, hand1, hand2, hand3)
	for seat, a := range []table.Action{arrangeA("CK S3 H7"), noBullA(), arrangeA("H3 C7 SK"), noBullA()} {
		evs := gametest.MustAct(t, st, seat, a)
		s, got, ok := r.Command(evs[0])
		if !ok || s != seat || got.Type != a.Type || cards.Of(got.Cards) != cards.Of(a.Cards) {
			t.Fatalf("%+v names seat %d %s, want seat %d %s", evs[0], s, gametest.DescribeAction(got), seat, gametest.DescribeAction(a))
		}
		for _, e := range evs[1:] {
			if _, _, ok := r.Command(e); ok {
				t.Fatalf("%s names a command", e.EventType())
			}
		}
	}
}

// TestDecodeEvents: the game's events round-trip through JSON by name.
func TestDecodeEvents(t *testing.T) {
	r := rulesWith(t, "")
	six := Bull(6)
	for _, p := range []table.Payload{
		HandArranged{Seat: 1, Cards: cards.MustParse("S3 H7 CK"), Reading: &six},
		HandsRevealed{Hand: 2, Hands: []RevealedHand{{Seat: 0, Cards: cards.MustParse("S3 H7 CK D2 S4"), BullCards: cards.MustParse("S3 H7 CK"), Reading: Reading{Bull: 6, High: cards.MustParse("CK")[0]}}}},
	} {
		b, _ := json.Marshal(p)
		back, err := table.Decode(r.untyped(), p.EventType(), b)
		if err != nil || !reflect.DeepEqual(back, p) {
			t.Fatalf("%s %s decodes as %+v, %v", p.EventType(), b, back, err)
		}
	}
	b, _ := json.Marshal(HandsRevealed{Hands: []RevealedHand{{Seat: 0, Cards: cards.MustParse("S3 H7 CK D2 S4"), BullCards: cards.MustParse("S3 H7 CK"), Reading: Reading{Bull: 6, High: cards.MustParse("CK")[0]}}}})
	if want := `{"hand":0,"hands":[{"seat":0,"cards":["S3","H7","CK","D2","S4"],"bull":["S3","H7","CK"],"reading":"bull_6","high":"CK"}]}`; string(b) != want {
		t.Fatalf("HandsRevealed encodes as %s, want %s (doc.go, Events)", b, want)
	}
	if _, err := table.Decode(r.untyped(), "CardsPlayed", []byte(`{}`)); err == nil {
		t.Fatal("an unknown event type decodes")
	}
}
