package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

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

// Append implements eventstore.Log. The events are durable when it returns
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
	case !utf8.ValidString(stream):
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
		case !utf8.ValidString(e.Type):
			return fmt.Errorf("event %d: type is not valid UTF-8", i)
		case !json.Valid(e.Data):
			return fmt.Errorf("event %d (%s): data is not valid JSON", i, e.Type)
		case !utf8.Valid(e.Data):
			// PostgreSQL's text refuses it; say so before the transaction.
			return fmt.Errorf("event %d (%s): data is not valid UTF-8", i, e.Type)
		}
	}
	return nil
}

// writer takes one request, gathers the requests already waiting behind it,
// and commits them together.
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
// commit.
func (s *Store) commit(batch []*appendRequest) {
	live := dropCancelled(nil, batch)
	if len(live) == 0 {
		return
	}
	live, resps := s.runLive(live)
	for i, r := range live {
		r.done <- resps[i]
	}
}

// dropCancelled appends to live the requests of more whose callers still
// wait, and answers the others.
func dropCancelled(live, more []*appendRequest) []*appendRequest {
	for _, r := range more {
		if err := r.ctx.Err(); err != nil {
			r.done <- appendResponse{err: fmt.Errorf("append to %s: %w", r.stream, err)}
			continue
		}
		live = append(live, r)
	}
	return live
}

// gatherMore adds the requests waiting now to batch, up to MaxBatch.
func (s *Store) gatherMore(batch []*appendRequest) []*appendRequest {
	for len(batch) < s.opts.MaxBatch {
		select {
		case r := <-s.reqs:
			batch = dropCancelled(batch, []*appendRequest{r})
		default:
			return batch
		}
	}
	return batch
}

// runLive commits live in one transaction, which may take in appends that
// arrive while it waits for the chain lock; it returns the requests it ran
// and their outcomes. If the database refused one of the writes (the
// transaction rolled back, nothing is stored), each request is tried again
// in a transaction of its own, so that the one at fault fails alone. Other
// failures (the connection, COMMIT) fail every request: their outcome may
// be unknown, and a retry must be the caller's decision.
func (s *Store) runLive(live []*appendRequest) ([]*appendRequest, []appendResponse) {
	live, resps, err := s.runBatchTimed(live, true)
	var pgErr *pgconn.PgError
	if err != nil && len(live) > 1 && errors.As(err, &pgErr) && !errors.Is(err, errCommit) {
		s.opts.Logger.Warn("event store: a group commit was refused; committing its appends one by one", "appends", len(live), "err", err)
		for i, r := range live {
			_, one, err := s.runBatchTimed([]*appendRequest{r}, false)
			resps[i] = one[0]
			if err != nil && resps[i].err == nil {
				resps[i] = appendResponse{err: fmt.Errorf("append to %s: %w", r.stream, err)}
			}
		}
		return live, resps
	}
	if err != nil {
		for i, r := range live {
			if resps[i].err == nil {
				resps[i] = appendResponse{err: fmt.Errorf("append to %s: %w", r.stream, err)}
			}
		}
	}
	return live, resps
}

// errCommit marks a failed COMMIT, whose outcome the store cannot know.
var errCommit = errors.New("commit")

func (s *Store) runBatchTimed(batch []*appendRequest, grow bool) ([]*appendRequest, []appendResponse, error) {
	start := time.Now()
	batch, resps, events, stored, err := s.runBatch(batch, grow)
	if err == nil && stored > 0 {
		s.commits.Add(1)
		s.appends.Add(int64(stored))
		if s.opts.OnCommit != nil {
			s.opts.OnCommit(events, stored, time.Since(start))
		}
	}
	return batch, resps, err
}

// The statements of an append transaction. Versions are read per stream
// with the (stream, version) index's last entry; inserts take arrays, so
// that a batch is one statement whatever its size.
const (
	sqlTryLock  = `SELECT pg_try_advisory_xact_lock($1, $2)`
	sqlLock     = `SELECT pg_advisory_xact_lock($1, $2)`
	sqlHead     = `SELECT position, hash FROM chain_head`
	sqlVersions = `SELECT s, coalesce((SELECT max(version) FROM events WHERE stream = s), 0) FROM unnest($1::text[]) AS s`
	sqlKeys     = `SELECT i.scope, i.key, i.request_hash, i.stream, i.first_version, i.last_version, i.created_at
		FROM unnest($1::text[], $2::text[]) AS k(scope, key)
		JOIN idempotency i ON i.scope = k.scope AND i.key = k.key`
	sqlInsertEvents = `INSERT INTO events (position, stream, version, type, data, recorded_at, prev_hash, hash)
		SELECT p, s, v, t, d, $6, ph, h FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::text[], $7::text[], $8::text[]) AS x(p, s, v, t, d, ph, h)`
	sqlInsertKeys = `INSERT INTO idempotency (scope, key, request_hash, stream, first_version, last_version, created_at)
		SELECT sc, k, rh, s, fv, lv, $7 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[]) AS x(sc, k, rh, s, fv, lv)`
	sqlSetHead = `UPDATE chain_head SET position = $1, hash = $2`
)

type scopedKey struct{ scope, key string }

// chainState is what a batch is decided on: the chain head, the versions
// of its streams and the idempotency keys already used.
type chainState struct {
	head     chainHead
	versions map[string]int
	used     map[scopedKey]eventstore.IdempotencyRecord
}

// readState reads the chain state for batch in one round trip. With
// tryLock it first tries to take the chain lock and reports whether it got
// it; without the lock the state read is worthless (another node may be
// extending the chain) and the caller must take the lock and read again.
func readState(ctx context.Context, tx pgx.Tx, batch []*appendRequest, tryLock bool) (st chainState, locked bool, err error) {
	streams := make([]string, 0, len(batch))
	seen := make(map[string]bool, len(batch))
	var scopes, keys []string
	for _, r := range batch {
		if !seen[r.stream] {
			seen[r.stream] = true
			streams = append(streams, r.stream)
		}
		if r.key != nil {
			scopes = append(scopes, r.key.Scope)
			keys = append(keys, r.key.Key)
		}
	}
	st = chainState{versions: make(map[string]int, len(streams)), used: make(map[scopedKey]eventstore.IdempotencyRecord)}
	locked = !tryLock
	b := &pgx.Batch{}
	if tryLock {
		b.Queue(sqlTryLock, ChainLock[0], ChainLock[1]).QueryRow(func(row pgx.Row) error {
			if err := row.Scan(&locked); err != nil {
				return fmt.Errorf("take the chain lock: %w", err)
			}
			return nil
		})
	}
	b.Queue(sqlHead).QueryRow(func(row pgx.Row) error {
		if err := row.Scan(&st.head.pos, &st.head.hash); err != nil {
			return fmt.Errorf("read chain head: %w", err)
		}
		return nil
	})
	b.Queue(sqlVersions, streams).Query(func(rows pgx.Rows) error {
		var (
			stream string
			v      int
		)
		_, err := pgx.ForEachRow(rows, []any{&stream, &v}, func() error { st.versions[stream] = v; return nil })
		if err != nil {
			return fmt.Errorf("read stream versions: %w", err)
		}
		return nil
	})
	if len(keys) > 0 {
		b.Queue(sqlKeys, scopes, keys).Query(func(rows pgx.Rows) error {
			var rec eventstore.IdempotencyRecord
			_, err := pgx.ForEachRow(rows, []any{&rec.Scope, &rec.Key, &rec.RequestHash, &rec.Stream, &rec.FirstVersion, &rec.LastVersion, &rec.CreatedAt},
				func() error {
					rec.CreatedAt = rec.CreatedAt.UTC()
					st.used[scopedKey{rec.Scope, rec.Key}] = rec
					return nil
				})
			if err != nil {
				return fmt.Errorf("read idempotency keys: %w", err)
			}
			return nil
		})
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return st, false, err
	}
	return st, locked, nil
}

// runBatch appends each request of batch in one transaction. It returns the
// requests it ran (batch, and with grow the appends that arrived while it
// waited for the chain lock), each one's own outcome, how many events and
// requests were stored, and an error if the transaction as a whole failed
// (then nothing was stored, unless the error wraps errCommit: then the
// outcome is unknown).
func (s *Store) runBatch(batch []*appendRequest, grow bool) (_ []*appendRequest, resps []appendResponse, events, stored int, err error) {
	// Not a request's context: the transaction is shared, and one caller
	// giving up must not roll back the others.
	ctx := context.Background()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return batch, make([]appendResponse, len(batch)), 0, 0, fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if err != nil || stored == 0 {
			tx.Rollback(ctx)
		}
	}()

	// Round trip 1: try the lock and read the state. Uncontended, that is
	// all; when another node holds the chain, wait for it, take in the
	// appends that arrived meanwhile (so that a node's batches grow with
	// the wait instead of queueing) and read the state again.
	st, locked, err := readState(ctx, tx, batch, true)
	if err == nil && !locked {
		if _, err = tx.Exec(ctx, sqlLock, ChainLock[0], ChainLock[1]); err != nil {
			err = fmt.Errorf("take the chain lock: %w", err)
		} else {
			if grow {
				batch = s.gatherMore(batch)
			}
			st, _, err = readState(ctx, tx, batch, false)
		}
	}
	resps = make([]appendResponse, len(batch))
	if err != nil {
		return batch, resps, 0, 0, err
	}

	// Decide each request in order, as if they ran one after another.
	now := s.opts.Now().UTC().Truncate(time.Microsecond)
	head := st.head
	var (
		ins                               eventRows
		kScopes, kKeys, kHashes, kStreams []string
		kFirst, kLast                     []int32
	)
	for i, r := range batch {
		if r.key != nil {
			if rec, ok := st.used[scopedKey{r.key.Scope, r.key.Key}]; ok {
				resps[i].err = fmt.Errorf("append to %s: %w", r.stream, &eventstore.DuplicateKeyError{Record: rec})
				continue
			}
		}
		current := st.versions[r.stream]
		if current != r.expected {
			resps[i].err = fmt.Errorf("append to %s: %w", r.stream, &eventstore.ConflictError{Stream: r.stream, Expected: r.expected, Actual: current})
			continue
		}
		res := eventstore.AppendResult{Positions: make([]int64, len(r.events)), Version: current + len(r.events), RecordedAt: now}
		for j, e := range r.events {
			version := current + j + 1
			hash := eventstore.Hash(head.hash, r.stream, version, e.Type, e.Data)
			ins.add(head.pos+1, r.stream, version, e.Type, e.Data, head.hash, hash)
			head = chainHead{pos: head.pos + 1, hash: hash}
			res.Positions[j] = head.pos
		}
		st.versions[r.stream] = res.Version
		if r.key != nil {
			rec := eventstore.IdempotencyRecord{Scope: r.key.Scope, Key: r.key.Key, RequestHash: r.key.RequestHash,
				Stream: r.stream, FirstVersion: current + 1, LastVersion: res.Version, CreatedAt: now}
			st.used[scopedKey{rec.Scope, rec.Key}] = rec // a second use in this batch is a duplicate
			kScopes = append(kScopes, rec.Scope)
			kKeys = append(kKeys, rec.Key)
			kHashes = append(kHashes, rec.RequestHash)
			kStreams = append(kStreams, rec.Stream)
			kFirst = append(kFirst, int32(rec.FirstVersion))
			kLast = append(kLast, int32(rec.LastVersion))
		}
		resps[i].res = res
		events += len(r.events)
		stored++
	}
	if stored == 0 {
		return batch, resps, 0, 0, nil // nothing to make durable: the deferred rollback ends it
	}

	// Round trip 2: the writes; then COMMIT, which releases the lock.
	b := &pgx.Batch{}
	b.Queue(sqlInsertEvents, ins.pos, ins.stream, ins.version, ins.typ, ins.data, now, ins.prev, ins.hash)
	if len(kKeys) > 0 {
		b.Queue(sqlInsertKeys, kScopes, kKeys, kHashes, kStreams, kFirst, kLast, now)
	}
	b.Queue(sqlSetHead, head.pos, head.hash)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return batch, resps, 0, 0, fmt.Errorf("write events: %w", err)
	}
	if s.beforeCommit != nil {
		s.beforeCommit()
	}
	if err := tx.Commit(ctx); err != nil {
		return batch, resps, 0, 0, fmt.Errorf("%w: %w", errCommit, err)
	}
	return batch, resps, events, stored, nil
}

// eventRows are the columns of the events a batch inserts.
type eventRows struct {
	pos                           []int64
	stream, typ, data, prev, hash []string
	version                       []int32
}

func (r *eventRows) add(pos int64, stream string, version int, typ string, data []byte, prev, hash string) {
	r.pos = append(r.pos, pos)
	r.stream = append(r.stream, stream)
	r.version = append(r.version, int32(version))
	r.typ = append(r.typ, typ)
	r.data = append(r.data, string(data))
	r.prev = append(r.prev, prev)
	r.hash = append(r.hash, hash)
}
