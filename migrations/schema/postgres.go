package schema

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"

	"github.com/golang-migrate/migrate/v4"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// OpenPostgres opens the PostgreSQL database at dbURL for migrating with
// files (NNNN_name.up.sql / .down.sql at its root), recording its version in
// the table migrationsTable. Each schema that shares a database (the event
// store's, the projections') names its own table; golang-migrate's advisory
// lock is derived from that name, so two schemas' migrations never wait for
// each other, and two processes migrating the same schema take turns.
func OpenPostgres(ctx context.Context, dbURL string, files fs.FS, migrationsTable string) (*Migrator, error) {
	name := RedactURL(dbURL)
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", name, err)
	}
	db := stdlib.OpenDB(*cfg)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("schema of %s: %w", name, err)
	}
	driver, err := migratepgx.WithInstance(db, &migratepgx.Config{MigrationsTable: migrationsTable})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("schema of %s: migration driver: %w", name, err)
	}
	src, err := iofs.New(files, ".")
	if err != nil {
		driver.Close()
		return nil, fmt.Errorf("schema of %s: migration source: %w", name, err)
	}
	versions, err := listVersions(src)
	if err != nil {
		src.Close()
		driver.Close()
		return nil, fmt.Errorf("schema of %s: %w", name, err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", driver)
	if err != nil {
		src.Close()
		driver.Close()
		return nil, fmt.Errorf("schema of %s: %w", name, err)
	}
	return &Migrator{path: name, m: m, versions: versions}, nil
}

// UpPostgres opens the database at dbURL, applies every migration of files
// it lacks and closes it: what a store does when it opens.
func UpPostgres(ctx context.Context, dbURL string, files fs.FS, migrationsTable string) (err error) {
	m, err := OpenPostgres(ctx, dbURL, files, migrationsTable)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, m.Close()) }()
	return m.Up(ctx)
}

// RedactURL hides the password of a database URL, for messages and logs.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "the configured database"
	}
	return u.Redacted()
}
