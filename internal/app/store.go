package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"paiju/eventstore"
	"paiju/eventstore/postgres"
	"paiju/eventstore/sqlite"
	"paiju/migrations/schema"
)

// logStore is a whole event store as the server opens it: the log (with
// the idempotency keys the service records in its appends), the accounts
// (players, tokens, rooms) and the relay's checkpoints. The embedded SQLite
// store and the PostgreSQL store both are one (wiring.go); each part of
// the server is handed the small contract it uses.
type logStore interface {
	eventstore.Store
	eventstore.Accounts
	eventstore.Checkpoints
}

// pgRestoreHint is what a refusal over a broken PostgreSQL log tells the
// operator: the log and its head are rewritten only by restoring them.
const pgRestoreHint = `restore the database from its backup (pg_dump or the server's archive), then run "paiju verify --store URL"`

// storeKind is which store --store names.
type storeKind int

const (
	storeSQLite   storeKind = iota // empty: the SQLite database in the data directory
	storePostgres                  // postgres:// or postgresql://
)

// kind tells the store --store names, or why the value names none.
func (c Common) storeKind() (storeKind, error) {
	switch {
	case c.Store == "":
		return storeSQLite, nil
	case strings.HasPrefix(c.Store, "postgres://"), strings.HasPrefix(c.Store, "postgresql://"):
		return storePostgres, nil
	}
	return 0, fmt.Errorf("--store %q: want empty (SQLite in the data directory) or a postgres:// URL", schema.RedactURL(c.Store))
}

// sharedStore says whether other nodes may append to the store too.
func (c Common) sharedStore() bool {
	k, err := c.storeKind()
	return err == nil && k == storePostgres
}

// openStore opens the event store --store names: the SQLite database in the
// data directory (created if needed), or the PostgreSQL database.
func openStore(ctx context.Context, c Common, log *slog.Logger, onCommit func(events, appends int, took time.Duration), now func() time.Time) (logStore, error) {
	kind, err := c.storeKind()
	if err != nil {
		return nil, err
	}
	if kind == storePostgres {
		st, err := postgres.Open(ctx, c.Store, postgres.Options{Logger: log, OnCommit: onCommit, Now: now})
		if errors.Is(err, eventstore.ErrChainBroken) {
			return nil, fmt.Errorf("refusing to serve: %w; %s", err, pgRestoreHint)
		}
		if err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
		return st, nil
	}
	if err := os.MkdirAll(c.Data, 0o750); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	st, err := sqlite.Open(ctx, c.DBPath(), sqlite.Options{Synchronous: c.Sync, HeadFile: c.HeadPath(), Logger: log, OnCommit: onCommit, Now: now})
	if err != nil {
		return nil, fmt.Errorf("open store: %w", refusedOpen(err))
	}
	return st, nil
}

// openLogReader opens the store for reading the log beside a server that
// may be running: SQLite's without the chain head file, which only the
// server writes.
func openLogReader(ctx context.Context, c Common, log *slog.Logger) (logStore, error) {
	kind, err := c.storeKind()
	if err != nil {
		return nil, err
	}
	if kind == storePostgres {
		st, err := postgres.Open(ctx, c.Store, postgres.Options{Logger: log})
		if err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
		return st, nil
	}
	st, err := sqlite.Open(ctx, c.DBPath(), sqlite.Options{Synchronous: c.Sync, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	return st, nil
}

// sqliteOnly refuses a command that works on the SQLite files of the data
// directory when --store names a PostgreSQL database.
func sqliteOnly(cmd string, c Common) error {
	kind, err := c.storeKind()
	if err != nil {
		return err
	}
	if kind == storePostgres {
		return fmt.Errorf("%s works on the SQLite store of a data directory, and --store names a PostgreSQL database: "+
			"back it up and restore it with PostgreSQL's tools (pg_dump, pg_restore, or the server's continuous archiving); "+
			"its chain head is the chain_head table, written with every append, so there is no head file to recover", cmd)
	}
	return nil
}

// verifyPostgres is verify for a PostgreSQL store: the recorded chain head
// against the log's last event, the hash chain, then every table
// re-decided. The database's own integrity is the server's to keep (it has
// no integrity_check of SQLite's kind).
func verifyPostgres(ctx context.Context, vc VerifyConfig, stdout io.Writer) error {
	c := vc.Common
	// Opened without the head check: verify says where the log is broken
	// rather than refusing to look.
	store, err := postgres.Open(ctx, c.Store, postgres.Options{Logger: slog.New(slog.DiscardHandler), NoHeadCheck: true})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer store.Close()
	fmt.Fprintf(stdout, "database: PostgreSQL at %s\n", schema.RedactURL(c.Store))
	// The head row and the events are written in one transaction, so this
	// holds however many nodes append meanwhile.
	if err := store.CheckHead(ctx); err != nil {
		return fmt.Errorf("chain head: %w", err)
	}
	headPos, headHash, err := store.Head(ctx)
	if err != nil {
		return fmt.Errorf("chain head: %w", err)
	}
	if err := eventstore.VerifyChain(ctx, store, headPos, headHash); err != nil {
		return fmt.Errorf("hash chain: %w", err)
	}
	fmt.Fprintf(stdout, "hash chain ok: %d events\n", headPos)
	if vc.NATS.URL != "" {
		if err := verifyAnchor(ctx, vc.NATS, store, stdout); err != nil {
			return err
		}
	}
	if err := verifyTables(ctx, store, stdout); err != nil {
		return err
	}
	if vc.Ratings != "" {
		return verifyRatings(ctx, vc.Common, store, vc.Ratings, stdout)
	}
	return nil
}

// postgresStoreSchema is the PostgreSQL store's schema for paiju migrate.
func postgresStoreSchema(c Common) database {
	return database{
		name: "store",
		path: schema.RedactURL(c.Store),
		open: func(ctx context.Context) (*schema.Migrator, error) { return postgres.Migrator(ctx, c.Store) },
	}
}
