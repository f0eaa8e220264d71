package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"paiju/projections"
	"paiju/projections/internal/rowscan"
)

// Leaderboard ranks the players of a game by score (the sum of their
// settlement deltas in the period), ties broken by fewer hands, then player
// id, so that ranks are deterministic. The title goes by the row's score.
func (d *DB) Leaderboard(ctx context.Context, q projections.LeaderboardQuery) (projections.Leaderboard, error) {
	if q.Period == "" {
		q.Period = projections.PeriodAll
	}
	from, to, err := projections.PeriodBounds(q.Period, d.now(), d.loc)
	if err != nil {
		return projections.Leaderboard{}, err
	}
	limit, err := projections.ClampLimit(q.Limit)
	if err != nil {
		return projections.Leaderboard{}, err
	}
	after, err := projections.DecodeCursor(q.Cursor)
	if err != nil {
		return projections.Leaderboard{}, err
	}
	lb := projections.Leaderboard{Game: q.Game, Variant: q.Variant, Period: q.Period, TimeZone: d.loc.String(), Rows: []projections.Row{}}
	if q.Period != projections.PeriodAll {
		lb.From, lb.To = time.Unix(0, from).In(d.loc), time.Unix(0, to).In(d.loc)
	}
	rows, err := d.pool.Query(ctx, `SELECT r.player_id, COALESCE(n.name, ''), SUM(r.delta)::bigint, COUNT(*), COUNT(*) FILTER (WHERE r.delta > 0)
		FROM lb_results r LEFT JOIN lb_names n ON n.player_id = r.player_id
		WHERE r.game = $1 AND ($2 = '' OR r.variant = $2) AND r.settled_at >= $3 AND r.settled_at < $4
		GROUP BY r.player_id, n.name`, q.Game, q.Variant, from, to)
	if err != nil {
		return projections.Leaderboard{}, fmt.Errorf("leaderboard: %w", err)
	}
	defer rows.Close()
	all, err := rowscan.LeaderboardRows(rows)
	if err != nil {
		return projections.Leaderboard{}, fmt.Errorf("leaderboard: %w", err)
	}
	page, next, err := projections.RankPage(all, q.Around, after, limit)
	if err != nil {
		return projections.Leaderboard{}, err
	}
	lb.Rows = append(lb.Rows, page...)
	lb.Next = next
	return lb, nil
}

// Player returns a player's totals per game; ErrNotFound if the player has
// never been seated.
func (d *DB) Player(ctx context.Context, playerID string) (projections.PlayerStats, error) {
	p := projections.PlayerStats{PlayerID: playerID, Games: []projections.GameStats{}}
	err := d.pool.QueryRow(ctx, `SELECT name FROM lb_names WHERE player_id = $1`, playerID).Scan(&p.Name)
	if errors.Is(err, pgx.ErrNoRows) {
		return projections.PlayerStats{}, projections.ErrNotFound
	}
	if err != nil {
		return projections.PlayerStats{}, fmt.Errorf("player %s: %w", playerID, err)
	}
	// COLLATE "C": games in byte order, as SQLite orders them.
	rows, err := d.pool.Query(ctx, `SELECT game, SUM(delta)::bigint, COUNT(*), COUNT(*) FILTER (WHERE delta > 0)
		FROM lb_results WHERE player_id = $1 GROUP BY game ORDER BY game COLLATE "C"`, playerID)
	if err != nil {
		return projections.PlayerStats{}, fmt.Errorf("player %s: %w", playerID, err)
	}
	defer rows.Close()
	if p.Games, err = rowscan.GameStats(rows); err != nil {
		return projections.PlayerStats{}, fmt.Errorf("player %s: %w", playerID, err)
	}
	return p, nil
}
