package eventstore

import "errors"

// Sentinel errors shared by store implementations, for errors.Is.
var (
	// ErrNotFound: a looked-up record (a player, …) does not exist.
	ErrNotFound = errors.New("eventstore: not found")
	// ErrExists: a record with the same unique key is already stored.
	ErrExists = errors.New("eventstore: already exists")
	// ErrLimit: the write would take a player past a cap the caller set
	// (its live tokens).
	ErrLimit = errors.New("eventstore: limit reached")
	// ErrNameTaken: another player holds the name's comparison key.
	ErrNameTaken = errors.New("eventstore: name taken")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("eventstore: closed")
)
