// Package rowscan reads the rows both event stores keep alike (events,
// idempotency records, players, tokens, rooms) from either driver:
// database/sql's rows and pgx's both have the methods Row and Rows name.
// The queries stay the stores'; they select the columns named here, in
// this order. What differs between the drivers (how a time is kept, what
// "no row" is) a Driver says.
package rowscan

import (
	"fmt"
	"time"

	"paiju/eventstore"
)

// Row is the one row of a query.
type Row interface {
	Scan(dest ...any) error
}

// Rows are the rows of a query; the caller closes them.
type Rows interface {
	Row
	Next() bool
	Err() error
}

// Driver says how a driver's rows hold what the stores keep alike.
type Driver[T, N any] struct {
	// Time reads a NOT NULL time column, scanned into a T, in UTC.
	Time func(T) time.Time
	// NullTime reads a nullable time column, scanned into an N, in UTC:
	// the zero time for NULL.
	NullTime func(N) time.Time
	// NoRows tells the driver's error for a query that found no row.
	NoRows func(error) bool
}

// EventColumns are the columns of an event, as Events reads them.
const EventColumns = `position, stream, version, type, data, recorded_at, prev_hash, hash`

// Events reads rows of EventColumns: an empty slice, not nil, for none.
func (d Driver[T, N]) Events(rows Rows) ([]eventstore.Event, error) {
	events := []eventstore.Event{}
	var (
		e  eventstore.Event
		at T
	)
	dest := []any{&e.Position, &e.Stream, &e.Version, &e.Type, &e.Data, &at, &e.PrevHash, &e.Hash}
	for rows.Next() {
		// Both drivers scan a text column into a new []byte each time, so
		// that e.Data is never shared between events.
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		e.RecordedAt = d.Time(at)
		events = append(events, e)
	}
	return events, rows.Err()
}

// IdempotencyColumns are the columns of an idempotency record that
// Idempotency reads: all but its scope and key.
const IdempotencyColumns = `request_hash, stream, first_version, last_version, created_at`

// Idempotency reads the record of (scope, key) from a row of
// IdempotencyColumns, and whether there was one.
func (d Driver[T, N]) Idempotency(row Row, scope, key string) (eventstore.IdempotencyRecord, bool, error) {
	rec := eventstore.IdempotencyRecord{Scope: scope, Key: key}
	var at T
	err := row.Scan(&rec.RequestHash, &rec.Stream, &rec.FirstVersion, &rec.LastVersion, &at)
	if d.NoRows(err) {
		return eventstore.IdempotencyRecord{}, false, nil
	}
	if err != nil {
		return eventstore.IdempotencyRecord{}, false, fmt.Errorf("look up idempotency key %q of %s: %w", key, scope, err)
	}
	rec.CreatedAt = d.Time(at)
	return rec, true, nil
}

// PlayerColumns are the columns of a player, as Player reads them.
const PlayerColumns = `id, name, COALESCE(name_key, ''), created_at`

// Player reads a row of PlayerColumns; no row is eventstore.ErrNotFound.
func (d Driver[T, N]) Player(row Row) (eventstore.Player, error) {
	var (
		p  eventstore.Player
		at T
	)
	if err := d.scan(row, &p.ID, &p.Name, &p.NameKey, &at); err != nil {
		return eventstore.Player{}, err
	}
	p.CreatedAt = d.Time(at)
	return p, nil
}

// TokenColumns are the columns of a token, of the tokens table as t, as
// Token reads them.
const TokenColumns = `t.id, t.player_id, t.label, t.token_hash, t.created_at, t.last_used_at, t.expires_at, t.revoked_at`

// Token reads a row of TokenColumns; no row is eventstore.ErrNotFound.
func (d Driver[T, N]) Token(row Row) (eventstore.Token, error) {
	t, _, err := d.token(row, false)
	return t, err
}

// PlayerToken reads a row of TokenColumns followed by the token's
// player's id, name and created_at; no row is eventstore.ErrNotFound.
func (d Driver[T, N]) PlayerToken(row Row) (eventstore.Player, eventstore.Token, error) {
	t, p, err := d.token(row, true)
	return p, t, err
}

// Tokens reads rows of TokenColumns: an empty slice, not nil, for none.
func (d Driver[T, N]) Tokens(rows Rows) ([]eventstore.Token, error) {
	out := []eventstore.Token{}
	for rows.Next() {
		t, _, err := d.token(rows, false)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (d Driver[T, N]) token(row Row, withPlayer bool) (eventstore.Token, eventstore.Player, error) {
	var (
		t                   eventstore.Token
		p                   eventstore.Player
		at, pAt             T
		used, expires, revd N
	)
	dest := []any{&t.ID, &t.PlayerID, &t.Label, &t.Hash, &at, &used, &expires, &revd}
	if withPlayer {
		dest = append(dest, &p.ID, &p.Name, &pAt)
	}
	if err := d.scan(row, dest...); err != nil {
		return eventstore.Token{}, eventstore.Player{}, err
	}
	t.CreatedAt = d.Time(at)
	t.LastUsedAt, t.ExpiresAt, t.RevokedAt = d.NullTime(used), d.NullTime(expires), d.NullTime(revd)
	if withPlayer {
		p.CreatedAt = d.Time(pAt)
	}
	return t, p, nil
}

// RoomColumns are the columns of a room, as Room reads them.
const RoomColumns = `code, table_id, created_at`

// Room reads a row of RoomColumns; no row is eventstore.ErrNotFound.
func (d Driver[T, N]) Room(row Row) (eventstore.Room, error) {
	var (
		r  eventstore.Room
		at T
	)
	if err := d.scan(row, &r.Code, &r.TableID, &at); err != nil {
		return eventstore.Room{}, err
	}
	r.CreatedAt = d.Time(at)
	return r, nil
}

// scan scans row into dest, with no row as eventstore.ErrNotFound.
func (d Driver[T, N]) scan(row Row, dest ...any) error {
	err := row.Scan(dest...)
	if d.NoRows(err) {
		return eventstore.ErrNotFound
	}
	return err
}
