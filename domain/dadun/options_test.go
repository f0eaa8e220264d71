package dadun

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// rulesWith is the rules of lean under the options opts (JSON).
func rulesWith(t testing.TB, opts string) *Rules {
	t.Helper()
	r, err := New().Rules("lean", json.RawMessage(opts))
	if err != nil {
		t.Fatalf("options %s: %v", opts, err)
	}
	return table.Adapted(r).(*Rules)
}

const allDefaults = `{"bomb_order":"seed","dun_awards":true,"joker_bombs":3,"lead_after_out":"next","pure_suits":"tie"}`

// TestOptionsRead: every key of dadun.md, Table options, with its values;
// defaults are left out of the recorded options (rules README, Table
// options: Default = today), shown filled in; a bad value or an unknown key
// is invalid_option naming the key.
func TestOptionsRead(t *testing.T) {
	for _, c := range []struct{ opts, recorded string }{
		{``, `{}`},
		{`{}`, `{}`},
		{allDefaults, `{}`},
		{`{"bomb_order":"high"}`, `{"bomb_order":"high"}`},
		{`{"pure_suits":"suit","dun_awards":true}`, `{"pure_suits":"suit"}`},
		{`{"joker_bombs":2,"dun_awards":false,"lead_after_out":"partner","bomb_order":"high","pure_suits":"suit"}`,
			`{"bomb_order":"high","dun_awards":false,"joker_bombs":2,"lead_after_out":"partner","pure_suits":"suit"}`},
	} {
		r := rulesWith(t, c.opts)
		if got := string(r.Options()); got != c.recorded {
			t.Errorf("options %s recorded as %s, want %s (defaults left out)", c.opts, got, c.recorded)
		}
		again := rulesWith(t, c.recorded)
		if again.v != r.v {
			t.Errorf("options %s: the recorded form %s reads back differently", c.opts, c.recorded)
		}
		var shown map[string]any
		if err := json.Unmarshal(r.ShownOptions(), &shown); err != nil || len(shown) != 5 {
			t.Errorf("options %s shown as %s: want all five keys", c.opts, r.ShownOptions())
		}
	}
	if got := string(rulesFor(t).ShownOptions()); got != allDefaults {
		t.Errorf("default options shown as %s, want %s", got, allDefaults)
	}
	for _, c := range []struct{ opts, key string }{
		{`{"bomb_order":"low"}`, "bomb_order"},
		{`{"bomb_order":1}`, "bomb_order"},
		{`{"pure_suits":true}`, "pure_suits"},
		{`{"joker_bombs":4}`, "joker_bombs"},
		{`{"joker_bombs":"2"}`, "joker_bombs"},
		{`{"joker_bombs":2.5}`, "joker_bombs"},
		{`{"dun_awards":"no"}`, "dun_awards"},
		{`{"lead_after_out":"friend"}`, "lead_after_out"},
		{`{"bomb_order":"high","alone":true}`, "alone"},
	} {
		_, err := New().Rules("lean", json.RawMessage(c.opts))
		var te *table.Error
		if !errors.Is(err, table.ErrBadOption) || !errors.As(err, &te) || te.Option != c.key {
			t.Errorf("options %s: got %v, want invalid_option naming %q", c.opts, err, c.key)
		}
	}
	// A table replays under the options it recorded, at every version.
	old, err := New().RulesAt("dadun/lean/1", "lean", json.RawMessage(`{"dun_awards":false}`))
	if err != nil || !table.Adapted(old).(*Rules).v.opts.noAwards || !table.Adapted(old).(*Rules).v.unstackedAwards {
		t.Errorf("dadun/lean/1 with dun_awards false: %v", err)
	}
}

// answer has seat 3 lead lead and seat 0 answer it with play under the
// options opts, returning Decide's events or error.
func answer(t *testing.T, opts, hand, lead string, play table.Action) ([]table.Payload, error) {
	t.Helper()
	r := rulesWith(t, opts)
	st := leadPosition(t, r, hand, lead)
	return gametest.Act(st, 0, play)
}

// checkAnswers plays each case through Decide under opts: the answer is
// accepted exactly when want says it beats the lead.
func checkAnswers(t *testing.T, rule string, cases []answerCase) {
	t.Helper()
	for _, c := range cases {
		evs, err := answer(t, c.opts, c.hand, c.lead, playA(c.play))
		if got := err == nil; got != c.want {
			t.Errorf("options %s: %s on %s accepted %v (%v), want %v (dadun.md, Table options, %s: %s)", c.opts, c.play, c.lead, got, err, c.want, rule, c.why)
			continue
		}
		if err == nil && c.reading != 0 && evs[0].(CardsPlayed).Reading.Type != c.reading {
			t.Errorf("options %s: %s read as %v, want %v (%s)", c.opts, c.play, evs[0].(CardsPlayed).Reading, c.reading, rule)
		}
		if err != nil && !errors.Is(err, table.ErrDoesNotBeat) && !errors.Is(err, table.ErrInvalidCombo) {
			t.Errorf("options %s: %s on %s refused with %v, want does_not_beat or invalid_combination", c.opts, c.play, c.lead, err)
		}
	}
}

type answerCase struct {
	opts, hand, lead, play string
	want                   bool
	reading                Type
	why                    string
}

const (
	high    = `{"bomb_order":"high"}`
	bombs8  = "S8 H8 C8 D8 S8 H8 C8 D8"
	sets3   = "S5 H5 C5 S10 H10 C10 SK HK CK"
	sets8   = "S5 H5 C5 D5 S5 H5 C5 D5 S10 H10 C10 D10 S10 H10 C10 D10 SK HK CK DK SK HK CK DK"
	sets4   = "S5 H5 C5 D5 S10 H10 C10 D10 SK HK CK DK"
	suitOpt = `{"pure_suits":"suit"}`
	jokers2 = `{"joker_bombs":2}`
)

// TestOptionBombOrder: dadun.md, Table options, bomb_order: "high" puts the
// 510Ks above every bomb: 4-card < … < 8-card bomb < plain 510K < pure 510K
// < multi-510K of 3 < … < of 8 sets < 3-joker < 4-joker bomb.
func TestOptionBombOrder(t *testing.T) {
	checkAnswers(t, "bomb_order", []answerCase{
		{"", "S5 H10 SK S3", "S4 H4 C4 D4", "S5 H10 SK", false, 0, "Example: 4444 then a plain 510K: seed refused"},
		{high, "S5 H10 SK S3", "S4 H4 C4 D4", "S5 H10 SK", true, Plain510K, "Example: high beats it"},
		{high, "S5 H10 SK S3", bombs8, "S5 H10 SK", true, Plain510K, "Example: and beats 88888888 too"},
		{high, "S3 H3 C3 D3 S3 H3 C3 D3 S4", "S5 H10 SK", "S3 H3 C3 D3 S3 H3 C3 D3", false, 0, "no bomb beats a 510K"},
		{high, "S5 S10 SK S3", "H5 D10 HK", "S5 S10 SK", true, Pure510K, "pure above plain"},
		{high, sets3 + " S3", "S5 S10 SK", sets3, true, Multi510K, "3 sets above the pure 510K"},
		{high, sets3 + " S3", "D5 S5 H5 C10 D10 S10 DK SK HK", sets3, false, 0, "equal multi-510Ks tie"},
		{high, sets4 + " S3", sets3, sets4, true, Multi510K, "4 sets above 3"},
		{high, "BJ BJ RJ S3", sets8, "BJ BJ RJ", true, JokerBomb, "the 3-joker bomb above 8 sets"},
		{high, sets3 + " S3", "BJ BJ RJ", sets3, false, 0, "no 510K beats a joker bomb"},
		{high, "S4 H4 C4 D4 S4 S3", "S3 H3 C3 D3", "S4 H4 C4 D4 S4", true, Bomb, "bombs among themselves as before"},
		{"", sets3 + " S3", "S3 H3 C3 D3 S3", sets3, false, 0, "seed: 3 sets below a 5-card bomb"},
	})
}

// TestOptionPureSuits: dadun.md, Table options, pure_suits: "suit" ranks
// pure 510Ks ♠ > ♥ > ♣ > ♦, the same suit still ties; "tie" (default) ties
// them all; multi-510Ks unchanged.
func TestOptionPureSuits(t *testing.T) {
	suits := []string{"D", "C", "H", "S"} // low to high under "suit"
	var cases []answerCase
	for i, l := range suits {
		for j, p := range suits {
			play, lead := p+"5 "+p+"10 "+p+"K", l+"5 "+l+"10 "+l+"K"
			cases = append(cases,
				answerCase{suitOpt, play + " S3", lead, play, j > i, Pure510K, "♠ > ♥ > ♣ > ♦, one suit ties"},
				answerCase{"", play + " S3", lead, play, false, 0, "tie: two pure 510Ks tie"})
		}
	}
	cases = append(cases, answerCase{suitOpt, "D5 S5 H5 C10 D10 S10 DK SK HK S3", sets3, "D5 S5 H5 C10 D10 S10 DK SK HK", false, 0, "multi-510Ks unchanged: equal ones tie"})
	checkAnswers(t, "pure_suits", cases)
	// Legal lists each pure 510K whose suit beats the lead, once per suit.
	r := rulesWith(t, suitOpt)
	st := leadPosition(t, r, "S5 S10 SK H5 H10 HK C5 C10 CK S3", "H5 H10 HK")
	var pure []string
	for _, a := range r.Legal(st.G.(*State), 0) {
		if rs := Classify(a.Cards, false); len(rs) == 1 && rs[0].Type == Pure510K {
			pure = append(pure, cards.Format(a.Cards))
		}
	}
	if !slices.Equal(pure, []string{"S5 S10 SK"}) {
		t.Errorf("on ♥ 510K Legal lists the pure 510Ks %q, want only ♠ (dadun.md, Table options, pure_suits)", pure)
	}
}

// TestOptionJokerBombs: dadun.md, Table options, joker_bombs: 2 makes any
// two jokers a bomb, BJ RJ < BJ BJ < RJ RJ just below the 3-joker bomb, and
// BJ BJ, RJ RJ no pairs; the 盾 awards stay (RJ RJ, BJ BJ 1 each, BJ RJ 0).
func TestOptionJokerBombs(t *testing.T) {
	checkAnswers(t, "joker_bombs", []answerCase{
		{jokers2, "BJ BJ S3", "BJ RJ", "BJ BJ", true, JokerBomb, "BJ RJ < BJ BJ"},
		{jokers2, "RJ RJ S3", "BJ BJ", "RJ RJ", true, JokerBomb, "BJ BJ < RJ RJ"},
		{jokers2, "BJ BJ S3", "RJ RJ", "BJ BJ", false, 0, "BJ BJ below RJ RJ"},
		{jokers2, "BJ RJ S3", "BJ RJ", "BJ RJ", false, 0, "equal two-joker bombs tie"},
		{jokers2, "BJ RJ S3", bombs8, "BJ RJ", true, JokerBomb, "above every bomb"},
		{jokers2, "BJ RJ S3", sets8, "BJ RJ", true, JokerBomb, "above 8 sets of 510K"},
		{jokers2, "BJ BJ RJ S3", "RJ RJ", "BJ BJ RJ", true, JokerBomb, "just below the 3-joker bomb"},
		{jokers2, "BJ BJ S3", "S2 H2", "BJ BJ", true, JokerBomb, "BJ BJ is a bomb, no pair: it bombs a pair"},
		{jokers2, "BJ RJ S3", "S2 H2", "BJ RJ", true, JokerBomb, "BJ RJ is a bomb"},
		{"", "BJ RJ S3", "S2 H2", "BJ RJ", false, 0, "3 (default): BJ RJ is nothing"},
		{"", "BJ BJ S3", "S2 H2", "BJ BJ", true, Pair, "3 (default): BJ BJ is a pair"},
		{"", "BJ BJ S3", "S5 H10 SK", "BJ BJ", false, 0, "3 (default): a joker pair never beats a 510K"},
	})
	for _, c := range []struct {
		play   string
		awards int
	}{{"BJ BJ", 1}, {"RJ RJ", 1}, {"BJ RJ", 0}} {
		evs, err := answer(t, jokers2, c.play+" S3", "", playA(c.play))
		if err != nil {
			t.Fatalf("leading %s: %v", c.play, err)
		}
		if cp := evs[0].(CardsPlayed); cp.Awards != c.awards || cp.Reading.Type != JokerBomb {
			t.Errorf("%s under joker_bombs 2: %v earning %d, want a joker bomb earning %d (dadun.md, Table options, joker_bombs: 盾 awards unchanged)", c.play, cp.Reading, cp.Awards, c.awards)
		}
	}
}

// TestOptionDunAwards: dadun.md, Table options, dun_awards, Example: stake
// 1, seat 0 plays a 6-card bomb holding 四红 (3 awards): today +9, −3, −3,
// −3 besides the result; false: nothing.
func TestOptionDunAwards(t *testing.T) {
	for _, c := range []struct {
		opts   string
		awards int
		deltas []int
	}{
		{"", 3, []int{9, -3, -3, -3}},
		{`{"dun_awards":false}`, 0, []int{0, 0, 0, 0}},
	} {
		r := rulesWith(t, c.opts)
		p := position{hands: [seats]string{"H10 H7 D7 H7 D7 S7 C7", "S5 S6", "H10 SJ", "D5 D6"}, turned: "H10", banker: 0}
		st := p.playing(t, r)
		evs := gametest.MustAct(t, st, 0, playA("H7 D7 H7 D7 S7 C7"))
		if cp := evs[0].(CardsPlayed); cp.Awards != c.awards {
			t.Fatalf("options %s: the 6-card bomb with 四红 earns %d, want %d", c.opts, cp.Awards, c.awards)
		}
		for _, s := range []int{1, 2, 3} {
			gametest.MustAct(t, st, s, passA())
		}
		gametest.MustAct(t, st, 0, playA("H10")) // the banker out 1st
		gametest.MustAct(t, st, 1, passA())
		gametest.MustAct(t, st, 2, playA("SJ"))
		gametest.MustAct(t, st, 3, passA())
		gametest.MustAct(t, st, 1, passA())
		_, res := gametest.SettledOf[Result](t, gametest.MustAct(t, st, 2, playA("H10"))) // 双赢
		if !slices.Equal(res.AwardDeltas, c.deltas) || !slices.Equal(res.ResultDeltas, []int{3, -3, 3, -3}) {
			t.Errorf("options %s: award deltas %v, result deltas %v; want %v besides 双赢 [3 -3 3 -3] (dadun.md, Table options, dun_awards)", c.opts, res.AwardDeltas, res.ResultDeltas, c.deltas)
		}
		if c.awards == 0 && len(res.Awards) != 0 {
			t.Errorf("dun_awards false: awards %v listed", res.Awards)
		}
	}
}

// TestOptionLeadAfterOut: dadun.md, Table options, lead_after_out: under
// "partner", once the sides are public, the lead after a player goes out
// and the others pass goes to its partner; while the friend is hidden it
// stays the next seat, so the rule never reveals the friend.
func TestOptionLeadAfterOut(t *testing.T) {
	for _, c := range []struct {
		opts    string
		reveal  bool
		leader  int
		because string
	}{
		{"", true, 1, "next (default): the next seat with cards"},
		{`{"lead_after_out":"partner"}`, true, 2, "partner: the friend, revealed, leads after the banker"},
		{`{"lead_after_out":"partner"}`, false, 1, "partner: the friend is hidden, so the next seat"},
	} {
		r := rulesWith(t, c.opts)
		p := position{hands: [seats]string{"H10 S3 SA", "S4 S5 S6", "H10 S7 S8", "D4 D5 D6"}, turned: "H10", banker: 0}
		st := p.playing(t, r)
		second := "S7"
		if c.reveal {
			second = "H10" // the friend card: the sides are public
		}
		gametest.MustAct(t, st, 0, playA("S3"))
		gametest.MustAct(t, st, 1, playA("S4"))
		gametest.MustAct(t, st, 2, playA(second))
		gametest.MustAct(t, st, 3, passA())
		gametest.MustAct(t, st, 0, playA("SA"))
		for _, s := range []int{1, 2, 3} {
			gametest.MustAct(t, st, s, passA())
		}
		gametest.MustAct(t, st, 0, playA("H10")) // the banker out, its own copy revealing nothing
		var evs []table.Payload
		for _, s := range []int{1, 2, 3} {
			evs = gametest.MustAct(t, st, s, passA())
		}
		te, ok := evs[len(evs)-1].(TrickEnded)
		if !ok || te.Leader != c.leader || !te.Jiefeng {
			t.Errorf("options %s: after the banker's last card %v, want the lead to seat %d (dadun.md, Table options, lead_after_out: %s)", c.opts, evs, c.leader, c.because)
		}
	}
}
