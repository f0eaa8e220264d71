package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"paiju/eventstore"
	"paiju/eventstore/internal/rowscan"
)

// Player is a registered player (the contract's type, shared by the stores).
type Player = eventstore.Player

// Token is a player's bearer token record (the contract's type).
type Token = eventstore.Token

// uniqueViolation is PostgreSQL's SQLSTATE for a duplicate key.
const uniqueViolation = "23505"

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == uniqueViolation
}

// nameKeyIndex is the unique index that keeps name keys unique.
const nameKeyIndex = "players_by_name_key"

// nameKey is key as the store keeps it: NULL for none, which the unique
// index lets any number of players share.
func nameKey(key string) *string {
	if key == "" {
		return nil
	}
	return &key
}

// isNameKeyViolation reports whether err is the unique index on
// players.name_key refusing a key another player holds.
func isNameKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == uniqueViolation && pgErr.ConstraintName == nameKeyIndex
}

// micros is t at the store's precision, or NULL when zero.
func micros(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC().Truncate(time.Microsecond)
	return &u
}

func fromNull(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// CreatePlayer stores p with its first token, in one transaction. An ID or
// token hash already in use is an error matching eventstore.ErrExists.
func (s *Store) CreatePlayer(ctx context.Context, p Player, first Token) error {
	if p.ID == "" || first.ID == "" || first.Hash == "" {
		return errors.New("create player: empty id, token id or token hash")
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.opts.Now()
	}
	first.PlayerID = p.ID
	if first.CreatedAt.IsZero() {
		first.CreatedAt = p.CreatedAt
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO players (id, name, name_key, created_at) VALUES ($1, $2, $3, $4)`,
			p.ID, p.Name, nameKey(p.NameKey), p.CreatedAt.UTC().Truncate(time.Microsecond)); err != nil {
			return err
		}
		return insertToken(ctx, tx, first)
	})
	if isNameKeyViolation(err) {
		return fmt.Errorf("create player %s: %w", p.ID, eventstore.ErrNameTaken)
	}
	if isUniqueViolation(err) {
		return fmt.Errorf("create player %s: %w", p.ID, eventstore.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("create player %s: %w", p.ID, err)
	}
	return nil
}

func insertToken(ctx context.Context, tx pgx.Tx, t Token) error {
	_, err := tx.Exec(ctx,
		`INSERT INTO tokens (id, player_id, label, token_hash, created_at, last_used_at, expires_at, revoked_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		t.ID, t.PlayerID, t.Label, t.Hash, t.CreatedAt.UTC().Truncate(time.Microsecond), micros(t.LastUsedAt), micros(t.ExpiresAt), micros(t.RevokedAt))
	return err
}

// CreateToken stores a further token of t.PlayerID unless the player holds
// maxLive live tokens at t.CreatedAt (eventstore.ErrLimit; maxLive < 0 is
// no cap). The player's row is locked (FOR UPDATE) before the count, so
// the CreateTokens of one player run one after another on every node
// sharing the database and the cap holds across them. A token id or hash
// already in use is an error matching eventstore.ErrExists; an unknown
// player, one matching eventstore.ErrNotFound.
func (s *Store) CreateToken(ctx context.Context, t Token, maxLive int) error {
	if t.ID == "" || t.PlayerID == "" || t.Hash == "" {
		return errors.New("create token: empty id, player or hash")
	}
	if t.CreatedAt.IsZero() {
		t.CreatedAt = s.opts.Now()
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM players WHERE id = $1 FOR UPDATE`, t.PlayerID).Scan(&one); err != nil {
			if noRows(err) {
				return eventstore.ErrNotFound
			}
			return err
		}
		if maxLive >= 0 {
			var live int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM tokens WHERE player_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
				t.PlayerID, t.CreatedAt.UTC().Truncate(time.Microsecond)).Scan(&live); err != nil {
				return fmt.Errorf("count live tokens: %w", err)
			}
			if live >= maxLive {
				return fmt.Errorf("%d live tokens: %w", live, eventstore.ErrLimit)
			}
		}
		return insertToken(ctx, tx, t)
	})
	if isUniqueViolation(err) {
		return fmt.Errorf("create token of %s: %w", t.PlayerID, eventstore.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("create token of %s: %w", t.PlayerID, err)
	}
	return nil
}

// TokenByHash returns the token whose hash is hash and its player, revoked
// and expired tokens included (the caller judges them by Token.Live), or an
// error matching eventstore.ErrNotFound.
func (s *Store) TokenByHash(ctx context.Context, hash string) (Player, Token, error) {
	p, t, err := scanner.PlayerToken(s.pool.QueryRow(ctx,
		`SELECT `+rowscan.TokenColumns+`, p.id, p.name, p.created_at FROM tokens t JOIN players p ON p.id = t.player_id WHERE t.token_hash = $1`, hash))
	if err != nil {
		// The hash is a credential: keep it out of error messages and logs.
		return Player{}, Token{}, fmt.Errorf("token by hash: %w", err)
	}
	return p, t, nil
}

// TokenByID returns the token id, or an error matching
// eventstore.ErrNotFound.
func (s *Store) TokenByID(ctx context.Context, id string) (Token, error) {
	t, err := scanner.Token(s.pool.QueryRow(ctx, `SELECT `+rowscan.TokenColumns+` FROM tokens t WHERE t.id = $1`, id))
	if err != nil {
		return Token{}, fmt.Errorf("token %s: %w", id, err)
	}
	return t, nil
}

// Tokens lists playerID's tokens, revoked and expired ones included,
// oldest first.
func (s *Store) Tokens(ctx context.Context, playerID string) ([]Token, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+rowscan.TokenColumns+` FROM tokens t WHERE t.player_id = $1 ORDER BY t.created_at, t.id`, playerID)
	if err != nil {
		return nil, fmt.Errorf("tokens of %s: %w", playerID, err)
	}
	defer rows.Close()
	out, err := scanner.Tokens(rows)
	if err != nil {
		return nil, fmt.Errorf("tokens of %s: %w", playerID, err)
	}
	return out, nil
}

// RevokeToken revokes playerID's token id at at and returns it; revoking a
// revoked token keeps its first revocation time. A token that is not
// playerID's is an error matching eventstore.ErrNotFound, as an unknown one.
func (s *Store) RevokeToken(ctx context.Context, playerID, id string, at time.Time) (Token, error) {
	t, err := scanner.Token(s.pool.QueryRow(ctx,
		`UPDATE tokens t SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 AND player_id = $3 RETURNING `+rowscan.TokenColumns,
		at.UTC().Truncate(time.Microsecond), id, playerID))
	if err != nil {
		return Token{}, fmt.Errorf("revoke token %s: %w", id, err)
	}
	return t, nil
}

// TouchToken records that token id was used at at; a use earlier than the
// one recorded changes nothing.
func (s *Store) TouchToken(ctx context.Context, id string, at time.Time) error {
	u := at.UTC().Truncate(time.Microsecond)
	if _, err := s.pool.Exec(ctx, `UPDATE tokens SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)`, u, id); err != nil {
		return fmt.Errorf("touch token %s: %w", id, err)
	}
	return nil
}

// PlayerByID returns the player with id, or an error matching
// eventstore.ErrNotFound.
func (s *Store) PlayerByID(ctx context.Context, id string) (Player, error) {
	p, err := scanner.Player(s.pool.QueryRow(ctx, `SELECT `+rowscan.PlayerColumns+` FROM players WHERE id = $1`, id))
	if err != nil {
		return Player{}, fmt.Errorf("player %s: %w", id, err)
	}
	return p, nil
}

// RenamePlayer sets the name and name key of player id, or returns an
// error matching eventstore.ErrNotFound, or eventstore.ErrNameTaken when
// another player holds the key.
func (s *Store) RenamePlayer(ctx context.Context, id, name, key string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE players SET name = $1, name_key = $2 WHERE id = $3`, name, nameKey(key), id)
	if isNameKeyViolation(err) {
		return fmt.Errorf("rename player %s: %w", id, eventstore.ErrNameTaken)
	}
	if err == nil && tag.RowsAffected() == 0 {
		err = eventstore.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("rename player %s: %w", id, err)
	}
	return nil
}
