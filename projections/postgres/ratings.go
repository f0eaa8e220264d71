package postgres

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"

	"paiju/eventstore"
	"paiju/projections"
)

// ---- ratings ----

// applyRatings folds the event into the batch's ratings fold
// (projections.RatingsFold, shared with projections/sqlite): a row the
// fold lacks is read at once on the transaction's connection, idle between
// the batch's load and its writes, so it sees what the batch's earlier
// transactions committed; finishRatings writes what the fold changed.
func (d *DB) applyRatings(ctx context.Context, tx *wtx, ev eventstore.Event) error {
	if tx.rt == nil {
		tx.rt = projections.NewRatingsFold(d.rater,
			func(stream string) (*projections.RatedTable, error) {
				var state string
				err := tx.tx.QueryRow(ctx, `SELECT state FROM rt_tables WHERE stream = $1`, stream).Scan(&state)
				if errors.Is(err, pgx.ErrNoRows) {
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
				err := tx.tx.QueryRow(ctx, `SELECT name, mu, sigma, hands, last_at FROM rt_ratings WHERE game = $1 AND variant = $2 AND player_id = $3`,
					k.Game, k.Variant, k.Player).Scan(&r.Name, &r.Rating.Mu, &r.Rating.Sigma, &r.Hands, &r.LastAt)
				if errors.Is(err, pgx.ErrNoRows) {
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

// finishRatings queues the writes of the rows the fold changed.
func finishRatings(tx *wtx) {
	f := tx.rt
	if f == nil {
		return
	}
	tx.rt = nil
	for _, s := range f.TablesChanged {
		tb := f.Table(s)
		if tb == nil {
			continue
		}
		js, err := json.Marshal(tb)
		if err != nil {
			panic(err) // maps of ints and strings always marshal
		}
		tx.exec(`INSERT INTO rt_tables (stream, state) VALUES ($1, $2) ON CONFLICT (stream) DO UPDATE SET state = excluded.state`, s, string(js))
	}
	for _, k := range f.RatingsChanged {
		r := f.Rating(k)
		tx.exec(`INSERT INTO rt_ratings (game, variant, player_id, name, mu, sigma, hands, last_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (game, variant, player_id) DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, hands = excluded.hands, last_at = excluded.last_at`,
			k.Game, k.Variant, k.Player, r.Name, r.Rating.Mu, r.Rating.Sigma, r.Hands, r.LastAt)
	}
	for _, h := range f.History {
		tx.exec(`INSERT INTO rt_history (player_id, position, game, variant, hand_id, seat, mu_before, sigma_before, idle_days, mu_after, sigma_after, settled_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
			h.Player, h.Position, h.Game, h.Variant, h.HandID, h.Seat, h.Before.Mu, h.Before.Sigma, h.IdleDays, h.After.Mu, h.After.Sigma, h.SettledAt)
	}
}
