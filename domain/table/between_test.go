package table_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/domain/doudizhu"
	"paiju/domain/table"
)

// waitingTable is a 斗地主 table opened with wait_between_hands and a
// 30 s clock: seats 0 and 1 are players, seat 2 a bot; hand 1 is dealt at
// start.
func waitingTable(t *testing.T, start time.Time) (*table.State, *fixedSeeds) {
	t.Helper()
	r, err := doudizhu.New().Rules("classic", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := table.New(r)
	evs, err := table.OpenWith(r, table.Opening{ID: "W1", Game: "doudizhu", Variant: "classic", Stake: 1, OpenedBy: "a",
		Clock: &table.Clock{TurnSeconds: 30, DelegateAfter: 2}, WaitBetweenHands: true})
	if err != nil {
		t.Fatal(err)
	}
	applyAt(st, evs, start)
	seeds := &fixedSeeds{}
	applyAt(st, must(t)(table.SeatBot(st, "bot", "Bot", 2, seeds)), start)
	applyAt(st, must(t)(table.Join(st, "a", "a", 0, seeds)), start)
	applyAt(st, must(t)(table.Join(st, "b", "b", 1, seeds)), start)
	if !st.InDeal || st.Hand != 1 {
		t.Fatalf("a full waiting table: in deal %v hand %d, want hand 1 dealt at once", st.InDeal, st.Hand)
	}
	return st, seeds
}

func must(t *testing.T) func([]table.Payload, error) []table.Payload {
	return func(evs []table.Payload, err error) []table.Payload {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
}

func applyAt(st *table.State, evs []table.Payload, at time.Time) {
	for _, e := range evs {
		table.ApplyAt(st, e, at)
	}
}

// playOutAt has every awaited seat make its bot's move until the running
// hand ends, each batch recorded at at.
func playOutAt(t *testing.T, st *table.State, seeds table.SeedSource, at time.Time) {
	t.Helper()
	for step := 0; st.InDeal; step++ {
		if step > 500 {
			t.Fatal("the hand did not end")
		}
		moved := false
		for seat := range st.Players {
			if a, ok := table.BotMove(st, seat, at); ok {
				applyAt(st, must(t)(table.Act(st, seat, a, seeds)), at)
				moved = true
				break
			}
		}
		if !moved {
			t.Fatal("nobody to move in a running hand")
		}
	}
}

func types(evs []table.Payload) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.EventType())
	}
	return out
}

// TestWaitBetweenHands: at a table opened with wait_between_hands the hand's
// end deals nothing; each player posts continue (SeatReady), the bot's seat
// is ready, and the last player's continue deals the next hand.
func TestWaitBetweenHands(t *testing.T) {
	start := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	st, seeds := waitingTable(t, start)
	if _, err := table.Act(st, 0, table.Action{Type: table.ActionContinue}, seeds); !errors.Is(err, table.ErrNotBetweenHands) {
		t.Fatalf("continue during a hand: %v, want not_between_hands", err)
	}
	if slices.ContainsFunc(table.Legal(st, 0), func(a table.Action) bool { return a.Type == table.ActionContinue }) {
		t.Fatal("continue listed during a hand")
	}
	playOutAt(t, st, seeds, start)
	if st.InDeal || st.Hand != 1 || !st.BetweenHands() {
		t.Fatalf("after hand 1: in deal %v, hand %d, between hands %v; want the table waiting", st.InDeal, st.Hand, st.BetweenHands())
	}
	if !st.WaitsFor(0) || !st.WaitsFor(1) || st.WaitsFor(2) {
		t.Fatalf("waits for seats %v %v %v, want the two players and not the bot", st.WaitsFor(0), st.WaitsFor(1), st.WaitsFor(2))
	}
	if !st.Awaited(0) || !st.Awaited(1) || st.Awaited(2) {
		t.Fatal("the players are not awaited between hands (the turn, the clock)")
	}
	if legal := table.PlayerLegal(st, 0, start); legal[0].Type != table.ActionContinue || legal[1].Type != table.ActionLeave {
		t.Fatalf("a player between hands may %v, want continue and leave", legal)
	}
	if _, err := table.Act(st, 0, table.Action{Type: table.ActionContinue, As: "x"}, seeds); !errors.Is(err, table.ErrBadAction) {
		t.Fatalf("continue with fields: %v, want invalid_action", err)
	}
	evs := must(t)(table.Act(st, 0, table.Action{Type: table.ActionContinue}, seeds))
	if got := types(evs); !slices.Equal(got, []string{"SeatReady"}) {
		t.Fatalf("first continue: %v, want SeatReady alone (seat 1 is not ready)", got)
	}
	applyAt(st, evs, start)
	if _, err := table.Act(st, 0, table.Action{Type: table.ActionContinue}, seeds); !errors.Is(err, table.ErrAlreadyReady) {
		t.Fatalf("continue twice: %v, want already_ready", err)
	}
	if got := table.Legal(st, 0); len(got) != 1 || got[0].Type != table.ActionLeave {
		t.Fatalf("a ready seat may %v, want only leave", got)
	}
	evs = must(t)(table.Act(st, 1, table.Action{Type: table.ActionContinue}, seeds))
	if got := types(evs); len(got) < 2 || got[0] != "SeatReady" || got[1] != "HandDealt" {
		t.Fatalf("the last continue: %v, want SeatReady and the next deal", got)
	}
	applyAt(st, evs, start)
	if !st.InDeal || st.Hand != 2 {
		t.Fatalf("after everyone's continue: in deal %v hand %d, want hand 2", st.InDeal, st.Hand)
	}
}

// TestWaitBetweenHandsDelegatedAndLeft: a delegated seat (托管) is ready,
// and a player who leaves between hands holds nobody back: whoever sits
// down in the free seat is ready.
func TestWaitBetweenHandsDelegatedAndLeft(t *testing.T) {
	start := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	st, seeds := waitingTable(t, start)
	applyAt(st, must(t)(table.Act(st, 1, table.Action{Type: table.ActionDelegate}, seeds)), start)
	playOutAt(t, st, seeds, start)
	if st.WaitsFor(1) || !st.WaitsFor(0) {
		t.Fatal("between hands: the delegated seat is waited for, or the player is not")
	}
	evs := must(t)(table.Act(st, 0, table.Action{Type: table.ActionContinue}, seeds))
	if got := types(evs); len(got) < 2 || got[1] != "HandDealt" {
		t.Fatalf("continue beside a delegated seat: %v, want the next deal", got)
	}
	applyAt(st, evs, start)

	// Hand 2: seat 1 resumes; after the hand, seat 1 leaves.
	applyAt(st, must(t)(table.Act(st, 1, table.Action{Type: table.ActionResume}, seeds)), start)
	playOutAt(t, st, seeds, start)
	applyAt(st, must(t)(table.Act(st, 0, table.Action{Type: table.ActionContinue}, seeds)), start)
	evs = must(t)(table.Act(st, 1, table.Action{Type: table.ActionLeave}, seeds))
	if got := types(evs); !slices.Equal(got, []string{"PlayerLeft"}) {
		t.Fatalf("leave between hands: %v", got)
	}
	applyAt(st, evs, start)
	evs = must(t)(table.Join(st, "c", "c", 1, seeds))
	if got := types(evs); len(got) < 2 || got[1] != "HandDealt" {
		t.Fatalf("a newcomer in the seat left: %v, want the next deal at once", got)
	}
}

// TestWaitBetweenHandsClock: with a turn clock each player has the clock's
// time to continue from the settlement; then the server's timeout makes
// the seat ready (TurnTimedOut, SeatReady) and never delegates it.
func TestWaitBetweenHandsClock(t *testing.T) {
	start := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	st, seeds := waitingTable(t, start)
	settledAt := start.Add(time.Minute)
	playOutAt(t, st, seeds, settledAt)
	st.TimedOut[0] = 1 // one timeout in the hand: the next would delegate in a hand
	due, ok := st.Deadline(0)
	if want := settledAt.Add(30 * time.Second); !ok || !due.Equal(want) {
		t.Fatalf("seat 0's deadline between hands: %v %v, want %s", due, ok, want)
	}
	if _, err := table.Timeout(st, 0, due.Add(-time.Millisecond), seeds); !errors.Is(err, table.ErrDeadlineNotReached) {
		t.Fatalf("timeout before the deadline: %v, want deadline_not_reached", err)
	}
	if _, ok := st.Deadline(2); ok {
		t.Fatal("the bot's seat has a deadline between hands")
	}
	evs := must(t)(table.Timeout(st, 0, due, seeds))
	if got := types(evs); !slices.Equal(got, []string{"TurnTimedOut", "SeatReady"}) {
		t.Fatalf("timeout between hands: %v, want TurnTimedOut and SeatReady (no delegation)", got)
	}
	applyAt(st, evs, due)
	if st.Delegated[0] || st.WaitsFor(0) {
		t.Fatal("after the timeout seat 0 is delegated or still waited for")
	}
	evs = must(t)(table.Timeout(st, 1, due, seeds))
	if got := types(evs); len(got) < 3 || got[2] != "HandDealt" {
		t.Fatalf("the last timeout: %v, want the next deal", got)
	}
}

// TestWaitBetweenHandsOpening: the flag is recorded only when set (a table
// opened without it records what it did before), the table deals at once
// without it, and a tournament's table cannot wait.
func TestWaitBetweenHandsOpening(t *testing.T) {
	r, _ := doudizhu.New().Rules("classic", nil)
	evs, err := table.OpenWith(r, table.Opening{ID: "T", Game: "doudizhu", Variant: "classic", Stake: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(evs[0])
	if strings.Contains(string(b), "wait_between_hands") {
		t.Fatalf("TableOpened without the flag: %s", b)
	}
	evs, _ = table.OpenWith(r, table.Opening{ID: "T", Game: "doudizhu", Variant: "classic", Stake: 1, WaitBetweenHands: true})
	if b, _ := json.Marshal(evs[0]); !strings.Contains(string(b), `"wait_between_hands":true`) {
		t.Fatalf("TableOpened with the flag: %s", b)
	}
	if _, err := table.OpenWith(r, table.Opening{ID: "T", Game: "doudizhu", Variant: "classic", Stake: 1, Tournament: "X", Reserved: []string{"a", "b", "c"}, WaitBetweenHands: true}); !errors.Is(err, table.ErrBadOption) {
		t.Fatalf("a tournament's table with the flag: %v, want invalid_option", err)
	}
	st, seeds := fullTable(t)
	apply(st, mustAct(t, st, 1, table.Action{Type: table.ActionEscape}, seeds))
	if _, err := table.Act(st, 0, table.Action{Type: table.ActionContinue}, seeds); !errors.Is(err, table.ErrNotBetweenHands) {
		t.Fatalf("continue at a table without the flag: %v, want not_between_hands", err)
	}
}
