package service

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrRequestInProgress: a command with the same Idempotency-Key is still
// running and did not finish within the wait; the caller should retry.
var ErrRequestInProgress = errors.New("service: a request with this Idempotency-Key is still in progress")

// inflightWait bounds how long a retry waits for the first call with its
// key before it is told to come back (ErrRequestInProgress).
const inflightWait = 10 * time.Second

// inflight lets a retry of an idempotent command that arrives while the
// first call is still running wait for that call and share its answer.
// Without it the retry would find no record of its key (the first call has
// not appended yet), decide against the table the first call is about to
// change, and answer with a rules error such as not_your_turn although the
// move it retries succeeded. The store's unique keys still decide between
// processes; this only spares same-process retries the misleading answer.
type inflight struct {
	mu    sync.Mutex
	calls map[string]*call
}

// call is one running command; done closes when res and err are set.
type call struct {
	done chan struct{}
	res  *Result
	err  error
}

// do runs fn once per key at a time: a caller that finds the key running
// waits for it and gets its result as a replay. Key "" runs fn alone.
func (f *inflight) do(ctx context.Context, key string, fn func() (*Result, error)) (*Result, error) {
	if key == "" {
		return fn()
	}
	for {
		f.mu.Lock()
		if f.calls == nil {
			f.calls = map[string]*call{}
		}
		c, running := f.calls[key]
		if !running {
			c = &call{done: make(chan struct{})}
			f.calls[key] = c
			f.mu.Unlock()
			return f.lead(key, c, fn)
		}
		f.mu.Unlock()
		t := time.NewTimer(inflightWait)
		select {
		case <-c.done:
			t.Stop()
		case <-t.C:
			return nil, ErrRequestInProgress
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
		if isContextErr(c.err) {
			// The first caller went away; its answer is not this one's.
			continue
		}
		if c.err != nil {
			return nil, c.err
		}
		res := *c.res
		res.Replayed = true
		return &res, nil
	}
}

func (f *inflight) lead(key string, c *call, fn func() (*Result, error)) (*Result, error) {
	// Should fn panic, the waiters get an error rather than a nil result.
	c.err = errors.New("service: the first call with this Idempotency-Key failed")
	defer func() {
		f.mu.Lock()
		delete(f.calls, key)
		f.mu.Unlock()
		close(c.done)
	}()
	c.res, c.err = fn()
	return c.res, c.err
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// inflightKey names an idempotent command for inflight: the caller's scope,
// the key and the request, so that a reuse of the key with another request
// is not handed this one's answer (it runs, and the store refuses it).
func inflightKey(p Player, cond Cond) string {
	if cond.IdempotencyKey == "" {
		return ""
	}
	return p.ID + "\x00" + cond.IdempotencyKey + "\x00" + cond.RequestHash
}
