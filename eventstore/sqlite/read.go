package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"paiju/eventstore"
	"paiju/eventstore/internal/rowscan"
)

// scanner reads the rows both stores keep alike; this store keeps times as
// Unix nanoseconds.
var scanner = rowscan.Driver[int64, sql.NullInt64]{
	Time:     func(n int64) time.Time { return time.Unix(0, n).UTC() },
	NullTime: fromNanos,
	NoRows:   func(err error) bool { return errors.Is(err, sql.ErrNoRows) },
}

// readStmts are the prepared read queries (database/sql prepares them again
// on each pooled connection as needed).
type readStmts struct {
	load, readAll *sql.Stmt
	// tokenByHash authenticates every request that carries a token: parsed
	// at each call it cost as much CPU as the move's own queries.
	tokenByHash *sql.Stmt
	// lookupKey is asked before every command that carries an
	// Idempotency-Key.
	lookupKey *sql.Stmt
}

func (r *readStmts) prepare(ctx context.Context, db *sql.DB) error {
	var err error
	if r.load, err = db.PrepareContext(ctx, `SELECT `+rowscan.EventColumns+` FROM events WHERE stream = ? AND version > ? ORDER BY version`); err != nil {
		return fmt.Errorf("prepare load: %w", err)
	}
	if r.readAll, err = db.PrepareContext(ctx, `SELECT `+rowscan.EventColumns+` FROM events WHERE position > ? ORDER BY position LIMIT ?`); err != nil {
		r.load.Close()
		return fmt.Errorf("prepare read all: %w", err)
	}
	if r.tokenByHash, err = db.PrepareContext(ctx, tokenByHashQuery); err != nil {
		r.load.Close()
		r.readAll.Close()
		return fmt.Errorf("prepare token by hash: %w", err)
	}
	if r.lookupKey, err = db.PrepareContext(ctx, sqlLookupKey); err != nil {
		r.load.Close()
		r.readAll.Close()
		r.tokenByHash.Close()
		return fmt.Errorf("prepare idempotency lookup: %w", err)
	}
	return nil
}

func (r *readStmts) close() error {
	return errors.Join(r.load.Close(), r.readAll.Close(), r.tokenByHash.Close(), r.lookupKey.Close())
}

// Load implements eventstore.Log.
func (s *Store) Load(ctx context.Context, stream string, fromVersion int) ([]eventstore.Event, error) {
	rows, err := s.reads.load.QueryContext(ctx, stream, fromVersion)
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

// ReadAll implements eventstore.Log. limit must be positive.
func (s *Store) ReadAll(ctx context.Context, fromPosition int64, limit int) ([]eventstore.Event, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("read all from position %d: limit %d is not positive", fromPosition, limit)
	}
	rows, err := s.reads.readAll.QueryContext(ctx, fromPosition, limit)
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

// Head implements eventstore.Log.
func (s *Store) Head(ctx context.Context) (int64, string, error) {
	h, err := readHead(s.rdb.QueryRowContext(ctx, sqlHead))
	if err != nil {
		return 0, "", err
	}
	return h.pos, h.hash, nil
}

// Streams lists every stream id that has events, in byte order.
func (s *Store) Streams(ctx context.Context) ([]string, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT DISTINCT stream FROM events ORDER BY stream`)
	if err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	defer rows.Close()
	streams := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("list streams: %w", err)
		}
		streams = append(streams, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	return streams, nil
}

// LookupIdempotency returns the record of (scope, key), if an append stored it.
func (s *Store) LookupIdempotency(ctx context.Context, scope, key string) (eventstore.IdempotencyRecord, bool, error) {
	return scanner.Idempotency(s.reads.lookupKey.QueryRowContext(ctx, scope, key), scope, key)
}
