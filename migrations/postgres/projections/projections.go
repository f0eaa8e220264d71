// Package projections holds the schema of the projections in PostgreSQL
// (projections/postgres): the same tables as the SQLite read model, in a
// database a cluster's nodes share, possibly the event store's own.
//
// golang-migrate records their version in a table of their own,
// projections_schema_migrations, so that the event store's migrations can
// live in the same database with theirs.
package projections

import "embed"

// MigrationsTable is the table golang-migrate records this schema's
// version in.
const MigrationsTable = "projections_schema_migrations"

// FS holds the migration files at its root, for golang-migrate's iofs source.
//
//go:embed *.sql
var FS embed.FS
