package niuniu

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// rulesAt returns classic at a rules version, as a table opened under it
// replays it.
func rulesAt(t testing.TB, version string) *Rules {
	t.Helper()
	r, err := New().RulesAt(version, "classic", nil)
	if err != nil {
		t.Fatalf("RulesAt(%s): %v", version, err)
	}
	if r.Version() != version {
		t.Fatalf("RulesAt(%s) plays %s", version, r.Version())
	}
	return table.Adapted(r).(*Rules)
}

// TestRulesVersionsEscape: a player's escape at the same position (TestEscape's,
// stake 2, banker seat 0 at its best 牛6 ×1) under rules /1 and /2. Under
// /1 the escape ends the hand at once: the escaper pays the banker stake ×
// the banker's multiplier and the other bouts are not played (delta 0).
// Under /2 the escaper's bout alone is forfeited and the others play on to
// the reveal (niuniu.md, Escape, revised Decision: one seat's escape never
// cancels another seat's bout).
func TestRulesVersionsEscape(t *testing.T) {
	const revised = "niuniu.md, Escape, revised Decision"
	for _, tc := range []struct {
		name      string
		arrange   map[int]table.Action // before the escape
		escaper   int
		old, next []int // the deltas under /1 and, once the others arrange their best, under /2
	}{
		{"a player escapes", nil, 1, []int{2, -2, 0, 0}, []int{-2, -2, 6, -2}},
		// Seat 2 escapes though it arranged 牛8: 没牛, it pays the banker's ×1.
		{"a player with a bull escapes", map[int]table.Action{2: arrangeA("H3 C7 SK")}, 2, []int{2, 0, -2, 0}, []int{-6, 10, -2, -2}},
		// The banker declared no bull: its multiplier is still ×1.
		{"a player escapes, the banker declared", map[int]table.Action{0: noBullA()}, 3, []int{2, 0, 0, -2}, []int{-14, 10, 6, -2}},
	} {
		// escape builds the position under r, makes the arrangements and
		// has the escaper leave.
		escape := func(t *testing.T, r *Rules) (*table.State, []table.Payload) {
			st := position(t, r, 2, hand0, hand1, hand2, hand3)
			for seat := range 4 {
				if a, ok := tc.arrange[seat]; ok {
					gametest.MustAct(t, st, seat, a)
				}
			}
			return st, gametest.MustAct(t, st, tc.escaper, table.Action{Type: table.ActionEscape})
		}
		t.Run(tc.name+", /1: the hand ends, the other bouts cancelled", func(t *testing.T) {
			st, evs := escape(t, rulesAt(t, "niuniu/classic/1"))
			if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"PlayerEscaped", "HandSettled"}) {
				t.Fatalf("escape under /1 emits %v, want PlayerEscaped, HandSettled (rules /1: the hand ends at once)", got)
			}
			hs, res := gametest.SettledOf[Result](t, evs)
			if !slices.Equal(hs.Deltas, tc.old) {
				t.Fatalf("seat %d escapes under /1: deltas %v, want %v (the other bouts are not played)", tc.escaper, hs.Deltas, tc.old)
			}
			if res.End != "escape" || res.Escaper == nil || *res.Escaper != tc.escaper || res.Escaped != nil || len(res.Bouts) != 1 ||
				res.Bouts[0].Seat != tc.escaper || res.Bouts[0].By != ByEscape || res.Bouts[0].Winner != "banker" || res.Readings[tc.escaper] != NoBull {
				t.Fatalf("result under /1 %+v, want the escaper's bout alone, lost to the banker", res)
			}
			if st.InDeal {
				t.Fatalf("after the escape under /1 the hand runs on")
			}
		})
		t.Run(tc.name+", /2: the others play on", func(t *testing.T) {
			r := rulesAt(t, "niuniu/classic/2")
			st, evs := escape(t, r)
			if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"PlayerEscaped", "BoutForfeited"}) || !st.InDeal {
				t.Fatalf("escape under /2 emits %v (in deal %v), want PlayerEscaped, BoutForfeited and the hand running on (%s)", got, st.InDeal, revised)
			}
			for seat := range 4 {
				if _, done := tc.arrange[seat]; !done && seat != tc.escaper {
					evs = arrangeBest(t, st, seat)
				}
			}
			hs, res := gametest.SettledOf[Result](t, evs)
			if !slices.Equal(hs.Deltas, tc.next) || res.End != "revealed" || !slices.Equal(res.Escaped, []int{tc.escaper}) || len(res.Bouts) != 3 {
				t.Fatalf("under /2: deltas %v end %q escaped %v with %d bouts, want %v, revealed, [%d], every player's 3 bouts (%s)",
					hs.Deltas, res.End, res.Escaped, len(res.Bouts), tc.next, tc.escaper, revised)
			}
		})
	}
}

// TestRulesAt: classic plays its current version and /1, and refuses any
// other by ErrRulesVersion (docs/OPERATIONS.md, Rules versions); a table's
// recorded version picks its rules through the registry.
func TestRulesAt(t *testing.T) {
	for _, tc := range []struct {
		version string
		cancels bool
	}{{"niuniu/classic/1", true}, {"niuniu/classic/2", false}} {
		if r := rulesAt(t, tc.version); r.escapeCancelsBouts != tc.cancels || r.NewState().escapeCancelsBouts != tc.cancels {
			t.Errorf("%s: escapeCancelsBouts %v, want %v", tc.version, r.escapeCancelsBouts, tc.cancels)
		}
		opts := json.RawMessage(`{"seats":3,"banker":2}`)
		got, err := table.Registry{"niuniu": New()}.Rules(table.TableOpened{Game: "niuniu", Variant: "classic", Options: opts, RulesVersion: tc.version})
		if err != nil || got.Version() != tc.version || got.Seats() != 3 || table.Adapted(got).(*Rules).Banker() != 2 {
			t.Errorf("a table opened under %s replays under %v (%v), want that version with its options", tc.version, got, err)
		}
	}
	for _, v := range []string{"niuniu/classic/0", "niuniu/classic/3", "", "doudizhu/classic/1"} {
		if _, err := New().RulesAt(v, "classic", nil); !errors.Is(err, table.ErrRulesVersion) {
			t.Errorf("RulesAt(%q): %v, want ErrRulesVersion", v, err)
		}
	}
	if _, err := New().RulesAt("niuniu/classic/1", "fast", nil); !errors.Is(err, table.ErrUnknownVariant) {
		t.Errorf("RulesAt of an unknown variant: %v, want unknown_variant", err)
	}
}

// TestGoldenV1: the golden hand of a player's escape recorded before the
// ruling, kept under testdata/TestGoldenV1, still replays event for event
// under rules /1: the escape ends the hand and settles the escaper's bout
// alone (STYLE: old-version fixtures must still decode and replay).
func TestGoldenV1(t *testing.T) {
	var f goldenFile
	gametest.ReadJSON(t, filepath.Join("testdata", "TestGoldenV1", "player_escapes", "hand.json"), &f)
	r, err := New().RulesAt("niuniu/classic/1", "classic", f.Options)
	if err != nil {
		t.Fatal(err)
	}
	res := replayGolden(t, table.Adapted(r).(*Rules), &f)
	if res.End != "escape" || res.Escaper == nil || len(res.Bouts) != 1 || res.Bouts[0].Seat != *res.Escaper {
		t.Fatalf("result %+v, want the escape to end the hand with the escaper's bout alone (rules /1)", res)
	}
}
