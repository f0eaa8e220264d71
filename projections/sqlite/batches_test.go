package sqlite

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"paiju/projections"
	"paiju/projections/projectionstest"
)

// TestApplyBatchesMatchesApplyBatch applies a random log to the four
// projections in one transaction a batch (batches of random lengths, some
// overlapping the last, as redeliveries do) and to another file one
// projection a transaction: every read the same, every checkpoint and
// anchor the same.
func TestApplyBatchesMatchesApplyBatch(t *testing.T) {
	ctx := context.Background()
	l := projectionstest.RandomLog(31, 12, projectionstest.Events(1500))
	together, _ := openSuite(t, l.Now)
	apart, _ := openSuite(t, l.Now)
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < len(l.Events); {
		j := min(len(l.Events), i+1+r.IntN(300))
		from := max(0, i-r.IntN(5))
		if err := together.(*DB).ApplyBatches(ctx, projections.Names, l.Events[from:j]); err != nil {
			t.Fatalf("events %d to %d: %v", from, j, err)
		}
		for _, n := range projections.Names {
			if _, err := apart.ApplyBatch(ctx, n, l.Events[from:j]); err != nil {
				t.Fatalf("%s, events %d to %d: %v", n, from, j, err)
			}
		}
		i = j
	}
	want := projectionstest.Snapshot(t, apart, l)
	if got := projectionstest.Snapshot(t, together, l); got != want {
		t.Fatalf("one transaction a batch for the four:\n%s", projectionstest.Diff(got, want))
	}
	for _, n := range projections.Names {
		gp, gh, err := together.Anchor(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		wp, wh, err := apart.Anchor(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		if gp != wp || gh != wh || gp != int64(len(l.Events)) {
			t.Errorf("%s: anchor %d %q, want %d %q (the log's %d events)", n, gp, gh, wp, wh, len(l.Events))
		}
	}
}

// TestApplyBatchesGapAppliesNothing: a batch past one projection's next
// position applies nothing to any of them (the others' checkpoints stay)
// and says which projection and where; Feed.ApplyAll then fills the gap
// from the log, and the projections end as if the log had been applied
// one projection at a time.
func TestApplyBatchesGapAppliesNothing(t *testing.T) {
	ctx := context.Background()
	l := projectionstest.RandomLog(32, 6, 400)
	db, _ := openSuite(t, l.Now)
	d := db.(*DB)
	if err := d.ApplyBatches(ctx, projections.Names, l.Events[:200]); err != nil {
		t.Fatal(err)
	}
	if err := d.Reset(ctx, projections.Directory); err != nil {
		t.Fatal(err)
	}
	err := d.ApplyBatches(ctx, projections.Names, l.Events[200:300])
	var gap *projections.GapError
	if !errors.As(err, &gap) || gap.Name != projections.Directory || gap.Checkpoint != 0 || gap.Position != 201 {
		t.Fatalf("ApplyBatches past a reset projection: %v, want the directory's gap at 0 before 201", err)
	}
	for _, n := range projections.Names {
		want := int64(200)
		if n == projections.Directory {
			want = 0
		}
		if cp, err := d.Checkpoint(ctx, n); err != nil || cp != want {
			t.Fatalf("%s after the refused batch: checkpoint %d (%v), want %d", n, cp, err, want)
		}
	}

	f := projections.Feed{Store: d, Log: l}
	if err := f.ApplyAll(ctx, projections.Names, l.Events[200:300]); err != nil {
		t.Fatal(err)
	}
	// The directory caught up from the log, to its end; the others took
	// the batch.
	for _, n := range projections.Names {
		want := int64(300)
		if n == projections.Directory {
			want = int64(len(l.Events))
		}
		if cp, err := d.Checkpoint(ctx, n); err != nil || cp != want {
			t.Fatalf("%s after ApplyAll: checkpoint %d (%v), want %d", n, cp, err, want)
		}
	}
	if err := f.ApplyAll(ctx, projections.Names, l.Events[300:]); err != nil {
		t.Fatal(err)
	}
	one, _ := openSuite(t, l.Now)
	for _, n := range projections.Names {
		if err := projections.CatchUp(ctx, one, n, l); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := projectionstest.Snapshot(t, d, l), projectionstest.Snapshot(t, one, l); got != want {
		t.Fatalf("after the gap was filled:\n%s", projectionstest.Diff(got, want))
	}
}

// TestApplyBatchesUnknown refuses a name it does not keep before writing.
func TestApplyBatchesUnknown(t *testing.T) {
	l := projectionstest.RandomLog(33, 2, 20)
	db, _ := openSuite(t, l.Now)
	err := db.(*DB).ApplyBatches(context.Background(), []string{projections.Hands, "nope"}, l.Events)
	if !errors.Is(err, projections.ErrUnknown) {
		t.Fatalf("ApplyBatches with an unknown projection: %v, want ErrUnknown", err)
	}
	if cp, err := db.Checkpoint(context.Background(), projections.Hands); err != nil || cp != 0 {
		t.Fatalf("hands after the refusal: checkpoint %d (%v), want 0", cp, err)
	}
}
