// Package projections holds the schema of the projections database
// (projections.db in the data directory), kept apart from the event store's
// file: the store is the only writer of its own file, and a projection can be
// rebuilt by emptying its tables without touching the log.
//
// Numbering continues after the store's migrations so that a number names
// one migration across the whole project.
package projections

import "embed"

// FS holds the migration files at its root, for golang-migrate's iofs source.
//
//go:embed *.sql
var FS embed.FS
