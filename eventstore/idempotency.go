package eventstore

import (
	"errors"
	"fmt"
	"time"
)

// IdempotencyKey makes an append safe to retry: a store that supports it
// records the key in the append's own transaction, so a key is stored if and
// only if the append's events are.
type IdempotencyKey struct {
	Scope       string // the acting player id: keys of different players never collide
	Key         string // the client's Idempotency-Key
	RequestHash string // a digest of the request, to tell a retry from a reuse of the key
}

// IdempotencyRecord is a stored key and what its append committed.
type IdempotencyRecord struct {
	Scope        string
	Key          string
	RequestHash  string
	Stream       string
	FirstVersion int // version of the first event the append stored
	LastVersion  int // the stream's version after the append
	CreatedAt    time.Time
}

// DuplicateKeyError reports an append whose idempotency key was already used.
// Nothing of the append was stored. Record is the earlier use; the caller
// compares Record.RequestHash with its own to tell a retry (answer as before)
// from a different request under the same key (reject).
type DuplicateKeyError struct {
	Record IdempotencyRecord
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("eventstore: idempotency key %q of %s already used for %s versions %d..%d",
		e.Record.Key, e.Record.Scope, e.Record.Stream, e.Record.FirstVersion, e.Record.LastVersion)
}

// ErrDuplicateKey matches any *DuplicateKeyError with errors.Is.
var ErrDuplicateKey = errors.New("eventstore: duplicate idempotency key")

// Is makes errors.Is(err, ErrDuplicateKey) true.
func (e *DuplicateKeyError) Is(target error) bool { return target == ErrDuplicateKey }
