package doudizhu

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// rulesAt returns a variant's rules at a rules version, as a table opened
// under it replays them.
func rulesAt(t testing.TB, version, variant string) *Rules {
	t.Helper()
	r, err := New().RulesAt(version, variant, nil)
	if err != nil {
		t.Fatalf("RulesAt(%s, %s): %v", version, variant, err)
	}
	if r.Version() != version {
		t.Fatalf("RulesAt(%s, %s) plays %s", version, variant, r.Version())
	}
	return table.Adapted(r).(*Rules)
}

// TestRulesVersionsGrabAfterPass: the same position under rules /1 and /2
// of hubei and fourplayer. The caller calls 1 and every other seat passes
// the call. Under /1 each of them may still grab, in turn from the caller's
// left, and the caller grabs back (the old Decision: grabbing after any
// winning call); under /2 a seat that passed the call has given up its grab
// (doudizhu.md, Bidding, hubei, revised Decision: 叫分不叫视放弃), so the
// caller is landlord at once.
func TestRulesVersionsGrabAfterPass(t *testing.T) {
	const revised = "doudizhu.md, Bidding, hubei, revised Decision: a seat that passed (不叫) has given up its grab"
	for _, tc := range []struct {
		variant string
		pos     position
	}{
		{"hubei", hubeiPos},
		{"fourplayer", position{hands: []string{"S3 S5", "S4 H7", "C4 C7", "D4 D7"}, kitty: "SK HK CK DK SQ HQ CQ DQ", first: 0}},
	} {
		// callAndPass builds the position under r: the first seat calls 1,
		// every other seat passes the call.
		callAndPass := func(t *testing.T, r *Rules) (*table.State, []table.Payload) {
			st := tc.pos.build(t, r)
			gametest.MustAct(t, st, tc.pos.first, bidA(1))
			var evs []table.Payload
			for i := 1; i < r.v.seats; i++ {
				evs = gametest.MustAct(t, st, (tc.pos.first+i)%r.v.seats, passA())
			}
			return st, evs
		}
		t.Run(tc.variant+"/1: a seat that passed the call still grabs", func(t *testing.T) {
			r := rulesAt(t, "doudizhu/"+tc.variant+"/1", tc.variant)
			st, evs := callAndPass(t, r)
			if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"BidPassed", "CallWon"}) {
				t.Fatalf("call 1, then passes, under /1 emits %v, want BidPassed, CallWon and the grab phase (rules /1: grabbing after any winning call)", got)
			}
			n := r.v.seats
			for i := 1; i <= n; i++ {
				seat := (tc.pos.first + i) % n
				if g := gametest.Game[State](st); g.phase != phaseGrabbing || g.turn != seat {
					t.Fatalf("grab word %d under /1: phase %s turn %d, want seat %d to grab (every seat after the caller, then the caller)", i, g.phase, g.turn, seat)
				}
				evs = gametest.MustAct(t, st, seat, grabA())
			}
			// Every other seat grabs and the caller grabs back: 1 × 2ⁿ.
			want := min(1<<n, 24)
			if lc, ok := evs[len(evs)-1].(LandlordChosen); !ok || lc.Seat != tc.pos.first || lc.Multiplier != want {
				t.Fatalf("after every grab under /1: %v, want seat %d landlord at multiplier %d", evs, tc.pos.first, want)
			}
		})
		t.Run(tc.variant+"/2: the caller is landlord at once", func(t *testing.T) {
			r := rulesAt(t, "doudizhu/"+tc.variant+"/2", tc.variant)
			st, evs := callAndPass(t, r)
			if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"BidPassed", "CallWon", "LandlordChosen"}) {
				t.Fatalf("call 1, then passes, under /2 emits %v, want BidPassed, CallWon, LandlordChosen (%s)", got, revised)
			}
			if lc := evs[2].(LandlordChosen); lc.Seat != tc.pos.first || lc.Multiplier != 1 {
				t.Errorf("%+v, want seat %d landlord at multiplier 1 (%s)", lc, tc.pos.first, revised)
			}
			next := (tc.pos.first + 1) % r.v.seats
			if _, err := r.Decide(st.G.(*State), next, grabA()); !errors.Is(err, table.ErrWrongPhase) {
				t.Errorf("seat %d passed the call and grabs under /2: %v, want wrong_phase (%s)", next, err, revised)
			}
		})
	}
}

// TestRulesAt: the game plays its current version and each /1 it keeps,
// and refuses any other by ErrRulesVersion (docs/OPERATIONS.md, Rules
// versions); a table's recorded version picks its rules through the
// registry.
func TestRulesAt(t *testing.T) {
	for _, tc := range []struct {
		version, variant string
		grabAfterPass    bool
	}{
		{"doudizhu/classic/1", "classic", false},
		{"doudizhu/classic/2", "classic", false},
		{"doudizhu/hubei/3", "hubei", false},
		{"doudizhu/fourplayer/3", "fourplayer", false},
		{"doudizhu/hubei/1", "hubei", true},
		{"doudizhu/hubei/2", "hubei", false},
		{"doudizhu/fourplayer/1", "fourplayer", true},
		{"doudizhu/fourplayer/2", "fourplayer", false},
	} {
		r := rulesAt(t, tc.version, tc.variant)
		if r.v.grabAfterPass != tc.grabAfterPass {
			t.Errorf("%s: grabAfterPass %v, want %v", tc.version, r.v.grabAfterPass, tc.grabAfterPass)
		}
		opened := table.TableOpened{Game: "doudizhu", Variant: tc.variant, Options: json.RawMessage(`{"hands":3}`), RulesVersion: tc.version}
		got, err := table.Registry{"doudizhu": New()}.Rules(opened)
		if err != nil || got.Version() != tc.version || string(got.Options()) != `{"hands":3}` {
			t.Errorf("a table opened under %s replays under %v (%v), want that version with its options", tc.version, got, err)
		}
	}
	for _, tc := range []struct{ version, variant string }{
		{"doudizhu/classic/3", "classic"}, // never played
		{"doudizhu/hubei/4", "hubei"},
		{"doudizhu/hubei/1", "fourplayer"}, // another variant's version
		{"doudizhu/fourplayer/1", "classic"},
		{"", "hubei"},
	} {
		if _, err := New().RulesAt(tc.version, tc.variant, nil); !errors.Is(err, table.ErrRulesVersion) {
			t.Errorf("RulesAt(%q, %s): %v, want ErrRulesVersion", tc.version, tc.variant, err)
		}
	}
	if _, err := New().RulesAt("doudizhu/hubei/1", "hubei", json.RawMessage(`{"x":1}`)); !errors.Is(err, table.ErrBadOption) {
		t.Errorf("RulesAt with an unknown option: %v, want bad_option", err)
	}
}
