// Package sqlite stores the projections (paiju/projections) in an SQLite
// file, projections.db, beside the event store: every projection's tables
// and checkpoint, with the read queries the API serves.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"paiju/eventstore"
	pmig "paiju/migrations/projections"
	"paiju/migrations/schema"
	"paiju/projections"
	"paiju/projections/internal/changes"
)

// Options configure a DB.
type Options struct {
	// Location bounds the leaderboard periods (day, week, month). Default
	// Asia/Shanghai.
	Location *time.Location
	// Now is the clock for the current period. Default time.Now.
	Now func() time.Time
	// Rater rates the hands of the ratings projection; without Contests
	// it rates none.
	Rater projections.Rater
}

// DB is the projections database. Its methods are safe for concurrent use.
type DB struct {
	db    *sql.DB // reads
	wdb   *sql.DB // one connection: every projection write, with its statements prepared once
	stmts stmtCache
	loc   *time.Location
	now   func() time.Time
	proj  map[string]applier
	rater projections.Rater

	changes changes.Changes // broadcast after every commit
}

var _ projections.Store = (*DB)(nil)

type applier func(ctx context.Context, tx *wtx, ev eventstore.Event) error

// walAutocheckpoint is the WAL's length, in pages, at which a commit
// checkpoints it: about 16 MB of 4 KiB pages.
const walAutocheckpoint = 4000

// Open opens (creating if needed) the projections database at path and
// brings its schema up to date.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	if path == "" || strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("projections: database path %q", path)
	}
	if opts.Location == nil {
		loc, err := time.LoadLocation(projections.DefaultLocation)
		if err != nil {
			return nil, fmt.Errorf("projections: time zone: %w", err)
		}
		opts.Location = loc
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := migrateUp(ctx, path); err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	// NORMAL: a power loss may drop the last commits, never corrupt the
	// file; the checkpoint is lost with them, and the events are applied
	// again from the log. Durability is the store's job, not this file's.
	q.Add("_pragma", "synchronous(NORMAL)")
	// A checkpoint copies every page the WAL holds back into the file and
	// syncs it; the projections rewrite the same index pages batch after
	// batch, so a longer WAL copies each of them less often. At SQLite's
	// default (1,000 pages, some eleven batches of 256 events) the
	// checkpoints were 7% of a batch's CPU; docs/PERF.md, "Projections,
	// fourth round".
	q.Add("_pragma", "wal_autocheckpoint("+strconv.Itoa(walAutocheckpoint)+")")
	// Every transaction writes: take the write lock at BEGIN, so two
	// writers queue on busy_timeout instead of failing on upgrade.
	q.Add("_txlock", "immediate")
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("projections: open: %w", err)
	}
	wdb, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("projections: open: %w", err)
	}
	wdb.SetMaxOpenConns(1)
	d := &DB{db: db, wdb: wdb, stmts: stmtCache{db: wdb, m: map[string]*sql.Stmt{}}, loc: opts.Location, now: opts.Now, rater: opts.Rater}
	d.proj = map[string]applier{projections.Hands: applyHands, projections.Leaderboards: applyLeaderboards, projections.Directory: applyDirectory, projections.Tournaments: applyTournaments,
		projections.Ratings: d.applyRatings}
	return d, nil
}

func migrateUp(ctx context.Context, path string) error {
	if err := schema.Up(ctx, path, pmig.FS, 5*time.Second); err != nil {
		return fmt.Errorf("projections: %w", err)
	}
	return nil
}

// Replay rebuilds projection name from position 0 by reading src directly.
func (d *DB) Replay(ctx context.Context, name string, src projections.Source) error {
	return projections.Replay(ctx, d, name, src)
}

// CatchUp applies every event of src after the projection's checkpoint.
func (d *DB) CatchUp(ctx context.Context, name string, src projections.Source) error {
	return projections.CatchUp(ctx, d, name, src)
}

// Close closes the database.
func (d *DB) Close() error {
	d.stmts.close()
	return errors.Join(d.wdb.Close(), d.db.Close())
}

// Checkpoint returns the position projection name has applied up to.
func (d *DB) Checkpoint(ctx context.Context, name string) (int64, error) {
	if _, ok := d.proj[name]; !ok {
		return 0, fmt.Errorf("%w: %q", projections.ErrUnknown, name)
	}
	var pos int64
	err := d.db.QueryRowContext(ctx, `SELECT position FROM projection_checkpoints WHERE name = ?`, name).Scan(&pos)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("projection %s: checkpoint: %w", name, err)
	}
	return pos, nil
}

// Anchor returns projection name's checkpoint and the hash of the event
// applied at it ("" for a checkpoint written before hashes were kept).
func (d *DB) Anchor(ctx context.Context, name string) (int64, string, error) {
	if _, ok := d.proj[name]; !ok {
		return 0, "", fmt.Errorf("%w: %q", projections.ErrUnknown, name)
	}
	var pos int64
	var hash string
	err := d.db.QueryRowContext(ctx, `SELECT position, hash FROM projection_checkpoints WHERE name = ?`, name).Scan(&pos, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", fmt.Errorf("projection %s: checkpoint: %w", name, err)
	}
	return pos, hash, nil
}

// Apply applies ev to projection name with its checkpoint in one
// transaction. An event at or before the checkpoint is skipped (applied is
// false); an event after the next position is a *GapError.
func (d *DB) Apply(ctx context.Context, name string, ev eventstore.Event) (applied bool, err error) {
	n, err := d.ApplyBatch(ctx, name, []eventstore.Event{ev})
	return n == 1, err
}

// ApplyBatch applies events, in position order, to projection name in one
// transaction that also moves the checkpoint: all of them or none. Events at
// or before the checkpoint are skipped; applied counts the others. At an
// event after the next position it stops: the events before it are
// committed and the error is a *GapError.
func (d *DB) ApplyBatch(ctx context.Context, name string, events []eventstore.Event) (applied int, err error) {
	apply, ok := d.proj[name]
	if !ok {
		return 0, fmt.Errorf("%w: %q", projections.ErrUnknown, name)
	}
	stx, err := d.wdb.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("projection %s: begin: %w", name, err)
	}
	defer stx.Rollback()
	applied, gap, err := d.applyIn(ctx, &wtx{tx: stx, c: &d.stmts}, name, apply, events)
	if err != nil {
		return 0, err
	}
	if applied == 0 {
		return 0, gap
	}
	if err := stx.Commit(); err != nil {
		return 0, fmt.Errorf("projection %s: commit: %w", name, err)
	}
	d.stmts.prepare(ctx)
	d.changes.Broadcast()
	return applied, gap
}

// ApplyBatches applies events, in position order, to each projection of
// names in one transaction that also moves their checkpoints: every
// projection all of them or none. Events at or before a projection's
// checkpoint are skipped for it. An event after a projection's next
// position applies nothing to any of them and the error is its
// *GapError: ApplyBatch, one projection at a time, applies what can be.
// One commit for the lot spares the file the commits of the others (each
// a WAL header, the checkpoints' page, a lock taken and released).
func (d *DB) ApplyBatches(ctx context.Context, names []string, events []eventstore.Event) error {
	for _, n := range names {
		if _, ok := d.proj[n]; !ok {
			return fmt.Errorf("%w: %q", projections.ErrUnknown, n)
		}
	}
	stx, err := d.wdb.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("projections: begin: %w", err)
	}
	defer stx.Rollback()
	var stmts map[string]*sql.Stmt // shared: a statement prepared once for the transaction
	changed := false
	for _, n := range names {
		tx := &wtx{tx: stx, c: &d.stmts, stmts: stmts}
		applied, gap, err := d.applyIn(ctx, tx, n, d.proj[n], events)
		if err != nil {
			return err
		}
		if gap != nil {
			return gap
		}
		stmts = tx.stmts
		changed = changed || applied > 0
	}
	if !changed {
		return nil
	}
	if err := stx.Commit(); err != nil {
		return fmt.Errorf("projections: commit: %w", err)
	}
	d.stmts.prepare(ctx)
	d.changes.Broadcast()
	return nil
}

// applyIn applies events to projection name in tx and moves its checkpoint
// there, stopping at a gap (returned as gap, the events before it applied).
// Nothing is written when applied is 0.
func (d *DB) applyIn(ctx context.Context, tx *wtx, name string, apply applier, events []eventstore.Event) (applied int, gap error, err error) {
	var cp int64
	err = tx.QueryRowContext(ctx, `SELECT position FROM projection_checkpoints WHERE name = ?`, name).Scan(&cp)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, nil, fmt.Errorf("projection %s: checkpoint: %w", name, err)
	}
	if err := tx.prefetch(ctx, name, events, cp); err != nil {
		return 0, nil, fmt.Errorf("projection %s: %w", name, err)
	}
	if name == projections.Ratings {
		if err := d.prefetchRatings(ctx, tx, events, cp); err != nil {
			return 0, nil, fmt.Errorf("projection %s: %w", name, err)
		}
	}
	start := cp
	var hash string
	for _, ev := range events {
		if ev.Position <= cp {
			continue
		}
		if ev.Position != cp+1 {
			gap = &projections.GapError{Name: name, Checkpoint: cp, Position: ev.Position}
			break
		}
		if err := apply(ctx, tx, ev); err != nil {
			return 0, nil, fmt.Errorf("projection %s: event %d (%s %s:%d): %w", name, ev.Position, ev.Type, ev.Stream, ev.Version, err)
		}
		cp, hash = ev.Position, ev.Hash
		applied++
	}
	if cp == start {
		return 0, gap, nil
	}
	if err := tx.flush(ctx); err != nil {
		return 0, nil, fmt.Errorf("projection %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO projection_checkpoints (name, position, hash) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET position = excluded.position, hash = excluded.hash`, name, cp, hash); err != nil {
		return 0, nil, fmt.Errorf("projection %s: checkpoint: %w", name, err)
	}
	return applied, gap, nil
}

// tablesOf lists the tables each projection owns, for Reset.
var tablesOf = map[string][]string{
	projections.Hands:        {"hh_tables", "hh_seats", "hh_hands", "hh_hand_event_runs", "hh_player_hands"},
	projections.Leaderboards: {"lb_tables", "lb_seats", "lb_hand_seats", "lb_names", "lb_results", "lb_player_stats"},
	projections.Directory:    {"td_seats", "td_tables"},
	projections.Tournaments:  {"tn_players", "tn_tournaments"},
	projections.Ratings:      {"rt_tables", "rt_ratings", "rt_hands", "rt_player_hands"},
}

// Reset empties projection name and sets its checkpoint to 0.
func (d *DB) Reset(ctx context.Context, name string) error {
	if _, ok := d.proj[name]; !ok {
		return fmt.Errorf("%w: %q", projections.ErrUnknown, name)
	}
	tx, err := d.wdb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, t := range tablesOf[name] {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+t); err != nil {
			return fmt.Errorf("projection %s: reset %s: %w", name, t, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM projection_checkpoints WHERE name = ?`, name); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	d.changes.Broadcast()
	return nil
}

// WaitFor waits until every projection has applied position pos, for at
// most timeout; then it returns an error matching ErrLagging.
func (d *DB) WaitFor(ctx context.Context, pos int64, timeout time.Duration) error {
	return d.changes.WaitFor(ctx, d.Checkpoint, projections.Names, pos, timeout)
}

// stmtCache holds statements prepared once on the write connection: parsing
// the SQL again for every event cost more than running it. A statement is
// first prepared inside the transaction that needs it (the one connection
// is that transaction's) and cached after the commit.
type stmtCache struct {
	db      *sql.DB
	mu      sync.Mutex
	m       map[string]*sql.Stmt
	pending map[string]bool
	texts   map[valuesKey]string // insertRows' statements
}

// stmt returns query as a statement of tx.
func (c *stmtCache) stmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	st, ok := c.m[query]
	if !ok {
		if c.pending == nil {
			c.pending = map[string]bool{}
		}
		c.pending[query] = true
	}
	c.mu.Unlock()
	if ok {
		return tx.StmtContext(ctx, st), nil
	}
	return tx.PrepareContext(ctx, query)
}

// prepare caches the statements transactions asked for; call it outside
// any transaction of the write connection.
func (c *stmtCache) prepare(ctx context.Context) {
	c.mu.Lock()
	var queries []string
	for q := range c.pending {
		if _, ok := c.m[q]; !ok {
			queries = append(queries, q)
		}
	}
	clear(c.pending)
	c.mu.Unlock()
	// Unlocked: preparing waits for the connection, which another
	// transaction may hold while it asks the cache for a statement.
	for _, q := range queries {
		st, err := c.db.PrepareContext(ctx, q)
		if err != nil {
			continue // prepared inside a transaction again next time
		}
		c.mu.Lock()
		if _, ok := c.m[q]; ok {
			st.Close()
		} else {
			c.m[q] = st
		}
		c.mu.Unlock()
	}
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
}

// wtx is a write transaction running cached statements; its methods are
// those of *sql.Tx that the projections use. It also holds what a batch
// keeps in memory until its end (batch), which flush writes.
type wtx struct {
	tx *sql.Tx
	c  *stmtCache
	// stmts are the transaction's own statements: tx.StmtContext makes a
	// new one at each call, which cost as much as some of the queries.
	stmts map[string]*sql.Stmt
	batch
}

func (t *wtx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := t.stmts[query]; ok {
		return st, nil
	}
	st, err := t.c.stmt(ctx, t.tx, query)
	if err != nil {
		return nil, err
	}
	if t.stmts == nil {
		t.stmts = map[string]*sql.Stmt{}
	}
	t.stmts[query] = st
	return st, nil
}

func (t *wtx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

func (t *wtx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext is *sql.Tx's; a failed prepare surfaces from Scan.
func (t *wtx) QueryRowContext(ctx context.Context, query string, args ...any) rowScanner {
	st, err := t.stmt(ctx, query)
	if err != nil {
		return errRow{err}
	}
	return st.QueryRowContext(ctx, args...)
}

type rowScanner interface{ Scan(dest ...any) error }

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
