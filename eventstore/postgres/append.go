package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

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
// commit.
func (s *Store) commit(batch []*groupcommit.Request) {
	live := dropCancelled(nil, batch)
	if len(live) == 0 {
		return
	}
	live, resps := s.runLive(live)
	for i, r := range live {
		r.Answer(resps[i])
	}
}

// dropCancelled appends to live the requests of more whose callers still
// wait, and answers the others.
func dropCancelled(live, more []*groupcommit.Request) []*groupcommit.Request {
	for _, r := range more {
		if err := r.Ctx.Err(); err != nil {
			r.Answer(groupcommit.Response{Err: fmt.Errorf("append to %s: %w", r.Stream, err)})
			continue
		}
		live = append(live, r)
	}
	return live
}

// gatherMore adds the requests waiting now to batch, up to MaxBatch.
func (s *Store) gatherMore(batch []*groupcommit.Request) []*groupcommit.Request {
	for len(batch) < s.opts.MaxBatch {
		r, ok := s.writer.Waiting()
		if !ok {
			return batch
		}
		batch = dropCancelled(batch, []*groupcommit.Request{r})
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
func (s *Store) runLive(live []*groupcommit.Request) ([]*groupcommit.Request, []groupcommit.Response) {
	live, resps, err := s.runBatchTimed(live, true)
	var pgErr *pgconn.PgError
	if err != nil && len(live) > 1 && errors.As(err, &pgErr) && !errors.Is(err, errCommit) {
		s.opts.Logger.Warn("event store: a group commit was refused; committing its appends one by one", "appends", len(live), "err", err)
		for i, r := range live {
			_, one, err := s.runBatchTimed([]*groupcommit.Request{r}, false)
			resps[i] = one[0]
			if err != nil && resps[i].Err == nil {
				resps[i] = groupcommit.Response{Err: fmt.Errorf("append to %s: %w", r.Stream, err)}
			}
		}
		return live, resps
	}
	if err != nil {
		for i, r := range live {
			if resps[i].Err == nil {
				resps[i] = groupcommit.Response{Err: fmt.Errorf("append to %s: %w", r.Stream, err)}
			}
		}
	}
	return live, resps
}

// errCommit marks a failed COMMIT, whose outcome the store cannot know.
var errCommit = errors.New("commit")

func (s *Store) runBatchTimed(batch []*groupcommit.Request, grow bool) ([]*groupcommit.Request, []groupcommit.Response, error) {
	start := time.Now()
	batch, resps, events, stored, err := s.runBatch(batch, grow)
	if err == nil && stored > 0 {
		s.writer.Committed(events, stored, time.Since(start))
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
func readState(ctx context.Context, tx pgx.Tx, batch []*groupcommit.Request, tryLock bool) (st chainState, locked bool, err error) {
	streams := make([]string, 0, len(batch))
	seen := make(map[string]bool, len(batch))
	var scopes, keys []string
	for _, r := range batch {
		if !seen[r.Stream] {
			seen[r.Stream] = true
			streams = append(streams, r.Stream)
		}
		if r.Key != nil {
			scopes = append(scopes, r.Key.Scope)
			keys = append(keys, r.Key.Key)
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
func (s *Store) runBatch(batch []*groupcommit.Request, grow bool) (_ []*groupcommit.Request, resps []groupcommit.Response, events, stored int, err error) {
	// Not a request's context: the transaction is shared, and one caller
	// giving up must not roll back the others.
	ctx := context.Background()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return batch, make([]groupcommit.Response, len(batch)), 0, 0, fmt.Errorf("begin: %w", err)
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
	resps = make([]groupcommit.Response, len(batch))
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
		if r.Key != nil {
			if rec, ok := st.used[scopedKey{r.Key.Scope, r.Key.Key}]; ok {
				resps[i].Err = fmt.Errorf("append to %s: %w", r.Stream, &eventstore.DuplicateKeyError{Record: rec})
				continue
			}
		}
		current := st.versions[r.Stream]
		if current != r.Expected {
			resps[i].Err = fmt.Errorf("append to %s: %w", r.Stream, &eventstore.ConflictError{Stream: r.Stream, Expected: r.Expected, Actual: current})
			continue
		}
		res := eventstore.AppendResult{Positions: make([]int64, len(r.Events)), Version: current + len(r.Events), RecordedAt: now}
		for j, e := range r.Events {
			version := current + j + 1
			hash := eventstore.Hash(head.hash, r.Stream, version, e.Type, e.Data)
			ins.add(head.pos+1, r.Stream, version, e.Type, e.Data, head.hash, hash)
			head = chainHead{pos: head.pos + 1, hash: hash}
			res.Positions[j] = head.pos
		}
		st.versions[r.Stream] = res.Version
		if r.Key != nil {
			rec := eventstore.IdempotencyRecord{Scope: r.Key.Scope, Key: r.Key.Key, RequestHash: r.Key.RequestHash,
				Stream: r.Stream, FirstVersion: current + 1, LastVersion: res.Version, CreatedAt: now}
			st.used[scopedKey{rec.Scope, rec.Key}] = rec // a second use in this batch is a duplicate
			kScopes = append(kScopes, rec.Scope)
			kKeys = append(kKeys, rec.Key)
			kHashes = append(kHashes, rec.RequestHash)
			kStreams = append(kStreams, rec.Stream)
			kFirst = append(kFirst, int32(rec.FirstVersion))
			kLast = append(kLast, int32(rec.LastVersion))
		}
		resps[i].Result = res
		events += len(r.Events)
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
