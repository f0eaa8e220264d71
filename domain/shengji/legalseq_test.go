package shengji

import (
	"slices"
	"testing"

	"paiju/domain/table"
)

// TestLegalSeqIsLegal plays random hands of every variant and checks, for
// every seat at every position, that LegalSeq yields exactly Legal's list
// in Legal's order, and that it stops where its consumer stops.
func TestLegalSeqIsLegal(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"ningyang", "guafeng", "qiangbao"} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			r := variantRules(t, variant, "")
			positions, actions, streamed := 0, 0, 0
			for id := range uint64(3) {
				rt := newRandomTable(t, r, 900+id, false)
				for rt.Settled < 2 {
					g := rt.g()
					for seat := range seats {
						n := checkLegalSeq(rt, r, g, seat)
						positions++
						actions += n
						if (g.phase == phaseBurying && seat == g.burier && !r.v.qiangbao) ||
							(g.phase == phasePlaying && seat == g.turn && len(g.trick) > 0) {
							streamed += n
						}
					}
					rt.Step()
				}
			}
			t.Logf("%d positions, %d actions, %d of them generated lazily", positions, actions, streamed)
		})
	}
}

// checkLegalSeq compares seat's stream with its list, and stops the stream
// at a random action; it returns the length of the list.
func checkLegalSeq(rt *randomTable, r *Rules, g *State, seat int) int {
	want := r.Legal(g, seat)
	i := 0
	for a := range r.LegalSeq(g, seat) {
		if i >= len(want) {
			rt.Fatalf("seat %d (%s): LegalSeq yields %s past Legal's %d actions", seat, g.phase, describe(a), len(want))
		}
		if !sameAction(a, want[i]) {
			rt.Fatalf("seat %d (%s): LegalSeq's action %d is %s, Legal's is %s", seat, g.phase, i, describe(a), describe(want[i]))
		}
		i++
	}
	if i != len(want) {
		rt.Fatalf("seat %d (%s): LegalSeq yields %d actions, Legal %d", seat, g.phase, i, len(want))
	}
	if len(want) == 0 {
		return 0
	}
	// A range loop over an iterator that yields after its consumer stopped
	// panics, so breaking early checks the stop.
	stop, n := rt.Rng.IntN(len(want)), 0
	for a := range r.LegalSeq(g, seat) {
		if n == stop {
			if !sameAction(a, want[stop]) {
				rt.Fatalf("seat %d: action %d is %s on a second walk, %s on the first", seat, n, describe(a), describe(want[stop]))
			}
			break
		}
		n++
	}
	return len(want)
}

func describe(a table.Action) string { return a.Type + " " + canonOrEmpty(a) }

func canonOrEmpty(a table.Action) string {
	if len(a.Cards) == 0 {
		return "-"
	}
	return canon(a.Cards)
}

func sameAction(a, b table.Action) bool {
	return a.Type == b.Type && a.As == b.As && slices.Equal(a.Cards, b.Cards) &&
		(a.Bid == nil) == (b.Bid == nil) && (a.Bid == nil || *a.Bid == *b.Bid)
}
