package sqlite

import (
	"context"
	"slices"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/projections"
	"paiju/projections/projectionstest"
)

// redealtLog: hand 1 of T1 is dealt and settled, C's seat changes hands,
// and hand 1 is dealt and settled again. The hand's record keeps the
// seats of its first deal (as INSERT OR IGNORE kept them) and takes the
// last settlement; each settlement credits the seats of the record.
func redealtLog() *projectionstest.Log {
	l := projectionstest.NewLog(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	const s = "table-T1"
	l.Add(s, time.Second, table.TableOpened{TableID: "T1", Game: "g", Variant: "v", Seats: 3, Stake: 1})
	for seat, id := range []string{"A", "B", "C"} {
		l.Add(s, time.Second, table.PlayerSeated{Seat: seat, PlayerID: id, Name: "name" + id})
	}
	l.Add(s, time.Second, table.HandDealt{Hand: 1, Deal: 1, Commitment: "c"})
	l.Add(s, time.Second, table.HandSettled{Hand: 1, Deltas: []int{1, -1, 0}, Seed: "s"})
	l.Add(s, time.Second, table.PlayerLeft{Seat: 2, PlayerID: "C"})
	l.Add(s, time.Second, table.PlayerSeated{Seat: 2, PlayerID: "D", Name: "nameD"})
	l.Add(s, time.Second, table.HandDealt{Hand: 1, Deal: 1, Commitment: "c2"})
	l.Add(s, time.Second, table.HandSettled{Hand: 1, Deltas: []int{2, 0, -2}, Seed: "s2"})
	l.Add(s, time.Second, table.HandDealt{Hand: 2, Deal: 1, Commitment: "c3"})
	l.Add(s, time.Second, table.HandSettled{Hand: 2, Deltas: []int{3, -3, 0}, Seed: "s3"})
	return l
}

// TestHandDealtAgain applies redealtLog in every split into two batches
// and one event a batch: the same rows each time, those the statements
// one by one wrote.
func TestHandDealtAgain(t *testing.T) {
	ctx := context.Background()
	l := redealtLog()
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
