package table_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/doudizhu"
	"paiju/domain/niuniu"
	"paiju/domain/table"
)

// fixedSeeds hands out seeds 1, 2, 3, … (as the first byte).
type fixedSeeds struct{ n byte }

func (f *fixedSeeds) NewSeed() (cards.Seed, error) {
	f.n++
	return cards.Seed{f.n}, nil
}

func apply(st *table.State, evs []table.Payload) {
	for _, e := range evs {
		table.Apply(st, e)
	}
}

func newTable(t *testing.T) (*table.State, *fixedSeeds) {
	t.Helper()
	r, err := doudizhu.New().Rules("classic", nil)
	if err != nil {
		t.Fatal(err)
	}
	return newTableOf(t, r)
}

// newTableAt is newTable under an older rules version of 斗地主 classic.
func newTableAt(t *testing.T, version string) (*table.State, *fixedSeeds) {
	t.Helper()
	r, err := doudizhu.New().RulesAt(version, "classic", nil)
	if err != nil {
		t.Fatal(err)
	}
	return newTableOf(t, r)
}

func newTableOf(t *testing.T, r table.Rules) (*table.State, *fixedSeeds) {
	t.Helper()
	st := table.New(r)
	evs, err := table.Open(r, "T1", "doudizhu", "classic", 3, "p0")
	if err != nil {
		t.Fatal(err)
	}
	apply(st, evs)
	return st, &fixedSeeds{}
}

func mustJoin(t *testing.T, st *table.State, seeds table.SeedSource, player string, seat int) []table.Payload {
	t.Helper()
	evs, err := table.Join(st, player, player, seat, seeds)
	if err != nil {
		t.Fatalf("%s joins seat %d: %v", player, seat, err)
	}
	apply(st, evs)
	return evs
}

func TestOpenRecordsRulesAndRejectsBadStake(t *testing.T) {
	st, _ := newTable(t)
	if st.RulesVersion == "" || st.Stake != 3 || len(st.Players) != 3 || st.Version != 1 {
		t.Fatalf("after TableOpened: %+v", st)
	}
	r, _ := doudizhu.New().Rules("classic", nil)
	if _, err := table.Open(r, "T2", "doudizhu", "classic", 0, "p0"); !errors.Is(err, table.ErrBadOption) {
		t.Fatalf("stake 0: got %v, want invalid_option (rules/README.md, Stakes: base stake is an integer ≥ 1)", err)
	}
}

func TestJoinSeatsAndDealsWhenFull(t *testing.T) {
	st, seeds := newTable(t)
	mustJoin(t, st, seeds, "a", 2)
	if evs := mustJoin(t, st, seeds, "b", -1); evs[0].(table.PlayerSeated).Seat != 0 {
		t.Fatalf("join without a seat took seat %d, want the lowest free seat 0", evs[0].(table.PlayerSeated).Seat)
	}
	if st.InDeal {
		t.Fatal("a deal started before the table was full")
	}
	for _, tc := range []struct {
		player string
		seat   int
		want   error
	}{
		{"a", 1, table.ErrAlreadySeated},
		{"c", 0, table.ErrSeatTaken},
		{"c", 3, table.ErrNoSuchSeat},
	} {
		if _, err := table.Join(st, tc.player, tc.player, tc.seat, seeds); !errors.Is(err, tc.want) {
			t.Errorf("%s joins seat %d: got %v, want %v", tc.player, tc.seat, err, tc.want)
		}
	}
	evs := mustJoin(t, st, seeds, "c", -1)
	if len(evs) < 2 {
		t.Fatalf("the last join produced %d events; the deal must follow it in the same batch", len(evs))
	}
	d, ok := evs[1].(table.HandDealt)
	if !ok || d.Hand != 1 || d.Deal != 1 {
		t.Fatalf("after the last join: %#v, want HandDealt hand 1 deal 1", evs[1])
	}
	if d.Commitment != (cards.Seed{1}).Commitment() {
		t.Fatalf("deal commitment %s is not SHA-256 of the seed drawn", d.Commitment)
	}
	if _, err := table.Join(st, "d", "d", -1, seeds); !errors.Is(err, table.ErrTableFull) {
		t.Fatalf("join of a full table: got %v, want table_full", err)
	}
}

func fullTable(t *testing.T) (*table.State, *fixedSeeds) {
	st, seeds := newTable(t)
	seatAll(t, st, seeds)
	return st, seeds
}

// fullTableBeforeAbandon is fullTable under doudizhu/classic/1, whose tables
// are never abandoned: with every seat delegated, its bots may pass deal
// after deal, and the hand still ends by play.
func fullTableBeforeAbandon(t *testing.T) (*table.State, *fixedSeeds) {
	st, seeds := newTableAt(t, "doudizhu/classic/1")
	seatAll(t, st, seeds)
	return st, seeds
}

func seatAll(t *testing.T, st *table.State, seeds *fixedSeeds) {
	for i, p := range []string{"a", "b", "c"} {
		mustJoin(t, st, seeds, p, i)
	}
}

func TestActChecksSeatAndPhase(t *testing.T) {
	st, seeds := fullTable(t)
	if _, err := table.Act(st, -1, table.Action{Type: "pass"}, seeds); !errors.Is(err, table.ErrNotSeated) {
		t.Errorf("act without a seat: got %v, want not_seated", err)
	}
	if _, err := table.Act(st, 0, table.Action{Type: table.ActionLeave}, seeds); !errors.Is(err, table.ErrWrongPhase) {
		t.Errorf("leave during a hand: got %v, want wrong_phase", err)
	}
	if _, err := table.Act(st, 0, table.Action{Type: table.ActionEscape, Bid: new(int)}, seeds); !errors.Is(err, table.ErrBadAction) {
		t.Errorf("escape with a bid: got %v, want invalid_action", err)
	}
	legal := table.Legal(st, 0)
	if len(legal) == 0 || legal[len(legal)-1].Type != table.ActionEscape {
		t.Errorf("legal actions during a hand end with %v, want escape last", legal)
	}
	if table.Legal(st, table.Spectator) != nil {
		t.Error("a spectator has legal actions")
	}
}

// TestEscapeVacatesSeatAndNextJoinDeals: an escape settles the hand and frees
// the seat; the next player to sit down starts hand 2.
func TestEscapeVacatesSeatAndNextJoinDeals(t *testing.T) {
	st, seeds := fullTable(t)
	evs, err := table.Act(st, 1, table.Action{Type: table.ActionEscape}, seeds)
	if err != nil {
		t.Fatal(err)
	}
	apply(st, evs)
	if st.InDeal || st.Players[1] != "" || st.Last == nil || st.Last.Hand != 1 {
		t.Fatalf("after an escape: in deal %v, seat 1 %q, last settlement %+v", st.InDeal, st.Players[1], st.Last)
	}
	sum := 0
	for i, d := range st.Last.Deltas {
		sum += d
		if st.Totals[i] != d {
			t.Errorf("seat %d total %d after one settlement %d", i, st.Totals[i], d)
		}
	}
	if sum != 0 {
		t.Fatalf("escape settlement %v sums to %d", st.Last.Deltas, sum)
	}
	if got := table.Legal(st, 0); len(got) != 1 || got[0].Type != table.ActionLeave {
		t.Fatalf("between hands seat 0 may %v, want only leave", got)
	}
	evs = mustJoin(t, st, seeds, "d", 1)
	if d, ok := evs[len(evs)-2].(table.HandDealt); !ok || d.Hand != 2 {
		// The deal is followed by the game's secret event.
		t.Fatalf("join after an escape: %#v, want hand 2 dealt", evs)
	}
}

func TestLeaveBetweenHands(t *testing.T) {
	st, seeds := fullTable(t)
	apply(st, mustAct(t, st, 0, table.Action{Type: table.ActionEscape}, seeds))
	apply(st, mustAct(t, st, 2, table.Action{Type: table.ActionLeave}, seeds))
	if st.Players[2] != "" {
		t.Fatal("leave did not free the seat")
	}
	if _, err := table.Act(st, 1, table.Action{Type: table.ActionLeave, As: "x"}, seeds); !errors.Is(err, table.ErrBadAction) {
		t.Fatalf("leave with fields: got %v, want invalid_action", err)
	}
}

func mustAct(t *testing.T, st *table.State, seat int, a table.Action, seeds table.SeedSource) []table.Payload {
	t.Helper()
	evs, err := table.Act(st, seat, a, seeds)
	if err != nil {
		t.Fatalf("seat %d %v: %v", seat, a, err)
	}
	return evs
}

// TestRedealKeepsHandNumber: all three pass (doudizhu.md, Bidding classic): the
// deal is voided with its seed revealed and the same hand is dealt again.
func TestRedealKeepsHandNumber(t *testing.T) {
	st, seeds := fullTable(t)
	var voided *table.DealVoided
	for range 3 {
		turn := st.Rules.View(st.G, table.Auditor).Turn
		evs := mustAct(t, st, *turn, table.Action{Type: "pass"}, seeds)
		for _, e := range evs {
			if v, ok := e.(table.DealVoided); ok {
				voided = &v
			}
		}
		apply(st, evs)
	}
	if voided == nil || voided.Seed != (cards.Seed{1}).String() {
		t.Fatalf("after three passes: voided %+v, want the first deal voided with seed 01…", voided)
	}
	if st.Hand != 1 || st.Deal != 2 || !st.InDeal {
		t.Fatalf("after the re-deal: hand %d deal %d in deal %v, want hand 1 deal 2", st.Hand, st.Deal, st.InDeal)
	}
}

func TestRedactHandDealt(t *testing.T) {
	st, _ := fullTable(t)
	d := table.HandDealt{Hand: 1, Deal: 1, Hands: [][]cards.Card{cards.MustParse("S3"), cards.MustParse("H3"), cards.MustParse("C3")}, Kitty: cards.MustParse("RJ")}
	got := table.Redact(st.Rules, d, 1, false).(table.HandDealt)
	if got.Hands[0] != nil || got.Hands[2] != nil || got.Kitty != nil || got.Hands[1][0] != cards.MustParse("H3")[0] {
		t.Fatalf("seat 1 sees %+v of a running deal, want only its own hand", got)
	}
	if got := table.Redact(st.Rules, d, table.Spectator, false).(table.HandDealt); got.Hands[1] != nil {
		t.Fatal("a spectator sees a hand of a running deal")
	}
	if got := table.Redact(st.Rules, d, 1, true).(table.HandDealt); got.Kitty == nil || got.Hands[0] == nil {
		t.Fatal("an ended deal stays hidden")
	}
	if got := table.Redact(st.Rules, d, table.Auditor, false).(table.HandDealt); got.Kitty == nil {
		t.Fatal("the auditor does not see the kitty")
	}
}

// TestNoJoinWhileADealRuns: in 牛牛 a player's escape frees its seat while
// the others play on to the reveal (niuniu.md, Escape). Whoever sat there
// would be shown the escaper's dealt cards, so the seat stays empty until
// the deal ends; then a join deals the next hand.
func TestNoJoinWhileADealRuns(t *testing.T) {
	r, err := niuniu.New().Rules("classic", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := table.New(r)
	evs, err := table.Open(r, "T1", "niuniu", "classic", 1, "p0")
	if err != nil {
		t.Fatal(err)
	}
	apply(st, evs)
	seeds := &fixedSeeds{}
	for i := range r.Seats() {
		mustJoin(t, st, seeds, fmt.Sprint("p", i), i)
	}
	escaper := (*r.View(st.G, table.Auditor).Game.(niuniu.GameView).Banker + 1) % r.Seats()
	evs, err = table.Act(st, escaper, table.Action{Type: table.ActionEscape}, seeds)
	if err != nil {
		t.Fatal(err)
	}
	apply(st, evs)
	if !st.InDeal || st.Players[escaper] != "" {
		t.Fatalf("after a player's escape: in deal %v, seat %d %q; want the hand running and the seat free (niuniu.md, Escape)", st.InDeal, escaper, st.Players[escaper])
	}
	if _, err := table.Join(st, "newcomer", "n", escaper, seeds); !errors.Is(err, table.ErrWrongPhase) {
		t.Fatalf("join the escaper's seat %d while the deal runs: %v, want wrong_phase", escaper, err)
	}
	if _, err := table.Join(st, "newcomer", "n", -1, seeds); !errors.Is(err, table.ErrWrongPhase) {
		t.Fatalf("join any free seat while the deal runs: %v, want wrong_phase", err)
	}
}

// botsPlayOut lets table.BotMove play the running deal to its end, one
// move at a time, calling after once after each move.
func botsPlayOut(t *testing.T, st *table.State, seeds table.SeedSource, now time.Time, after func()) {
	t.Helper()
	for step := 0; st.InDeal; step++ {
		if step > 500 {
			t.Fatal("the bots did not finish the hand")
		}
		moved := false
		for seat := range 3 {
			if a, ok := table.BotMove(st, seat, now); ok {
				apply(st, mustAct(t, st, seat, a, seeds))
				moved = true
				break
			}
		}
		if !moved {
			t.Fatal("nobody to move in a running hand")
		}
		after()
	}
}

// TestAllDelegatedAbandoned: every seat delegated (托管) is every seat
// absent, so 3 deals in a row its bots all pass close the table with reason
// abandoned, nothing settled (rules README, Clocks, timeouts and absent
// players; 斗地主 from classic/2).
func TestAllDelegatedAbandoned(t *testing.T) {
	st, seeds := fullTable(t)
	for seat := range 3 {
		apply(st, mustAct(t, st, seat, table.Action{Type: table.ActionDelegate}, seeds))
	}
	var last table.Payload
	for step := 0; !st.Closed; step++ {
		if step > 100 {
			t.Fatal("the bots neither ended a hand nor were abandoned")
		}
		seat := st.Rules.(table.Autoplay).Awaited(st.G)[0]
		a, ok := table.BotMove(st, seat, time.Time{})
		if !ok {
			t.Fatalf("the bot has no move at version %d", st.Version)
		}
		evs := mustAct(t, st, seat, a, seeds)
		apply(st, evs)
		last = evs[len(evs)-1]
		if st.Last != nil {
			t.Fatal("these deals' bots bid: pick deals they all pass")
		}
	}
	if c, ok := last.(table.TableClosed); !ok || c.Reason != table.ReasonAbandoned || st.Deal != 3 {
		t.Fatalf("closed by %v after deal %d, want abandoned after the third deal", last, st.Deal)
	}
}

// TestAllDelegatedHoldsTheNextDeal: when the bot plays every player's seat
// (托管), the hand in progress is played to its end but no next hand is
// dealt until a player resumes; the resume deals it.
func TestAllDelegatedHoldsTheNextDeal(t *testing.T) {
	st, seeds := fullTableBeforeAbandon(t)
	for seat := range 3 {
		apply(st, mustAct(t, st, seat, table.Action{Type: table.ActionDelegate}, seeds))
	}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	botsPlayOut(t, st, seeds, now, func() {})
	if st.Last == nil || st.InDeal {
		t.Fatalf("after the hand: settled %v, in deal %v; want the next deal held back", st.Last != nil, st.InDeal)
	}
	legal := table.PlayerLegal(st, 1, now)
	if len(legal) != 2 || legal[0].Type != table.ActionResume || legal[1].Type != table.ActionLeave {
		t.Fatalf("a delegated player between hands may %v, want resume and leave", legal)
	}
	evs := mustAct(t, st, 1, table.Action{Type: table.ActionResume}, seeds)
	if _, ok := evs[1].(table.HandDealt); len(evs) < 2 || !ok {
		t.Fatalf("resume between hands: %v, want SeatResumed and the next deal", evs)
	}
}
