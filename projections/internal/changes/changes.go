// Package changes is how a projection store's callers wait for the
// projections to reach a position of the log: the store broadcasts after
// every commit of its own, and a waiter also polls, since another process
// or node may be the one projecting.
package changes

import (
	"context"
	"fmt"
	"sync"
	"time"

	"paiju/projections"
)

// PollInterval is how often WaitFor reads the checkpoints between two
// broadcasts.
const PollInterval = 25 * time.Millisecond

// Changes tells waiters that checkpoints may have moved. The zero value is
// ready; it is safe for concurrent use.
type Changes struct {
	mu sync.Mutex
	ch chan struct{} // closed and replaced by Broadcast
}

// Broadcast wakes every WaitFor, to read the checkpoints again: call it
// after a commit that may have moved them.
func (c *Changes) Broadcast() {
	c.mu.Lock()
	if c.ch != nil {
		close(c.ch)
		c.ch = nil
	}
	c.mu.Unlock()
}

// next is closed by the next Broadcast.
func (c *Changes) next() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ch == nil {
		c.ch = make(chan struct{})
	}
	return c.ch
}

// WaitFor waits until every projection of names has applied position pos,
// as checkpoint reads them, for at most timeout; then it returns an error
// matching projections.ErrLagging. An error of checkpoint ends the wait.
func (c *Changes) WaitFor(ctx context.Context, checkpoint func(ctx context.Context, name string) (int64, error), names []string, pos int64, timeout time.Duration) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		ch := c.next()
		done := true
		for _, n := range names {
			cp, err := checkpoint(ctx, n)
			if err != nil {
				return err
			}
			if cp < pos {
				done = false
				break
			}
		}
		if done {
			return nil
		}
		// Another process (paiju project) or node may be the one
		// projecting: poll as well as listen.
		select {
		case <-ch:
		case <-time.After(PollInterval):
		case <-timer.C:
			return fmt.Errorf("%w: position %d after %s", projections.ErrLagging, pos, timeout)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// CaughtUp waits until the projections names have applied every event
// that log held when it was called, as WaitFor does.
func (c *Changes) CaughtUp(ctx context.Context, log projections.Source, checkpoint func(ctx context.Context, name string) (int64, error), names []string, timeout time.Duration) error {
	head, _, err := log.Head(ctx)
	if err != nil {
		return fmt.Errorf("projections: log head: %w", err)
	}
	return c.WaitFor(ctx, checkpoint, names, head, timeout)
}
