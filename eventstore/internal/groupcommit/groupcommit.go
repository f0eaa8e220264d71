// Package groupcommit is the front every event store puts before its
// writer: appends queue for one writer goroutine, which takes one, gathers
// the appends already waiting behind it (up to Options.MaxBatch, waiting at
// most Options.MaxBatchWait for more) and hands the batch to the store's
// commit, which runs it in one transaction and answers each append on its
// own. The transaction, and its SQL, stay the store's.
package groupcommit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"paiju/eventstore"
)

// Request is one Append or AppendIdempotent call waiting for the writer.
type Request struct {
	Ctx      context.Context
	Stream   string
	Expected int
	Events   []eventstore.NewEvent
	Key      *eventstore.IdempotencyKey // nil for Append
	done     chan Response              // buffered: the writer never blocks on a reply
}

// NewRequest is a request as Append makes it, for a store's tests to run
// batches of their own.
func NewRequest(ctx context.Context, stream string, expected int, events []eventstore.NewEvent, key *eventstore.IdempotencyKey) *Request {
	return &Request{Ctx: ctx, Stream: stream, Expected: expected, Events: events, Key: key, done: make(chan Response, 1)}
}

// Response is what an append stored, or why it stored nothing.
type Response struct {
	Result eventstore.AppendResult
	Err    error
}

// Answer gives r's caller its outcome. The commit answers every request
// of its batch once, after the transaction's outcome is known.
func (r *Request) Answer(resp Response) { r.done <- resp }

// Wait returns r's outcome once it is answered.
func (r *Request) Wait() Response { return <-r.done }

// Options tune a Writer.
type Options struct {
	// MaxBatch bounds how many appends one batch holds; it must be
	// positive.
	MaxBatch int
	// MaxBatchWait is how long the writer waits for more appends once it
	// has one; 0 batches only the appends already waiting.
	MaxBatchWait time.Duration
	// UTF8 refuses, before they reach the writer, stream ids, types and
	// data that are not valid UTF-8 (PostgreSQL's text refuses them).
	UTF8 bool
	// OnCommit, if set, is called by Committed: see the stores' Options.
	OnCommit func(events, appends int, took time.Duration)
}

// Writer is the queue before a store's writer goroutine, and that
// goroutine. Its methods are safe for concurrent use.
type Writer struct {
	opts      Options
	commit    func(batch []*Request)
	reqs      chan *Request
	closing   chan struct{}
	done      chan struct{}
	closeOnce sync.Once

	commits atomic.Int64 // transactions the writer committed
	appends atomic.Int64 // appends those transactions stored
}

// Start starts the writer goroutine: commit receives each batch, in the
// order of the appends that make it up, and must answer every request of
// it (Request.Answer); it runs on the writer goroutine, one batch at a
// time.
func Start(opts Options, commit func(batch []*Request)) *Writer {
	w := &Writer{
		opts:    opts,
		commit:  commit,
		reqs:    make(chan *Request),
		closing: make(chan struct{}),
		done:    make(chan struct{}),
	}
	go w.run()
	return w
}

// Append queues an append and returns its outcome once the batch that took
// it is committed. A cancelled ctx stops an append that the writer has not
// yet taken; once taken, the append runs to its commit and Append reports
// its outcome, so that an error always means nothing was stored.
func (w *Writer) Append(ctx context.Context, stream string, expected int, events []eventstore.NewEvent) (eventstore.AppendResult, error) {
	return w.submit(ctx, stream, expected, events, nil)
}

// AppendIdempotent is Append with an idempotency key for the commit to
// record; the key needs a scope and a key.
func (w *Writer) AppendIdempotent(ctx context.Context, stream string, expected int, events []eventstore.NewEvent, key eventstore.IdempotencyKey) (eventstore.AppendResult, error) {
	if key.Scope == "" || key.Key == "" {
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: idempotency key needs a scope and a key", stream)
	}
	return w.submit(ctx, stream, expected, events, &key)
}

func (w *Writer) submit(ctx context.Context, stream string, expected int, events []eventstore.NewEvent, key *eventstore.IdempotencyKey) (eventstore.AppendResult, error) {
	if err := w.validate(stream, expected, events); err != nil {
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	}
	r := NewRequest(ctx, stream, expected, events, key)
	select {
	case w.reqs <- r:
	case <-ctx.Done():
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, ctx.Err())
	case <-w.closing:
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, eventstore.ErrClosed)
	}
	// The writer has taken r and always answers; waiting here, rather than
	// also on ctx, keeps "returned an error" meaning "stored nothing".
	resp := r.Wait()
	return resp.Result, resp.Err
}

func (w *Writer) validate(stream string, expected int, events []eventstore.NewEvent) error {
	switch {
	case stream == "":
		return errors.New("empty stream id")
	case w.opts.UTF8 && !utf8.ValidString(stream):
		return errors.New("stream id is not valid UTF-8")
	case expected < 0:
		return fmt.Errorf("negative expected version %d", expected)
	case len(events) == 0:
		return errors.New("no events")
	}
	for i, e := range events {
		switch {
		case e.Type == "":
			return fmt.Errorf("event %d: empty type", i)
		case w.opts.UTF8 && !utf8.ValidString(e.Type):
			return fmt.Errorf("event %d: type is not valid UTF-8", i)
		case !json.Valid(e.Data):
			return fmt.Errorf("event %d (%s): data is not valid JSON", i, e.Type)
		case w.opts.UTF8 && !utf8.Valid(e.Data):
			return fmt.Errorf("event %d (%s): data is not valid UTF-8", i, e.Type)
		}
	}
	return nil
}

// run takes one request, gathers the requests already waiting behind it,
// and commits them together.
func (w *Writer) run() {
	defer close(w.done)
	batch := make([]*Request, 0, w.opts.MaxBatch)
	for {
		select {
		case r := <-w.reqs:
			batch = append(batch[:0], r)
		case <-w.closing:
			return
		}
		batch = w.gather(batch)
		w.commit(batch)
		clear(batch) // let the requests' events be collected
	}
}

// gather adds waiting requests to batch, up to MaxBatch, waiting at most
// MaxBatchWait for more to arrive.
func (w *Writer) gather(batch []*Request) []*Request {
	var deadline <-chan time.Time
	if w.opts.MaxBatchWait > 0 {
		t := time.NewTimer(w.opts.MaxBatchWait)
		defer t.Stop()
		deadline = t.C
	}
	for len(batch) < w.opts.MaxBatch {
		if deadline == nil {
			r, ok := w.Waiting()
			if !ok {
				return batch
			}
			batch = append(batch, r)
			continue
		}
		select {
		case r := <-w.reqs:
			batch = append(batch, r)
		case <-deadline:
			return batch
		case <-w.closing:
			return batch
		}
	}
	return batch
}

// Waiting takes a request waiting now, if there is one, without waiting
// for one: for a commit that takes in the appends that arrive while it
// waits for a lock. Only the commit may call it, on the writer goroutine.
func (w *Writer) Waiting() (*Request, bool) {
	select {
	case r := <-w.reqs:
		return r, true
	default:
		return nil, false
	}
}

// Committed counts a transaction that stored events, how many events and
// appends it held and how long it took, and tells Options.OnCommit.
func (w *Writer) Committed(events, appends int, took time.Duration) {
	w.commits.Add(1)
	w.appends.Add(int64(appends))
	if w.opts.OnCommit != nil {
		w.opts.OnCommit(events, appends, took)
	}
}

// Stats returns how many transactions Committed counted, and how many
// appends they stored.
func (w *Writer) Stats() (commits, appends int64) {
	return w.commits.Load(), w.appends.Load()
}

// Close stops the writer: appends waiting for it fail with
// eventstore.ErrClosed; the batch it took is committed (or failed) and
// answered first. Close returns once the writer has stopped, and is
// idempotent.
func (w *Writer) Close() {
	w.closeOnce.Do(func() { close(w.closing) })
	<-w.done
}
