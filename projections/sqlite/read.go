package sqlite

import (
	"paiju/projections"
	"paiju/projections/internal/rowscan"

	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// Hand returns the record of a finished hand; ErrHandInProgress for a hand
// still being played (its record would show hidden cards), ErrNotFound for
// an unknown one.
func (d *DB) Hand(ctx context.Context, handID string) (projections.Hand, error) {
	var h projections.Hand
	var seats string
	var started int64
	var settled, settledPos sql.NullInt64
	var deltas sql.NullString
	err := d.db.QueryRowContext(ctx, `SELECT hand_id, table_id, hand, game, variant, seats, started_at, settled_at, settled_position, deltas
		FROM hh_hands WHERE hand_id = ?`, handID).Scan(&h.HandID, &h.TableID, &h.Hand, &h.Game, &h.Variant, &seats, &started, &settled, &settledPos, &deltas)
	if errors.Is(err, sql.ErrNoRows) {
		return projections.Hand{}, projections.ErrNotFound
	}
	if err != nil {
		return projections.Hand{}, err
	}
	if !settled.Valid {
		return projections.Hand{}, projections.ErrHandInProgress
	}
	h.StartedAt = time.Unix(0, started).UTC()
	h.SettledAt = time.Unix(0, settled.Int64).UTC()
	h.SettledPosition = settledPos.Int64
	if err := json.Unmarshal([]byte(seats), &h.Seats); err != nil {
		return projections.Hand{}, err
	}
	if err := json.Unmarshal([]byte(deltas.String), &h.Deltas); err != nil {
		return projections.Hand{}, err
	}
	if h.Events, err = d.handEvents(ctx, handID); err != nil {
		return projections.Hand{}, err
	}
	h.Deals = []projections.Deal{}
	for _, e := range h.Events {
		if err := h.Note(e); err != nil {
			return projections.Hand{}, err
		}
	}
	return h, nil
}

// TableHands lists a table's finished hands in hand order.
func (d *DB) TableHands(ctx context.Context, tableID, cursor string, limit int) (projections.HandPage, error) {
	after, err := projections.DecodeCursor(cursor)
	if err != nil {
		return projections.HandPage{}, err
	}
	if limit, err = projections.ClampLimit(limit); err != nil {
		return projections.HandPage{}, err
	}
	rows, err := d.db.QueryContext(ctx, `SELECT hand_id, table_id, hand, game, variant, deltas, settled_at, settled_position
		FROM hh_hands WHERE table_id = ? AND settled_at IS NOT NULL AND hand > ? ORDER BY hand LIMIT ?`, tableID, after, limit+1)
	if err != nil {
		return projections.HandPage{}, err
	}
	defer rows.Close()
	p, err := rowscan.Summaries(rows, false)
	if err != nil {
		return projections.HandPage{}, err
	}
	if len(p.Hands) > limit {
		p.Hands = p.Hands[:limit]
		p.Next = projections.EncodeCursor(int64(p.Hands[limit-1].Hand))
	}
	return p, nil
}

// PlayerHands lists the finished hands a player held a seat in, in
// settlement order.
func (d *DB) PlayerHands(ctx context.Context, playerID, cursor string, limit int) (projections.HandPage, error) {
	after, err := projections.DecodeCursor(cursor)
	if err != nil {
		return projections.HandPage{}, err
	}
	if limit, err = projections.ClampLimit(limit); err != nil {
		return projections.HandPage{}, err
	}
	rows, err := d.db.QueryContext(ctx, `SELECT h.hand_id, h.table_id, h.hand, h.game, h.variant, h.deltas, h.settled_at, h.settled_position, p.seat, p.delta
		FROM hh_player_hands p JOIN hh_hands h ON h.hand_id = p.hand_id
		WHERE p.player_id = ? AND p.settled_position > ? ORDER BY p.settled_position, p.seat LIMIT ?`, playerID, after, limit+1)
	if err != nil {
		return projections.HandPage{}, err
	}
	defer rows.Close()
	p, err := rowscan.Summaries(rows, true)
	if err != nil {
		return projections.HandPage{}, err
	}
	if len(p.Hands) > limit {
		p.Hands = p.Hands[:limit]
		p.Next = projections.EncodeCursor(p.Hands[limit-1].SettledPosition)
	}
	return p, nil
}

// Reader is the read side the API uses: the projections with the log whose
// head their lag is measured against.
type Reader struct {
	*DB
	Log projections.Source
}

// DirectoryCaughtUp returns once the directory has applied every event the
// log held when it was called, or an error matching ErrLagging after
// timeout: a list read after it shows every seat taken before the call.
func (r Reader) DirectoryCaughtUp(ctx context.Context, timeout time.Duration) error {
	return r.DB.changes.CaughtUp(ctx, r.Log, r.DB.Checkpoint, []string{projections.Directory}, timeout)
}

// Status reports each projection's checkpoint and lag behind the log's head.
func (r Reader) Status(ctx context.Context) (projections.Status, error) {
	return projections.StatusOf(ctx, r.DB, r.Log)
}
