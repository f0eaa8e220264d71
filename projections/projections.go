// Package projections is the read model built from the event log: hand
// history, leaderboards and player totals, the table directory, the errors their readers return,
// and the contract a projection store keeps. It has no storage of its own:
// projections/sqlite and projections/postgres store the read model, and
// projections/projectionstest checks that both keep the contract with the
// same answers.
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
	Directory    = "directory"
)

// Names lists every projection.
var Names = []string{Hands, Leaderboards, Directory, Tournaments, Ratings}

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
	// Anchor returns the checkpoint with the hash of the event applied at
	// it ("" when not recorded), so that a log that no longer holds that
	// event (an older backup restored beside newer projections) is noticed.
	Anchor(ctx context.Context, name string) (position int64, hash string, err error)
	// ApplyBatch applies events, in position order, to projection name in
	// one transaction that also moves the checkpoint. Events at or before
	// the checkpoint are skipped; applied counts the others. At an event
	// after the next position it stops: the events before it are committed
	// and the error is a *GapError.
	ApplyBatch(ctx context.Context, name string, events []eventstore.Event) (applied int, err error)
	// Reset empties projection name and sets its checkpoint to 0.
	Reset(ctx context.Context, name string) error
}

// BatchStore is a Store that can apply a batch to several projections in
// one transaction (the SQLite store, whose projections share one file).
type BatchStore interface {
	Store
	// ApplyBatches applies events, in position order, to each projection
	// of names in one transaction that also moves their checkpoints.
	// Events at or before a projection's checkpoint are skipped for it. An
	// event after a projection's next position applies nothing to any of
	// them, and the error is a *GapError.
	ApplyBatches(ctx context.Context, names []string, events []eventstore.Event) error
}

// Source is the event log, read directly: to rebuild a projection, to fill
// a gap in what a feed delivered, and to measure lag.
type Source interface {
	ReadAll(ctx context.Context, fromPosition int64, limit int) ([]eventstore.Event, error)
	Head(ctx context.Context) (position int64, hash string, err error)
}

var _ Source = eventstore.Log(nil)

// StatusOf reports each projection of st: its checkpoint and its lag
// behind the head of log.
func StatusOf(ctx context.Context, st Store, log Source) (Status, error) {
	head, _, err := log.Head(ctx)
	if err != nil {
		return Status{}, fmt.Errorf("projections: log head: %w", err)
	}
	s := Status{Head: head, Projections: []ProjectionStatus{}}
	for _, n := range Names {
		cp, err := st.Checkpoint(ctx, n)
		if err != nil {
			return Status{}, err
		}
		s.Projections = append(s.Projections, ProjectionStatus{Name: n, Position: cp, Lag: max(head-cp, 0)})
	}
	return s, nil
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
// A checkpoint the log does not hold (past its head, or another event
// there) means the log was replaced by an older copy: the projection is
// rebuilt from position 0 first, and rebuilt reports why.
func CatchUp(ctx context.Context, st Store, name string, src Source) error {
	_, err := catchUp(ctx, st, name, src)
	return err
}

func catchUp(ctx context.Context, st Store, name string, src Source) (rebuilt string, err error) {
	rebuilt, err = diverged(ctx, st, name, src)
	if err != nil {
		return "", err
	}
	if rebuilt != "" {
		if err := st.Reset(ctx, name); err != nil {
			return "", err
		}
	}
	return rebuilt, apply(ctx, st, name, src)
}

// diverged says why the log does not hold projection name's checkpoint,
// or "" when it does.
func diverged(ctx context.Context, st Store, name string, src Source) (string, error) {
	cp, hash, err := st.Anchor(ctx, name)
	if err != nil || cp == 0 {
		return "", err
	}
	head, _, err := src.Head(ctx)
	if err != nil {
		return "", fmt.Errorf("projection %s: log head: %w", name, err)
	}
	if cp > head {
		return fmt.Sprintf("checkpoint %d is past the log's head %d", cp, head), nil
	}
	if hash == "" {
		return "", nil // a checkpoint written before hashes were kept
	}
	evs, err := src.ReadAll(ctx, cp-1, 1)
	if err != nil {
		return "", fmt.Errorf("projection %s: read log at %d: %w", name, cp, err)
	}
	if len(evs) != 1 || evs[0].Position != cp || evs[0].Hash != hash {
		return fmt.Sprintf("the log holds another event at checkpoint %d than the one applied", cp), nil
	}
	return "", nil
}

func apply(ctx context.Context, st Store, name string, src Source) error {
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
	// Rebuilt, if set, hears of a projection rebuilt from position 0
	// because the log no longer held its checkpoint.
	Rebuilt func(name, reason string)
}

// CatchUp applies what the log holds past projection name's checkpoint,
// rebuilding it first if the log does not hold the checkpoint; without a
// log it does nothing.
func (f Feed) CatchUp(ctx context.Context, name string) error {
	if f.Log == nil {
		return nil
	}
	why, err := catchUp(ctx, f.Store, name, f.Log)
	if why != "" && f.Rebuilt != nil {
		f.Rebuilt(name, why)
	}
	return err
}

// ApplyAll applies delivered events, sorted by position, to every
// projection of names: in one transaction for all of them when the store
// is a BatchStore, else one projection at a time as Apply does. When the
// shared transaction fails (a gap, or one projection's error), each
// projection is applied on its own, so that gaps are filled from the log
// and one projection's failure does not undo the others'; the error is
// then theirs, joined.
func (f Feed) ApplyAll(ctx context.Context, names []string, events []eventstore.Event) error {
	if bs, ok := f.Store.(BatchStore); ok && len(names) > 1 {
		if err := bs.ApplyBatches(ctx, names, events); err == nil {
			return nil
		}
	}
	var errs []error
	for _, n := range names {
		if err := f.Apply(ctx, n, events); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Apply applies delivered events, sorted by position, to projection name in
// one transaction; events already applied change nothing. A gap is filled
// from the log, when there is one, and the batch applied again.
func (f Feed) Apply(ctx context.Context, name string, events []eventstore.Event) error {
	_, err := f.Store.ApplyBatch(ctx, name, events)
	var gap *GapError
	if errors.As(err, &gap) && f.Log != nil {
		if err := f.CatchUp(ctx, name); err != nil {
			return err
		}
		_, err = f.Store.ApplyBatch(ctx, name, events)
	}
	return err
}
