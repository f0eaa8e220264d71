package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"paiju/migrations"
	pmig "paiju/migrations/projections"
	"paiju/migrations/schema"
)

// migrateConfig configures paiju migrate.
type MigrateConfig struct {
	Common
	Verb string // up, down, version, force
	N    int    // down's step count, force's version
	DB   string // "" (both databases: up, version only), store or projections
}

// database is one of the data directory's SQLite files and its schema, or
// the PostgreSQL store --store names (open set, path its redacted URL).
type database struct {
	name  string
	path  string
	files fs.FS
	open  func(ctx context.Context) (*schema.Migrator, error) // nil: the SQLite file at path
}

func (c Common) databases() []database {
	if c.sharedStore() {
		return []database{postgresStoreSchema(c), postgresProjectionsSchema(c)}
	}
	return []database{
		{"store", c.DBPath(), migrations.FS, nil},
		{"projections", c.ProjectionsPath(), pmig.FS, nil},
	}
}

// migrate runs one verb on the data directory's databases.
func Migrate(ctx context.Context, c MigrateConfig, stdout io.Writer) error {
	if _, err := c.storeKind(); err != nil {
		return err
	}
	if c.Verb == "up" {
		if err := os.MkdirAll(c.Data, 0o750); err != nil {
			return fmt.Errorf("data directory: %w", err)
		}
	}
	if _, err := os.Stat(c.Data); err == nil {
		// Never migrate under a running server.
		lock, err := lockDataDir(c.Data)
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	for _, d := range c.databases() {
		if c.DB != "" && c.DB != d.name {
			continue
		}
		if c.Verb != "up" && d.open == nil {
			// Only up creates a database; the others would leave an empty file.
			if _, err := os.Stat(d.path); err != nil {
				return fmt.Errorf("migrate %s: %s database: %w", c.Verb, d.name, err)
			}
		}
		if err := migrateOne(ctx, c, d, stdout); err != nil {
			return err
		}
	}
	return nil
}

func migrateOne(ctx context.Context, c MigrateConfig, d database, stdout io.Writer) (err error) {
	open := d.open
	if open == nil {
		open = func(ctx context.Context) (*schema.Migrator, error) { return schema.Open(ctx, d.path, d.files, 0) }
	}
	m, err := open(ctx)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, m.Close()) }()
	switch c.Verb {
	case "up":
		err = m.Up(ctx)
	case "down":
		if d.name == "store" {
			if err := refuseDroppingLog(m, c.N); err != nil {
				return err
			}
		}
		err = m.Down(ctx, c.N)
	case "force":
		err = m.Force(uint(c.N))
	}
	if err != nil {
		return err
	}
	v, dirty, err := m.Version()
	if err != nil {
		return err
	}
	state := ""
	if dirty {
		state = " (dirty: a migration failed halfway)"
	} else if v > m.Latest() {
		state = " (newer than this binary)"
	}
	if c.Verb == "up" {
		fmt.Fprintf(stdout, "%s %s: schema up to date at version %d\n", d.name, d.path, v)
		return nil
	}
	fmt.Fprintf(stdout, "%s %s: schema version %d of %d%s\n", d.name, d.path, v, m.Latest(), state)
	return nil
}

// refuseDroppingLog refuses a down that would revert the store's first
// migration: its down file drops the event log, which no rollback needs.
func refuseDroppingLog(m *schema.Migrator, n int) error {
	v, _, err := m.Version()
	if err != nil {
		return err
	}
	applied, err := m.Applied(v)
	if err != nil {
		return err
	}
	if n >= applied {
		return fmt.Errorf("migrate down %d: the store's first migration holds the event log; reverting it would delete every event (%d migrations applied, down %d at most)", n, applied, applied-1)
	}
	return nil
}
