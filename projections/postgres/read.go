package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"paiju/projections"
	"paiju/projections/internal/rowscan"
)

// Hand returns the record of a finished hand; ErrHandInProgress for a hand
// still being played (its record would show hidden cards), ErrNotFound for
// an unknown one.
func (d *DB) Hand(ctx context.Context, handID string) (projections.Hand, error) {
	var h projections.Hand
	var seats string
	var started int64
	var settled, settledPos *int64
	var deltas *string
	err := d.pool.QueryRow(ctx, `SELECT hand_id, table_id, hand, game, variant, seats, started_at, settled_at, settled_position, deltas
		FROM hh_hands WHERE hand_id = $1`, handID).Scan(&h.HandID, &h.TableID, &h.Hand, &h.Game, &h.Variant, &seats, &started, &settled, &settledPos, &deltas)
	if errors.Is(err, pgx.ErrNoRows) {
		return projections.Hand{}, projections.ErrNotFound
	}
	if err != nil {
		return projections.Hand{}, fmt.Errorf("hand %s: %w", handID, err)
	}
	if settled == nil {
		return projections.Hand{}, projections.ErrHandInProgress
	}
	h.StartedAt = time.Unix(0, started).UTC()
	h.SettledAt = time.Unix(0, *settled).UTC()
	if settledPos != nil {
		h.SettledPosition = *settledPos
	}
	if err := json.Unmarshal([]byte(seats), &h.Seats); err != nil {
		return projections.Hand{}, fmt.Errorf("hand %s: seats: %w", handID, err)
	}
	if deltas != nil {
		if err := json.Unmarshal([]byte(*deltas), &h.Deltas); err != nil {
			return projections.Hand{}, fmt.Errorf("hand %s: deltas: %w", handID, err)
		}
	}
	rows, err := d.pool.Query(ctx, `SELECT position, version, type, data, recorded_at FROM hh_hand_events WHERE hand_id = $1 ORDER BY position`, handID)
	if err != nil {
		return projections.Hand{}, fmt.Errorf("hand %s: events: %w", handID, err)
	}
	defer rows.Close()
	h.Events = []projections.HandEvent{}
	h.Deals = []projections.Deal{}
	for rows.Next() {
		var e projections.HandEvent
		var data string
		var at int64
		if err := rows.Scan(&e.Position, &e.Version, &e.Type, &data, &at); err != nil {
			return projections.Hand{}, fmt.Errorf("hand %s: events: %w", handID, err)
		}
		e.Data = json.RawMessage(data)
		e.RecordedAt = time.Unix(0, at).UTC()
		h.Events = append(h.Events, e)
		if err := h.Note(e); err != nil {
			return projections.Hand{}, fmt.Errorf("hand %s: event %d: %w", handID, e.Position, err)
		}
	}
	return h, rows.Err()
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
	rows, err := d.pool.Query(ctx, `SELECT hand_id, table_id, hand, game, variant, deltas, settled_at, settled_position
		FROM hh_hands WHERE table_id = $1 AND settled_at IS NOT NULL AND hand > $2 ORDER BY hand LIMIT $3`, tableID, after, limit+1)
	if err != nil {
		return projections.HandPage{}, fmt.Errorf("table hands: %w", err)
	}
	defer rows.Close()
	p, err := rowscan.Summaries(rows, false)
	if err != nil {
		return projections.HandPage{}, fmt.Errorf("table hands: %w", err)
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
	rows, err := d.pool.Query(ctx, `SELECT h.hand_id, h.table_id, h.hand, h.game, h.variant, h.deltas, h.settled_at, h.settled_position, p.seat, p.delta
		FROM hh_player_hands p JOIN hh_hands h ON h.hand_id = p.hand_id
		WHERE p.player_id = $1 AND p.settled_position > $2 ORDER BY p.settled_position, p.seat LIMIT $3`, playerID, after, limit+1)
	if err != nil {
		return projections.HandPage{}, fmt.Errorf("player hands: %w", err)
	}
	defer rows.Close()
	p, err := rowscan.Summaries(rows, true)
	if err != nil {
		return projections.HandPage{}, fmt.Errorf("player hands: %w", err)
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
