package sqlite

import (
	"paiju/projections"
	"paiju/projections/internal/rowscan"

	"context"
	"database/sql"
	"errors"
	"time"
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
	rows, err := d.db.QueryContext(ctx, `SELECT r.player_id, COALESCE(n.name, ''), SUM(r.delta), COUNT(*), SUM(r.delta > 0)
		FROM lb_results r LEFT JOIN lb_names n ON n.player_id = r.player_id
		WHERE r.game = ? AND (? = '' OR r.variant = ?) AND r.settled_at >= ? AND r.settled_at < ?
		GROUP BY r.player_id`, q.Game, q.Variant, q.Variant, from, to)
	if err != nil {
		return projections.Leaderboard{}, err
	}
	defer rows.Close()
	all, err := rowscan.LeaderboardRows(rows)
	if err != nil {
		return projections.Leaderboard{}, err
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
	err := d.db.QueryRowContext(ctx, `SELECT name FROM lb_names WHERE player_id = ?`, playerID).Scan(&p.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return projections.PlayerStats{}, projections.ErrNotFound
	}
	if err != nil {
		return projections.PlayerStats{}, err
	}
	rows, err := d.db.QueryContext(ctx, `SELECT game, score, hands, wins FROM lb_player_stats WHERE player_id = ? ORDER BY game`, playerID)
	if err != nil {
		return projections.PlayerStats{}, err
	}
	defer rows.Close()
	if p.Games, err = rowscan.GameStats(rows); err != nil {
		return projections.PlayerStats{}, err
	}
	return p, nil
}
