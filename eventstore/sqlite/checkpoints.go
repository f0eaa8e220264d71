package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Checkpoint returns the position a reader of the log (the NATS relay) has
// processed up to, 0 if it has none. The projections keep their own
// checkpoints beside their rows (projections/sqlite), not here: a projection
// is rebuilt without writing to the store.
func (s *Store) Checkpoint(ctx context.Context, name string) (int64, error) {
	var pos int64
	err := s.rdb.QueryRowContext(ctx, `SELECT position FROM checkpoints WHERE name = ?`, name).Scan(&pos)
	if errors.Is(err, sql.ErrNoRows) {
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
	_, err := s.wdb.ExecContext(ctx,
		`INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position`,
		name, pos)
	if err != nil {
		return fmt.Errorf("set checkpoint %s to %d: %w", name, pos, err)
	}
	return nil
}
