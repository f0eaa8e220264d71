package changes

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"paiju/eventstore"
	"paiju/projections"
)

// checkpoints are positions by projection name, moved by the test.
type checkpoints struct {
	mu  sync.Mutex
	pos map[string]int64
}

func (c *checkpoints) get(_ context.Context, name string) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pos[name], nil
}

func (c *checkpoints) set(name string, pos int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pos[name] = pos
}

// TestWaitForWakesOnBroadcast: a waiter returns once every projection it
// waits for has reached the position, told by a broadcast.
func TestWaitForWakesOnBroadcast(t *testing.T) {
	var c Changes
	cps := &checkpoints{pos: map[string]int64{"a": 3, "b": 1}}
	done := make(chan error, 1)
	go func() { done <- c.WaitFor(t.Context(), cps.get, []string{"a", "b"}, 3, time.Hour) }()
	cps.set("b", 3)
	c.Broadcast()
	if err := <-done; err != nil {
		t.Errorf("WaitFor: %v, want nil once both reached 3", err)
	}
	if err := c.WaitFor(t.Context(), cps.get, []string{"a", "b"}, 2, time.Hour); err != nil {
		t.Errorf("WaitFor a position already passed: %v, want nil", err)
	}
}

// TestWaitForPolls: a checkpoint moved without a broadcast (by another
// process) is seen too.
func TestWaitForPolls(t *testing.T) {
	var c Changes
	cps := &checkpoints{pos: map[string]int64{}}
	done := make(chan error, 1)
	go func() { done <- c.WaitFor(t.Context(), cps.get, []string{"a"}, 1, time.Hour) }()
	cps.set("a", 1)
	if err := <-done; err != nil {
		t.Errorf("WaitFor: %v, want nil", err)
	}
}

// TestWaitForEnds: the wait ends after timeout with ErrLagging, at once
// with the context's error, and on a checkpoint's error.
func TestWaitForEnds(t *testing.T) {
	var c Changes
	cps := &checkpoints{pos: map[string]int64{}}
	if err := c.WaitFor(t.Context(), cps.get, []string{"a"}, 1, time.Millisecond); !errors.Is(err, projections.ErrLagging) {
		t.Errorf("WaitFor past its timeout: %v, want ErrLagging", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.WaitFor(ctx, cps.get, []string{"a"}, 1, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("WaitFor with a cancelled context: %v, want context.Canceled", err)
	}
	boom := errors.New("boom")
	failing := func(context.Context, string) (int64, error) { return 0, boom }
	if err := c.WaitFor(t.Context(), failing, []string{"a"}, 1, time.Hour); !errors.Is(err, boom) {
		t.Errorf("WaitFor with a failing checkpoint: %v, want its error", err)
	}
	c.Broadcast() // with no waiter: nothing to wake
}

// head is a log whose head is at its value.
type head int64

func (h head) Head(context.Context) (int64, string, error) { return int64(h), "", nil }

func (head) ReadAll(context.Context, int64, int) ([]eventstore.Event, error) { return nil, nil }

// TestCaughtUp waits for the head the log had when it was called.
func TestCaughtUp(t *testing.T) {
	var c Changes
	cps := &checkpoints{pos: map[string]int64{"a": 4}}
	if err := c.CaughtUp(t.Context(), head(4), cps.get, []string{"a"}, time.Hour); err != nil {
		t.Errorf("CaughtUp at the head: %v, want nil", err)
	}
	if err := c.CaughtUp(t.Context(), head(5), cps.get, []string{"a"}, time.Millisecond); !errors.Is(err, projections.ErrLagging) {
		t.Errorf("CaughtUp one event behind: %v, want ErrLagging", err)
	}
}
