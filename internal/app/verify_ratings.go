package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"paiju/eventstore"
	"paiju/projections"
)

// verifyRatings recomputes player's rating history from the whole log
// (projections.RecomputeRatings, the projection's own fold), prints it a
// hand a line, and compares it bit for bit with the history the ratings
// projection holds up to its checkpoint. A difference is a fault.
func verifyRatings(ctx context.Context, c Common, log eventstore.Log, player string, stdout io.Writer) error {
	f, err := projections.RecomputeRatings(ctx, log, Rater())
	if err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	want := f.PlayerHistory(player)
	enc := json.NewEncoder(stdout)
	for _, h := range want {
		if err := enc.Encode(h); err != nil {
			return err
		}
	}
	pdb, err := openProjections(ctx, c, projections.DefaultLocation)
	if err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	defer pdb.Close()
	cp, err := pdb.Checkpoint(ctx, projections.Ratings)
	if err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	r := pdb.Reader(log)
	var got []projections.RatingHistoryRow
	for cursor := ""; ; {
		p, err := r.PlayerRatings(ctx, player, true, cursor, projections.MaxLimit)
		if err != nil {
			return fmt.Errorf("ratings of %s: %w", player, err)
		}
		got = append(got, p.History...)
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	n := 0
	for _, w := range want {
		if w.Position > cp {
			break
		}
		if n >= len(got) || !sameRatingRow(got[n], w) {
			return fmt.Errorf("ratings of %s: the projection's history differs from the log's at hand %s (position %d)", player, w.HandID, w.Position)
		}
		n++
	}
	if n != len(got) {
		return fmt.Errorf("ratings of %s: the projection holds %d rated hands, the log %d up to its checkpoint %d", player, len(got), n, cp)
	}
	fmt.Fprintf(stdout, "ratings ok: %d rated hands of %s recomputed from the log, %d equal to the projection's to the last bit (checkpoint %d)\n", len(want), player, n, cp)
	return nil
}

// sameRatingRow compares two history rows, their floats by their bits.
func sameRatingRow(a, b projections.RatingHistoryRow) bool {
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	return a.Game == b.Game && a.Variant == b.Variant && a.HandID == b.HandID && a.Seat == b.Seat && a.Position == b.Position &&
		a.SettledAt.Equal(b.SettledAt) && a.IdleDays == b.IdleDays &&
		same(a.Before.Rating, b.Before.Rating) && same(a.Before.Deviation, b.Before.Deviation) &&
		same(a.After.Rating, b.After.Rating) && same(a.After.Deviation, b.After.Deviation)
}
