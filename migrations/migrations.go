// Package migrations holds the schema of the paiju database as golang-migrate
// SQL files, embedded so the binary carries its own schema.
//
// Files are named NNNN_name.up.sql / NNNN_name.down.sql. A migration, once
// released, is never edited: a change is a new pair of files.
//
// Conventions the store relies on:
//   - timestamps (events.recorded_at, players.created_at,
//     idempotency.created_at) are INTEGER unix nanoseconds in UTC: exact,
//     sortable and cheap to compare; datetime(x / 1e9, 'unixepoch') shows
//     them to a person.
//   - events.data is TEXT holding the event's JSON byte for byte as it was
//     appended, so SQLite's JSON functions work on it and the chain hash can
//     be recomputed from it.
package migrations

import "embed"

// FS holds the migration files at its root, for golang-migrate's iofs source.
//
//go:embed *.sql
var FS embed.FS
