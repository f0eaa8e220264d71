package sqlite

import (
	"context"
	"fmt"
	"time"

	"paiju/eventstore"
	"paiju/eventstore/internal/rowscan"
)

// CreateRoom binds code to tableID. A code or table already bound is an
// error matching eventstore.ErrExists.
func (s *Store) CreateRoom(ctx context.Context, code, tableID string, at time.Time) error {
	_, err := s.wdb.ExecContext(ctx, `INSERT INTO rooms (code, table_id, created_at) VALUES (?, ?, ?)`, code, tableID, at.UTC().UnixNano())
	if isUniqueViolation(err) {
		return fmt.Errorf("create room for %s: %w", tableID, eventstore.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("create room for %s: %w", tableID, err)
	}
	return nil
}

// TakeOverRoom rebinds code from oldTable (closed) to newTable. If code is
// no longer oldTable's (another table took it over first), the error
// matches eventstore.ErrNotFound.
func (s *Store) TakeOverRoom(ctx context.Context, code, oldTable, newTable string, at time.Time) error {
	res, err := s.wdb.ExecContext(ctx, `UPDATE rooms SET table_id = ?, created_at = ? WHERE code = ? AND table_id = ?`, newTable, at.UTC().UnixNano(), code, oldTable)
	if isUniqueViolation(err) {
		return fmt.Errorf("take room over for %s: %w", newTable, eventstore.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("take room over for %s: %w", newTable, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err == nil {
			err = eventstore.ErrNotFound
		}
		return fmt.Errorf("take room over for %s: %w", newTable, err)
	}
	return nil
}

// ReleaseRoom unbinds code if tableID holds it; otherwise it does nothing.
func (s *Store) ReleaseRoom(ctx context.Context, code, tableID string) error {
	if _, err := s.wdb.ExecContext(ctx, `DELETE FROM rooms WHERE code = ? AND table_id = ?`, code, tableID); err != nil {
		return fmt.Errorf("release room of %s: %w", tableID, err)
	}
	return nil
}

// RoomByCode returns the room of code, or an error matching
// eventstore.ErrNotFound.
func (s *Store) RoomByCode(ctx context.Context, code string) (eventstore.Room, error) {
	r, err := s.room(ctx, `code = ?`, code)
	if err != nil {
		// A code is a secret of its table's players: keep it out of logs.
		return eventstore.Room{}, fmt.Errorf("room by code: %w", err)
	}
	return r, nil
}

// RoomOfTable returns the room of tableID, or an error matching
// eventstore.ErrNotFound.
func (s *Store) RoomOfTable(ctx context.Context, tableID string) (eventstore.Room, error) {
	r, err := s.room(ctx, `table_id = ?`, tableID)
	if err != nil {
		return eventstore.Room{}, fmt.Errorf("room of %s: %w", tableID, err)
	}
	return r, nil
}

func (s *Store) room(ctx context.Context, where, arg string) (eventstore.Room, error) {
	return scanner.Room(s.rdb.QueryRowContext(ctx, `SELECT `+rowscan.RoomColumns+` FROM rooms WHERE `+where, arg))
}
