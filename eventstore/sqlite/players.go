package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"paiju/eventstore"
)

// Player is a registered player (the contract's type, shared by the stores).
type Player = eventstore.Player

// CreatePlayer stores p. An ID or TokenHash already in use is an error
// matching eventstore.ErrExists.
func (s *Store) CreatePlayer(ctx context.Context, p Player) error {
	if p.ID == "" || p.TokenHash == "" {
		return errors.New("create player: empty id or token hash")
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.opts.Now()
	}
	_, err := s.wdb.ExecContext(ctx,
		`INSERT INTO players (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)`,
		p.ID, p.Name, p.TokenHash, p.CreatedAt.UTC().UnixNano())
	if isUniqueViolation(err) {
		return fmt.Errorf("create player %s: %w", p.ID, eventstore.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("create player %s: %w", p.ID, err)
	}
	return nil
}

// PlayerByTokenHash returns the player whose token hashes to hash, or an
// error matching eventstore.ErrNotFound.
func (s *Store) PlayerByTokenHash(ctx context.Context, hash string) (Player, error) {
	p, err := s.player(ctx, `token_hash = ?`, hash)
	if err != nil {
		// The hash is a credential: keep it out of error messages and logs.
		return Player{}, fmt.Errorf("player by token: %w", err)
	}
	return p, nil
}

// PlayerByID returns the player with id, or an error matching
// eventstore.ErrNotFound.
func (s *Store) PlayerByID(ctx context.Context, id string) (Player, error) {
	p, err := s.player(ctx, `id = ?`, id)
	if err != nil {
		return Player{}, fmt.Errorf("player %s: %w", id, err)
	}
	return p, nil
}

func (s *Store) player(ctx context.Context, where string, arg string) (Player, error) {
	var (
		p  Player
		at int64
	)
	err := s.rdb.QueryRowContext(ctx, `SELECT id, name, token_hash, created_at FROM players WHERE `+where, arg).
		Scan(&p.ID, &p.Name, &p.TokenHash, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Player{}, eventstore.ErrNotFound
	}
	if err != nil {
		return Player{}, err
	}
	p.CreatedAt = time.Unix(0, at).UTC()
	return p, nil
}

func isUniqueViolation(err error) bool {
	var e *msqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return true
	}
	return false
}
