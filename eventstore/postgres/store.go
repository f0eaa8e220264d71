// Package postgres is the event store of a cluster: the event log, players,
// consumer checkpoints and idempotency keys in one PostgreSQL database that
// every API node appends to, with the same contract as the embedded SQLite
// store (eventstore.Log, Accounts and Checkpoints).
//
// # One global order, one hash chain
//
// Every event's PrevHash is the hash of the event before it in global order,
// across all streams and all nodes: that chain is the audit format (export,
// verify, frozen streams). So the position and the previous hash of an event
// can only be known by a writer that knows the chain's last event and that
// no other writer is extending it at the same time. Each append transaction
// therefore takes one cluster-wide lock, pg_advisory_xact_lock on a fixed
// key (ChainLock), before it reads the chain head; under the lock it checks
// each request's expected version, assigns consecutive positions after the
// head, computes the hashes, inserts the events, records the idempotency
// keys and the new head (table chain_head, the chain's anchor in the
// database) and commits. The commit releases the lock.
//
// Positions are not taken from a sequence: a sequence hands numbers out
// outside any lock, so a later transaction could commit before an earlier
// one (a reader would see position 8 before 7 exists) and a rolled-back one
// would leave a hole for ever.
//
// # What the lock costs, and group commit
//
// Appends are serialised across the cluster: one transaction at a time
// extends the chain, and each holds the lock for two round trips plus its
// commit's WAL flush. A node does not pay that per append: all its appends
// go through one writer goroutine, which takes whatever appends are waiting
// (up to Options.MaxBatch) into one transaction, as the SQLite store does.
// The lock is first tried (pg_try_advisory_xact_lock) in the round trip that
// reads the head, so uncontended it costs nothing more; when another node
// holds it the writer waits, then takes in the appends that arrived during
// the wait before it reads the head again, so that a node's batch grows
// with the wait instead of queueing behind it. Under load the lock is taken
// once per batch, a node's throughput is a batch per lock hold, and the
// nodes' batches interleave.
//
// Each request still succeeds or fails on its own: a version conflict or a
// duplicate idempotency key is found before anything is written and fails
// that request alone; should the database refuse a write of the batch, the
// requests are tried again one transaction each, so that one bad request
// does not fail the others.
//
// # Designs without the lock
//
// Each keeps the chain only by serialising the same way, or gives up part
// of the contract:
//   - positions from a sequence, readers holding back behind transactions
//     still in flight: a rolled-back transaction leaves a hole no reader can
//     tell from a lost event, and the previous hash is still unknown when
//     the event is written;
//   - events written unchained and chained later by one sequencer: an
//     append could not return its positions, and the log would hold events
//     that are not yet part of the audited chain;
//   - SERIALIZABLE transactions on the head row: the same serialisation,
//     paid for with aborted work and retries under contention;
//   - SELECT … FOR UPDATE of the head row: the same lock under another
//     name (the head row's UPDATE serialises the writers anyway); the
//     advisory lock names it, and can be tried without waiting.
//
// # What a reader can rely on
//
// PostgreSQL makes a transaction visible before it releases its locks, and
// the next writer reads the head only once it holds the lock, so commits
// become visible in position order: a reader (on any node, any connection)
// that sees position n sees every position below n. ReadAll never skips an
// event that a later read would find, Load returns a stream's versions
// without holes, and Head never names an event that ReadAll cannot return.
// An append that has returned is visible to every later read on every node.
//
// # A node that stops holding the lock
//
// A node that stalls inside an append transaction (a long pause, a lost
// network) stops every node's appends while it holds the lock. The store's
// connections therefore run with idle_in_transaction_session_timeout
// (Options.IdleInTransaction): the server ends such a connection, rolls its
// transaction back, and the lock passes on; the stalled node's appends fail
// and nothing of them is stored.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"paiju/eventstore"
	"paiju/eventstore/internal/groupcommit"
	"paiju/migrations/postgres/store"
	"paiju/migrations/schema"
)

// ChainLock is the key of the advisory lock every append transaction holds
// while it extends the chain: pg_advisory_xact_lock(ChainLock[0],
// ChainLock[1]). The two-key form has a key space of its own, apart from the
// single-key locks golang-migrate takes.
var ChainLock = [2]int32{0x7061696a, 1} // "paij", the chain

// Options tune a Store. The zero value is a sound default.
type Options struct {
	// MaxBatch bounds how many appends share one transaction. Default 128.
	MaxBatch int
	// MaxBatchWait is how long the writer waits for more appends once it
	// has one. Default 0: it batches only appends already waiting, which
	// adds no latency and still groups those that arrived during the
	// previous commit (or while the chain lock was held by another node).
	MaxBatchWait time.Duration
	// IdleInTransaction bounds how long a connection of the store may sit idle
	// inside a transaction before the server ends it (PostgreSQL's
	// idle_in_transaction_session_timeout), default 10s. An append
	// transaction is idle only between its round trips, but a node that
	// stops there (a pause, a lost network) holds the chain lock, and with
	// it every node's appends, until the server ends its connection. A URL
	// that sets the parameter itself keeps its value.
	IdleInTransaction time.Duration
	// MaxConns is the size of the connection pool (the writer's connection
	// and the reads'). Default 8.
	MaxConns int
	// NoHeadCheck skips Open's check that the recorded chain head is the
	// log's last event (CheckHead): for verify, which reports the fault
	// itself.
	NoHeadCheck bool
	// Logger receives what cannot be returned to a caller. Default
	// slog.Default().
	Logger *slog.Logger
	// Now is the clock for recorded_at and created_at. Default time.Now.
	// The store keeps microseconds, PostgreSQL's precision.
	Now func() time.Time
	// OnCommit, if set, is called by the writer after every group commit
	// that stored events: how many events and appends the transaction held
	// and how long it took from BEGIN to COMMIT. It runs on the writer
	// goroutine, so it must return at once (update a metric, no I/O).
	OnCommit func(events, appends int, took time.Duration)
}

func (o *Options) setDefaults() {
	if o.MaxBatch <= 0 {
		o.MaxBatch = 128
	}
	if o.MaxBatchWait < 0 {
		o.MaxBatchWait = 0
	}
	if o.IdleInTransaction <= 0 {
		o.IdleInTransaction = 10 * time.Second
	}
	if o.MaxConns <= 0 {
		o.MaxConns = 8
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Store is the PostgreSQL event store. Its methods are safe for concurrent
// use, and several Stores (on several nodes) may use one database at once.
type Store struct {
	opts Options
	name string // the URL without its password, for messages
	pool *pgxpool.Pool

	writer *groupcommit.Writer // runs commit on its batches of appends

	// beforeCommit, if set (by tests), runs in each append transaction
	// after its writes, before COMMIT, with the chain lock held.
	beforeCommit func()
}

// The store keeps every contract of the event store.
var (
	_ eventstore.Store       = (*Store)(nil)
	_ eventstore.Accounts    = (*Store)(nil)
	_ eventstore.Checkpoints = (*Store)(nil)
)

// Open connects to the database at url (postgres:// or postgresql://),
// brings the store's schema up to date and starts the writer.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	opts.setDefaults()
	name := schema.RedactURL(url)
	if err := Migrate(ctx, url); err != nil {
		return nil, fmt.Errorf("open event store: %w", err)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open event store %s: %w", name, err)
	}
	cfg.MaxConns = int32(opts.MaxConns)
	params := cfg.ConnConfig.RuntimeParams
	if _, set := params["idle_in_transaction_session_timeout"]; !set {
		params["idle_in_transaction_session_timeout"] = strconv.FormatInt(opts.IdleInTransaction.Milliseconds(), 10)
	}
	if _, set := params["application_name"]; !set {
		params["application_name"] = "paiju" // to tell the nodes' connections apart in pg_stat_activity
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open event store %s: %w", name, err)
	}
	s := &Store{opts: opts, name: name, pool: pool}
	check := s.CheckHead
	if opts.NoHeadCheck {
		check = s.Ping
	}
	if err := check(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open event store %s: %w", name, err)
	}
	s.writer = groupcommit.Start(groupcommit.Options{MaxBatch: opts.MaxBatch, MaxBatchWait: opts.MaxBatchWait, UTF8: true, OnCommit: opts.OnCommit}, s.commit)
	return s, nil
}

// Migrate brings the store's schema in the database at url up to date. It
// is what Open does first; `paiju migrate` calls it alone.
func Migrate(ctx context.Context, url string) error {
	return schema.UpPostgres(ctx, url, store.FS, store.MigrationsTable)
}

// Migrator opens the store's schema at url for `paiju migrate` (up, down,
// version, force).
func Migrator(ctx context.Context, url string) (*schema.Migrator, error) {
	return schema.OpenPostgres(ctx, url, store.FS, store.MigrationsTable)
}

// CheckHead checks that the chain head the database records is the log's
// last event: a log whose tail was removed, or whose head row was
// rewritten, is refused rather than extended. It returns an error matching
// eventstore.ErrChainBroken on a mismatch.
func (s *Store) CheckHead(ctx context.Context) error {
	var (
		headPos, lastPos   int64
		headHash, lastHash string
	)
	err := s.pool.QueryRow(ctx, `
		SELECT h.position, h.hash, coalesce(e.position, 0), coalesce(e.hash, '')
		FROM chain_head h
		LEFT JOIN LATERAL (SELECT position, hash FROM events ORDER BY position DESC LIMIT 1) e ON true`).
		Scan(&headPos, &headHash, &lastPos, &lastHash)
	if err != nil {
		return fmt.Errorf("read chain head: %w", err)
	}
	if headPos != lastPos || headHash != lastHash {
		return &eventstore.ChainError{Position: min(headPos, lastPos) + 1,
			Reason: fmt.Sprintf("the recorded chain head is position %d (%.12s…) but the log's last event is position %d (%.12s…)", headPos, headHash, lastPos, lastHash)}
	}
	return nil
}

// Ping checks that the database answers, for readiness.
func (s *Store) Ping(ctx context.Context) error {
	return s.pool.Ping(ctx)
}

// Close stops the writer and closes the pool. Appends waiting for the
// writer fail with eventstore.ErrClosed; an append the writer already took
// is committed (or failed) and answered first. Close is idempotent.
func (s *Store) Close() error {
	s.writer.Close()
	s.pool.Close()
	return nil
}

// Stats counts the writer's work since Open; Appends/Commits is the mean
// group-commit size.
type Stats struct {
	Commits int64
	Appends int64
}

// Stats returns the writer's counters.
func (s *Store) Stats() Stats {
	commits, appends := s.writer.Stats()
	return Stats{Commits: commits, Appends: appends}
}

// noRows reports pgx's "no rows" error.
func noRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }
