package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"paiju/eventstore"
	"paiju/projections"
)

// applyRatings folds the event into the batch's ratings fold
// (projections.RatingsFold, shared with projections/postgres), which
// reads the rows it needs from tx; flushRatings writes what it changed.
func (d *DB) applyRatings(ctx context.Context, tx *wtx, ev eventstore.Event) error {
	if tx.rt == nil {
		tx.rt = projections.NewRatingsFold(d.rater,
			func(stream string) (*projections.RatedTable, error) {
				var state string
				err := tx.QueryRowContext(ctx, `SELECT state FROM rt_tables WHERE stream = ?`, stream).Scan(&state)
				if errors.Is(err, sql.ErrNoRows) {
					return nil, nil
				}
				if err != nil {
					return nil, err
				}
				var t projections.RatedTable
				if err := json.Unmarshal([]byte(state), &t); err != nil {
					return nil, err
				}
				if t.Seats == nil {
					t.Seats = map[int]projections.RatedSeat{}
				}
				return &t, nil
			},
			func(k projections.RatingKey) (*projections.PlayerRating, error) {
				r := projections.PlayerRating{RatingKey: k}
				err := tx.QueryRowContext(ctx, `SELECT name, mu, sigma, hands, last_at FROM rt_ratings WHERE game = ? AND variant = ? AND player_id = ?`,
					k.Game, k.Variant, k.Player).Scan(&r.Name, &r.Rating.Mu, &r.Rating.Sigma, &r.Hands, &r.LastAt)
				if errors.Is(err, sql.ErrNoRows) {
					return nil, nil
				}
				if err != nil {
					return nil, err
				}
				return &r, nil
			})
	}
	return tx.rt.Apply(ev)
}

// flushRatings writes the rows the batch's ratings fold changed.
func (t *wtx) flushRatings(ctx context.Context) error {
	f := t.rt
	if f == nil {
		return nil
	}
	t.rt = nil
	for _, s := range f.TablesChanged {
		tb := f.Table(s)
		if tb == nil {
			continue
		}
		js, err := json.Marshal(tb)
		if err != nil {
			return err
		}
		if _, err := t.ExecContext(ctx, `INSERT OR REPLACE INTO rt_tables (stream, state) VALUES (?, ?)`, s, string(js)); err != nil {
			return fmt.Errorf("rating tables: %w", err)
		}
	}
	for _, k := range f.RatingsChanged {
		r := f.Rating(k)
		if _, err := t.ExecContext(ctx, `INSERT OR REPLACE INTO rt_ratings (game, variant, player_id, name, mu, sigma, hands, last_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			k.Game, k.Variant, k.Player, r.Name, r.Rating.Mu, r.Rating.Sigma, r.Hands, r.LastAt); err != nil {
			return fmt.Errorf("ratings: %w", err)
		}
	}
	for _, h := range f.History {
		if _, err := t.ExecContext(ctx, `INSERT OR REPLACE INTO rt_history (player_id, position, game, variant, hand_id, seat, mu_before, sigma_before, idle_days, mu_after, sigma_after, settled_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			h.Player, h.Position, h.Game, h.Variant, h.HandID, h.Seat, h.Before.Mu, h.Before.Sigma, h.IdleDays, h.After.Mu, h.After.Sigma, h.SettledAt); err != nil {
			return fmt.Errorf("rating history: %w", err)
		}
	}
	return nil
}
