package sqlite

import (
	"context"
	"slices"
	"testing"

	"paiju/projections"
	"paiju/projections/projectionstest"
)

// TestHandDealtAgain applies projectionstest.RedealtLog in every split into two batches
// and one event a batch: the same rows each time, those the statements
// one by one wrote.
func TestHandDealtAgain(t *testing.T) {
	ctx := context.Background()
	l := projectionstest.RedealtLog()
	var want string
	for split := 0; split <= len(l.Events); split++ {
		dbi, _ := openSuite(t, l.Now)
		db := dbi.(*DB)
		batches := [][]int{{0, split}, {split, len(l.Events)}}
		if split == 0 {
			batches = nil
			for i := range l.Events {
				batches = append(batches, []int{i, i + 1})
			}
		}
		for _, b := range batches {
			if b[0] == b[1] {
				continue
			}
			if _, err := db.ApplyBatch(ctx, projections.Hands, l.Events[b[0]:b[1]]); err != nil {
				t.Fatalf("split %d: %v", split, err)
			}
		}
		h, err := db.Hand(ctx, "T1-1")
		if err != nil {
			t.Fatalf("split %d: %v", split, err)
		}
		var players []string
		for _, s := range h.Seats {
			players = append(players, s.PlayerID)
		}
		if !slices.Equal(players, []string{"A", "B", "C"}) || !slices.Equal(h.Deltas, []int{2, 0, -2}) || h.SettledPosition != 10 || len(h.Events) != 4 {
			t.Errorf("split %d: hand T1-1: seats %v, deltas %v, settled at %d, %d events", split, players, h.Deltas, h.SettledPosition, len(h.Events))
		}
		got := ""
		for _, p := range []string{"A", "B", "C", "D"} {
			page, err := db.PlayerHands(ctx, p, "", 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range page.Hands {
				got += p + " " + s.HandID + " " + string(rune('0'+s.SettledPosition)) + ";"
			}
		}
		if split == 0 {
			want = got
			// C answers for both settlements of T1-1 (its seat in the
			// record), D for hand 2 only.
			if wantOne := "A T1-1 :;A T1-1 :;A T1-2 <;B T1-1 :;B T1-1 :;B T1-2 <;C T1-1 :;C T1-1 :;D T1-2 <;"; got != wantOne {
				t.Fatalf("player hands, one event a batch:\n got %s\nwant %s", got, wantOne)
			}
		} else if got != want {
			t.Errorf("split %d: player hands\n got %s\nwant %s", split, got, want)
		}
	}
}
