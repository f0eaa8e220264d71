// Package sqlite is the embedded event store: one SQLite database file (via
// modernc.org/sqlite, no cgo) holding the event log, players, consumer
// checkpoints and idempotency keys.
//
// # Durability
//
// The database runs in WAL mode with synchronous=FULL by default: an Append
// returns only after its transaction is on disk. Options.Synchronous "NORMAL"
// trades that for speed: a power loss may then drop the last commits (never
// corrupt the file). Either way no append is acknowledged before its commit.
//
// # Writers and readers
//
// All appends go through one writer goroutine that owns the single write
// connection. It commits appends in groups: whatever appends are waiting when
// it starts a transaction (up to Options.MaxBatch) share that transaction and
// its fsync, each with its own expected-version check and its own result, so
// commands on different tables do not queue behind each other's fsyncs.
// Reads use a separate pool of read-only connections and see every append
// that has returned. The writer also keeps the events it committed last in
// memory (Options.RecentEvents) for ReadCommitted, which the NATS relay
// reads instead of reading back what was just written.
//
// The store assumes it is the only writer of the database file while open.
//
// # Chain head
//
// With Options.HeadFile set, the position and hash of the last event are
// written to that file after commits (write to a temporary file, then
// rename), so a rewritten or truncated database can be told from the real
// one: see eventstore.VerifyChain and ReadHeadFile. Open refuses a database
// that does not contain the head the file records, a non-empty database
// whose head file is missing, and a log whose events after the recorded
// head do not chain onto it; otherwise it brings the file up to the log's
// last event at once (see syncHead), so that a head left behind by a crash
// does not stay behind while no new event is written.
//
// The file is written by a goroutine of its own, off the commit path: it may
// trail the database by the commits made while it writes (it skips to the
// newest head), and is current once Close returns. A head behind the log is
// what verification expects of it; only a head ahead of the log, or with a
// different hash, reveals tampering.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"paiju/eventstore"
	"paiju/eventstore/internal/groupcommit"
	"paiju/migrations"
	"paiju/migrations/schema"
)

// Options tune a Store. The zero value is a durable default.
type Options struct {
	// Synchronous is SQLite's synchronous pragma for the write connection:
	// "FULL" (default: a returned append survives power loss) or "NORMAL"
	// (survives a crash of the process, not necessarily of the machine).
	Synchronous string
	// BusyTimeout is how long a connection waits for a lock held by another
	// process (a backup, the sqlite3 shell) before failing. Default 5s.
	BusyTimeout time.Duration
	// HeadFile, if set, is where the chain head is written after commits.
	HeadFile string
	// HeadInterval is the least time between two writes of the head file
	// (DefaultHeadInterval); the file may lag the log by that much, and is
	// current once Close returns.
	HeadInterval time.Duration
	// MaxBatch bounds how many appends share one transaction. Default 128.
	MaxBatch int
	// MaxBatchWait is how long the writer waits for more appends once it has
	// one. Default 0: it batches only appends already waiting, which adds no
	// latency and still groups appends that arrived during the previous commit.
	MaxBatchWait time.Duration
	// ReadConns is the size of the read pool. Default 4.
	ReadConns int
	// Logger receives errors that cannot be returned to a caller (a failed
	// head file write after a successful commit). Default slog.Default().
	Logger *slog.Logger
	// Now is the clock for recorded_at and created_at. Default time.Now.
	Now func() time.Time
	// RecentEvents is how many of the last committed events are kept in
	// memory for ReadCommitted (DefaultRecentEvents); negative keeps none.
	RecentEvents int
	// OnCommit, if set, is called by the writer after every group commit
	// that stored events: how many events and appends the transaction held
	// and how long it took from BEGIN to COMMIT. It runs on the writer
	// goroutine, so it must return at once (update a metric, no I/O).
	OnCommit func(events, appends int, took time.Duration)
}

func (o *Options) setDefaults() error {
	switch strings.ToUpper(o.Synchronous) {
	case "":
		o.Synchronous = "FULL"
	case "FULL", "NORMAL":
		o.Synchronous = strings.ToUpper(o.Synchronous)
	default:
		return fmt.Errorf("synchronous %q: want FULL or NORMAL", o.Synchronous)
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 5 * time.Second
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 128
	}
	if o.HeadInterval <= 0 {
		o.HeadInterval = DefaultHeadInterval
	}
	if o.MaxBatchWait < 0 {
		o.MaxBatchWait = 0
	}
	if o.ReadConns <= 0 {
		o.ReadConns = 4
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RecentEvents == 0 {
		o.RecentEvents = DefaultRecentEvents
	}
	return nil
}

// Store is the SQLite event store. Its methods are safe for concurrent use.
type Store struct {
	opts Options
	wdb  *sql.DB // one connection, used only by the writer goroutine and the small writes below
	rdb  *sql.DB // read-only pool
	// reads are the hot read queries, prepared once: parsing the SQL again
	// on every command cost more than running it.
	reads readStmts

	stmts writeStmts // prepared on wdb
	// recent holds the last events the writer committed (ReadCommitted).
	recent *recentLog

	writer    *groupcommit.Writer // runs commit on its batches of appends
	heads     chan chainHead      // to headWriter; holds only the newest head
	headDone  chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// The store keeps every contract of the event store.
var (
	_ eventstore.Store       = (*Store)(nil)
	_ eventstore.Accounts    = (*Store)(nil)
	_ eventstore.Checkpoints = (*Store)(nil)
)

// DefaultHeadInterval is Options.HeadInterval's default. A head file
// write (a temporary file, a write and a rename) cost about half a
// millisecond of CPU on an overlay filesystem, 2.4% of a loaded server's
// CPU at 20 ms; at 100 ms, 0.5%. The file is not synced, so after a
// power loss it may lag by far more anyway; after a crash of the process
// Open checks the events past it (syncHead).
const DefaultHeadInterval = 100 * time.Millisecond

// walAutocheckpoint is the WAL's length, in pages, at which a commit
// checkpoints it (SQLite's default is 1,000): about 16 MB of 4 KiB pages.
// The keyed appends of BenchmarkAppendMoves make 7% fewer syscalls with
// it, half the reads (docs/PERF.md, "Seventh round").
const walAutocheckpoint = 4000

// Open opens (creating if needed) the database at path, brings its schema up
// to date and starts the writer.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if err := opts.setDefaults(); err != nil {
		return nil, fmt.Errorf("open event store %s: %w", path, markCorrupt(err))
	}
	if err := checkPath(path); err != nil {
		return nil, fmt.Errorf("open event store: %w", err)
	}
	if err := migrateUp(ctx, path, opts.BusyTimeout); err != nil {
		return nil, fmt.Errorf("open event store %s: %w", path, markCorrupt(err))
	}

	busy := strconv.FormatInt(opts.BusyTimeout.Milliseconds(), 10)
	wq := url.Values{}
	wq.Add("_pragma", "busy_timeout("+busy+")")
	wq.Add("_pragma", "journal_mode(WAL)")
	wq.Add("_pragma", "synchronous("+opts.Synchronous+")")
	wq.Add("_pragma", "foreign_keys(1)")
	// Only the writer commits, so only its connection checkpoints. Each
	// group commit rewrites the tail pages of the (stream, version) index,
	// one a table; a longer WAL copies each of them back less often.
	wq.Add("_pragma", "wal_autocheckpoint("+strconv.Itoa(walAutocheckpoint)+")")
	// IMMEDIATE takes the write lock at BEGIN, so a transaction never has to
	// upgrade a read lock and fail with SQLITE_BUSY halfway.
	wq.Set("_txlock", "immediate")
	wdb, err := sql.Open("sqlite", path+"?"+wq.Encode())
	if err != nil {
		return nil, fmt.Errorf("open event store %s: %w", path, markCorrupt(err))
	}
	wdb.SetMaxOpenConns(1)
	wdb.SetMaxIdleConns(1)
	wdb.SetConnMaxLifetime(0)
	wdb.SetConnMaxIdleTime(0)

	rq := url.Values{}
	rq.Add("_pragma", "busy_timeout("+busy+")")
	rq.Add("_pragma", "foreign_keys(1)")
	rq.Set("_query_only", "1")
	rdb, err := sql.Open("sqlite", path+"?"+rq.Encode())
	if err != nil {
		wdb.Close()
		return nil, fmt.Errorf("open event store %s: %w", path, markCorrupt(err))
	}
	rdb.SetMaxOpenConns(opts.ReadConns)
	rdb.SetMaxIdleConns(opts.ReadConns)

	s := &Store{
		opts:     opts,
		wdb:      wdb,
		rdb:      rdb,
		heads:    make(chan chainHead, 1),
		headDone: make(chan struct{}),
	}
	if err := s.checkOpen(ctx); err != nil {
		wdb.Close()
		rdb.Close()
		return nil, fmt.Errorf("open event store %s: %w", path, markCorrupt(err))
	}
	if err := s.stmts.prepare(ctx, wdb); err != nil {
		wdb.Close()
		rdb.Close()
		return nil, fmt.Errorf("open event store %s: %w", path, markCorrupt(err))
	}
	if err := s.reads.prepare(ctx, rdb); err != nil {
		wdb.Close()
		rdb.Close()
		return nil, fmt.Errorf("open event store %s: %w", path, markCorrupt(err))
	}
	if err := s.syncHead(ctx); err != nil {
		s.reads.close()
		wdb.Close()
		rdb.Close()
		return nil, fmt.Errorf("open event store %s: %w", path, markCorrupt(err))
	}
	head, _, err := s.Head(ctx)
	if err != nil {
		s.reads.close()
		wdb.Close()
		rdb.Close()
		return nil, fmt.Errorf("open event store %s: %w", path, markCorrupt(err))
	}
	s.recent = newRecentLog(opts.RecentEvents, head)
	s.writer = groupcommit.Start(groupcommit.Options{MaxBatch: opts.MaxBatch, MaxBatchWait: opts.MaxBatchWait, OnCommit: opts.OnCommit}, s.commit)
	go s.headWriter()
	return s, nil
}

// checkOpen makes both pools connect, so that a bad file fails Open, not
// the first append.
func (s *Store) checkOpen(ctx context.Context) error {
	if err := s.wdb.PingContext(ctx); err != nil {
		return err
	}
	return s.rdb.PingContext(ctx)
}

// Close stops the writer, brings the head file up to date and closes the
// database. Appends waiting for the writer fail with eventstore.ErrClosed; an
// append the writer already took is committed (or failed) and answered
// first. Close is idempotent.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.writer.Close()
		close(s.heads)
		<-s.headDone
		s.closeErr = errors.Join(s.reads.close(), s.rdb.Close(), s.wdb.Close())
	})
	return s.closeErr
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

// Migrate brings the schema of the database at path up to date, creating the
// file if needed. It is what Open does first; `paiju migrate` calls it alone.
func Migrate(ctx context.Context, path string) error {
	if err := checkPath(path); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := migrateUp(ctx, path, 5*time.Second); err != nil {
		return fmt.Errorf("migrate %s: %w", path, err)
	}
	return nil
}

func checkPath(path string) error {
	switch {
	case path == "":
		return errors.New("empty database path")
	case strings.HasPrefix(path, ":memory:") || strings.HasPrefix(path, "file:"):
		// The store needs a file that its write and read pools share.
		return fmt.Errorf("database path %q: want a file path", path)
	case strings.ContainsRune(path, '?'):
		// The driver reads everything after '?' as connection parameters.
		return fmt.Errorf("database path %q contains '?'", path)
	}
	return nil
}

func migrateUp(ctx context.Context, path string, busy time.Duration) error {
	return schema.Up(ctx, path, migrations.FS, busy)
}
