package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"paiju/eventstore"
	"paiju/projections"
	"paiju/projections/internal/rowscan"
	"paiju/ratings"
)

// ---- ratings ----

// applyRatings folds the event into the batch's ratings fold
// (projections.RatingsFold, shared with projections/sqlite): a row the
// fold lacks is read at once on the transaction's connection, idle between
// the batch's load and its writes, so it sees what the batch's earlier
// transactions committed; finishRatings writes what the fold changed.
func (d *DB) applyRatings(ctx context.Context, tx *wtx, ev eventstore.Event) error {
	return d.ratingsFold(ctx, tx).Apply(ev)
}

// ratingsFold is the batch's ratings fold, made on first use.
func (d *DB) ratingsFold(ctx context.Context, tx *wtx) *projections.RatingsFold {
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
				return projections.DecodeRatedTable(state)
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
	return tx.rt
}

// prefetchRatings reads the rows the batch's events will need in two
// round trips, one for the tables and one for the ratings
// (projections.RatingsFold.Preload), instead of one a row.
func (d *DB) prefetchRatings(ctx context.Context, tx *wtx, events []eventstore.Event) error {
	return d.ratingsFold(ctx, tx).Preload(events, 0,
		func(streams []string) (map[string]*projections.RatedTable, error) {
			rows, err := tx.tx.Query(ctx, `SELECT stream, state FROM rt_tables WHERE stream = ANY($1)`, streams)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			return rowscan.RatedTables(rows, len(streams))
		},
		func(keys []projections.RatingKey) (map[projections.RatingKey]*projections.PlayerRating, error) {
			games, variants, players := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
			for i, k := range keys {
				games[i], variants[i], players[i] = k.Game, k.Variant, k.Player
			}
			rows, err := tx.tx.Query(ctx, `SELECT r.game, r.variant, r.player_id, r.name, r.mu, r.sigma, r.hands, r.last_at
				FROM unnest($1::text[], $2::text[], $3::text[]) AS k (game, variant, player_id)
				JOIN rt_ratings r ON r.game = k.game AND r.variant = k.variant AND r.player_id = k.player_id`, games, variants, players)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			out := make(map[projections.RatingKey]*projections.PlayerRating, len(keys))
			for rows.Next() {
				var r projections.PlayerRating
				if err := rows.Scan(&r.Game, &r.Variant, &r.Player, &r.Name, &r.Rating.Mu, &r.Rating.Sigma, &r.Hands, &r.LastAt); err != nil {
					return nil, err
				}
				out[r.RatingKey] = &r
			}
			return out, rows.Err()
		})
}

// finishRatings queues the writes of the rows the fold changed: a
// statement a table of the projection, its rows as arrays (unnest), so
// that a batch sends three statements however many hands it rates.
func finishRatings(tx *wtx) {
	f := tx.rt
	if f == nil {
		return
	}
	tx.rt = nil
	var streams, states []string
	for _, s := range f.TablesChanged {
		tb := f.Table(s)
		if tb == nil {
			continue
		}
		js, err := json.Marshal(tb)
		if err != nil {
			panic(err) // maps of ints and strings always marshal
		}
		streams, states = append(streams, s), append(states, string(js))
	}
	if len(streams) > 0 {
		tx.exec(`INSERT INTO rt_tables (stream, state) SELECT * FROM unnest($1::text[], $2::text[])
			ON CONFLICT (stream) DO UPDATE SET state = excluded.state`, streams, states)
	}
	if n := len(f.RatingsChanged); n > 0 {
		games, variants, players, names := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		mus, sigmas, hands, lasts := make([]float64, n), make([]float64, n), make([]int64, n), make([]int64, n)
		for i, k := range f.RatingsChanged {
			r := f.Rating(k)
			games[i], variants[i], players[i], names[i] = k.Game, k.Variant, k.Player, r.Name
			mus[i], sigmas[i], hands[i], lasts[i] = r.Rating.Mu, r.Rating.Sigma, int64(r.Hands), r.LastAt
		}
		tx.exec(`INSERT INTO rt_ratings (game, variant, player_id, name, mu, sigma, hands, last_at)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::int[], $8::bigint[])
			ON CONFLICT (game, variant, player_id) DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, hands = excluded.hands, last_at = excluded.last_at`,
			games, variants, players, names, mus, sigmas, hands, lasts)
	}
	if n := len(f.History); n > 0 {
		players, games, variants, handIDs := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		positions, seats, idle, settled := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		muB, sigmaB, muA, sigmaA := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i, h := range f.History {
			players[i], games[i], variants[i], handIDs[i] = h.Player, h.Game, h.Variant, h.HandID
			positions[i], seats[i], idle[i], settled[i] = h.Position, int64(h.Seat), int64(h.IdleDays), h.SettledAt
			muB[i], sigmaB[i], muA[i], sigmaA[i] = h.Before.Mu, h.Before.Sigma, h.After.Mu, h.After.Sigma
		}
		tx.exec(`INSERT INTO rt_history (player_id, position, game, variant, hand_id, seat, mu_before, sigma_before, idle_days, mu_after, sigma_after, settled_at)
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::int[], $7::float8[], $8::float8[], $9::int[], $10::float8[], $11::float8[], $12::bigint[])
			ON CONFLICT DO NOTHING`,
			players, positions, games, variants, handIDs, seats, muB, sigmaB, idle, muA, sigmaA, settled)
	}
}

// RatingBoard ranks the rated players of a game (projections.RankRatings);
// with a period, the players rated in it, at their current rating.
func (d *DB) RatingBoard(ctx context.Context, q projections.RatingQuery) (projections.RatingBoard, error) {
	b, from, to, limit, after, err := projections.RatingBoardBounds(q, d.now(), d.loc)
	if err != nil {
		return projections.RatingBoard{}, err
	}
	rows, err := d.pool.Query(ctx, `SELECT r.player_id, r.name, r.variant, r.mu, r.sigma, r.hands FROM rt_ratings r
		WHERE r.game = $1 AND ($2 = '' OR r.variant = $2) AND ($3 = 'all' OR EXISTS (SELECT 1 FROM rt_history h
			WHERE h.player_id = r.player_id AND h.game = r.game AND h.variant = r.variant AND h.settled_at >= $4 AND h.settled_at < $5))`,
		q.Game, q.Variant, b.Period, from, to)
	if err != nil {
		return projections.RatingBoard{}, err
	}
	defer rows.Close()
	var all []projections.RatingRow
	for rows.Next() {
		var r projections.RatingRow
		if err := rows.Scan(&r.PlayerID, &r.Name, &r.Variant, &r.Rating, &r.Deviation, &r.Hands); err != nil {
			return projections.RatingBoard{}, err
		}
		all = append(all, r)
	}
	if err := rows.Err(); err != nil {
		return projections.RatingBoard{}, err
	}
	page, next, err := projections.RankRatings(d.rater.Model, all, q.Around, after, limit)
	if err != nil {
		return projections.RatingBoard{}, err
	}
	b.Rows = append(b.Rows, page...)
	b.Next = next
	return b, nil
}

// CurrentRatings returns the current ratings in game and variant of those
// of players who have one.
func (d *DB) CurrentRatings(ctx context.Context, game, variant string, players []string) (map[string]projections.CurrentRating, error) {
	out := map[string]projections.CurrentRating{}
	for _, p := range players {
		var c projections.CurrentRating
		var last int64
		err := d.pool.QueryRow(ctx, `SELECT mu, sigma, hands, last_at FROM rt_ratings WHERE game = $1 AND variant = $2 AND player_id = $3`, game, variant, p).
			Scan(&c.Rating, &c.Deviation, &c.Hands, &last)
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		c.Game, c.Variant, c.LastPlayed = game, variant, time.Unix(0, last).UTC()
		c.Provisional = d.rater.Model.Provisional(ratings.Rating{Mu: c.Rating, Sigma: c.Deviation})
		out[p] = c
	}
	return out, nil
}

// PlayerRatings returns a player's current ratings, by game and variant,
// and with history a page of limit rows of their rating history after
// the cursor, oldest first.
func (d *DB) PlayerRatings(ctx context.Context, playerID string, history bool, cursor string, limit int) (projections.PlayerRatings, error) {
	pr := projections.PlayerRatings{PlayerID: playerID, Ratings: []projections.CurrentRating{}}
	limit, err := projections.ClampLimit(limit)
	if err != nil {
		return pr, err
	}
	after, err := projections.DecodeCursor(cursor)
	if err != nil {
		return pr, err
	}
	rows, err := d.pool.Query(ctx, `SELECT game, variant, mu, sigma, hands, last_at FROM rt_ratings WHERE player_id = $1`, playerID)
	if err != nil {
		return pr, err
	}
	defer rows.Close()
	for rows.Next() {
		var c projections.CurrentRating
		var last int64
		if err := rows.Scan(&c.Game, &c.Variant, &c.Rating, &c.Deviation, &c.Hands, &last); err != nil {
			return pr, err
		}
		c.LastPlayed = time.Unix(0, last).UTC()
		c.Provisional = d.rater.Model.Provisional(ratings.Rating{Mu: c.Rating, Sigma: c.Deviation})
		pr.Ratings = append(pr.Ratings, c)
	}
	if err := rows.Err(); err != nil {
		return pr, err
	}
	rows.Close()
	// Ordered here, not in SQL: Go's byte order whatever the collation.
	slices.SortFunc(pr.Ratings, func(a, b projections.CurrentRating) int {
		return cmp.Or(strings.Compare(a.Game, b.Game), strings.Compare(a.Variant, b.Variant))
	})
	if !history {
		return pr, nil
	}
	pr.History = []projections.RatingHistoryRow{}
	hrows, err := d.pool.Query(ctx, `SELECT game, variant, hand_id, seat, position, settled_at, idle_days, mu_before, sigma_before, mu_after, sigma_after
		FROM rt_history WHERE player_id = $1 AND position > $2 ORDER BY position LIMIT $3`, playerID, after, limit+1)
	if err != nil {
		return pr, err
	}
	defer hrows.Close()
	for hrows.Next() {
		var h projections.RatingHistoryRow
		var at int64
		if err := hrows.Scan(&h.Game, &h.Variant, &h.HandID, &h.Seat, &h.Position, &at, &h.IdleDays, &h.Before.Rating, &h.Before.Deviation, &h.After.Rating, &h.After.Deviation); err != nil {
			return pr, err
		}
		h.SettledAt = time.Unix(0, at).UTC()
		pr.History = append(pr.History, h)
	}
	if err := hrows.Err(); err != nil {
		return pr, err
	}
	if len(pr.History) > limit {
		pr.History = pr.History[:limit]
		pr.Next = projections.EncodeCursor(pr.History[limit-1].Position)
	}
	return pr, nil
}
