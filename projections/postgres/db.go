// Package postgres stores the projections (paiju/projections) in
// PostgreSQL, for a cluster whose nodes share one read model: the same
// tables, answers, cursors and errors as projections/sqlite, behind a pgx
// pool.
//
// Several nodes may apply the same projection at once. Each batch is
// applied in one transaction that first locks the projection's checkpoint
// row (SELECT ... FOR UPDATE): a second applier waits for the first to
// commit, then reads the checkpoint the first moved to and skips what is
// already applied, so no event is applied twice or skipped, whichever node
// delivers it. That lock is what keeps the rows right, and it is always
// taken: every node may run the feed.
//
// Only the work is then wasted, each event being applied by one node and
// skipped by the others. To run one worker per projection in a deployment,
// main holds a lease around the feed: the deployment's lease in NATS where
// the nodes share one (the lock above covers the moments two holders
// overlap as a lease changes hands), or TryLease, an advisory lock in this
// database that ends with its holder's connection, where they do not.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"paiju/eventstore"
	pmig "paiju/migrations/postgres/projections"
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
	// MaxConns bounds the pool; 0 leaves pgxpool's default (pool_max_conns
	// in the URL, or the larger of 4 and the number of CPUs).
	MaxConns int32
	// Rater rates the hands of the ratings projection; without Contests
	// it rates none.
	Rater projections.Rater
}

// DB is the projections database. Its methods are safe for concurrent use.
type DB struct {
	pool *pgxpool.Pool
	loc  *time.Location
	now  func() time.Time
	proj map[string]projection
	// rater rates the ratings projection's hands.
	rater projections.Rater

	changes changes.Changes // broadcast after every local commit

	mu     sync.Mutex
	leases map[*Lease]struct{}
}

var _ projections.Store = (*DB)(nil)

// projection applies events of one projection inside a batch transaction.
type projection struct {
	// load queues, once per batch, the reads of the rows apply decides
	// from, for the streams of events; may be nil.
	load  func(b *pgx.Batch, tx *wtx, events []eventstore.Event)
	apply func(ctx context.Context, tx *wtx, ev eventstore.Event) error
	// finish queues, once per batch, the writes apply gathered; may be nil.
	finish func(tx *wtx)
	// tables are the tables it owns, emptied by Reset.
	tables []string
}

// Open connects to the database at url (postgres:// or postgresql://) and
// brings the projections' schema up to date.
func Open(ctx context.Context, url string, opts Options) (*DB, error) {
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
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("projections: database URL: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("projections: connect: %w", err)
	}
	// golang-migrate holds an advisory lock while it runs, so nodes
	// starting together migrate once.
	if err := schema.UpPostgres(ctx, url, pmig.FS, pmig.MigrationsTable); err != nil {
		pool.Close()
		return nil, fmt.Errorf("projections: %w", err)
	}
	d := &DB{pool: pool, loc: opts.Location, now: opts.Now, rater: opts.Rater, leases: map[*Lease]struct{}{}}
	d.proj = map[string]projection{
		projections.Hands: {load: loadHands, apply: applyHands, finish: finishHands,
			tables: []string{"hh_tables", "hh_seats", "hh_hands", "hh_hand_events", "hh_player_hands"}},
		projections.Leaderboards: {load: loadLeaderboards, apply: applyLeaderboards, finish: finishLeaderboards,
			tables: []string{"lb_tables", "lb_seats", "lb_hand_seats", "lb_names", "lb_results"}},
		projections.Directory: {load: loadDirectory, apply: applyDirectory, finish: finishDirectory,
			tables: []string{"td_seats", "td_tables"}},
		projections.Tournaments: {load: loadTournaments, apply: applyTournaments, finish: finishTournaments,
			tables: []string{"tn_players", "tn_tournaments"}},
		projections.Ratings: {apply: d.applyRatings, finish: finishRatings,
			tables: []string{"rt_tables", "rt_ratings", "rt_history"}},
	}
	return d, nil
}

// Migrator opens the projections' schema in the database at url for paiju
// migrate.
func Migrator(ctx context.Context, url string) (*schema.Migrator, error) {
	return schema.OpenPostgres(ctx, url, pmig.FS, pmig.MigrationsTable)
}

// Replay rebuilds projection name from position 0 by reading src directly.
func (d *DB) Replay(ctx context.Context, name string, src projections.Source) error {
	return projections.Replay(ctx, d, name, src)
}

// CatchUp applies every event of src after the projection's checkpoint.
func (d *DB) CatchUp(ctx context.Context, name string, src projections.Source) error {
	return projections.CatchUp(ctx, d, name, src)
}

// Close releases the leases still held and closes the pool.
func (d *DB) Close() error {
	d.mu.Lock()
	leases := make([]*Lease, 0, len(d.leases))
	for l := range d.leases {
		leases = append(leases, l)
	}
	d.mu.Unlock()
	var errs []error
	for _, l := range leases {
		errs = append(errs, l.Release())
	}
	d.pool.Close()
	return errors.Join(errs...)
}

// Checkpoint returns the position projection name has applied up to.
func (d *DB) Checkpoint(ctx context.Context, name string) (int64, error) {
	pos, _, err := d.Anchor(ctx, name)
	return pos, err
}

// Anchor returns projection name's checkpoint and the hash of the event
// applied at it ("" at position 0).
func (d *DB) Anchor(ctx context.Context, name string) (int64, string, error) {
	if _, ok := d.proj[name]; !ok {
		return 0, "", fmt.Errorf("%w: %q", projections.ErrUnknown, name)
	}
	var pos int64
	var hash string
	err := d.pool.QueryRow(ctx, `SELECT position, hash FROM projection_checkpoints WHERE name = $1`, name).Scan(&pos, &hash)
	if errors.Is(err, pgx.ErrNoRows) {
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

// lockCheckpoint locks projection name's checkpoint row for the rest of tx
// and returns the position there. The row is created if missing (a
// database whose rows were deleted by hand): the insert waits for a
// concurrent one, then finds the row.
func lockCheckpoint(ctx context.Context, tx querier, name string) (int64, error) {
	for range 2 {
		var cp int64
		err := tx.QueryRow(ctx, `SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE`, name).Scan(&cp)
		if err == nil {
			return cp, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return 0, fmt.Errorf("projection %s: lock checkpoint: %w", name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO projection_checkpoints (name, position, hash) VALUES ($1, 0, '') ON CONFLICT (name) DO NOTHING`, name); err != nil {
			return 0, fmt.Errorf("projection %s: create checkpoint: %w", name, err)
		}
	}
	return 0, fmt.Errorf("projection %s: checkpoint row vanished", name)
}

// lockAndLoad locks projection name's checkpoint row for the rest of tx,
// then reads the rows p decides from for the streams of events (the
// events past the checkpoint are among them), in one round trip: the reads
// run once the lock is granted, and so see what the previous holder
// committed. It returns the checkpoint.
func lockAndLoad(ctx context.Context, tx *wtx, name string, p projection, events []eventstore.Event) (int64, error) {
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	// Projections are rebuilt from the log, so a commit need not wait for
	// its WAL to reach the disk: a server crash may lose the last batches,
	// checkpoint included, never tear one, and they are applied again.
	// Durability is the event store's job, not the read model's.
	b.Queue(`SET LOCAL synchronous_commit = off`)
	var cp int64
	found := false
	b.Queue(`SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE`, name).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			found = true
			if err := rows.Scan(&cp); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if p.load != nil {
		p.load(b, tx, events)
	}
	if err := tx.tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, fmt.Errorf("projection %s: lock checkpoint and load: %w", name, err)
	}
	if found {
		return cp, nil
	}
	// No row (deleted by hand): created, and locked, here; the rows loaded
	// are read again once it is.
	cp, err := lockCheckpoint(ctx, tx.tx, name)
	if err != nil {
		return 0, err
	}
	if p.load != nil {
		b := &pgx.Batch{}
		p.load(b, tx, events)
		if err := tx.tx.SendBatch(ctx, b).Close(); err != nil {
			return 0, fmt.Errorf("projection %s: load: %w", name, err)
		}
	}
	return cp, nil
}

// ApplyBatch applies events, in position order, to projection name in one
// transaction that also moves the checkpoint: all of them or none. Events at
// or before the checkpoint are skipped; applied counts the others. At an
// event after the next position it stops: the events before it are
// committed and the error is a *GapError.
//
// The transaction holds the checkpoint row's lock from its first statement:
// an applier on another node waits, then skips what this one applied.
func (d *DB) ApplyBatch(ctx context.Context, name string, events []eventstore.Event) (applied int, err error) {
	p, ok := d.proj[name]
	if !ok {
		return 0, fmt.Errorf("%w: %q", projections.ErrUnknown, name)
	}
	// The transaction is begun and committed by statements of the batches
	// it sends, not by a round trip of their own: two round trips in all.
	conn, err := d.pool.Acquire(ctx)
	if err != nil {
		return 0, fmt.Errorf("projection %s: connection: %w", name, err)
	}
	open := true
	defer func() {
		if open {
			rollback(conn.Conn())
		}
		conn.Release()
	}()
	tx := newWTX(conn.Conn())
	cp, err := lockAndLoad(ctx, tx, name, p, events)
	if err != nil {
		return 0, err
	}
	var gap error
	todo := make([]eventstore.Event, 0, len(events))
	for _, ev := range events {
		if ev.Position <= cp {
			continue
		}
		if ev.Position != cp+1 {
			gap = &projections.GapError{Name: name, Checkpoint: cp, Position: ev.Position}
			break
		}
		todo = append(todo, ev)
		cp = ev.Position
	}
	if len(todo) == 0 {
		return 0, gap
	}
	if name == projections.Ratings {
		if err := d.prefetchRatings(ctx, tx, todo); err != nil {
			return 0, fmt.Errorf("projection %s: %w", name, err)
		}
	}
	for _, ev := range todo {
		tx.ev = ev
		if err := p.apply(ctx, tx, ev); err != nil {
			return 0, fmt.Errorf("projection %s: event %d (%s %s:%d): %w", name, ev.Position, ev.Type, ev.Stream, ev.Version, err)
		}
	}
	last := todo[len(todo)-1]
	tx.ev = eventstore.Event{}
	if p.finish != nil {
		p.finish(tx)
	}
	tx.exec(`UPDATE projection_checkpoints SET position = $2, hash = $3 WHERE name = $1`, name, last.Position, last.Hash)
	tx.exec(`COMMIT`)
	if err := tx.flush(ctx); err != nil {
		return 0, fmt.Errorf("projection %s: %w", name, err)
	}
	open = false
	d.changes.Broadcast()
	return len(todo), gap
}

// Reset empties projection name and sets its checkpoint to 0, holding the
// checkpoint's lock so that no applier on another node writes in between.
func (d *DB) Reset(ctx context.Context, name string) error {
	p, ok := d.proj[name]
	if !ok {
		return fmt.Errorf("%w: %q", projections.ErrUnknown, name)
	}
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("projection %s: begin: %w", name, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := lockCheckpoint(ctx, tx, name); err != nil {
		return err
	}
	for _, t := range p.tables {
		// DELETE, not TRUNCATE: TRUNCATE would lock readers out until the
		// commit.
		if _, err := tx.Exec(ctx, `DELETE FROM `+t); err != nil {
			return fmt.Errorf("projection %s: reset %s: %w", name, t, err)
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE projection_checkpoints SET position = 0, hash = '' WHERE name = $1`, name); err != nil {
		return fmt.Errorf("projection %s: reset checkpoint: %w", name, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("projection %s: commit reset: %w", name, err)
	}
	d.changes.Broadcast()
	return nil
}

// WaitFor waits until every projection has applied position pos, for at
// most timeout; then it returns an error matching ErrLagging.
func (d *DB) WaitFor(ctx context.Context, pos int64, timeout time.Duration) error {
	return d.changes.WaitFor(ctx, d.Checkpoint, projections.Names, pos, timeout)
}

// querier runs statements: a connection, or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// rollback ends the transaction open on conn, if any; a connection that
// cannot say it has none is closed, and so never reused.
func rollback(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if conn.IsClosed() {
		return
	}
	if _, err := conn.Exec(ctx, `ROLLBACK`); err != nil {
		conn.Close(ctx)
	}
}

// wtx is a batch transaction whose writes are queued and sent together:
// the projections decide from rows load read and from what they queued
// themselves, so a write needs no round trip of its own.
type wtx struct {
	tx    *pgx.Conn // in a transaction begun by lockAndLoad
	batch *pgx.Batch
	evs   []eventstore.Event // the event each queued statement applies
	ev    eventstore.Event   // the event being applied
	// The state of the projection being applied, read by its load.
	h  *handsState
	l  *boardState
	d  *dirState
	tn *tnState
	rt *projections.RatingsFold
}

func newWTX(conn *pgx.Conn) *wtx { return &wtx{tx: conn, batch: &pgx.Batch{}} }

// exec queues a statement.
func (t *wtx) exec(query string, args ...any) {
	t.batch.Queue(query, args...)
	t.evs = append(t.evs, t.ev)
}

// flush sends the queued statements in one round trip and reports the
// first that failed, with its event.
func (t *wtx) flush(ctx context.Context) error {
	if t.batch.Len() == 0 {
		return nil
	}
	br := t.tx.SendBatch(ctx, t.batch)
	var err error
	for i := range t.batch.Len() {
		ct, e := br.Exec()
		if e == nil && t.batch.QueuedQueries[i].SQL == `COMMIT` && ct.String() != "COMMIT" {
			e = errors.New("the transaction was rolled back")
		}
		if e != nil {
			ev := t.evs[i]
			if ev.Position == 0 {
				// A write gathered over the batch, or the checkpoint's.
				q := t.batch.QueuedQueries[i].SQL
				q, _, _ = strings.Cut(strings.Join(strings.Fields(q), " "), " FROM ")
				err = fmt.Errorf("batch write %q: %w", q, e)
			} else {
				err = fmt.Errorf("event %d (%s %s:%d): %w", ev.Position, ev.Type, ev.Stream, ev.Version, e)
			}
			break
		}
	}
	if cerr := br.Close(); err == nil && cerr != nil {
		err = cerr
	}
	t.batch, t.evs = &pgx.Batch{}, t.evs[:0]
	return err
}

// streams lists the distinct streams of events, in first-seen order.
func streams(events []eventstore.Event) []string {
	var out []string
	for _, ev := range events {
		if !slices.Contains(out, ev.Stream) {
			out = append(out, ev.Stream)
		}
	}
	return out
}

// leaseClass is the first key of every projection lease's advisory lock,
// keeping them apart from other advisory locks in the same database (the
// two-key space does not overlap golang-migrate's one-key locks).
const leaseClass = 0x70616a75 // "paju"

// Lease is the advisory lock of one projection, held on a
// connection of its own: while a node holds it, no other node's TryLease
// of that projection succeeds. The server ends the lock if the connection
// ends, so a node that dies frees it; Held tells the holder whether it still
// has it.
//
// A lease saves work (one node applies each projection, the others idle);
// it is not what keeps the rows right: the checkpoint row's lock in every
// ApplyBatch does that, lease or not, and so a holder that has lost its
// lease without noticing yet applies nothing twice.
type Lease struct {
	d    *DB
	name string
	once sync.Once
	err  error

	mu       sync.Mutex // a pgx.Conn serves one caller at a time
	conn     *pgx.Conn
	released bool
}

// TryLease tries to take the lease of projection name; ok is false, with
// no error, while another connection holds it.
func (d *DB) TryLease(ctx context.Context, name string) (l *Lease, ok bool, err error) {
	if _, known := d.proj[name]; !known {
		return nil, false, fmt.Errorf("%w: %q", projections.ErrUnknown, name)
	}
	conn, err := pgx.ConnectConfig(ctx, d.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, false, fmt.Errorf("projection %s: lease connection: %w", name, err)
	}
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, int32(leaseClass), leaseKey(name)).Scan(&ok); err != nil || !ok {
		conn.Close(context.WithoutCancel(ctx))
		if err != nil {
			return nil, false, fmt.Errorf("projection %s: lease: %w", name, err)
		}
		return nil, false, nil
	}
	l = &Lease{d: d, name: name, conn: conn}
	d.mu.Lock()
	d.leases[l] = struct{}{}
	d.mu.Unlock()
	return l, true, nil
}

// leaseKey is the second advisory lock key of projection name's lease.
func leaseKey(name string) int32 { return int32(crc32.ChecksumIEEE([]byte(name))) }

// Held checks that the lease's connection, and so its lock, is still there.
func (l *Lease) Held(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return fmt.Errorf("projection %s: lease released", l.name)
	}
	if err := l.conn.Ping(ctx); err != nil {
		return fmt.Errorf("projection %s: lease lost: %w", l.name, err)
	}
	return nil
}

// Release unlocks the lease and closes its connection. Releasing twice
// does nothing.
func (l *Lease) Release() error {
	l.once.Do(func() {
		l.d.mu.Lock()
		delete(l.d.leases, l)
		l.d.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		l.mu.Lock()
		defer l.mu.Unlock()
		l.released = true
		// Closing the connection would end the lock too; unlocking first
		// frees it at once even if the close is slow.
		_, uerr := l.conn.Exec(ctx, `SELECT pg_advisory_unlock($1, $2)`, int32(leaseClass), leaseKey(l.name))
		l.err = errors.Join(uerr, l.conn.Close(ctx))
		if l.err != nil {
			l.err = fmt.Errorf("projection %s: release lease: %w", l.name, l.err)
		}
	})
	return l.err
}
