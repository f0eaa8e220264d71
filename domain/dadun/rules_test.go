package dadun

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// TestVariantsAndOptions: the game plays "lean", refuses an option it does
// not take (TestOptionsRead has those it takes), and records its rules
// version.
func TestVariantsAndOptions(t *testing.T) {
	r, err := New().Rules("lean", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Seats() != 4 || r.Version() != "dadun/lean/2" { // /2: the revised awards and Rulings (doc.go, Rules versions)
		t.Errorf("%d seats, version %s; want 4 seats (dadun.md: four players)", r.Seats(), r.Version())
	}
	if _, err := New().Rules("fuzhou", nil); !errors.Is(err, table.ErrUnknownVariant) {
		t.Errorf("unknown variant: got %v, want unknown_variant", err)
	}
	if _, err := New().Rules("lean", json.RawMessage(`{"alone":false}`)); !errors.Is(err, table.ErrBadOption) {
		t.Errorf("an unknown option: got %v, want invalid_option", err)
	}
}

// TestDealAndTurnedCard: two decks, 27 cards to each seat by deck position
// mod 4, no kitty; the turned card is the deck position drawn after the
// shuffle, its holder the banker, who acts first (dadun.md, Deal, banker,
// friend; doc.go, Dealing).
func TestDealAndTurnedCard(t *testing.T) {
	r := rulesFor(t)
	for id := uint64(1); id <= 20; id++ {
		st := openTable(t, r, 1, &gametest.SeedSeq{ID: id})
		g := gametest.Game[State](st)
		seed, _ := (&gametest.SeedSeq{ID: id}).NewSeed()
		deck, stream := cards.Shuffled(seed, 2)
		at := int(stream.Below(108))
		if g.turned != deck[at] || g.banker != at%4 || g.turn != g.banker || g.phase != phaseDeclaring {
			t.Fatalf("seed %d: turned %s to seat %d, turn %d; want %s to seat %d, who acts first (doc.go, Dealing)",
				id, g.turned, g.banker, g.turn, deck[at], at%4)
		}
		for i := range seats {
			var want cards.Multiset
			for k := i; k < len(deck); k += 4 {
				want.Add(deck[k])
			}
			if g.hands[i] != want || want.Len() != 27 {
				t.Fatalf("seat %d holds %d cards, not deck cards %d, %d+4, … (dadun.md: 27 each)", i, g.hands[i].Len(), i, i)
			}
		}
		holders := 0
		for i := range seats {
			holders += g.hands[i].Count(g.turned)
		}
		if holders != 2 {
			t.Fatalf("the turned card %s is held %d times", g.turned, holders)
		}
		if !g.bothCopies && (g.friend == g.banker || g.hands[g.friend].Count(g.turned) != 1) {
			t.Fatalf("seed %d: friend %d does not hold the other copy of %s (dadun.md: the holder of the other copy is the friend)", id, g.friend, g.turned)
		}
	}
}

// friendPosition: banker 0 holds one ♥10, seat 2 the other; seat 2 is the
// friend.
var friendPosition = position{
	hands:  [seats]string{"H10 S3 S4 SA", "S5 S6 S7 S8", "H10 S9 SJ SQ", "D5 D6 D7 D8"},
	turned: "H10",
	banker: 0,
}

func viewOf(t *testing.T, r *Rules, st *table.State, seat int) GameView {
	t.Helper()
	return r.View(st.G.(*State), seat).Game.(GameView)
}

// TestHiddenFriend: until the friend card is played by the friend, each
// seat's view shows only its own role, and no event names the friend; from
// FriendRevealed on, every view shows the friend and the sides (dadun.md,
// Deal, banker, friend).
func TestHiddenFriend(t *testing.T) {
	r := rulesFor(t)
	st := friendPosition.build(t, r)
	var evs []table.Payload
	for i := range seats {
		evs = append(evs, gametest.MustAct(t, st, i, passA())...)
	}
	wantRoles := []string{RoleBanker, RoleOpponent, RoleFriend, RoleOpponent}
	check := func(revealed bool) {
		t.Helper()
		for _, seat := range []int{0, 1, 2, 3, table.Spectator} {
			g := viewOf(t, r, st, seat)
			if seat >= 0 && g.Role != wantRoles[seat] {
				t.Errorf("seat %d sees role %q, want %q", seat, g.Role, wantRoles[seat])
			}
			if revealed != (g.Friend != nil) || revealed != (g.Sides != nil) {
				t.Errorf("seat %d sees friend %v, sides %v; revealed %v (dadun.md: nobody but the friend knows until the card is played)", seat, g.Friend, g.Sides, revealed)
			}
			if revealed && (*g.Friend != 2 || !slices.Equal(g.Sides[0], []int{0, 2})) {
				t.Errorf("seat %d sees friend %d, sides %v; want 2, [[0 2] [1 3]]", seat, *g.Friend, g.Sides)
			}
		}
		if g := viewOf(t, r, st, table.Auditor); g.Friend == nil || *g.Friend != 2 {
			t.Errorf("the auditor sees friend %v, want 2", g.Friend)
		}
	}
	check(false)
	// The banker's own copy reveals nothing, nor do the friend's other cards.
	evs = append(evs, gametest.MustAct(t, st, 0, playA("H10"))...)
	evs = append(evs, gametest.MustAct(t, st, 1, passA())...)
	evs = append(evs, gametest.MustAct(t, st, 2, playA("SJ"))...)
	for _, s := range []int{3, 0, 1} {
		evs = append(evs, gametest.MustAct(t, st, s, passA())...)
	}
	check(false)
	for _, e := range evs {
		b, _ := json.Marshal(e)
		if e.EventType() == "FriendRevealed" || containsKey(b, "friend") {
			t.Fatalf("%s %s names the friend before the friend card is played", e.EventType(), b)
		}
	}
	got := gametest.MustAct(t, st, 2, playA("H10"))
	if len(got) < 2 || got[1] != (FriendRevealed{Seat: 2, Card: cards.MustParse("H10")[0]}) {
		t.Fatalf("the friend plays the friend card: %v, want CardsPlayed then FriendRevealed", eventTypes(got))
	}
	check(true)
}

func containsKey(b []byte, key string) bool {
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}

// TestBankerHoldsBoth: a banker holding both copies of the turned card goes
// alone or names another card it holds exactly one copy of; its other holder
// is the friend (dadun.md, Deal, banker, friend).
func TestBankerHoldsBoth(t *testing.T) {
	r := rulesFor(t)
	p := position{hands: [seats]string{"H10 H10 S3 S3 SA", "S5 S6 SA", "S9 SJ", "D5 D6"}, turned: "H10", banker: 0}
	st := p.build(t, r)
	legal := r.Legal(st.G.(*State), 0)
	var names []string
	for _, a := range legal {
		names = append(names, gametest.DescribeAction(a))
	}
	if !slices.Equal(names, []string{"alone", "call SA"}) {
		t.Fatalf("the banker holding both may %q, want alone or call SA (the only card held once)", names)
	}
	if _, err := table.Act(st, 0, passA(), nil); !errors.Is(err, ErrFriendCard) {
		t.Errorf("pass: got %v, want invalid_friend_card (dadun.md: must go alone or name a card)", err)
	}
	for _, c := range []string{"S3", "H10", "D9"} {
		if _, err := table.Act(st, 0, callA(c), nil); !errors.Is(err, ErrFriendCard) {
			t.Errorf("call %s: got %v, want invalid_friend_card (a card held exactly once)", c, err)
		}
	}
	if _, err := table.Act(st, 1, callA("SA"), nil); !errors.Is(err, table.ErrNotYourTurn) {
		t.Errorf("call out of turn: got %v, want not_your_turn", err)
	}
	gametest.MustAct(t, st, 0, callA("SA"))
	g := gametest.Game[State](st)
	if g.friend != 1 || g.turn != 1 || g.friendCard != cards.MustParse("SA")[0] {
		t.Fatalf("after calling SA: friend %d, turn %d; want friend 1 (the other SA), seat 1 to declare", g.friend, g.turn)
	}
	if _, err := table.Act(st, 1, callA("S5"), nil); !errors.Is(err, ErrNotBanker) {
		t.Errorf("a second call: got %v, want not_banker", err)
	}
	if v := viewOf(t, r, st, 3); v.FriendCard == nil || v.FriendCard.String() != "SA" || v.Friend != nil {
		t.Errorf("seat 3 sees friend card %v and friend %v; want SA and no friend", v.FriendCard, v.Friend)
	}
	if v := viewOf(t, r, st, 1); v.Role != RoleFriend {
		t.Errorf("seat 1 holding the other SA sees role %q, want friend", v.Role)
	}
	for i := 1; i < seats; i++ {
		gametest.MustAct(t, st, i, passA())
	}
	if g := gametest.Game[State](st); g.phase != phasePlaying || g.turn != 0 {
		t.Fatalf("after the round: phase %s, turn %d; want the banker to lead", g.phase, g.turn)
	}
	// Going alone instead.
	st = p.build(t, r)
	gametest.MustAct(t, st, 0, aloneA())
	if g := gametest.Game[State](st); g.soloist != 0 || g.turn != 0 || g.phase != phasePlaying {
		t.Fatalf("the banker goes alone: soloist %d, turn %d, phase %s", g.soloist, g.turn, g.phase)
	}
}

// TestGoAloneRound: starting with the banker and going round, the first to
// declare plays 1 vs 3 and leads; if nobody does, the banker leads (dadun.md,
// Going alone).
func TestGoAloneRound(t *testing.T) {
	r := rulesFor(t)
	p := friendPosition
	p.banker, p.hands[0], p.hands[1] = 1, p.hands[1], p.hands[0]
	st := p.build(t, r)
	if _, err := table.Act(st, 0, aloneA(), nil); !errors.Is(err, table.ErrNotYourTurn) {
		t.Fatalf("seat 0 before the banker: got %v, want not_your_turn (the round starts with the banker)", err)
	}
	if _, err := table.Act(st, 1, playA("S5"), nil); !errors.Is(err, table.ErrWrongPhase) {
		t.Fatalf("a play during the round: got %v, want wrong_phase", err)
	}
	gametest.MustAct(t, st, 1, passA())
	gametest.MustAct(t, st, 2, passA())
	evs := gametest.MustAct(t, st, 3, aloneA())
	g := gametest.Game[State](st)
	if g.soloist != 3 || g.turn != 3 || g.phase != phasePlaying || eventTypes(evs) != "AloneDeclared" {
		t.Fatalf("seat 3 goes alone: soloist %d, turn %d, phase %s", g.soloist, g.turn, g.phase)
	}
	if v := viewOf(t, r, st, 2); v.Role != RoleOpponent || v.Sides == nil || !slices.Equal(v.Sides[0], []int{3}) {
		t.Fatalf("after 打独 seat 2 sees role %q, sides %v; want opponent, [[3] [0 1 2]]", v.Role, v.Sides)
	}
	// The friend card reveals nothing in 打独.
	if evs := gametest.MustAct(t, st, 3, playA("D5")); eventTypes(evs) != "CardsPlayed" {
		t.Fatalf("%v", eventTypes(evs))
	}
	st = p.build(t, r)
	for _, s := range []int{1, 2, 3, 0} {
		gametest.MustAct(t, st, s, passA())
	}
	if g := gametest.Game[State](st); g.soloist != -1 || g.turn != 1 || g.phase != phasePlaying {
		t.Fatalf("nobody went alone: soloist %d, turn %d, phase %s; want the banker 1 to lead", g.soloist, g.turn, g.phase)
	}
}

// TestClimbing: the leader plays anything and may not pass; the next seats
// beat or pass; when the other three pass, the last player takes the trick's
// points and leads again (dadun.md, Play; Points).
func TestClimbing(t *testing.T) {
	r := rulesFor(t)
	st := friendPosition.playing(t, r)
	if _, err := table.Act(st, 0, passA(), nil); !errors.Is(err, table.ErrCannotPass) {
		t.Fatalf("leader passes: got %v, want cannot_pass (dadun.md: the leader plays any combination)", err)
	}
	if _, err := table.Act(st, 0, playA("S3 S4"), nil); !errors.Is(err, table.ErrInvalidCombo) {
		t.Fatalf("S3 S4: got %v, want invalid_combination", err)
	}
	if _, err := table.Act(st, 0, playA("D5"), nil); !errors.Is(err, table.ErrCardNotInHand) {
		t.Fatalf("a card not held: got %v, want card_not_in_hand", err)
	}
	gametest.MustAct(t, st, 0, playA("H10"))
	if _, err := table.Act(st, 1, playA("S5"), nil); !errors.Is(err, table.ErrDoesNotBeat) {
		t.Fatalf("S5 on H10: got %v, want does_not_beat", err)
	}
	gametest.MustAct(t, st, 1, passA())
	gametest.MustAct(t, st, 2, playA("SJ"))
	gametest.MustAct(t, st, 3, passA())
	gametest.MustAct(t, st, 0, passA())
	evs := gametest.MustAct(t, st, 1, passA())
	if te, ok := evs[len(evs)-1].(TrickEnded); !ok || te.Winner != 2 || te.Leader != 2 || te.Points != 10 || te.Jiefeng {
		t.Fatalf("three passes after SJ: %v, want TrickEnded winner 2 with 10 points leading", evs)
	}
	if g := gametest.Game[State](st); g.captured[2] != 10 || g.turn != 2 || g.last != nil {
		t.Fatalf("captured %v, turn %d", g.captured, g.turn)
	}
}

// TestJiefeng: a player who goes out with a play the others all pass hands
// the lead to the next seat after it with cards (接风, dadun.md, Play).
func TestJiefeng(t *testing.T) {
	r := rulesFor(t)
	p := position{hands: [seats]string{"H10 S3", "S5 S6", "H10 S9", "D5 D6"}, turned: "H10", banker: 0}
	st := p.playing(t, r)
	gametest.MustAct(t, st, 0, playA("S3"))
	gametest.MustAct(t, st, 1, playA("S6"))
	gametest.MustAct(t, st, 2, passA())
	gametest.MustAct(t, st, 3, passA())
	gametest.MustAct(t, st, 0, playA("H10")) // banker out 1st
	gametest.MustAct(t, st, 1, passA())
	evs := gametest.MustAct(t, st, 2, passA())
	if eventTypes(evs) != "PlayPassed" {
		t.Fatalf("after two passes: %v; seat 3 still holds cards", eventTypes(evs))
	}
	evs = gametest.MustAct(t, st, 3, passA())
	te, ok := evs[len(evs)-1].(TrickEnded)
	if !ok || te.Winner != 0 || te.Leader != 1 || !te.Jiefeng {
		t.Fatalf("all pass on the banker's last card: %v, want the lead to seat 1 (接风)", evs)
	}
}

// TestLastCardsKickers: a trio without two kickers, or a trio run without
// two per trio, is refused unless it is the player's last cards (dadun.md,
// Combinations).
func TestLastCardsKickers(t *testing.T) {
	r := rulesFor(t)
	p := position{hands: [seats]string{"H10 S3 H3 C3 S9", "S5 H5 C5 S6", "H10 S9", "D5 D6"}, turned: "H10", banker: 0}
	st := p.playing(t, r)
	if _, err := table.Act(st, 0, playA("S3 H3 C3"), nil); !errors.Is(err, table.ErrInvalidCombo) {
		t.Fatalf("a bare trio with cards left: got %v, want invalid_combination", err)
	}
	if _, err := table.Act(st, 0, playA("S3 H3 C3 S9"), nil); !errors.Is(err, table.ErrInvalidCombo) {
		t.Fatalf("a trio + one with cards left: got %v, want invalid_combination", err)
	}
	gametest.MustAct(t, st, 0, playA("S3 H3 C3 S9 H10"))
	gametest.MustAct(t, st, 1, passA())
	gametest.MustAct(t, st, 2, passA())
	gametest.MustAct(t, st, 3, passA())
	// Seat 1 now leads its last four cards as a trio + one.
	evs := gametest.MustAct(t, st, 1, playA("S5 H5 C5 S6"))
	if cp := evs[0].(CardsPlayed); cp.Reading.Type != Trio || cp.Reading.Kickers != 1 {
		t.Fatalf("the last four cards read as %v, want trio + one", cp.Reading)
	}
}

// TestSettlement: the result of a hand played out (dadun.md, Points and
// result), from the state just before the last play. Seats 0 (banker) and 2
// (friend) play against 1 and 3 unless seat 0 goes alone; stake 1.
func TestSettlement(t *testing.T) {
	for _, c := range []struct {
		name     string
		soloist  int
		finish   []int // out before the last play
		seat     int   // goes out last
		played   string
		trick    int
		captured [seats]int
		last     string // the 末游's cards
		outcome  string
		points   []int
		deltas   []int
		rule     string
	}{
		{name: "shuangying", soloist: -1, finish: []int{0}, seat: 2, played: "S3", captured: [seats]int{50, 60, 40, 50},
			outcome: OutcomeShuangying, deltas: []int{3, -3, 3, -3}, rule: "双赢: 1st and 2nd, 3 × base each, points aside"},
		{name: "more than 100", soloist: -1, finish: []int{1, 0}, seat: 2, played: "S3", captured: [seats]int{50, 20, 30, 70}, last: "S4 H10 D10 S10",
			outcome: OutcomePoints, points: []int{110, 90}, deltas: []int{2, -2, 2, -2},
			rule: "the side with more than 100 wins 2 × base; the 末游 3's captured 70 go to the 头游 1, the 30 in its hand to the other side"},
		{name: "末游's hand to the other side", soloist: -1, finish: []int{1, 0}, seat: 2, played: "S3", captured: [seats]int{50, 20, 50, 0}, last: "SK HK H10 D5 C5 S5 H5 D10 C10 S10",
			outcome: OutcomePoints, points: []int{180, 20}, deltas: []int{2, -2, 2, -2},
			rule: "points left in the 末游's hand go to the other side (Decision: 对家 as the opposing side)"},
		{name: "all 200", soloist: -1, finish: []int{0, 1}, seat: 2, played: "S3", captured: [seats]int{100, 0, 100, 0}, last: "S4",
			outcome: OutcomePoints, points: []int{200, 0}, deltas: []int{3, -3, 3, -3}, rule: "all 200 points: 3 × base each"},
		{name: "100 each, the 头游's side", soloist: -1, finish: []int{1, 0}, seat: 2, played: "S3", captured: [seats]int{50, 60, 50, 40}, last: "S4",
			outcome: OutcomeTie, points: []int{100, 100}, deltas: []int{-2, 2, -2, 2}, rule: "both 100: the side of the 头游 wins 2 × base"},
		{name: "the last trick to its last player", soloist: -1, finish: []int{1, 0}, seat: 2, played: "SK", trick: 15, captured: [seats]int{50, 60, 20, 45}, last: "S4",
			outcome: OutcomePoints, points: []int{95, 105}, deltas: []int{-2, 2, -2, 2},
			rule: "Decision: the unfinished trick (15 + K) goes to seat 2, which went out: 95 against 105"},
		{name: "打独 won", soloist: 0, seat: 0, played: "S3", captured: [seats]int{0, 100, 50, 50},
			outcome: OutcomeAloneWon, deltas: []int{12, -4, -4, -4}, rule: "打独 as 头游: 4 × base from each of the three"},
		// Rulings: an opponent out first decides the hand, which ends at once
		// (a state with an opponent out and the hand running no longer occurs).
		{name: "打独 lost", soloist: 0, seat: 1, played: "S3", captured: [seats]int{200, 0, 0, 0}, last: "S9",
			outcome: OutcomeAloneLost, deltas: []int{-12, 4, 4, 4}, rule: "打独 not 头游: loses 4 × base to each, points aside"},
		{name: "打独 lost at once", soloist: 0, seat: 3, played: "S3", captured: [seats]int{0, 0, 0, 0}, last: "S9",
			outcome: OutcomeAloneLost, deltas: []int{-12, 4, 4, 4}, rule: "Rulings: the hand ends as soon as an opponent of the soloist goes out first"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newState()
			s.Stake, s.hand, s.phase = 1, 1, phasePlaying
			s.banker, s.friend, s.soloist = 0, 2, c.soloist
			s.turned = cards.MustParse("H10")[0]
			s.friendCard = s.turned
			if c.soloist >= 0 {
				s.friend = -1
			}
			s.captured, s.trick = c.captured, c.trick
			s.finish = c.finish
			played := cards.MustParse(c.played)
			s.hands[c.seat] = cards.Of(played)
			for i := range seats {
				if i != c.seat && !slices.Contains(c.finish, i) {
					s.hands[i] = cards.Of(cards.MustParse(c.last))
				}
			}
			finish := append(slices.Clone(c.finish), c.seat)
			if !s.ended(finish) {
				t.Fatalf("finish %v does not end the hand (dadun.md, Play: the hand's end)", finish)
			}
			hs, err := s.settlePlayedOut(finish, c.seat, played, 0)
			if err != nil {
				t.Fatal(err)
			}
			var res Result
			if err := json.Unmarshal(hs.Result, &res); err != nil {
				t.Fatal(err)
			}
			if res.Outcome != c.outcome || !slices.Equal(res.Points, c.points) || !slices.Equal(hs.Deltas, c.deltas) {
				t.Fatalf("outcome %s, points %v, deltas %v; want %s, %v, %v (dadun.md, Points and result: %s)",
					res.Outcome, res.Points, hs.Deltas, c.outcome, c.points, c.deltas, c.rule)
			}
		})
	}
}

// TestEndOfHand: 2 vs 2 ends when both seats of a side are out (dadun.md,
// Play); 打独 as soon as anyone is out: the soloist, who wins, or an
// opponent, who has made the soloist lose (dadun.md, Rulings: 打独的玩家必须
// 是头游，不然就算失败).
func TestEndOfHand(t *testing.T) {
	s := newState()
	s.banker, s.friend = 0, 2
	for _, c := range []struct {
		finish []int
		want   bool
	}{{[]int{0}, false}, {[]int{0, 1}, false}, {[]int{0, 2}, true}, {[]int{1, 0, 3}, true}, {[]int{1, 3}, true}} {
		if got := s.ended(c.finish); got != c.want {
			t.Errorf("2 vs 2, out %v: ended %v, want %v", c.finish, got, c.want)
		}
	}
	s.soloist, s.friend = 2, -1
	for _, c := range []struct {
		finish []int
		want   bool
	}{{[]int{2}, true}, {[]int{0}, true}, {[]int{1}, true}, {[]int{3}, true}, {nil, false}} {
		if got := s.ended(c.finish); got != c.want {
			t.Errorf("打独 by 2, out %v: ended %v, want %v", c.finish, got, c.want)
		}
	}
}

// TestAwardsSettled: a bomb with 四红 earns one award, which each of the other
// three pays the earner apart from the result (dadun.md, 盾 awards and their
// Decision).
func TestAwardsSettled(t *testing.T) {
	r := rulesFor(t)
	p := position{hands: [seats]string{"H10 H7 D7 H7 D7", "S5 S6", "H10 SJ", "D5 D6"}, turned: "H10", banker: 0, stake: 2}
	st := p.playing(t, r)
	evs := gametest.MustAct(t, st, 0, playA("H7 D7 H7 D7"))
	if cp := evs[0].(CardsPlayed); cp.Awards != 1 || cp.Reading.Type != Bomb {
		t.Fatalf("四红 bomb: %+v, want a bomb earning 1 award", cp)
	}
	for _, s := range []int{1, 2, 3} {
		gametest.MustAct(t, st, s, passA())
	}
	gametest.MustAct(t, st, 0, playA("H10")) // the banker out 1st
	gametest.MustAct(t, st, 1, passA())
	gametest.MustAct(t, st, 2, playA("SJ"))
	gametest.MustAct(t, st, 3, passA())
	gametest.MustAct(t, st, 1, passA())
	// The friend leads its copy, out 2nd: 双赢.
	evs = gametest.MustAct(t, st, 2, playA("H10"))
	if !strings.HasPrefix(eventTypes(evs), "CardsPlayed,FriendRevealed,PlayerOut,HandSettled") {
		t.Fatalf("the friend's last card: %v", eventTypes(evs))
	}
	hs, res := gametest.SettledOf[Result](t, evs)
	if res.Outcome != OutcomeShuangying || !slices.Equal(res.ResultDeltas, []int{6, -6, 6, -6}) {
		t.Fatalf("result %s: want 双赢 at stake 2", hs.Result)
	}
	if !slices.Equal(res.AwardDeltas, []int{6, -2, -2, -2}) || !slices.Equal(hs.Deltas, []int{12, -8, 4, -8}) {
		t.Fatalf("award deltas %v, deltas %v; want [6 -2 -2 -2] (each other player pays 1 × 2) and [12 -8 4 -8]", res.AwardDeltas, hs.Deltas)
	}
}

// TestEscape: the escaper pays 16 × base shared equally by the three others;
// what does not divide by three stays with the house (dadun.md, Escape
// Decision, as 宁阳刮风 in shengji.md).
func TestEscape(t *testing.T) {
	r := rulesFor(t)
	for _, c := range []struct {
		stake        int
		each, house  int
		escaper      int
		afterPlaying bool
	}{{1, 5, 1, 1, false}, {3, 16, 0, 2, true}, {2, 10, 2, 0, true}} {
		p := friendPosition
		p.stake = c.stake
		st := p.build(t, r)
		if c.afterPlaying {
			st = p.playing(t, r)
		}
		evs := gametest.MustAct(t, st, c.escaper, table.Action{Type: table.ActionEscape})
		hs, res := gametest.SettledOf[Result](t, evs)
		sum := hs.House
		for i, d := range hs.Deltas {
			want := c.each
			if i == c.escaper {
				want = -16 * c.stake
			}
			if d != want {
				t.Errorf("stake %d: seat %d settles %d, want %d", c.stake, i, d, want)
			}
			sum += d
		}
		if hs.House != c.house || sum != 0 || res.End != "escape" || *res.Escaper != c.escaper {
			t.Errorf("stake %d: house %d (want %d), sum %d, result %s", c.stake, hs.House, c.house, sum, hs.Result)
		}
	}
}

// TestReadingChoice: a play with several readings is read as the client's
// "as" names it, else as the strongest that may be played (doc.go, Reading a
// play); the reading is recorded (dadun.md, Combinations).
func TestReadingChoice(t *testing.T) {
	r := rulesFor(t)
	run := "S3 H3 C3 S4 H4 C4 S5 H5 C5 S9"
	for _, c := range []struct {
		hand, play, as string
		want           string
	}{
		{"H10 " + run, run, "", "trio_run:5:2+4"},
		{"H10 " + run, run, "trio_run:4:2", "trio_run:4:2+4"},
		{"H10 " + run, run, "trio_run:4", "trio_run:4:2+4"},
		{"H10 S7 H7 C7 D7", "S7 H7 C7 D7", "", "bomb:7×4"},
	} {
		p := position{hands: [seats]string{c.hand, "S6", "H10 S8", "S6"}, turned: "H10", banker: 0}
		st := p.playing(t, r)
		evs := gametest.MustAct(t, st, 0, playAs(c.play, c.as))
		if got := evs[0].(CardsPlayed).Reading.String(); got != c.want {
			t.Errorf("%s as %q reads %s, want %s", c.play, c.as, got, c.want)
		}
	}
	p := position{hands: [seats]string{"S7 H7 C7 D7", "S6", "S7 S8", "S6"}, turned: "S7", banker: 0}
	st := p.playing(t, r)
	if evs := gametest.MustAct(t, st, 0, playAs("S7 H7 C7 D7", "trio")); evs[0].(CardsPlayed).Reading.String() != "trio:7+1" {
		t.Errorf("the last four 7s as trio read %v, want a trio + one", evs[0].(CardsPlayed).Reading)
	}
	st = p.playing(t, r)
	if _, err := table.Act(st, 0, playAs("S7 H7 C7 D7", "pair_run"), nil); !errors.Is(err, table.ErrInvalidCombo) {
		t.Errorf("an \"as\" that does not fit: got %v, want invalid_combination", err)
	}
	if _, err := table.Act(st, 0, playAs("S7 H7 C7 D7", "flush"), nil); !errors.Is(err, table.ErrBadAction) {
		t.Errorf("an unknown \"as\": got %v, want invalid_action", err)
	}
}

// TestRulings covers dadun.md, "Rulings on the seed's loose ends", through
// Decide: last cards short of kickers follow a full trio or trio run; 打独
// ends when an opponent goes out first (the 盾 awards already earned
// stand); two 510K sets are refused with a reason of their own.
func TestRulings(t *testing.T) {
	const rule = "dadun.md, Rulings"
	r := rulesFor(t)
	t.Run("a bare trio as last cards beats a trio + two", func(t *testing.T) {
		st := leadPosition(t, r, "S9 H9 C9", "S8 H8 C8 SA H2")
		if !slices.ContainsFunc(r.Legal(st.G.(*State), 0), func(a table.Action) bool { return len(a.Cards) == 3 }) {
			t.Fatalf("999, the last cards, is not among the plays on 888 + A2 (%s)", rule)
		}
		evs := gametest.MustAct(t, st, 0, playA("S9 H9 C9"))
		if cp := evs[0].(CardsPlayed); cp.Reading.Type != Trio || cp.Reading.Kickers != 0 || eventTypes(evs) != "CardsPlayed,PlayerOut" {
			t.Fatalf("999 on 888 + A2: %s %v, want a bare trio and seat 0 out (%s)", eventTypes(evs), cp.Reading, rule)
		}
	})
	t.Run("a short trio run as last cards beats a full one", func(t *testing.T) {
		st := leadPosition(t, r, "S9 H9 C9 S10 H10 C10 S3", "S7 H7 C7 S8 H8 C8 SA HA C2 D2")
		evs := gametest.MustAct(t, st, 0, playA("S9 H9 C9 S10 H10 C10 S3"))
		if cp := evs[0].(CardsPlayed); cp.Reading.Type != TrioRun || cp.Reading.Kickers != 1 {
			t.Fatalf("999TTT + 3 on 777888 + 4 kickers reads %v, want a trio run with one kicker (%s)", cp.Reading, rule)
		}
	})
	t.Run("not with cards left", func(t *testing.T) {
		st := leadPosition(t, r, "S9 H9 C9 S4", "S8 H8 C8 SA H2")
		if _, err := table.Act(st, 0, playA("S9 H9 C9"), nil); !errors.Is(err, table.ErrInvalidCombo) {
			t.Fatalf("999 with a card left on 888 + A2: %v, want invalid_combination (dadun.md, Combinations)", err)
		}
	})
	t.Run("打独: an opponent out first ends the hand at once", func(t *testing.T) {
		p := position{hands: [seats]string{"H10 S3 S4", "H7 D7 H7 D7", "S5 S6", "D5 D6"}, turned: "H10", banker: 0, stake: 1}
		st := p.build(t, r)
		gametest.MustAct(t, st, 0, aloneA())
		gametest.MustAct(t, st, 0, playA("S3"))
		evs := gametest.MustAct(t, st, 1, playA("H7 D7 H7 D7")) // 四红: 1 award, and seat 1 out first
		if got := eventTypes(evs); !strings.HasPrefix(got, "CardsPlayed,PlayerOut,HandSettled") {
			t.Fatalf("the soloist's opponent goes out first: %s, want the hand settled at once (%s)", got, rule)
		}
		hs, res := gametest.SettledOf[Result](t, evs)
		if res.Outcome != OutcomeAloneLost || !slices.Equal(res.Finish, []int{1}) || !slices.Equal(res.ResultDeltas, []int{-12, 4, 4, 4}) {
			t.Fatalf("result %s: want 打独 lost, 4 × base to each opponent (%s)", hs.Result, rule)
		}
		if !slices.Equal(res.AwardDeltas, []int{-1, 3, -1, -1}) {
			t.Fatalf("award deltas %v, want the 四红 bomb's award to stand: [-1 3 -1 -1] (%s)", res.AwardDeltas, rule)
		}
	})
	t.Run("two 510K sets say why they are refused", func(t *testing.T) {
		st := leadPosition(t, r, "S5 H5 S10 H10 SK HK S3", "")
		_, err := table.Act(st, 0, playA("S5 H5 S10 H10 SK HK"), nil)
		if !errors.Is(err, ErrTwo510K) || !strings.Contains(err.Error(), "at least three sets") {
			t.Fatalf("two 510K sets: %v, want two_510k_sets saying at least three sets go together (%s)", err, rule)
		}
		if _, err := table.Act(st, 0, playA("S5 S10 SK H5"), nil); errors.Is(err, ErrTwo510K) || !errors.Is(err, table.ErrInvalidCombo) {
			t.Fatalf("a 510K and a 5: %v, want invalid_combination, not two_510k_sets", err)
		}
	})
}
