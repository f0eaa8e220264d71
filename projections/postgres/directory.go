package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/jackc/pgx/v5"

	"paiju/projections"
	"paiju/projections/internal/rowscan"
)

// withSeats fills in the seats of ts.
func (d *DB) withSeats(ctx context.Context, ts []rowscan.Table) ([]projections.TableEntry, error) {
	if len(ts) == 0 {
		return []projections.TableEntry{}, nil
	}
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	rows, err := d.pool.Query(ctx, `SELECT `+rowscan.SeatColumns+` FROM td_seats WHERE table_id = ANY($1) ORDER BY table_id, seat`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return rowscan.Seats(rows, ts)
}

// statusList checks statuses, open and running when none are given.
func statusList(statuses []string) ([]string, error) {
	if len(statuses) == 0 {
		return []string{projections.StatusOpen, projections.StatusRunning}, nil
	}
	for _, s := range statuses {
		switch s {
		case projections.StatusOpen, projections.StatusRunning, projections.StatusClosed:
		default:
			return nil, fmt.Errorf("%w: status must be open, running or closed", projections.ErrBadQuery)
		}
	}
	return statuses, nil
}

// Tables lists the lobby: tables of the query's statuses (open and running
// by default), game and variant, newest first.
func (d *DB) Tables(ctx context.Context, q projections.TableQuery) (projections.TablePage, error) {
	before, err := projections.DecodeCursor(q.Cursor)
	if err != nil {
		return projections.TablePage{}, err
	}
	if before == 0 {
		before = math.MaxInt64
	}
	limit, err := projections.ClampLimit(q.Limit)
	if err != nil {
		return projections.TablePage{}, err
	}
	statuses, err := statusList(q.Statuses)
	if err != nil {
		return projections.TablePage{}, err
	}
	// A private table is found by its room code only, never listed.
	query := `SELECT ` + rowscan.TableColumns + ` FROM td_tables t WHERE NOT t.private AND t.status = ANY($1) AND t.opened_position < $2`
	args := []any{statuses, before}
	if q.Game != "" {
		args = append(args, q.Game)
		query += ` AND t.game = $` + strconv.Itoa(len(args))
	}
	if q.Variant != "" {
		args = append(args, q.Variant)
		query += ` AND t.variant = $` + strconv.Itoa(len(args))
	}
	args = append(args, limit+1)
	rows, err := d.pool.Query(ctx, query+` ORDER BY t.opened_position DESC LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return projections.TablePage{}, fmt.Errorf("directory: %w", err)
	}
	defer rows.Close()
	ts, err := rowscan.Tables(rows)
	if err != nil {
		return projections.TablePage{}, fmt.Errorf("directory: %w", err)
	}
	var next string
	if len(ts) > limit {
		ts = ts[:limit]
		next = projections.EncodeCursor(ts[limit-1].Opened)
	}
	entries, err := d.withSeats(ctx, ts)
	if err != nil {
		return projections.TablePage{}, fmt.Errorf("directory: seats: %w", err)
	}
	return projections.TablePage{Tables: entries, Next: next}, nil
}

// PlayerTables lists the tables where playerID holds a seat now, of the
// given statuses (open and running by default): running first, then open,
// then closed, newest first within each.
func (d *DB) PlayerTables(ctx context.Context, playerID string, statuses []string, cursor string, limit int) (projections.TablePage, error) {
	rank, pos, after, err := projections.DecodeRankCursor(cursor)
	if err != nil {
		return projections.TablePage{}, err
	}
	if limit, err = projections.ClampLimit(limit); err != nil {
		return projections.TablePage{}, err
	}
	statuses, err = statusList(statuses)
	if err != nil {
		return projections.TablePage{}, err
	}
	const rankExpr = `CASE t.status WHEN 'running' THEN 0 WHEN 'open' THEN 1 ELSE 2 END`
	query := `SELECT ` + rowscan.TableColumns + ` FROM td_seats s JOIN td_tables t ON t.table_id = s.table_id
		WHERE s.player_id = $1 AND t.status = ANY($2)`
	args := []any{playerID, statuses}
	if after {
		query += ` AND (` + rankExpr + ` > $3 OR (` + rankExpr + ` = $3 AND t.opened_position < $4))`
		args = append(args, rank, pos)
	}
	args = append(args, limit+1)
	rows, err := d.pool.Query(ctx, query+` ORDER BY `+rankExpr+`, t.opened_position DESC LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return projections.TablePage{}, fmt.Errorf("directory: %w", err)
	}
	defer rows.Close()
	ts, err := rowscan.Tables(rows)
	if err != nil {
		return projections.TablePage{}, fmt.Errorf("directory: %w", err)
	}
	var next string
	if len(ts) > limit {
		ts = ts[:limit]
		last := ts[limit-1]
		next = projections.EncodeRankCursor(projections.StatusRank(last.Status), last.Opened)
	}
	entries, err := d.withSeats(ctx, ts)
	if err != nil {
		return projections.TablePage{}, fmt.Errorf("directory: seats: %w", err)
	}
	return projections.TablePage{Tables: entries, Next: next}, nil
}

// OpenTables lists up to limit open tables of kind k, without a turn limit,
// at which playerID holds no seat: the fullest first, then the oldest, so
// that quick play fills tables before it spreads players over them.
func (d *DB) OpenTables(ctx context.Context, k projections.QuickKind, playerID string, limit int) ([]string, error) {
	me := d.rater.Model.Mu
	err := d.pool.QueryRow(ctx, `SELECT mu FROM rt_ratings WHERE game = $1 AND variant = $2 AND player_id = $3`, k.Game, k.Variant, playerID).Scan(&me)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("directory: open tables: rating: %w", err)
	}
	rows, err := d.pool.Query(ctx, `SELECT table_id FROM td_tables t
		WHERE t.status = 'open' AND NOT t.private AND t.game = $1 AND t.variant = $2 AND t.stake = $3
			AND t.options = $4 AND t.clock = $5 AND t.max_hands = 0 AND t.rules_version = $6 AND t.spectators = $7
			AND NOT EXISTS (SELECT 1 FROM td_seats s WHERE s.table_id = t.table_id AND s.player_id = $8)
		ORDER BY t.seats - t.seated,
			abs(coalesce((SELECT avg(coalesce(r.mu, $10::double precision)) FROM td_seats s
				LEFT JOIN rt_ratings r ON r.game = t.game AND r.variant = t.variant AND r.player_id = s.player_id
				WHERE s.table_id = t.table_id AND NOT s.bot), $11::double precision) - $11::double precision),
			t.opened_position LIMIT $9`,
		k.Game, k.Variant, k.Stake, k.Options, k.Clock, k.RulesVersion, k.Spectators, playerID, limit, d.rater.Model.Mu, me)
	if err != nil {
		return nil, fmt.Errorf("directory: open tables: %w", err)
	}
	defer rows.Close()
	ids, err := rowscan.Strings(rows)
	if err != nil {
		return nil, fmt.Errorf("directory: open tables: %w", err)
	}
	return ids, nil
}
