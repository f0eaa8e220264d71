// Package store holds the schema of the PostgreSQL event store
// (eventstore/postgres) as golang-migrate SQL files, embedded so the binary
// carries its own schema. They are recorded in their own migrations table
// (MigrationsTable), so that other schemas' migrations (the projections')
// can live in the same database.
//
// A migration, once released, is never edited: a change is a new pair of
// files.
package store

import "embed"

// MigrationsTable is the table golang-migrate records this schema's version in.
const MigrationsTable = "paiju_store_migrations"

// FS holds the migration files at its root, for golang-migrate's iofs source.
//
//go:embed *.sql
var FS embed.FS
