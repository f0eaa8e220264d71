package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/projections"
	"paiju/projections/internal/rowscan"
)

// applyDirectory keeps the table directory: each table's kind, its seats as
// they are now, its settled hands and its status.
func applyDirectory(ctx context.Context, tx *wtx, ev eventstore.Event) error {
	tid, ok := projections.TableID(ev.Stream)
	if !ok {
		return nil
	}
	at := ev.RecordedAt.UTC().UnixNano()
	if ev.Type == "TableOpened" {
		o, err := decode[table.TableOpened](ev)
		if err != nil {
			return err
		}
		opts, err := compactJSON(o.Options)
		if err != nil {
			return err
		}
		clock := table.Pace(o.Clock, o.WaitBetweenHands)
		_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO td_tables
			(table_id, game, variant, stake, seats, options, clock, max_hands, rules_version, seated, hands, status, opened_position, created_at, updated_at, private, spectators)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?)`,
			tid, o.Game, o.Variant, o.Stake, o.Seats, opts, clock, o.MaxHands, o.RulesVersion, projections.StatusOpen, ev.Position, at, at, o.Private, projections.SpectatorsOf(o))
		if err != nil {
			return err
		}
		if tx.td == nil {
			tx.td = map[string]*tdTable{}
		}
		tx.td[tid] = &tdTable{known: true}
		return nil
	}
	t, err := tx.tdTableOf(ctx, tid)
	if err != nil {
		return err
	}
	if !t.known {
		return nil // a stream without TableOpened: not a table this directory knows
	}
	// updated_at is written once a batch, at its end (flush).
	t.touched, t.at = true, at
	switch ev.Type {
	case "PlayerSeated":
		p, err := decode[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		tx.tdSeat(tid, p.Seat, &tdSeat{p.PlayerID, p.Name, p.Bot})
		t.recount = true // at the batch's end (flush)
		return nil
	case "PlayerLeft":
		p, err := decode[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		tx.tdSeat(tid, p.Seat, nil)
		t.recount = true
		return nil
	case "PlayerEscaped":
		p, err := decode[table.PlayerEscaped](ev)
		if err != nil {
			return err
		}
		tx.tdSeat(tid, p.Seat, nil)
		t.recount = true
		return nil
	case "HandSettled":
		t.hands++ // at the batch's end (flush)
		return nil
	case "TableClosed":
		_, err := tx.ExecContext(ctx, `UPDATE td_tables SET status = ? WHERE table_id = ?`, projections.StatusClosed, tid)
		return err
	}
	return nil
}

// compactJSON is raw without insignificant space, "{}" when absent: the
// form quick play compares options in.
func compactJSON(raw json.RawMessage) (string, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return "{}", nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", fmt.Errorf("options: %w", err)
	}
	return b.String(), nil
}

// withSeats fills in the seats of ts.
func (d *DB) withSeats(ctx context.Context, ts []rowscan.Table) ([]projections.TableEntry, error) {
	if len(ts) == 0 {
		return []projections.TableEntry{}, nil
	}
	args := make([]any, len(ts))
	for i, t := range ts {
		args[i] = t.ID
	}
	rows, err := d.db.QueryContext(ctx, `SELECT `+rowscan.SeatColumns+` FROM td_seats WHERE table_id IN (?`+
		strings.Repeat(", ?", len(ts)-1)+`) ORDER BY table_id, seat`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return rowscan.Seats(rows, ts)
}

// statusArgs checks statuses and returns them as query arguments, open and
// running when none are given.
func statusArgs(statuses []string) ([]any, error) {
	if len(statuses) == 0 {
		statuses = []string{projections.StatusOpen, projections.StatusRunning}
	}
	args := make([]any, 0, 3)
	for _, s := range statuses {
		switch s {
		case projections.StatusOpen, projections.StatusRunning, projections.StatusClosed:
			args = append(args, s)
		default:
			return nil, fmt.Errorf("%w: status must be open, running or closed", projections.ErrBadQuery)
		}
	}
	return args, nil
}

func placeholders(n int) string { return "?" + strings.Repeat(", ?", n-1) }

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
	args, err := statusArgs(q.Statuses)
	if err != nil {
		return projections.TablePage{}, err
	}
	// A private table is found by its room code only, never listed.
	query := `SELECT ` + rowscan.TableColumns + ` FROM td_tables t WHERE t.private = 0 AND t.status IN (` + placeholders(len(args)) + `) AND t.opened_position < ?`
	args = append(args, before)
	if q.Game != "" {
		query += ` AND t.game = ?`
		args = append(args, q.Game)
	}
	if q.Variant != "" {
		query += ` AND t.variant = ?`
		args = append(args, q.Variant)
	}
	rows, err := d.db.QueryContext(ctx, query+` ORDER BY t.opened_position DESC LIMIT ?`, append(args, limit+1)...)
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
	args, err := statusArgs(statuses)
	if err != nil {
		return projections.TablePage{}, err
	}
	const rankExpr = `CASE t.status WHEN 'running' THEN 0 WHEN 'open' THEN 1 ELSE 2 END`
	query := `SELECT ` + rowscan.TableColumns + ` FROM td_seats s JOIN td_tables t ON t.table_id = s.table_id
		WHERE s.player_id = ? AND t.status IN (` + placeholders(len(args)) + `)`
	args = append([]any{playerID}, args...)
	if after {
		query += ` AND (` + rankExpr + ` > ? OR (` + rankExpr + ` = ? AND t.opened_position < ?))`
		args = append(args, rank, rank, pos)
	}
	rows, err := d.db.QueryContext(ctx, query+` ORDER BY `+rankExpr+`, t.opened_position DESC LIMIT ?`, append(args, limit+1)...)
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
// at which playerID holds no seat: the fullest first, so that quick play
// fills tables before it spreads players over them; among tables as full,
// the one whose seated humans' mean rating in the variant is closest to
// playerID's (a player not rated yet counting as new; a table of no human
// is at distance 0), then the oldest. The rating only orders tables quick
// play would choose between anyway: nobody waits longer for a game for it.
func (d *DB) OpenTables(ctx context.Context, k projections.QuickKind, playerID string, limit int) ([]string, error) {
	me := d.rater.Model.Mu
	err := d.db.QueryRowContext(ctx, `SELECT mu FROM rt_ratings WHERE game = ? AND variant = ? AND player_id = ?`, k.Game, k.Variant, playerID).Scan(&me)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("directory: open tables: rating: %w", err)
	}
	rows, err := d.db.QueryContext(ctx, `SELECT table_id FROM td_tables t
		WHERE t.status = 'open' AND t.private = 0 AND t.game = ?1 AND t.variant = ?2 AND t.stake = ?3
			AND t.options = ?4 AND t.clock = ?5 AND t.max_hands = 0 AND t.rules_version = ?6 AND t.spectators = ?7
			AND NOT EXISTS (SELECT 1 FROM td_seats s WHERE s.table_id = t.table_id AND s.player_id = ?8)
		ORDER BY t.seats - t.seated,
			abs(coalesce((SELECT avg(coalesce(r.mu, ?10)) FROM td_seats s
				LEFT JOIN rt_ratings r ON r.game = t.game AND r.variant = t.variant AND r.player_id = s.player_id
				WHERE s.table_id = t.table_id AND s.bot = 0), ?11) - ?11),
			t.opened_position LIMIT ?9`,
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
