package shuangkou

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// rulesWith returns variant's rules under the options raw.
func rulesWith(t testing.TB, variant, raw string) *Rules {
	t.Helper()
	r, err := New().Rules(variant, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s %s: %v", variant, raw, err)
	}
	return table.Adapted(r).(*Rules)
}

// TestOptionsRead: every key of shuangkou.md, Table options, its bounds and
// enums; a key at its default is left out of the recorded options (so a
// table without options records {} as before), and the shown options fill
// the defaults in ("hands" and "cap" only when set: absent is endless, no
// cap). A bad value is invalid_option naming its key.
func TestOptionsRead(t *testing.T) {
	for _, c := range []struct {
		variant, raw    string
		recorded, shown string
	}{
		{"baibian", ``, `{}`, `{"bomb_bonus":false,"wild":"all"}`},
		{"classic", `{}`, `{}`, `{"bomb_bonus":false,"wild":"none"}`},
		{"baibian", `{"wild":"all","bomb_bonus":false}`, `{}`, `{"bomb_bonus":false,"wild":"all"}`},
		{"classic", `{"wild":"none"}`, `{}`, `{"bomb_bonus":false,"wild":"none"}`},
		{"baibian", `{"wild":"big"}`, `{"wild":"big"}`, `{"bomb_bonus":false,"wild":"big"}`},
		{"classic", `{"wild":"all"}`, `{"wild":"all"}`, `{"bomb_bonus":false,"wild":"all"}`},
		{"baibian", `{"wild":"none"}`, `{"wild":"none"}`, `{"bomb_bonus":false,"wild":"none"}`},
		{"baibian", `{"hands":1}`, `{"hands":1}`, `{"bomb_bonus":false,"hands":1,"wild":"all"}`},
		{"classic", `{"hands":1000000,"cap":1000000}`, `{"cap":1000000,"hands":1000000}`, `{"bomb_bonus":false,"cap":1000000,"hands":1000000,"wild":"none"}`},
		{"baibian", `{"bomb_bonus":true,"cap":3}`, `{"bomb_bonus":true,"cap":3}`, `{"bomb_bonus":true,"cap":3,"wild":"all"}`},
	} {
		r := rulesWith(t, c.variant, c.raw)
		if got := string(r.Options()); got != c.recorded {
			t.Errorf("%s %s records %s, want %s (rules README, Table options: defaults left out)", c.variant, c.raw, got, c.recorded)
		}
		if got := string(r.ShownOptions()); got != c.shown {
			t.Errorf("%s %s shows %s, want %s (defaults filled in)", c.variant, c.raw, got, c.shown)
		}
		if again := rulesWith(t, c.variant, c.recorded); string(again.Options()) != c.recorded {
			t.Errorf("%s: the recorded %s reads back as %s", c.variant, c.recorded, again.Options())
		}
	}
	for _, c := range []struct{ raw, key string }{
		{`{"hands":0}`, "hands"},
		{`{"hands":1000001}`, "hands"},
		{`{"hands":"3"}`, "hands"},
		{`{"hands":2.5}`, "hands"},
		{`{"wild":"some"}`, "wild"},
		{`{"wild":true}`, "wild"},
		{`{"bomb_bonus":1}`, "bomb_bonus"},
		{`{"cap":2}`, "cap"},
		{`{"cap":1000001}`, "cap"},
		{`{"cap":null}`, "cap"},
		{`{"kitty":1}`, "kitty"},
		{`{"bomb_bonus":true,"chained_bombs":true}`, "chained_bombs"},
	} {
		for _, variant := range []string{"baibian", "classic"} {
			_, err := New().Rules(variant, json.RawMessage(c.raw))
			var te *table.Error
			if !errors.As(err, &te) || !errors.Is(err, table.ErrBadOption) || te.Option != c.key {
				t.Errorf("%s %s: got %v, want invalid_option naming %q", variant, c.raw, err, c.key)
			}
		}
	}
}

// TestClassifyWildBig: under wild "big" only RJ are wild; BJ play only as
// themselves, a single, BJ BJ, or in the 4-joker bomb (shuangkou.md, Table
// options, wild).
func TestClassifyWildBig(t *testing.T) {
	for _, c := range []struct {
		cards string
		want  []string
	}{
		{"BJ", []string{"single:BJ"}},
		{"BJ BJ", []string{"pair:BJ"}},
		{"RJ RJ", []string{"pair:RJ"}},
		{"BJ BJ RJ RJ", []string{"joker_bomb:RJ"}},
		{"S7 RJ", []string{"pair:7 (jokers as 7)"}},
		{"S7 BJ", nil},
		{"S7 H7 RJ RJ", []string{"bomb:7×4 (jokers as 7 7)"}},
		{"S7 H7 RJ BJ", nil},
		{"S5 S6 S7 S8 RJ", []string{"straight:8×5 (jokers as 4)", "straight:9×5 (jokers as 9)"}},
		{"S5 S6 S7 S8 BJ", nil},
	} {
		var got []string
		for _, r := range Classify(cards.MustParse(c.cards), WildBig) {
			got = append(got, r.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s (wild big) reads as %q, want %q (shuangkou.md, Table options, wild)", c.cards, got, c.want)
		}
	}
	// Classic with wild "all" plays as baibian does, and baibian with
	// "none" as classic.
	for _, c := range []struct{ variant, raw, play string }{
		{"classic", `{"wild":"all"}`, "S7 H7 RJ BJ"},
		{"baibian", `{"wild":"big"}`, "S7 H7 RJ RJ"},
	} {
		r := rulesWith(t, c.variant, c.raw)
		st := position{hands: [4]string{c.play + " S3", "S4", "S4", "S4"}}.build(t, r)
		if _, err := r.Decide(st.G.(*State), 0, playA(c.play)); err != nil {
			t.Errorf("%s %s: %s refused: %v", c.variant, c.raw, c.play, err)
		}
	}
	for _, c := range []struct{ variant, raw, play string }{
		{"baibian", `{"wild":"none"}`, "S7 H7 RJ BJ"},
		{"baibian", `{"wild":"big"}`, "S7 H7 C7 BJ"},
		{"classic", `{"wild":"big"}`, "S7 BJ"},
	} {
		r := rulesWith(t, c.variant, c.raw)
		st := position{hands: [4]string{c.play + " S3", "S4", "S4", "S4"}}.build(t, r)
		if _, err := r.Decide(st.G.(*State), 0, playA(c.play)); !errors.Is(err, table.ErrInvalidCombo) {
			t.Errorf("%s %s: %s: got %v, want invalid_combo", c.variant, c.raw, c.play, err)
		}
	}
}

// TestLegalCountsWildBig are perft-style counts under wild "big", by hand.
func TestLegalCountsWildBig(t *testing.T) {
	r := rulesWith(t, "baibian", `{"wild":"big"}`)
	for _, c := range []struct {
		hand string
		want int
		why  string
	}{
		{"S3 H3 BJ", 3, "3, BJ; 33 (BJ is not wild)"},
		{"S3 H3 RJ", 5, "3, RJ; 33, 3+RJ; 3 3 RJ"},
		{"S5 S6 S7 S8 BJ RJ", 6 + 4 + 2, "6 singles; 5 RJ, 6 RJ, 7 RJ, 8 RJ; the straight 5…8+RJ to 8 or 9"},
	} {
		st := position{hands: [4]string{c.hand, "S3", "S3", "S3"}}.build(t, r)
		if got := r.Legal(st.G.(*State), 0); len(got) != c.want {
			var names []string
			for _, a := range got {
				names = append(names, gametest.DescribeAction(a))
			}
			t.Errorf("wild big, %s leads: %d plays %q, want %d (%s)", c.hand, len(got), names, c.want, c.why)
		}
	}
}

// playOut plays a hand from a position: each step is a seat's action, the
// last one settling; it returns the settlement and the events of the last
// step.
func playOut(t *testing.T, r *Rules, p position, steps []step) (table.HandSettled, Result, []table.Payload) {
	t.Helper()
	st := p.build(t, r)
	var evs []table.Payload
	for _, s := range steps {
		evs = gametest.MustAct(t, st, s.seat, s.a)
	}
	hs, res := gametest.SettledOf[Result](t, evs)
	return hs, res, evs
}

type step struct {
	seat int
	a    table.Action
}

// bombOut is a position where seat 0 plays its bombs, each trick passed by
// the others, and goes out; its partner (seat 2) leads by 接风 and goes out
// second: 双扣 for seats 0 & 2. Seat 1 holds a bomb of its own that it may
// play on seat 0's first bomb (when opponentBomb), which must not count.
func bombOut(bombs []string, opponentBomb bool) (position, []step) {
	p := position{hands: [4]string{"", "S3 H3", "S4", "S5"}, stake: 1}
	if opponentBomb {
		p.hands[1] = "SA HA CA DA SA HA CA DA S3 H3"
	}
	var steps []step
	all := ""
	for i, b := range bombs {
		all += " " + b
		steps = append(steps, step{0, playA(b)})
		if i == 0 && opponentBomb {
			// Seat 1 overbombs with 8 cards, everyone passes, seat 1 leads
			// a 3 and seat 0 takes the lead back with its next bomb, or
			// passes when it has none left.
			steps = append(steps, step{1, playA("SA HA CA DA SA HA CA DA")}, step{2, passA()}, step{3, passA()}, step{0, passA()},
				step{1, playA("S3")}, step{2, passA()}, step{3, passA()})
			if len(bombs) == 1 {
				panic("bombOut: the opponent's bomb needs a second bomb of seat 0")
			}
			continue
		}
		if i < len(bombs)-1 {
			steps = append(steps, step{1, passA()}, step{2, passA()}, step{3, passA()})
		}
	}
	p.hands[0] = all[1:]
	// Seat 0 is out: the others pass, 接风 gives seat 2 the lead.
	steps = append(steps, step{1, passA()}, step{2, passA()}, step{3, passA()}, step{2, playA("S4")})
	return p, steps
}

// TestBombBonusAndCap are the worked examples of shuangkou.md, Table
// options: bomb_bonus ("stake 1, 双扣 by a side that played a 6-card bomb:
// today +3, +3, −3, −3; true: ×4, ±12") and cap ("双扣 with an 8-card bomb:
// ×16, ±48; cap 20: ±20"), the 4-joker bomb as 7相, three bombs as 5相
// (三个炸当五相), and the losing side's bombs not counted.
func TestBombBonusAndCap(t *testing.T) {
	const (
		six   = "S9 H9 C9 D9 S9 H9"
		eight = "S9 H9 C9 D9 S9 H9 C9 D9"
	)
	for _, c := range []struct {
		name, variant, options string
		bombs                  []string
		opponentBomb           bool
		each, xiang, bonus     int
		capped                 int
	}{
		{"example: 6-card bomb, default", "classic", `{}`, []string{six}, false, 3, -1, 0, 0},
		{"example: 6-card bomb, bomb_bonus", "classic", `{"bomb_bonus":true}`, []string{six}, false, 12, 6, 4, 0},
		{"example: 8-card bomb, bomb_bonus", "classic", `{"bomb_bonus":true}`, []string{eight}, false, 48, 8, 16, 0},
		{"example: 8-card bomb, cap 20", "classic", `{"bomb_bonus":true,"cap":20}`, []string{eight}, false, 20, 8, 16, 20},
		{"cap not reached", "classic", `{"bomb_bonus":true,"cap":20}`, []string{six}, false, 12, 6, 4, 0},
		{"cap without bomb_bonus: 双扣 3 under cap 3", "classic", `{"cap":3}`, []string{eight}, false, 3, -1, 0, 0},
		{"4-card bomb: 4相, no bonus", "classic", `{"bomb_bonus":true}`, []string{"S9 H9 C9 D9"}, false, 3, 4, 1, 0},
		{"4-joker bomb: 7相", "classic", `{"bomb_bonus":true}`, []string{"BJ BJ RJ RJ"}, false, 24, 7, 8, 0},
		{"wild jokers count: 12-card bomb", "baibian", `{"bomb_bonus":true}`, []string{eight + " BJ BJ RJ RJ"}, false, 3 * 256, 12, 256, 0},
		{"three bombs: 5相", "classic", `{"bomb_bonus":true}`, []string{"S7 H7 C7 D7", "S8 H8 C8 D8", "S9 H9 C9 D9"}, false, 6, 5, 2, 0},
		{"the losers' 8-card bomb does not count", "classic", `{"bomb_bonus":true}`, []string{"S7 H7 C7 D7", "S8 H8 C8 D8"}, true, 3, 4, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rulesWith(t, c.variant, c.options)
			p, steps := bombOut(c.bombs, c.opponentBomb)
			hs, res, _ := playOut(t, r, p, steps)
			want := []int{c.each, -c.each, c.each, -c.each}
			if !slices.Equal(hs.Deltas, want) || res.Outcome != OutcomeShuangkou || res.Multiplier != 3 {
				t.Fatalf("settles %v (%s ×%d), want %v (shuangkou.md, Table options)", hs.Deltas, res.Outcome, res.Multiplier, want)
			}
			if c.xiang < 0 {
				if res.Xiang != nil || res.Bonus != 0 {
					t.Errorf("without bomb_bonus the result names 相 %v, bonus %d", *res.Xiang, res.Bonus)
				}
			} else if res.Xiang == nil || *res.Xiang != c.xiang || res.Bonus != c.bonus {
				t.Errorf("result 相 %v bonus %d, want %d and %d", res.Xiang, res.Bonus, c.xiang, c.bonus)
			}
			if res.Capped != c.capped {
				t.Errorf("result capped %d, want %d", res.Capped, c.capped)
			}
		})
	}
}

// TestBombBonusKeepsEscapes: an escape pays as without options, whatever
// bombs were played (shuangkou.md, Table options: escapes unchanged; the
// cap bounds played-out hands only).
func TestBombBonusKeepsEscapes(t *testing.T) {
	r := rulesWith(t, "classic", `{"bomb_bonus":true,"cap":3}`)
	st := position{hands: [4]string{"S9 H9 C9 D9 S9 H9 C9 D9 S3", "S4", "S5", "S6"}, stake: 2}.build(t, r)
	gametest.MustAct(t, st, 0, playA("S9 H9 C9 D9 S9 H9 C9 D9"))
	hs, res := gametest.SettledOf[Result](t, gametest.MustAct(t, st, 1, table.Action{Type: table.ActionEscape}))
	if want := []int{6, -12, 6, 0}; !slices.Equal(hs.Deltas, want) || res.Xiang != nil || res.Bonus != 0 || res.Capped != 0 {
		t.Fatalf("escape settles %v, result %+v; want %v and no 相 (shuangkou.md, Escape)", hs.Deltas, res, want)
	}
}

// TestMatchBySides: with "hands" N the match ends after the N-th settled
// hand when one side's total is higher, else one more hand at a time
// (shuangkou.md, Table options, hands Decision): MatchEnded names the sides,
// winner first, and TableClosed the seats' totals.
func TestMatchBySides(t *testing.T) {
	r := rulesWith(t, "classic", `{"hands":2}`)
	s := r.NewState()
	s.settled, s.totals = 1, [seats]int{3, -3, 3, -3}
	if evs := s.matchEnd([]int{-3, 3, -3, 3}); evs != nil {
		t.Fatalf("level sides after hand 2 end the match: %v", evs)
	}
	s.settled, s.totals = 2, [seats]int{0, 0, 0, 0}
	evs := s.matchEnd([]int{-1, 1, -1, 1})
	want := []table.Payload{
		MatchEnded{Hands: 3, Sides: []SideTotal{{Place: 1, Seats: []int{1, 3}, Total: 2}, {Place: 2, Seats: []int{0, 2}, Total: -2}}},
		table.TableClosed{Reason: "match_over", Totals: []int{-1, 1, -1, 1}},
	}
	if fmt.Sprint(evs) != fmt.Sprint(want) {
		t.Fatalf("match end %v, want %v", evs, want)
	}
	s.settled = 0
	if evs := s.matchEnd([]int{3, -3, 3, -3}); evs != nil {
		t.Fatalf("the match ends after hand 1 of 2: %v", evs)
	}
	if endless := rulesFor(t, "classic").NewState(); endless.matchEnd([]int{3, -3, 3, -3}) != nil {
		t.Fatal("a table without hands ends a match")
	}
}

// TestMatchPlaysOut plays matches of random legal hands with escapes: the
// table closes exactly when the Decision says, after MatchEnded (checked by
// the random table), and deals nothing more.
func TestMatchPlaysOut(t *testing.T) {
	for seed := range uint64(6) {
		r := rulesWith(t, []string{"baibian", "classic"}[seed%2], fmt.Sprintf(`{"hands":%d}`, 1+seed%3))
		rt := newRandomTable(t, r, seed+40)
		for !rt.St.Closed {
			rt.Act()
		}
		if rt.settled < r.v.matchHands {
			t.Fatalf("seed %d: closed after %d hands of %d", seed, rt.settled, r.v.matchHands)
		}
		if !rt.St.Closed || rt.St.InDeal || rt.St.G.NeedsDeal() {
			t.Fatalf("seed %d: the match is over but the table plays on", seed)
		}
	}
}

// randomOptions draws a table's options: each key absent or one of its
// values, bounds included.
func randomOptions(rng *rand.Rand) json.RawMessage {
	m := map[string]any{}
	if k := rng.IntN(4); k > 0 {
		m["wild"] = []string{"all", "big", "none"}[k-1]
	}
	if rng.IntN(2) == 0 {
		m["bomb_bonus"] = rng.IntN(3) > 0
	}
	if rng.IntN(2) == 0 {
		m["cap"] = []int{3, 4, 6, 12, 20}[rng.IntN(5)]
	}
	if rng.IntN(2) == 0 {
		m["hands"] = 1 + rng.IntN(3)
	}
	raw, _ := json.Marshal(m)
	return raw
}

// bombXiang is the 相 of a play, read from its cards and recorded type
// (shuangkou.md, Table options, bomb_bonus): a bomb's card count, jokers
// included; 7 for the 4-joker bomb; 0 for any other play.
func bombXiang(e CardsPlayed) int {
	switch e.Reading.Type {
	case Bomb:
		return len(e.Cards)
	case JokerBomb:
		return 7
	}
	return 0
}

// optionUnits is the stake units of a hand played out with outcome mult,
// won by side win, last being the play that ended it, as shuangkou.md,
// Table options computes them: × 2^(L−4) for 相 L ≥ 5 (the largest bomb
// of the side, at least k + 2 for k ≥ 3 bombs) under bomb_bonus, at most
// cap; it checks the result's fields saying so.
func (rt *randomTable) optionUnits(mult, win int, last CardsPlayed, res Result) int {
	rt.T.Helper()
	units := mult
	if rt.r.v.bombBonus {
		var xs []int
		for _, seat := range []int{win, win + 2} {
			xs = append(xs, rt.xiangs[seat]...)
			if last.Seat == seat && bombXiang(last) > 0 {
				xs = append(xs, bombXiang(last))
			}
		}
		l := 0
		if len(xs) > 0 {
			l = slices.Max(xs)
		}
		if len(xs) >= 3 {
			l = max(l, len(xs)+2)
		}
		bonus := 1
		for range l - 4 {
			bonus *= 2
		}
		if res.Xiang == nil || *res.Xiang != l || res.Bonus != bonus {
			rt.Fatalf("result %+v, want 相 %d bonus %d (bombs %v) (shuangkou.md, Table options, bomb_bonus)", res, l, bonus, xs)
		}
		units *= bonus
	} else if res.Xiang != nil || res.Bonus != 0 {
		rt.Fatalf("result %+v names 相 without bomb_bonus", res)
	}
	capped := 0
	if c := rt.r.v.cap; c > 0 && units > c {
		units, capped = c, c
	}
	if res.Capped != capped {
		rt.Fatalf("result capped %d, want %d (shuangkou.md, Table options, cap)", res.Capped, capped)
	}
	return units
}

// checkMatch checks the end of a match of the option "hands" after the
// settlement hs among evs (shuangkou.md, Table options, hands Decision).
func (rt *randomTable) checkMatch(hs table.HandSettled, evs []table.Payload) {
	rt.T.Helper()
	var totals [seats]int
	for i := range totals {
		totals[i] = rt.totals[i] + hs.Deltas[i]
	}
	a, b := totals[0]+totals[2], totals[1]+totals[3]
	ends := rt.r.v.matchHands > 0 && rt.settled+1 >= rt.r.v.matchHands && a != b
	i := slices.IndexFunc(evs, func(e table.Payload) bool { _, ok := e.(table.HandSettled); return ok })
	rest := evs[i+1:]
	if !ends {
		for _, e := range rest {
			if _, ok := e.(MatchEnded); ok {
				rt.Fatalf("MatchEnded after hand %d of %d, sides %d : %d", rt.settled+1, rt.r.v.matchHands, a, b)
			}
		}
		return
	}
	if len(rest) < 2 {
		rt.Fatalf("the match of %d hands is decided (%d : %d) after hand %d but goes on", rt.r.v.matchHands, a, b, rt.settled+1)
	}
	me, ok1 := rest[0].(MatchEnded)
	tc, ok2 := rest[1].(table.TableClosed)
	winner := SideTotal{Place: 1, Seats: []int{0, 2}, Total: a}
	if b > a {
		winner = SideTotal{Place: 1, Seats: []int{1, 3}, Total: b}
	}
	if !ok1 || !ok2 || me.Hands != rt.settled+1 || fmt.Sprint(me.Sides[0]) != fmt.Sprint(winner) || me.Sides[1].Place != 2 ||
		tc.Reason != "match_over" || !slices.Equal(tc.Totals, totals[:]) {
		rt.Fatalf("match end %+v, want MatchEnded won by %+v after hand %d, then TableClosed with %v", rest, winner, rt.settled+1, totals)
	}
}

// TestRandomHandsOptions is TestRandomHands (cards conserved, Legal ⇔
// Decide, zero-sum) with each table opened under random options, checking
// every settlement against the options' arithmetic and every match's end:
// 2 variants × 20 tables × 12 hands, a new table (new options) as each
// match closes.
func TestRandomHandsOptions(t *testing.T) {
	t.Parallel()
	for i, variant := range []string{"baibian", "classic"} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			c := randomConfig(rulesFor(t, variant), *tableSeedFlag)
			c.Seeds, c.Hands, c.Stream = randomTableSeeds, 12, 0x6f70+uint64(i)
			inner := c.New
			c.New = func(d *gametest.Driver) gametest.RandomGame {
				rt := inner(d).(*randomTable)
				rt.randomOptions = true
				return rt
			}
			gametest.PlayRandom(t, c)
		})
	}
}
