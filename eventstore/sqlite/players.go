package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"paiju/eventstore"
	"paiju/eventstore/internal/rowscan"
)

// Player is a registered player (the contract's type, shared by the stores).
type Player = eventstore.Player

// Token is a player's bearer token record (the contract's type).
type Token = eventstore.Token

// CreatePlayer stores p with its first token, in one transaction. An ID or
// token hash already in use is an error matching eventstore.ErrExists; a
// name key another player holds, eventstore.ErrNameTaken.
func (s *Store) CreatePlayer(ctx context.Context, p Player, first Token) (err error) {
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
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("create player %s: %w", p.ID, err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	_, err = tx.ExecContext(ctx, `INSERT INTO players (id, name, name_key, created_at) VALUES (?, ?, ?, ?)`,
		p.ID, p.Name, nameKey(p.NameKey), p.CreatedAt.UTC().UnixNano())
	if err == nil {
		err = insertToken(ctx, tx, first)
	}
	if isNameKeyViolation(err) {
		return fmt.Errorf("create player %s: %w", p.ID, eventstore.ErrNameTaken)
	}
	if isUniqueViolation(err) {
		return fmt.Errorf("create player %s: %w", p.ID, eventstore.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("create player %s: %w", p.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("create player %s: commit: %w", p.ID, err)
	}
	return nil
}

func insertToken(ctx context.Context, tx *sql.Tx, t Token) error {
	_, err := tx.ExecContext(ctx,
		`INSERT INTO tokens (id, player_id, label, token_hash, created_at, last_used_at, expires_at, revoked_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		t.ID, t.PlayerID, t.Label, t.Hash, t.CreatedAt.UTC().UnixNano(), nanos(t.LastUsedAt), nanos(t.ExpiresAt), nanos(t.RevokedAt))
	return err
}

// nanos is t as the store keeps an optional time: NULL when zero.
func nanos(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UTC().UnixNano(), Valid: true}
}

func fromNanos(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64).UTC()
}

// CreateToken stores a further token of t.PlayerID unless the player holds
// maxLive live tokens at t.CreatedAt (eventstore.ErrLimit; maxLive < 0 is
// no cap). The count and the insert are one IMMEDIATE transaction on the
// store's single writing connection, so no other write comes between them.
// A token id or hash already in use is an error matching
// eventstore.ErrExists; an unknown player, one matching
// eventstore.ErrNotFound.
func (s *Store) CreateToken(ctx context.Context, t Token, maxLive int) (err error) {
	if t.ID == "" || t.PlayerID == "" || t.Hash == "" {
		return errors.New("create token: empty id, player or hash")
	}
	if t.CreatedAt.IsZero() {
		t.CreatedAt = s.opts.Now()
	}
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("create token of %s: %w", t.PlayerID, err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	var one int
	err = tx.QueryRowContext(ctx, `SELECT 1 FROM players WHERE id = ?`, t.PlayerID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("create token of %s: %w", t.PlayerID, eventstore.ErrNotFound)
	}
	if err == nil && maxLive >= 0 {
		err = underTokenCap(ctx, tx, t, maxLive)
	}
	if err == nil {
		err = insertToken(ctx, tx, t)
	}
	if isUniqueViolation(err) {
		return fmt.Errorf("create token of %s: %w", t.PlayerID, eventstore.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("create token of %s: %w", t.PlayerID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("create token of %s: commit: %w", t.PlayerID, err)
	}
	return nil
}

// underTokenCap is nil if t's player holds fewer than maxLive tokens live
// at t.CreatedAt, and an error matching eventstore.ErrLimit if not.
func underTokenCap(ctx context.Context, tx *sql.Tx, t Token, maxLive int) error {
	var live int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM tokens WHERE player_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
		t.PlayerID, t.CreatedAt.UTC().UnixNano()).Scan(&live); err != nil {
		return fmt.Errorf("count live tokens: %w", err)
	}
	if live >= maxLive {
		return fmt.Errorf("%d live tokens: %w", live, eventstore.ErrLimit)
	}
	return nil
}

const tokenByHashQuery = `SELECT ` + rowscan.TokenColumns + `, p.id, p.name, p.created_at FROM tokens t JOIN players p ON p.id = t.player_id WHERE t.token_hash = ?`

// TokenByHash returns the token whose hash is hash and its player, revoked
// and expired tokens included (the caller judges them by Token.Live), or an
// error matching eventstore.ErrNotFound.
func (s *Store) TokenByHash(ctx context.Context, hash string) (Player, Token, error) {
	p, t, err := scanner.PlayerToken(s.reads.tokenByHash.QueryRowContext(ctx, hash))
	if err != nil {
		// The hash is a credential: keep it out of error messages and logs.
		return Player{}, Token{}, fmt.Errorf("token by hash: %w", err)
	}
	return p, t, nil
}

// TokenByID returns the token id, or an error matching
// eventstore.ErrNotFound.
func (s *Store) TokenByID(ctx context.Context, id string) (Token, error) {
	t, err := scanner.Token(s.rdb.QueryRowContext(ctx, `SELECT `+rowscan.TokenColumns+` FROM tokens t WHERE t.id = ?`, id))
	if err != nil {
		return Token{}, fmt.Errorf("token %s: %w", id, err)
	}
	return t, nil
}

// Tokens lists playerID's tokens, revoked and expired ones included,
// oldest first.
func (s *Store) Tokens(ctx context.Context, playerID string) ([]Token, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT `+rowscan.TokenColumns+` FROM tokens t WHERE t.player_id = ? ORDER BY t.created_at, t.id`, playerID)
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
	res, err := s.wdb.ExecContext(ctx, `UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND player_id = ?`,
		at.UTC().UnixNano(), id, playerID)
	if err != nil {
		return Token{}, fmt.Errorf("revoke token %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err == nil {
			err = eventstore.ErrNotFound
		}
		return Token{}, fmt.Errorf("revoke token %s: %w", id, err)
	}
	return s.TokenByID(ctx, id)
}

// TouchToken records that token id was used at at; a use earlier than the
// one recorded changes nothing.
func (s *Store) TouchToken(ctx context.Context, id string, at time.Time) error {
	_, err := s.wdb.ExecContext(ctx, `UPDATE tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`,
		at.UTC().UnixNano(), id, at.UTC().UnixNano())
	if err != nil {
		return fmt.Errorf("touch token %s: %w", id, err)
	}
	return nil
}

// PlayerByID returns the player with id, or an error matching
// eventstore.ErrNotFound.
func (s *Store) PlayerByID(ctx context.Context, id string) (Player, error) {
	p, err := scanner.Player(s.rdb.QueryRowContext(ctx, `SELECT `+rowscan.PlayerColumns+` FROM players WHERE id = ?`, id))
	if err != nil {
		return Player{}, fmt.Errorf("player %s: %w", id, err)
	}
	return p, nil
}

// RenamePlayer sets the name and name key of player id, or returns an
// error matching eventstore.ErrNotFound, or eventstore.ErrNameTaken when
// another player holds the key.
func (s *Store) RenamePlayer(ctx context.Context, id, name, key string) error {
	res, err := s.wdb.ExecContext(ctx, `UPDATE players SET name = ?, name_key = ? WHERE id = ?`, name, nameKey(key), id)
	if isNameKeyViolation(err) {
		return fmt.Errorf("rename player %s: %w", id, eventstore.ErrNameTaken)
	}
	if err != nil {
		return fmt.Errorf("rename player %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err == nil {
			err = eventstore.ErrNotFound
		}
		return fmt.Errorf("rename player %s: %w", id, err)
	}
	return nil
}

// nameKey is key as the store keeps it: NULL for none, which the unique
// index lets any number of players share.
func nameKey(key string) sql.NullString {
	return sql.NullString{String: key, Valid: key != ""}
}

// isNameKeyViolation reports whether err is the unique index on
// players.name_key refusing a key another player holds.
func isNameKeyViolation(err error) bool {
	return isUniqueViolation(err) && strings.Contains(err.Error(), "players.name_key")
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
