package dadun

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// rulesAt returns lean at a rules version, as a table opened under it
// replays it.
func rulesAt(t testing.TB, version string) *Rules {
	t.Helper()
	r, err := New().RulesAt(version, "lean", nil)
	if err != nil {
		t.Fatalf("RulesAt(%s): %v", version, err)
	}
	if r.Version() != version {
		t.Fatalf("RulesAt(%s) plays %s", version, r.Version())
	}
	return table.Adapted(r).(*Rules)
}

// TestRulesVersionsAwards: the same bomb led under rules /1 and /2. Under /1
// a bomb of 4 to 6 cards with four cards of one colour earns one more, once,
// and a 7- or 8-card bomb nothing more; under /2 the awards stack, 1 for
// each 四红 and each 四黑 (dadun.md, 盾 awards, revised Decision).
func TestRulesVersionsAwards(t *testing.T) {
	const revised = "dadun.md, 盾 awards, revised Decision: awards stack"
	for _, tc := range []struct {
		bomb      string
		old, next int
	}{
		{"S7 S7 H7 H7 C7 C7 D7", 4, 5},    // 四黑
		{"S7 S7 H7 H7 C7 C7 D7 D7", 6, 8}, // 四红 and 四黑
		{"S7 S7 C7 C7 H7", 2, 2},          // 5 cards with 四黑: 1 + 1 either way
		{"H7 H7 D7 D7 S7 C7", 3, 3},       // 双刀
		{"H7 H7 D7 D7", 1, 1},
	} {
		for _, v := range []struct {
			version string
			want    int
		}{{"dadun/lean/1", tc.old}, {"dadun/lean/2", tc.next}} {
			st := leadPosition(t, rulesAt(t, v.version), tc.bomb+" D3", "")
			evs := gametest.MustAct(t, st, 0, playA(tc.bomb))
			if cp := evs[0].(CardsPlayed); cp.Reading.Type != Bomb || cp.Awards != v.want {
				t.Errorf("%s under %s earns %d awards as %v, want %d (%s under /2)", tc.bomb, v.version, cp.Awards, cp.Reading, v.want, revised)
			}
		}
	}
}

// TestRulesVersionsShortTrio: last cards short of kickers on a full trio or
// trio run, under rules /1 and /2 at the same position. Under /1 they do not
// follow (same number of kickers only); under /2 they do and beat it by rank
// (dadun.md, Rulings: 最后一手牌只剩下三张牌的话，可以不带).
func TestRulesVersionsShortTrio(t *testing.T) {
	const revised = "dadun.md, Rulings: last cards short of kickers follow a full trio or trio run"
	for _, tc := range []struct{ hand, lead string }{
		{"S9 H9 C9", "S8 H8 C8 SA H2"},
		{"S9 H9 C9 S4", "S8 H8 C8 SA H2"},
		{"S9 H9 C9 S10 H10 C10 S3", "S7 H7 C7 S8 H8 C8 SA HA C2 D2"},
	} {
		t.Run(tc.hand+" on "+tc.lead+" under /1", func(t *testing.T) {
			r := rulesAt(t, "dadun/lean/1")
			st := leadPosition(t, r, tc.hand, tc.lead)
			if got := r.Legal(st.G.(*State), 0); len(got) != 1 || got[0].Type != ActionPass {
				t.Errorf("legal under /1: %v, want pass alone (rules /1: as many kickers to follow)", got)
			}
			if _, err := table.Act(st, 0, playA(tc.hand), nil); !errors.Is(err, table.ErrDoesNotBeat) {
				t.Errorf("under /1: %v, want does_not_beat (rules /1: as many kickers to follow)", err)
			}
		})
		t.Run(tc.hand+" on "+tc.lead+" under /2", func(t *testing.T) {
			r := rulesAt(t, "dadun/lean/2")
			st := leadPosition(t, r, tc.hand, tc.lead)
			if got := r.Legal(st.G.(*State), 0); len(got) != 2 {
				t.Errorf("legal under /2: %v, want the last cards and pass (%s)", got, revised)
			}
			evs := gametest.MustAct(t, st, 0, playA(tc.hand))
			if got := eventTypes(evs); got != "CardsPlayed,PlayerOut" {
				t.Errorf("under /2: %s, want seat 0 out on its last cards (%s)", got, revised)
			}
		})
	}
}

// TestRulesVersionsAloneEnds: in 打独 an opponent of the soloist goes out
// first, at the same position under rules /1 and /2. Under /1 the hand plays
// on (it ended when the soloist or all three opponents were out); under /2
// it settles at once, the soloist having lost (dadun.md, Rulings: 打独的玩家
// 必须是头游，不然就算失败).
func TestRulesVersionsAloneEnds(t *testing.T) {
	const revised = "dadun.md, Rulings: 1 vs 3 ends as soon as an opponent of the soloist goes out first"
	p := position{hands: [seats]string{"H10 S3 S4", "H7 D7 H7 D7", "S5 S6", "D5 D6"}, turned: "H10", banker: 0, stake: 1}
	outFirst := func(t *testing.T, r *Rules) (*table.State, []table.Payload) {
		st := p.build(t, r)
		gametest.MustAct(t, st, 0, aloneA())
		gametest.MustAct(t, st, 0, playA("S3"))
		return st, gametest.MustAct(t, st, 1, playA("H7 D7 H7 D7"))
	}
	t.Run("/1: the hand plays on", func(t *testing.T) {
		st, evs := outFirst(t, rulesAt(t, "dadun/lean/1"))
		if got := eventTypes(evs); got != "CardsPlayed,PlayerOut" || !st.InDeal {
			t.Fatalf("under /1 the first opponent out: %s (in deal %v), want the hand running on (rules /1: the soloist or all three out)", got, st.InDeal)
		}
		// Nobody answers the bomb; seat 2 leads (接风), seat 3 takes the
		// trick and goes out, then seat 2: all three out ends the hand.
		for _, s := range []struct {
			seat int
			a    table.Action
		}{{2, passA()}, {3, passA()}, {0, passA()}, {2, playA("S5")}, {3, playA("D6")}, {0, passA()}, {2, passA()}, {3, playA("D5")}, {0, passA()}} {
			evs = gametest.MustAct(t, st, s.seat, s.a)
		}
		if strings.Contains(eventTypes(evs), "HandSettled") {
			t.Fatalf("under /1 two opponents out ended the hand: %s", eventTypes(evs))
		}
		evs = gametest.MustAct(t, st, 2, playA("S6"))
		_, res := gametest.SettledOf[Result](t, evs)
		if res.Outcome != OutcomeAloneLost || !slices.Equal(res.Finish, []int{1, 3, 2}) {
			t.Fatalf("under /1: finish %v outcome %v, want all three opponents out, 打独 lost", res.Finish, res.Outcome)
		}
	})
	t.Run("/2: the hand settles at once", func(t *testing.T) {
		_, evs := outFirst(t, rulesAt(t, "dadun/lean/2"))
		if got := eventTypes(evs); !strings.HasPrefix(got, "CardsPlayed,PlayerOut,HandSettled") {
			t.Fatalf("under /2 the first opponent out: %s, want the hand settled at once (%s)", got, revised)
		}
		_, res := gametest.SettledOf[Result](t, evs)
		if res.Outcome != OutcomeAloneLost {
			t.Fatalf("outcome %v, want 打独 lost (%s)", res.Outcome, revised)
		}
	})
}

// TestRulesVersionsTwo510K: two 510K sets were refused under /1 as well; /2
// only names the refusal (two_510k_sets instead of invalid_combination).
// A refusal records nothing, so no stream depends on its code and /1 gives
// the clearer one too (doc.go, Rules versions).
func TestRulesVersionsTwo510K(t *testing.T) {
	for _, v := range []string{"dadun/lean/1", "dadun/lean/2"} {
		st := leadPosition(t, rulesAt(t, v), "S5 H5 S10 H10 SK HK S3", "")
		if _, err := table.Act(st, 0, playA("S5 H5 S10 H10 SK HK"), nil); !errors.Is(err, ErrTwo510K) {
			t.Errorf("two 510K sets under %s: %v, want two_510k_sets (dadun.md, Rulings: refusals explain themselves)", v, err)
		}
	}
}

// TestGoldenV1: the golden hands recorded before the rulings, kept under
// testdata/TestGoldenV1 and testdata/TestGoldenAwardsV1, still replay event
// for event under rules /1: 打独 played on after an opponent went out
// first, and 7- and 8-card bombs earned 4 and 6 (STYLE: old-version
// fixtures must still decode and replay).
func TestGoldenV1(t *testing.T) {
	r := rulesAt(t, "dadun/lean/1")
	t.Run("alone_lost", func(t *testing.T) {
		f := readGolden(t, filepath.Join("testdata", "TestGoldenV1", "alone_lost", "hand.json"))
		res, _ := replayGolden(t, r, f)
		if res.Outcome != OutcomeAloneLost || len(res.Finish) < 2 {
			t.Fatalf("finish %v outcome %v, want 打独 lost with more than one seat out (rules /1)", res.Finish, res.Outcome)
		}
	})
	for _, c := range []struct {
		name   string
		awards int
	}{{"seven_of_a_rank", 4}, {"eight_of_a_rank", 6}} {
		t.Run(c.name, func(t *testing.T) {
			f := readGolden(t, filepath.Join("testdata", "TestGoldenAwardsV1", c.name, "hand.json"))
			res, _ := replayGolden(t, r, f)
			if len(res.Awards) == 0 || res.Awards[0].Awards != c.awards {
				t.Fatalf("awards %+v, want the bomb's %d (rules /1)", res.Awards, c.awards)
			}
		})
	}
}

// TestRulesAt: lean plays its current version and /1, and refuses any other
// by ErrRulesVersion (docs/OPERATIONS.md, Rules versions); a table's
// recorded version picks its rules through the registry.
func TestRulesAt(t *testing.T) {
	for _, tc := range []struct {
		version string
		old     bool
	}{{"dadun/lean/1", true}, {"dadun/lean/2", false}} {
		r := rulesAt(t, tc.version)
		if v := r.NewState().v; v.unstackedAwards != tc.old || v.sameKickersToFollow != tc.old || v.soloPlaysOn != tc.old {
			t.Errorf("%s plays %+v, want every /1 behaviour %v", tc.version, v, tc.old)
		}
		got, err := table.Registry{"dadun": New()}.Rules(table.TableOpened{Game: "dadun", Variant: "lean", Options: json.RawMessage(`{}`), RulesVersion: tc.version})
		if err != nil || got.Version() != tc.version {
			t.Errorf("a table opened under %s replays under %v (%v), want that version", tc.version, got, err)
		}
	}
	for _, v := range []string{"dadun/lean/0", "dadun/lean/3", "", "niuniu/classic/1"} {
		if _, err := New().RulesAt(v, "lean", nil); !errors.Is(err, table.ErrRulesVersion) {
			t.Errorf("RulesAt(%q): %v, want ErrRulesVersion", v, err)
		}
	}
	if _, err := New().RulesAt("dadun/lean/1", "lean", json.RawMessage(`{"x":1}`)); !errors.Is(err, table.ErrBadOption) {
		t.Errorf("RulesAt with an option: %v, want bad_option", err)
	}
}
