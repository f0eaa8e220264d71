package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"paiju/eventstore"
	"paiju/projections"
	"paiju/projections/internal/rowscan"
	"paiju/ratings"
)

// applyRatings folds the event into the batch's ratings fold
// (projections.RatingsFold, shared with projections/postgres), which
// reads the rows it needs from tx; flushRatings writes what it changed.
func (d *DB) applyRatings(ctx context.Context, tx *wtx, ev eventstore.Event) error {
	return d.ratingsFold(ctx, tx).Apply(ev)
}

// ratingsFold is the batch's ratings fold, made on first use.
func (d *DB) ratingsFold(ctx context.Context, tx *wtx) *projections.RatingsFold {
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
				return projections.DecodeRatedTable(state)
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
	return tx.rt
}

// prefetchRatings reads the rows the batch's events after cp will need,
// a query for the tables and one for the ratings
// (projections.RatingsFold.Preload).
func (d *DB) prefetchRatings(ctx context.Context, tx *wtx, events []eventstore.Event, cp int64) error {
	return d.ratingsFold(ctx, tx).Preload(events, cp,
		func(streams []string) (map[string]*projections.RatedTable, error) {
			list, err := json.Marshal(streams)
			if err != nil {
				return nil, err
			}
			rows, err := tx.QueryContext(ctx, `SELECT stream, state FROM rt_tables WHERE stream IN (SELECT value FROM json_each(?))`, string(list))
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			return rowscan.RatedTables(rows, len(streams))
		},
		func(keys []projections.RatingKey) (map[projections.RatingKey]*projections.PlayerRating, error) {
			// By player, on rt_ratings_player: a player's few other ratings
			// are read and left, where matching the three values of each
			// key from a JSON list was most of the query's cost.
			want := make(map[projections.RatingKey]bool, len(keys))
			players := make([]string, 0, len(keys))
			seen := make(map[string]bool, len(keys))
			for _, k := range keys {
				want[k] = true
				if !seen[k.Player] {
					seen[k.Player] = true
					players = append(players, k.Player)
				}
			}
			list, err := json.Marshal(players)
			if err != nil {
				return nil, err
			}
			rows, err := tx.QueryContext(ctx, `SELECT game, variant, player_id, name, mu, sigma, hands, last_at
				FROM rt_ratings WHERE player_id IN (SELECT value FROM json_each(?))`, string(list))
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
				if want[r.RatingKey] {
					out[r.RatingKey] = &r
				}
			}
			return out, rows.Err()
		})
}

// flushRatings writes the rows the batch's ratings fold changed, a
// statement of many rows a table.
func (t *wtx) flushRatings(ctx context.Context) error {
	f := t.rt
	if f == nil {
		return nil
	}
	t.rt = nil
	var tables, rs, hs []any
	for _, s := range f.TablesChanged {
		tb := f.Table(s)
		if tb == nil {
			continue
		}
		js, err := json.Marshal(tb)
		if err != nil {
			return err
		}
		tables = append(tables, s, string(js))
	}
	for _, k := range f.RatingsChanged {
		r := f.Rating(k)
		rs = append(rs, k.Game, k.Variant, k.Player, r.Name, r.Rating.Mu, r.Rating.Sigma, r.Hands, r.LastAt)
	}
	// A hand's rows follow one another in History: its game, variant, ID
	// and time are written once, in rt_hands.
	var hands []any
	var last int64
	for _, h := range f.History {
		if len(hands) == 0 || h.Position != last {
			hands = append(hands, h.Position, h.Game, h.Variant, h.HandID, h.SettledAt)
			last = h.Position
		}
		hs = append(hs, h.Player, h.Position, h.Seat, h.Before.Mu, h.Before.Sigma, h.IdleDays, h.After.Mu, h.After.Sigma)
	}
	if err := t.insertRows(ctx, `INSERT OR REPLACE INTO rt_tables (stream, state) VALUES `, 2, tables); err != nil {
		return fmt.Errorf("rating tables: %w", err)
	}
	if err := t.insertRows(ctx, `INSERT OR REPLACE INTO rt_ratings (game, variant, player_id, name, mu, sigma, hands, last_at) VALUES `, 8, rs); err != nil {
		return fmt.Errorf("ratings: %w", err)
	}
	if err := t.insertRows(ctx, `INSERT OR IGNORE INTO rt_hands (position, game, variant, hand_id, settled_at) VALUES `, 5, hands); err != nil {
		return fmt.Errorf("rated hands: %w", err)
	}
	if err := t.insertRows(ctx, `INSERT OR IGNORE INTO rt_player_hands (player_id, position, seat, mu_before, sigma_before, idle_days, mu_after, sigma_after) VALUES `, 8, hs); err != nil {
		return fmt.Errorf("rating history: %w", err)
	}
	return nil
}

// RatingBoard ranks the rated players of a game (projections.RankRatings);
// with a period, the players rated in it, at their current rating.
func (d *DB) RatingBoard(ctx context.Context, q projections.RatingQuery) (projections.RatingBoard, error) {
	b, from, to, limit, after, err := projections.RatingBoardBounds(q, d.now(), d.loc)
	if err != nil {
		return projections.RatingBoard{}, err
	}
	rows, err := d.db.QueryContext(ctx, `SELECT r.player_id, r.name, r.variant, r.mu, r.sigma, r.hands FROM rt_ratings r
		WHERE r.game = ?1 AND (?2 = '' OR r.variant = ?2) AND (?3 = 'all' OR EXISTS (SELECT 1 FROM rt_player_hands p JOIN rt_hands h ON h.position = p.position
			WHERE p.player_id = r.player_id AND h.game = r.game AND h.variant = r.variant AND h.settled_at >= ?4 AND h.settled_at < ?5))`,
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
		err := d.db.QueryRowContext(ctx, `SELECT mu, sigma, hands, last_at FROM rt_ratings WHERE game = ?1 AND variant = ?2 AND player_id = ?3`, game, variant, p).
			Scan(&c.Rating, &c.Deviation, &c.Hands, &last)
		if errors.Is(err, sql.ErrNoRows) {
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
	rows, err := d.db.QueryContext(ctx, `SELECT game, variant, mu, sigma, hands, last_at FROM rt_ratings WHERE player_id = ?1`, playerID)
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
	hrows, err := d.db.QueryContext(ctx, `SELECT h.game, h.variant, h.hand_id, p.seat, p.position, h.settled_at, p.idle_days, p.mu_before, p.sigma_before, p.mu_after, p.sigma_after
		FROM rt_player_hands p JOIN rt_hands h ON h.position = p.position
		WHERE p.player_id = ?1 AND p.position > ?2 ORDER BY p.position LIMIT ?3`, playerID, after, limit+1)
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
