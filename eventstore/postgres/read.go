package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"paiju/eventstore"
	"paiju/eventstore/internal/rowscan"
)

// scanner reads the rows both stores keep alike; this store keeps times as
// timestamptz, read in UTC.
var scanner = rowscan.Driver[time.Time, *time.Time]{
	Time:     time.Time.UTC,
	NullTime: fromNull,
	NoRows:   noRows,
}

// Load implements eventstore.Log.
func (s *Store) Load(ctx context.Context, stream string, fromVersion int) ([]eventstore.Event, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+rowscan.EventColumns+` FROM events WHERE stream = $1 AND version > $2 ORDER BY version`, stream, fromVersion)
	if err != nil {
		return nil, fmt.Errorf("load %s from version %d: %w", stream, fromVersion, err)
	}
	defer rows.Close()
	events, err := scanner.Events(rows)
	if err != nil {
		return nil, fmt.Errorf("load %s from version %d: %w", stream, fromVersion, err)
	}
	return events, nil
}

// ReadAll implements eventstore.Log. limit must be positive. Commits
// become visible in position order (see the package doc), so a page never
// skips an event that a later read would find.
func (s *Store) ReadAll(ctx context.Context, fromPosition int64, limit int) ([]eventstore.Event, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("read all from position %d: limit %d is not positive", fromPosition, limit)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+rowscan.EventColumns+` FROM events WHERE position > $1 ORDER BY position LIMIT $2`, fromPosition, limit)
	if err != nil {
		return nil, fmt.Errorf("read all from position %d: %w", fromPosition, err)
	}
	defer rows.Close()
	events, err := scanner.Events(rows)
	if err != nil {
		return nil, fmt.Errorf("read all from position %d: %w", fromPosition, err)
	}
	return events, nil
}

// Head implements eventstore.Log: the chain head row, written in the
// transaction of every append.
func (s *Store) Head(ctx context.Context) (int64, string, error) {
	var h chainHead
	if err := s.pool.QueryRow(ctx, sqlHead).Scan(&h.pos, &h.hash); err != nil {
		return 0, "", fmt.Errorf("read chain head: %w", err)
	}
	return h.pos, h.hash, nil
}

// Streams lists every stream id that has events, in byte order.
func (s *Store) Streams(ctx context.Context) ([]string, error) {
	// COLLATE "C": byte order, as the SQLite store lists them, whatever the
	// database's collation.
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT stream COLLATE "C" AS stream FROM events ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	streams, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	if streams == nil {
		streams = []string{}
	}
	return streams, nil
}

// LookupIdempotency returns the record of (scope, key), if an append stored it.
func (s *Store) LookupIdempotency(ctx context.Context, scope, key string) (eventstore.IdempotencyRecord, bool, error) {
	return scanner.Idempotency(s.pool.QueryRow(ctx, `SELECT `+rowscan.IdempotencyColumns+` FROM idempotency WHERE scope = $1 AND key = $2`, scope, key), scope, key)
}

// Checkpoint returns the position a reader of the log (the NATS relay) has
// processed up to, 0 if it has none.
func (s *Store) Checkpoint(ctx context.Context, name string) (int64, error) {
	var pos int64
	err := s.pool.QueryRow(ctx, `SELECT position FROM checkpoints WHERE name = $1`, name).Scan(&pos)
	if noRows(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("checkpoint %s: %w", name, err)
	}
	return pos, nil
}

// SetCheckpoint records pos for the consumer name. It may move backwards: a
// consumer started over resets its checkpoint to 0.
func (s *Store) SetCheckpoint(ctx context.Context, name string, pos int64) error {
	if name == "" || pos < 0 {
		return fmt.Errorf("set checkpoint %q to %d: want a name and a position >= 0", name, pos)
	}
	_, err := s.pool.Exec(ctx,
		`INSERT INTO checkpoints (name, position) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET position = excluded.position`,
		name, pos)
	if err != nil {
		return fmt.Errorf("set checkpoint %s to %d: %w", name, pos, err)
	}
	return nil
}
