package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"paiju/eventstore"
	"paiju/eventstore/internal/groupcommit"
)

// chainHead is the last event of the log, which the next event links to.
type chainHead struct {
	pos  int64
	hash string
}

// Append implements eventstore.Log. The events are durable when it returns
// nil. A cancelled ctx stops an append that the writer has not yet started;
// once started, the append runs to its commit and Append reports its outcome.
func (s *Store) Append(ctx context.Context, stream string, expected int, events []eventstore.NewEvent) (eventstore.AppendResult, error) {
	return s.writer.Append(ctx, stream, expected, events)
}

// AppendIdempotent is Append that also records key in the same transaction.
// If key's (Scope, Key) is already recorded it stores nothing and returns a
// *eventstore.DuplicateKeyError holding the earlier record; this check comes
// before the expected-version check, so a retry of an append that succeeded
// is recognised even though the stream has moved on.
func (s *Store) AppendIdempotent(ctx context.Context, stream string, expected int, events []eventstore.NewEvent, key eventstore.IdempotencyKey) (eventstore.AppendResult, error) {
	return s.writer.AppendIdempotent(ctx, stream, expected, events, key)
}

// commit runs batch in one transaction and answers every request after the
// commit. Each request succeeds or fails on its own: a conflict or a
// duplicate key of one does not affect the others. Only a failure of the
// transaction itself (BEGIN, COMMIT, I/O) fails them all.
func (s *Store) commit(batch []*groupcommit.Request) {
	resps := make([]groupcommit.Response, len(batch))
	live := batch[:0:0]
	liveIdx := make([]int, 0, len(batch))
	for i, r := range batch {
		if err := r.Ctx.Err(); err != nil {
			resps[i].Err = fmt.Errorf("append to %s: %w", r.Stream, err)
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
			if err != nil && resps[i].Err == nil {
				resps[i] = groupcommit.Response{Err: fmt.Errorf("append to %s: %w", batch[i].Stream, err)}
			}
		}
		if err == nil && stored > 0 {
			s.publishHead(head)
			s.writer.Committed(eventsIn(live, liveResps), stored, took)
		}
	}
	for i, r := range batch {
		r.Answer(resps[i])
	}
}

// eventsIn counts the events of the requests of batch that stored them.
func eventsIn(batch []*groupcommit.Request, resps []groupcommit.Response) int {
	n := 0
	for i, r := range batch {
		if resps[i].Err == nil {
			n += len(r.Events)
		}
	}
	return n
}

// runBatch appends each request of batch in one transaction. It returns each
// request's own outcome, the chain head after the commit, how many requests
// stored events, and an error if the transaction as a whole failed (then
// nothing was stored).
//
// A batch of several requests is first run grouped: every check of every
// request, then all their events in a few multi-row inserts, with no
// savepoints, since the failures a request expects (a conflict, a known key)
// are found before it writes anything. Anything else that fails a request
// (an insert, a position the log skipped) rolls the grouped attempt back
// and the batch is run again one request at a time, each in a savepoint,
// so that the failure stays that request's alone.
func (s *Store) runBatch(batch []*groupcommit.Request) (resps []groupcommit.Response, head chainHead, stored int, err error) {
	if len(batch) > 1 {
		resps, head, stored, err = s.runTx(batch, true)
		if !errors.Is(err, errUngroup) {
			return resps, head, stored, err
		}
	}
	return s.runTx(batch, false)
}

// errUngroup asks runBatch to run a batch again one request at a time.
var errUngroup = errors.New("a request of the grouped batch failed unexpectedly")

// batchState is what a transaction has appended so far.
type batchState struct {
	head     chainHead
	versions map[string]int // the streams this transaction appended to, and their version now
	rows     []eventRow     // events checked and hashed, not yet inserted
	inserted int64          // the position of the last event inserted
	recent   []eventstore.Event
	now      int64 // the events' recorded_at
}

// eventRow is an event's row in the events table.
type eventRow struct {
	stream, typ, data, prevHash, hash string
	version                           int
}

func (s *Store) runTx(batch []*groupcommit.Request, grouped bool) (resps []groupcommit.Response, head chainHead, stored int, err error) {
	// Not a request's context: the transaction is shared, and one caller
	// giving up must not roll back the others. busy_timeout bounds the wait.
	ctx := context.Background()
	resps = make([]groupcommit.Response, len(batch))
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
	b := &batchState{versions: make(map[string]int, len(batch))}
	b.head, err = readHead(st.bind(st.w.head).QueryRowContext(ctx))
	if err != nil {
		return resps, head, 0, err
	}
	b.inserted = b.head.pos
	now := s.opts.Now().UTC().UnixNano()
	b.now = now
	// Savepoints let one request's unexpected failure be undone without the
	// others'. A batch of one needs none: its failure fails the transaction.
	useSavepoints := !grouped && len(batch) > 1
	for i, r := range batch {
		if useSavepoints {
			if _, err := st.bind(st.w.savepoint).ExecContext(ctx); err != nil {
				return resps, head, 0, fmt.Errorf("savepoint: %w", err)
			}
		}
		undo := b.mark(r.Stream)
		res, aerr := st.appendOne(ctx, r, b, now)
		if aerr == nil && !grouped {
			aerr = st.flush(ctx, b)
		}
		if aerr != nil {
			if grouped && !expectedFailure(aerr) {
				return resps, head, 0, errUngroup
			}
			resps[i].Err = fmt.Errorf("append to %s: %w", r.Stream, aerr)
			undo()
			if !useSavepoints && !grouped {
				break
			}
			if useSavepoints {
				if _, err := st.bind(st.w.rollbackTo).ExecContext(ctx); err != nil {
					return resps, head, 0, fmt.Errorf("roll back to savepoint: %w", err)
				}
			}
		}
		if useSavepoints {
			if _, err := st.bind(st.w.release).ExecContext(ctx); err != nil {
				return resps, head, 0, fmt.Errorf("release savepoint: %w", err)
			}
		}
		if aerr != nil {
			continue
		}
		resps[i].Result = res
		stored++
	}
	if stored == 0 {
		// Nothing to make durable: skip the commit's fsync.
		if err := tx.Rollback(); err != nil {
			return resps, head, 0, fmt.Errorf("roll back: %w", err)
		}
		return resps, b.head, 0, nil
	}
	if err := st.flush(ctx, b); err != nil {
		if grouped {
			return resps, head, 0, errUngroup
		}
		return resps, head, 0, fmt.Errorf("insert events: %w", err) // not reached: each append flushed its own
	}
	if err := tx.Commit(); err != nil {
		return resps, head, 0, fmt.Errorf("commit: %w", err)
	}
	s.recent.add(b.recent)
	return resps, b.head, stored, nil
}

// mark returns what undoes the state of b changed by a request on stream
// that then failed.
func (b *batchState) mark(stream string) func() {
	head, inserted, rows, recent := b.head, b.inserted, len(b.rows), len(b.recent)
	version, had := b.versions[stream]
	return func() {
		b.head, b.inserted, b.rows, b.recent = head, inserted, b.rows[:rows], b.recent[:recent]
		if had {
			b.versions[stream] = version
		} else {
			delete(b.versions, stream)
		}
	}
}

// expectedFailure tells the failures an append reports before it writes
// anything.
func expectedFailure(err error) bool {
	var conflict *eventstore.ConflictError
	var dup *eventstore.DuplicateKeyError
	return errors.As(err, &conflict) || errors.As(err, &dup)
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

// appendOne checks one request, records its idempotency key, and queues
// its events, hashed and placed after b's head, for flush to insert; it
// returns the request's result. Expected failures (a duplicate key, a
// version conflict) are found before anything is written.
func (st *txStmts) appendOne(ctx context.Context, r *groupcommit.Request, b *batchState, now int64) (eventstore.AppendResult, error) {
	current, ok := b.versions[r.Stream]
	if !ok {
		if err := st.bind(st.w.version).QueryRowContext(ctx, r.Stream).Scan(&current); err != nil {
			return eventstore.AppendResult{}, fmt.Errorf("read stream version: %w", err)
		}
	}
	if current != r.Expected {
		// A known key comes first: a retry of an append that landed is
		// told so even though its stream has moved on.
		if r.Key != nil {
			if err := st.duplicate(ctx, r.Key); err != nil {
				return eventstore.AppendResult{}, err
			}
		}
		return eventstore.AppendResult{}, &eventstore.ConflictError{Stream: r.Stream, Expected: r.Expected, Actual: current}
	}
	last := current + len(r.Events)
	if r.Key != nil {
		// Recording the key first finds a known one in the same
		// statement; the transaction or the savepoint undoes the row if
		// the events then fail.
		out, err := st.bind(st.w.insertKey).ExecContext(ctx, r.Key.Scope, r.Key.Key, r.Key.RequestHash, r.Stream, current+1, last, now)
		if err != nil {
			return eventstore.AppendResult{}, fmt.Errorf("record idempotency key: %w", err)
		}
		n, err := out.RowsAffected()
		if err != nil {
			return eventstore.AppendResult{}, fmt.Errorf("record idempotency key: %w", err)
		}
		if n == 0 {
			if err := st.duplicate(ctx, r.Key); err != nil {
				return eventstore.AppendResult{}, err
			}
			return eventstore.AppendResult{}, fmt.Errorf("record idempotency key %q of %s: neither stored nor found", r.Key.Key, r.Key.Scope)
		}
	}
	res := eventstore.AppendResult{Positions: make([]int64, len(r.Events)), Version: last, RecordedAt: time.Unix(0, now).UTC()}
	for i, e := range r.Events {
		version := current + i + 1
		hash := st.w.hasher.Sum(b.head.hash, r.Stream, version, e.Type, e.Data)
		data := string(e.Data)
		b.rows = append(b.rows, eventRow{stream: r.Stream, version: version, typ: e.Type, data: data, prevHash: b.head.hash, hash: hash})
		pos := b.head.pos + 1
		b.recent = append(b.recent, eventstore.Event{Position: pos, Stream: r.Stream, Version: version, Type: e.Type,
			Data: []byte(data), RecordedAt: res.RecordedAt, PrevHash: b.head.hash, Hash: hash})
		res.Positions[i] = pos
		b.head = chainHead{pos: pos, hash: hash}
	}
	b.versions[r.Stream] = last
	return res, nil
}

// duplicate returns the *eventstore.DuplicateKeyError of key if it is
// recorded, nil if not.
func (st *txStmts) duplicate(ctx context.Context, key *eventstore.IdempotencyKey) error {
	rec, found, err := scanner.Idempotency(st.bind(st.w.lookupKey).QueryRowContext(ctx, key.Scope, key.Key), key.Scope, key.Key)
	if err != nil {
		return err
	}
	if found {
		return &eventstore.DuplicateKeyError{Record: rec}
	}
	return nil
}

// flush inserts the events b holds, in as few statements as the prepared
// multi-row inserts allow, and checks that they took the positions they
// were hashed for.
func (st *txStmts) flush(ctx context.Context, b *batchState) error {
	rows := b.rows
	for len(rows) > 0 {
		n := insertRows(len(rows))
		stmt, err := st.insertN(n)
		if err != nil {
			return err
		}
		args := st.w.args[:0]
		for _, r := range rows[:n] {
			args = append(args, r.stream, r.version, r.typ, r.data, b.now, r.prevHash, r.hash)
		}
		st.w.args = args
		out, err := stmt.ExecContext(ctx, args...)
		clear(args)
		if err != nil {
			return fmt.Errorf("insert version %d of %s: %w", rows[0].version, rows[0].stream, err)
		}
		last, err := out.LastInsertId()
		if err != nil {
			return fmt.Errorf("insert version %d of %s: %w", rows[0].version, rows[0].stream, err)
		}
		if want := b.inserted + int64(n); last != want {
			// AUTOINCREMENT skipped positions, so events were removed
			// from the tail: refuse to build on a log that lost its end.
			return &eventstore.ChainError{Position: b.inserted + 1,
				Reason: fmt.Sprintf("the log ends at %d but positions up to %d were used", b.inserted, last-int64(n))}
		}
		b.inserted = last
		rows = rows[n:]
	}
	b.rows = b.rows[:0]
	return nil
}
