package eventstore

import "context"

// Checkpoints keep how far a reader of the log has processed it, in the
// store beside the log: the NATS relay's, which publishes the log as its
// outbox. The projections keep their own checkpoints beside their rows
// (paiju/projections), not here: a projection is rebuilt without writing
// to the store.
type Checkpoints interface {
	// Checkpoint returns the position the reader name has processed up to,
	// 0 if it has none.
	Checkpoint(ctx context.Context, name string) (int64, error)
	// SetCheckpoint records pos for the reader name; name must not be
	// empty, nor pos negative. It may move backwards: a reader started
	// over resets its checkpoint to 0.
	SetCheckpoint(ctx context.Context, name string, pos int64) error
}
