package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"paiju/eventstore"
)

// appendRequest is one Append or AppendIdempotent call waiting for the writer.
type appendRequest struct {
	ctx      context.Context
	stream   string
	expected int
	events   []eventstore.NewEvent
	key      *eventstore.IdempotencyKey
	done     chan appendResponse // buffered: the writer never blocks on a reply
}

type appendResponse struct {
	res eventstore.AppendResult
	err error
}

// chainHead is the last event of the log, which the next event links to.
type chainHead struct {
	pos  int64
	hash string
}

// Append implements eventstore.Store. The events are durable when it returns
// nil. A cancelled ctx stops an append that the writer has not yet started;
// once started, the append runs to its commit and Append reports its outcome.
func (s *Store) Append(ctx context.Context, stream string, expected int, events []eventstore.NewEvent) (eventstore.AppendResult, error) {
	return s.submit(ctx, stream, expected, events, nil)
}

// AppendIdempotent is Append that also records key in the same transaction.
// If key's (Scope, Key) is already recorded it stores nothing and returns a
// *eventstore.DuplicateKeyError holding the earlier record; this check comes
// before the expected-version check, so a retry of an append that succeeded
// is recognised even though the stream has moved on.
func (s *Store) AppendIdempotent(ctx context.Context, stream string, expected int, events []eventstore.NewEvent, key eventstore.IdempotencyKey) (eventstore.AppendResult, error) {
	if key.Scope == "" || key.Key == "" {
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: idempotency key needs a scope and a key", stream)
	}
	return s.submit(ctx, stream, expected, events, &key)
}

func (s *Store) submit(ctx context.Context, stream string, expected int, events []eventstore.NewEvent, key *eventstore.IdempotencyKey) (eventstore.AppendResult, error) {
	if err := validateAppend(stream, expected, events); err != nil {
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, err)
	}
	r := &appendRequest{ctx: ctx, stream: stream, expected: expected, events: events, key: key, done: make(chan appendResponse, 1)}
	select {
	case s.reqs <- r:
	case <-ctx.Done():
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, ctx.Err())
	case <-s.closing:
		return eventstore.AppendResult{}, fmt.Errorf("append to %s: %w", stream, eventstore.ErrClosed)
	}
	// The writer has taken r and always answers; waiting here, rather than
	// also on ctx, keeps "returned an error" meaning "stored nothing".
	resp := <-r.done
	return resp.res, resp.err
}

func validateAppend(stream string, expected int, events []eventstore.NewEvent) error {
	switch {
	case stream == "":
		return errors.New("empty stream id")
	case expected < 0:
		return fmt.Errorf("negative expected version %d", expected)
	case len(events) == 0:
		return errors.New("no events")
	}
	for i, e := range events {
		if e.Type == "" {
			return fmt.Errorf("event %d: empty type", i)
		}
		if !json.Valid(e.Data) {
			return fmt.Errorf("event %d (%s): data is not valid JSON", i, e.Type)
		}
	}
	return nil
}

// writer owns the write connection for appends. It takes one request, gathers
// the requests already waiting behind it, and commits them together.
func (s *Store) writer() {
	defer close(s.writerDone)
	batch := make([]*appendRequest, 0, s.opts.MaxBatch)
	for {
		select {
		case r := <-s.reqs:
			batch = append(batch[:0], r)
		case <-s.closing:
			return
		}
		batch = s.gather(batch)
		s.commit(batch)
		clear(batch) // let the requests' events be collected
	}
}

// gather adds waiting requests to batch, up to MaxBatch, waiting at most
// MaxBatchWait for more to arrive.
func (s *Store) gather(batch []*appendRequest) []*appendRequest {
	var deadline <-chan time.Time
	if s.opts.MaxBatchWait > 0 {
		t := time.NewTimer(s.opts.MaxBatchWait)
		defer t.Stop()
		deadline = t.C
	}
	for len(batch) < s.opts.MaxBatch {
		if deadline == nil {
			select {
			case r := <-s.reqs:
				batch = append(batch, r)
				continue
			default:
				return batch
			}
		}
		select {
		case r := <-s.reqs:
			batch = append(batch, r)
		case <-deadline:
			return batch
		case <-s.closing:
			return batch
		}
	}
	return batch
}

// commit runs batch in one transaction and answers every request after the
// commit. Each request succeeds or fails on its own: a conflict or a
// duplicate key of one does not affect the others. Only a failure of the
// transaction itself (BEGIN, COMMIT, I/O) fails them all.
func (s *Store) commit(batch []*appendRequest) {
	resps := make([]appendResponse, len(batch))
	live := batch[:0:0]
	liveIdx := make([]int, 0, len(batch))
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			resps[i].err = fmt.Errorf("append to %s: %w", r.stream, err)
			continue
		}
		live = append(live, r)
		liveIdx = append(liveIdx, i)
	}
	if len(live) > 0 {
		start := time.Now()
		liveResps, head, stored, err := s.runBatch(live)
		took := time.Since(start)
		for j, i := range liveIdx {
			resps[i] = liveResps[j]
			if err != nil && resps[i].err == nil {
				resps[i] = appendResponse{err: fmt.Errorf("append to %s: %w", batch[i].stream, err)}
			}
		}
		if err == nil && stored > 0 {
			s.commits.Add(1)
			s.appends.Add(int64(stored))
			s.publishHead(head)
			if s.opts.OnCommit != nil {
				s.opts.OnCommit(eventsIn(live, liveResps), stored, took)
			}
		}
	}
	for i, r := range batch {
		r.done <- resps[i]
	}
}

// eventsIn counts the events of the requests of batch that stored them.
func eventsIn(batch []*appendRequest, resps []appendResponse) int {
	n := 0
	for i, r := range batch {
		if resps[i].err == nil {
			n += len(r.events)
		}
	}
	return n
}

// runBatch appends each request of batch in one transaction. It returns each
// request's own outcome, the chain head after the commit, how many requests
// stored events, and an error if the transaction as a whole failed (then
// nothing was stored).
func (s *Store) runBatch(batch []*appendRequest) (resps []appendResponse, head chainHead, stored int, err error) {
	// Not a request's context: the transaction is shared, and one caller
	// giving up must not roll back the others. busy_timeout bounds the wait.
	ctx := context.Background()
	resps = make([]appendResponse, len(batch))
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return resps, head, 0, fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	st := s.stmts.in(ctx, tx)
	head, err = readHead(st.head.QueryRowContext(ctx))
	if err != nil {
		return resps, head, 0, err
	}
	now := s.opts.Now().UTC().UnixNano()
	// Savepoints let one request's unexpected failure be undone without the
	// others'. A batch of one needs none: its failure fails the transaction.
	useSavepoints := len(batch) > 1
	for i, r := range batch {
		if useSavepoints {
			if _, err := st.savepoint.ExecContext(ctx); err != nil {
				return resps, head, 0, fmt.Errorf("savepoint: %w", err)
			}
		}
		res, next, aerr := st.appendOne(ctx, r, head, now)
		if aerr != nil {
			resps[i].err = fmt.Errorf("append to %s: %w", r.stream, aerr)
			if !useSavepoints {
				break
			}
			if _, err := st.rollbackTo.ExecContext(ctx); err != nil {
				return resps, head, 0, fmt.Errorf("roll back to savepoint: %w", err)
			}
		}
		if useSavepoints {
			if _, err := st.release.ExecContext(ctx); err != nil {
				return resps, head, 0, fmt.Errorf("release savepoint: %w", err)
			}
		}
		if aerr != nil {
			continue
		}
		resps[i].res = res
		head = next
		stored++
	}
	if stored == 0 {
		// Nothing to make durable: skip the commit's fsync.
		if err := tx.Rollback(); err != nil {
			return resps, head, 0, fmt.Errorf("roll back: %w", err)
		}
		return resps, head, 0, nil
	}
	if err := tx.Commit(); err != nil {
		return resps, head, 0, fmt.Errorf("commit: %w", err)
	}
	return resps, head, stored, nil
}

func readHead(row *sql.Row) (chainHead, error) {
	var h chainHead
	err := row.Scan(&h.pos, &h.hash)
	if errors.Is(err, sql.ErrNoRows) {
		return chainHead{}, nil
	}
	if err != nil {
		return chainHead{}, fmt.Errorf("read chain head: %w", err)
	}
	return h, nil
}

// appendOne stores one request's events after head and returns the result
// and the new head. Expected failures (a duplicate key, a version conflict)
// are found before anything is written.
func (st txStmts) appendOne(ctx context.Context, r *appendRequest, head chainHead, now int64) (eventstore.AppendResult, chainHead, error) {
	if r.key != nil {
		rec, found, err := scanIdempotency(st.lookupKey.QueryRowContext(ctx, r.key.Scope, r.key.Key), r.key.Scope, r.key.Key)
		if err != nil {
			return eventstore.AppendResult{}, head, err
		}
		if found {
			return eventstore.AppendResult{}, head, &eventstore.DuplicateKeyError{Record: rec}
		}
	}
	var current int
	if err := st.version.QueryRowContext(ctx, r.stream).Scan(&current); err != nil {
		return eventstore.AppendResult{}, head, fmt.Errorf("read stream version: %w", err)
	}
	if current != r.expected {
		return eventstore.AppendResult{}, head, &eventstore.ConflictError{Stream: r.stream, Expected: r.expected, Actual: current}
	}
	res := eventstore.AppendResult{Positions: make([]int64, len(r.events))}
	for i, e := range r.events {
		version := current + i + 1
		hash := eventstore.Hash(head.hash, r.stream, version, e.Type, e.Data)
		out, err := st.insert.ExecContext(ctx, r.stream, version, e.Type, string(e.Data), now, head.hash, hash)
		if err != nil {
			return eventstore.AppendResult{}, head, fmt.Errorf("insert version %d: %w", version, err)
		}
		pos, err := out.LastInsertId()
		if err != nil {
			return eventstore.AppendResult{}, head, fmt.Errorf("insert version %d: %w", version, err)
		}
		if pos != head.pos+1 {
			// AUTOINCREMENT skipped a position, so events were removed from
			// the tail: refuse to build on a log that lost its end.
			return eventstore.AppendResult{}, head, &eventstore.ChainError{Position: head.pos + 1,
				Reason: fmt.Sprintf("the log ends at %d but positions up to %d were used", head.pos, pos-1)}
		}
		res.Positions[i] = pos
		head = chainHead{pos: pos, hash: hash}
	}
	res.Version = current + len(r.events)
	res.RecordedAt = time.Unix(0, now).UTC()
	if r.key != nil {
		_, err := st.insertKey.ExecContext(ctx, r.key.Scope, r.key.Key, r.key.RequestHash, r.stream, current+1, res.Version, now)
		if err != nil {
			return eventstore.AppendResult{}, head, fmt.Errorf("record idempotency key: %w", err)
		}
	}
	return res, head, nil
}
