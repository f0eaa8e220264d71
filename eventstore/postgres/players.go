package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"paiju/eventstore"
)

// Player is a registered player (the contract's type, shared by the stores).
type Player = eventstore.Player

// uniqueViolation is PostgreSQL's SQLSTATE for a duplicate key.
const uniqueViolation = "23505"

// CreatePlayer stores p. An ID or TokenHash already in use is an error
// matching eventstore.ErrExists.
func (s *Store) CreatePlayer(ctx context.Context, p Player) error {
	if p.ID == "" || p.TokenHash == "" {
		return errors.New("create player: empty id or token hash")
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.opts.Now()
	}
	_, err := s.pool.Exec(ctx,
		`INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)`,
		p.ID, p.Name, p.TokenHash, p.CreatedAt.UTC().Truncate(time.Microsecond))
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == uniqueViolation {
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
	p, err := s.player(ctx, `token_hash = $1`, hash)
	if err != nil {
		// The hash is a credential: keep it out of error messages and logs.
		return Player{}, fmt.Errorf("player by token: %w", err)
	}
	return p, nil
}

// PlayerByID returns the player with id, or an error matching
// eventstore.ErrNotFound.
func (s *Store) PlayerByID(ctx context.Context, id string) (Player, error) {
	p, err := s.player(ctx, `id = $1`, id)
	if err != nil {
		return Player{}, fmt.Errorf("player %s: %w", id, err)
	}
	return p, nil
}

func (s *Store) player(ctx context.Context, where string, arg string) (Player, error) {
	var p Player
	err := s.pool.QueryRow(ctx, `SELECT id, name, token_hash, created_at FROM players WHERE `+where, arg).
		Scan(&p.ID, &p.Name, &p.TokenHash, &p.CreatedAt)
	if noRows(err) {
		return Player{}, eventstore.ErrNotFound
	}
	if err != nil {
		return Player{}, err
	}
	p.CreatedAt = p.CreatedAt.UTC()
	return p, nil
}
