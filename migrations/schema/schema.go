// Package schema runs one SQLite database's embedded golang-migrate files:
// up, down N steps, version and force, for `paiju migrate` and for the
// stores that bring their schema up to date when they open.
//
// A database whose schema is newer than the files this binary carries (it
// was migrated by a newer paiju) is refused with an *AheadError that says
// so, instead of golang-migrate's "no migration found for version N": the
// operator rolls back with the newer binary's `paiju migrate down` first.
package schema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	migratesqlite "github.com/golang-migrate/migrate/v4/database/sqlite"
	"github.com/golang-migrate/migrate/v4/source"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// ErrAhead matches an *AheadError.
var ErrAhead = errors.New("schema: database is newer than this binary")

// AheadError reports a database at a schema version this binary has no
// migration for.
type AheadError struct {
	Path    string
	Version uint // the database's
	Latest  uint // the newest this binary knows
}

func (e *AheadError) Error() string {
	return fmt.Sprintf("database %s is at schema version %d, newer than this binary knows (its newest is %d): "+
		"it was migrated by a newer paiju; run that newer binary's \"paiju migrate down\" back to version %d, or run the newer binary",
		e.Path, e.Version, e.Latest, e.Latest)
}

// Is makes errors.Is(err, ErrAhead) true.
func (e *AheadError) Is(target error) bool { return target == ErrAhead }

// Migrator runs the migrations of files on the database at path.
type Migrator struct {
	path     string
	m        *migrate.Migrate
	versions []uint // every version files holds, ascending
}

// Open opens (creating if needed) the database at path for migrating with
// files (NNNN_name.up.sql / .down.sql at its root). It holds one
// connection: SQLite's own locking keeps two processes from migrating at
// once, and busy waits for a lock held by another.
func Open(ctx context.Context, path string, files fs.FS, busy time.Duration) (*Migrator, error) {
	if busy <= 0 {
		busy = 5 * time.Second
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(busy.Milliseconds(), 10)+")")
	q.Add("_pragma", "journal_mode(WAL)")
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("schema of %s: %w", path, err)
	}
	driver, err := migratesqlite.WithInstance(db, &migratesqlite.Config{})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("schema of %s: migration driver: %w", path, err)
	}
	src, err := iofs.New(files, ".")
	if err != nil {
		driver.Close()
		return nil, fmt.Errorf("schema of %s: migration source: %w", path, err)
	}
	versions, err := listVersions(src)
	if err != nil {
		src.Close()
		driver.Close()
		return nil, fmt.Errorf("schema of %s: %w", path, err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "sqlite", driver)
	if err != nil {
		src.Close()
		driver.Close()
		return nil, fmt.Errorf("schema of %s: %w", path, err)
	}
	return &Migrator{path: path, m: m, versions: versions}, nil
}

func listVersions(src source.Driver) ([]uint, error) {
	v, err := src.First()
	if err != nil {
		return nil, fmt.Errorf("no migrations: %w", err)
	}
	vs := []uint{v}
	for {
		v, err = src.Next(v)
		if errors.Is(err, os.ErrNotExist) {
			return vs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("list migrations: %w", err)
		}
		vs = append(vs, v)
	}
}

// Close closes the database.
func (m *Migrator) Close() error {
	srcErr, dbErr := m.m.Close()
	return errors.Join(srcErr, dbErr)
}

// Latest is the newest version this binary's files hold.
func (m *Migrator) Latest() uint { return m.versions[len(m.versions)-1] }

// Version returns the database's schema version (0 for none) and whether
// a migration failed halfway (dirty).
func (m *Migrator) Version() (version uint, dirty bool, err error) {
	v, dirty, err := m.m.Version()
	if errors.Is(err, migrate.ErrNilVersion) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("schema of %s: version: %w", m.path, err)
	}
	return v, dirty, nil
}

// check refuses a database this binary cannot migrate: newer than its
// files, or dirty.
func (m *Migrator) check() (uint, error) {
	v, dirty, err := m.Version()
	if err != nil {
		return 0, err
	}
	if v > m.Latest() || v != 0 && m.index(v) < 0 {
		return v, &AheadError{Path: m.path, Version: v, Latest: m.Latest()}
	}
	if dirty {
		return v, m.dirtyError(v)
	}
	return v, nil
}

// errDirty matches the error of a dirty database.
var errDirty = errors.New("dirty")

func (m *Migrator) dirtyError(v uint) error {
	return fmt.Errorf("schema of %s is %w at version %d: a migration failed halfway; repair the database by hand, then record its true version with \"paiju migrate force V\"", m.path, errDirty, v)
}

func (m *Migrator) index(v uint) int {
	for i, x := range m.versions {
		if x == v {
			return i
		}
	}
	return -1
}

// Up applies every migration the database lacks. It refuses a database
// newer than this binary (*AheadError) or dirty.
//
// A database seen dirty before the migration lock is taken is not refused
// yet: golang-migrate marks the version dirty while it applies it, so
// another process may be migrating it right now (the nodes of a cluster
// starting together on an empty database). m.m.Up reads the version again
// once it holds the lock, and refuses a database still dirty then.
func (m *Migrator) Up(ctx context.Context) error {
	if _, err := m.check(); err != nil && !errors.Is(err, errDirty) {
		return err
	}
	err := m.run(ctx, "up", m.m.Up)
	if de, ok := errors.AsType[migrate.ErrDirty](err); ok {
		return m.dirtyError(uint(de.Version))
	}
	return err
}

// Down reverts the newest n applied migrations; it refuses n larger than
// the number applied.
func (m *Migrator) Down(ctx context.Context, n int) error {
	v, err := m.check()
	if err != nil {
		return err
	}
	applied := m.index(v) + 1 // 0 when v is 0
	if n < 1 || n > applied {
		return fmt.Errorf("schema of %s: down %d: %d migrations are applied (version %d)", m.path, n, applied, v)
	}
	return m.run(ctx, "down", func() error { return m.m.Steps(-n) })
}

// Force records version v (0 for none) as the database's, clean, without
// running anything: after repairing a dirty database by hand. v must be one
// this binary knows.
func (m *Migrator) Force(v uint) error {
	if v != 0 && m.index(v) < 0 {
		return fmt.Errorf("schema of %s: force %d: this binary has no migration %d (it knows %v)", m.path, v, v, m.versions)
	}
	fv := int(v)
	if v == 0 {
		fv = database.NilVersion
	}
	if err := m.m.Force(fv); err != nil {
		return fmt.Errorf("schema of %s: force %d: %w", m.path, v, err)
	}
	return nil
}

// run runs f, stopping between migrations when ctx ends (golang-migrate
// takes no context).
func (m *Migrator) run(ctx context.Context, what string, f func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() {
		select {
		case m.m.GracefulStop <- true:
		default:
		}
	})
	defer stop()
	if err := f(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("schema of %s: %s: %w", m.path, what, err)
	}
	return ctx.Err()
}

// Up opens the database at path, applies every migration of files it
// lacks and closes it: what a store does when it opens.
func Up(ctx context.Context, path string, files fs.FS, busy time.Duration) (err error) {
	m, err := Open(ctx, path, files, busy)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, m.Close()) }()
	return m.Up(ctx)
}

// Applied is how many of this binary's migrations a database at version v
// has applied; an error for a version it does not know.
func (m *Migrator) Applied(v uint) (int, error) {
	if v == 0 {
		return 0, nil
	}
	i := m.index(v)
	if i < 0 {
		return 0, &AheadError{Path: m.path, Version: v, Latest: m.Latest()}
	}
	return i + 1, nil
}
