// Package eventstore defines the append-only event store every table stream
// lives in: expected-version appends, a global order, and a SHA-256 hash chain
// over every event (Log). Beside the log a store keeps what its users need
// kept with it, each its own contract: the players, their tokens and the
// private rooms (Accounts), and how far the relay has read the log
// (Checkpoints). Implementations live in subpackages (sqlite, postgres); the
// conformance suites in eventstoretest run against each of them.
package eventstore

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// NewEvent is an event to append: its type name and JSON data.
type NewEvent struct {
	Type string
	Data []byte // JSON
}

// Event is a stored event.
type Event struct {
	Position   int64  // global position, from 1, gap-free in commit order
	Stream     string // e.g. "table-01J…"
	Version    int    // position within the stream, from 1
	Type       string
	Data       []byte    // JSON exactly as appended
	RecordedAt time.Time // UTC, as the store's clock said at commit
	PrevHash   string    // hex SHA-256 of the previous event in global order ("" for the first)
	Hash       string    // hex SHA-256, see Hash
}

// Log is the append-only event log: what the service appends to and what
// the relay, the projections and the auditors read.
//
// Append is atomic: either every event of the call is stored, with consecutive
// versions after expectedVersion and consecutive global positions, or none is.
// Appends to different streams may be committed together (group commit), but no
// call returns before its events are durable.
type Log interface {
	// Append adds events to stream if its current version is expectedVersion
	// (0 for a new stream). Otherwise it returns a *ConflictError and stores
	// nothing.
	Append(ctx context.Context, stream string, expectedVersion int, events []NewEvent) (AppendResult, error)
	// AppendIdempotent is Append that also records key in the same
	// transaction. If key's (Scope, Key) is already recorded it stores
	// nothing and returns a *DuplicateKeyError holding the earlier record;
	// this check comes before the expected-version check, so that a retry of
	// an append that succeeded is recognised even though the stream has
	// moved on.
	AppendIdempotent(ctx context.Context, stream string, expectedVersion int, events []NewEvent, key IdempotencyKey) (AppendResult, error)
	// LookupIdempotency returns the record of (scope, key), and whether an
	// append stored it.
	LookupIdempotency(ctx context.Context, scope, key string) (IdempotencyRecord, bool, error)
	// Load returns the stream's events with version > fromVersion, in order.
	// An unknown stream is an empty slice, not an error.
	Load(ctx context.Context, stream string, fromVersion int) ([]Event, error)
	// ReadAll returns up to limit events with position > fromPosition in global
	// order. limit must be positive.
	ReadAll(ctx context.Context, fromPosition int64, limit int) ([]Event, error)
	// Head returns the position and hash of the last event (0, "" when empty).
	Head(ctx context.Context) (position int64, hash string, err error)
	// Streams lists every stream id that has events, each once, in byte
	// order (an empty slice for an empty log).
	Streams(ctx context.Context) ([]string, error)
}

// Store is an open event store's log, closed by its opener. Close stops
// the writer: appends waiting for it fail with ErrClosed; an append it
// already took is committed (or failed) and answered first. Close is
// idempotent.
type Store interface {
	Log
	Close() error
}

// AppendResult is what an Append committed.
type AppendResult struct {
	Version    int       // the stream's version after the append
	Positions  []int64   // global position of each appended event
	RecordedAt time.Time // the events' recorded_at, as stored
}

// ConflictError reports an Append whose expected version was not the stream's.
type ConflictError struct {
	Stream   string
	Expected int
	Actual   int
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("eventstore: stream %s is at version %d, not the expected %d", e.Stream, e.Actual, e.Expected)
}

// ErrConflict matches any *ConflictError with errors.Is.
var ErrConflict = errors.New("eventstore: version conflict")

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }
