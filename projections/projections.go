// Package projections is the read model built from the event log: hand
// history, leaderboards and player totals, the errors their readers return,
// and the contract a projection store keeps. It has no storage of its own:
// projections/sqlite stores the read model (a PostgreSQL sibling would keep
// the same contract).
//
// Each projection owns its tables and a checkpoint (the global position of
// the last event it applied), and applies events in one transaction together
// with its checkpoint, so an event delivered twice, or an event the
// projection has already passed, changes nothing.
//
// Projections never run rules: they read the facts events record (deals,
// settlements, seats). A projection can be rebuilt from position 0 with
// Replay and gives the same rows as when it was built live.
package projections

import (
	"context"
	"errors"
	"fmt"

	"paiju/eventstore"
)

// Names of the projections.
const (
	Hands        = "hands"
	Leaderboards = "leaderboards"
)

// Names lists every projection.
var Names = []string{Hands, Leaderboards}

// DefaultLocation is the time zone of leaderboard periods unless configured.
const DefaultLocation = "Asia/Shanghai"

// Errors the read side returns; the API maps them to problems.
var (
	ErrNotFound       = errors.New("projections: not found")
	ErrHandInProgress = errors.New("projections: hand in progress")
	ErrBadCursor      = errors.New("projections: bad cursor")
	ErrBadQuery       = errors.New("projections: bad query")
	ErrLagging        = errors.New("projections: position not projected in time")
	ErrUnknown        = errors.New("projections: unknown projection")
)

// GapError reports an event whose position is not the one after the
// projection's checkpoint: events in between are missing.
type GapError struct {
	Name       string
	Checkpoint int64
	Position   int64
}

func (e *GapError) Error() string {
	return fmt.Sprintf("projection %s: at %d, got event %d", e.Name, e.Checkpoint, e.Position)
}

// Store is where projections keep their rows and checkpoints.
type Store interface {
	// Checkpoint returns the position projection name has applied up to.
	Checkpoint(ctx context.Context, name string) (int64, error)
	// ApplyBatch applies events, in position order, to projection name in
	// one transaction that also moves the checkpoint. Events at or before
	// the checkpoint are skipped; applied counts the others. At an event
	// after the next position it stops: the events before it are committed
	// and the error is a *GapError.
	ApplyBatch(ctx context.Context, name string, events []eventstore.Event) (applied int, err error)
	// Reset empties projection name and sets its checkpoint to 0.
	Reset(ctx context.Context, name string) error
}

// Source is the event log, read directly: to rebuild a projection, to fill
// a gap in what a feed delivered, and to measure lag.
type Source interface {
	ReadAll(ctx context.Context, fromPosition int64, limit int) ([]eventstore.Event, error)
	Head(ctx context.Context) (position int64, hash string, err error)
}

// readPage is how many events a read of the log returns at most.
const readPage = 512

// Replay rebuilds projection name from position 0 by reading src directly.
func Replay(ctx context.Context, st Store, name string, src Source) error {
	if err := st.Reset(ctx, name); err != nil {
		return err
	}
	return CatchUp(ctx, st, name, src)
}

// CatchUp applies every event of src after the projection's checkpoint.
func CatchUp(ctx context.Context, st Store, name string, src Source) error {
	for {
		cp, err := st.Checkpoint(ctx, name)
		if err != nil {
			return err
		}
		page, err := src.ReadAll(ctx, cp, readPage)
		if err != nil {
			return fmt.Errorf("projection %s: read log after %d: %w", name, cp, err)
		}
		if len(page) == 0 {
			return nil
		}
		if _, err := st.ApplyBatch(ctx, name, page); err != nil {
			return err
		}
	}
}

// Feed applies the batches a feed (NATS) delivers to a Store. Log, if set,
// fills gaps in what is delivered (a consumer created after events were
// relayed and expired, a projection reset while its consumer had moved on)
// and is read first on start; without it a gap is an error and the feed
// must deliver the missing events again.
type Feed struct {
	Store Store
	Log   Source
}

// CatchUp applies what the log holds past projection name's checkpoint;
// without a log it does nothing.
func (f Feed) CatchUp(ctx context.Context, name string) error {
	if f.Log == nil {
		return nil
	}
	return CatchUp(ctx, f.Store, name, f.Log)
}

// Apply applies delivered events, sorted by position, to projection name in
// one transaction; events already applied change nothing. A gap is filled
// from the log, when there is one, and the batch applied again.
func (f Feed) Apply(ctx context.Context, name string, events []eventstore.Event) error {
	_, err := f.Store.ApplyBatch(ctx, name, events)
	var gap *GapError
	if errors.As(err, &gap) && f.Log != nil {
		if err := CatchUp(ctx, f.Store, name, f.Log); err != nil {
			return err
		}
		_, err = f.Store.ApplyBatch(ctx, name, events)
	}
	return err
}
