package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"paiju/audit"
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
func sameRatingRow(a, b projections.RatingHistoryRow) bool { return projections.SameHistoryRow(a, b) }

// verifyExportRatings checks the rating histories in the files histories
// against the export (already verified) in file: each settled hand of the
// export that a history names is rated again with the ratings projection's
// fold from the ratings before it that the histories give, and the ratings
// after it must equal the histories' to the last bit (docs/AUDIT.md,
// Ratings: an export and players' histories).
func verifyExportRatings(name string, file []byte, histories []string, stdout io.Writer) error {
	x, err := audit.ReadExport(bytes.NewReader(file))
	if err != nil {
		return err
	}
	byPlayer := projections.NewRatingHistories()
	for _, h := range histories {
		b, err := os.ReadFile(h)
		if err != nil {
			return fmt.Errorf("ratings: %w", err)
		}
		if err := byPlayer.ReadNamed(h, bytes.NewReader(b)); err != nil {
			return fmt.Errorf("ratings: %s: %w", h, err)
		}
	}
	// Pages given of one history must join: one left out between two is
	// an error, not a gap the check passes over.
	if err := byPlayer.Joins(); err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	rep, err := projections.CheckExportRatings(Rater(), x.Events, byPlayer)
	var f *projections.RatingFault
	if errors.As(err, &f) {
		fmt.Fprintf(stdout, "FAULT %s: ratings: %v\n", name, err)
		return fmt.Errorf("%s: the rating history of %s differs from the export at hand %s (%w)", name, f.Player, f.HandID, audit.ErrFault)
	}
	if err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	for _, hid := range slices.Sorted(maps.Keys(rep.Unverifiable)) {
		fmt.Fprintf(stdout, "unverifiable hand %s: no rating history given for %s\n", hid, strings.Join(rep.Unverifiable[hid], ", "))
	}
	fmt.Fprintf(stdout, "ratings ok: %d hands checked of %d settled (%d unverifiable), %d rating changes equal to the histories to the last bit, players covered: %d (%s)\n",
		len(rep.Checked), rep.Settled, len(rep.Unverifiable), rep.Rows, len(rep.Players), strings.Join(rep.Players, ", "))
	return nil
}
