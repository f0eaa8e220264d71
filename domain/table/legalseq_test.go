package table_test

import (
	"iter"
	"slices"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
)

type listToy struct{ toy }

func (listToy) Legal(s *toyState, _ int) []table.Action {
	return []table.Action{{Type: "list"}}
}

type streamToy struct{ listToy }

func (streamToy) LegalSeq(s *toyState, _ int) iter.Seq[table.Action] {
	return slices.Values([]table.Action{{Type: "stream"}})
}

// The adapter streams the game's own LegalSeq when it has one, and its
// Legal list otherwise.
func TestAdaptStreams(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    table.Rules
		want string
	}{
		{"list", table.Adapt[*toyState](listToy{}), "list"},
		{"stream", table.Adapt[*toyState](streamToy{}), "stream"},
	} {
		s, ok := tc.r.(table.Streamer)
		if !ok {
			t.Fatalf("%s: Adapt's result is no Streamer", tc.name)
		}
		got := slices.Collect(s.LegalSeq(tc.r.NewState(), 0))
		if len(got) != 1 || got[0].Type != tc.want {
			t.Fatalf("%s: LegalSeq yields %v, want [%s]", tc.name, got, tc.want)
		}
		var sel cards.Multiset
		sel.Add(cards.MustParse("S3")...)
		got = slices.Collect(s.LegalSeqHolding(tc.r.NewState(), 0, sel))
		if len(got) != 1 || got[0].Type != tc.want {
			t.Fatalf("%s: LegalSeqHolding of a game that does not prune yields %v, want LegalSeq's [%s]", tc.name, got, tc.want)
		}
	}
	if _, ok := mustPanic(func() { table.Adapt[*toyState](streamToy{}).(table.Streamer).LegalSeq(&otherState{}, 0) }); !ok {
		t.Error("LegalSeq of another game's state does not panic")
	}
}

// checkPlayerLegalSeq: every seat's stream (and the spectator's) yields
// PlayerLegal's list, and stops where its consumer stops.
func checkPlayerLegalSeq(t *testing.T, st *table.State, now time.Time) {
	t.Helper()
	for seat := -1; seat <= len(st.Players); seat++ {
		want := table.PlayerLegal(st, seat, now)
		var got []table.Action
		for a := range table.PlayerLegalSeq(st, seat, now) {
			a.Cards = slices.Clone(a.Cards)
			got = append(got, a)
		}
		if !slices.EqualFunc(got, want, sameAction) {
			t.Fatalf("seat %d at version %d: PlayerLegalSeq yields %v, PlayerLegal lists %v", seat, st.Version, got, want)
		}
		for stop := range len(want) {
			n := 0
			for range table.PlayerLegalSeq(st, seat, now) {
				if n == stop {
					break
				}
				n++
			}
			if n != stop {
				t.Fatalf("seat %d: stopped after %d of %d actions, want %d", seat, n, len(want), stop)
			}
		}
	}
}

func sameAction(a, b table.Action) bool {
	return a.Type == b.Type && a.As == b.As && slices.Equal(a.Cards, b.Cards) &&
		(a.Bid == nil) == (b.Bid == nil) && (a.Bid == nil || *a.Bid == *b.Bid)
}

// TestPlayerLegalSeq follows a table through delegation, a hand played by
// the bots, the next deal held back and a resume: the stream is PlayerLegal
// at every step.
func TestPlayerLegalSeq(t *testing.T) {
	st, seeds := fullTableBeforeAbandon(t)
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	checkPlayerLegalSeq(t, st, now)
	for seat := range 3 {
		apply(st, mustAct(t, st, seat, table.Action{Type: table.ActionDelegate}, seeds))
		checkPlayerLegalSeq(t, st, now)
	}
	botsPlayOut(t, st, seeds, now, func() { checkPlayerLegalSeq(t, st, now) })
	apply(st, mustAct(t, st, 1, table.Action{Type: table.ActionResume}, seeds))
	checkPlayerLegalSeq(t, st, now)
	checkPlayerLegalSeq(t, st, time.Time{})
}
