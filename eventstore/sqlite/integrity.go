package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"

	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrCorrupt is what CheckIntegrity returns (wrapped) when SQLite finds the
// database file damaged: a torn or overwritten page, an index that
// disagrees with its table.
var ErrCorrupt = errors.New("database file is damaged")

// CheckIntegrity runs SQLite's own check of the database file: quick_check
// when quick (the page structure, in about the time of one read of the
// file; for start-up) or the full integrity_check (which also compares every
// index with its table; for verify).
func (s *Store) CheckIntegrity(ctx context.Context, quick bool) error {
	pragma := "integrity_check"
	if quick {
		pragma = "quick_check"
	}
	rows, err := s.rdb.QueryContext(ctx, "PRAGMA "+pragma)
	if err != nil {
		return damaged(ctx, pragma, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("%s: %w", pragma, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return damaged(ctx, pragma, err)
	}
	if len(problems) > 0 {
		const shown = 5
		more := ""
		if len(problems) > shown {
			more = fmt.Sprintf(" (and %d more)", len(problems)-shown)
			problems = problems[:shown]
		}
		return fmt.Errorf("%s: %w: %s%s", pragma, ErrCorrupt, strings.Join(problems, "; "), more)
	}
	return nil
}

// damaged wraps the failure of a check: SQLite stops a check it cannot
// finish on a malformed file with an error rather than a row, which is as
// much a finding as a row, unless the caller gave up.
func damaged(ctx context.Context, pragma string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", pragma, err)
	}
	return fmt.Errorf("%s: %w: %w", pragma, ErrCorrupt, err)
}

// markCorrupt wraps err with ErrCorrupt when SQLite gave up on a malformed
// file (SQLITE_CORRUPT, SQLITE_NOTADB), so that callers can tell a damaged
// file from a failed read.
func markCorrupt(err error) error {
	var se *msqlite.Error
	if err == nil || errors.Is(err, ErrCorrupt) || !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
}
