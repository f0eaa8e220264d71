package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

const (
	sqlHead      = `SELECT position, hash FROM events ORDER BY position DESC LIMIT 1`
	sqlVersion   = `SELECT COALESCE(MAX(version), 0) FROM events WHERE stream = ?`
	sqlInsert    = `INSERT INTO events (stream, version, type, data, recorded_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)`
	sqlLookupKey = `SELECT request_hash, stream, first_version, last_version, created_at FROM idempotency WHERE scope = ? AND key = ?`
	sqlInsertKey = `INSERT INTO idempotency (scope, key, request_hash, stream, first_version, last_version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`
)

// writeStmts are the writer's statements, prepared once on the write
// connection: parsing them on every append would cost more than running them.
type writeStmts struct {
	head, version, insert, lookupKey, insertKey *sql.Stmt
	savepoint, rollbackTo, release              *sql.Stmt
}

func (w *writeStmts) prepare(ctx context.Context, db *sql.DB) error {
	var errs []error
	p := func(query string) *sql.Stmt {
		st, err := db.PrepareContext(ctx, query)
		if err != nil {
			errs = append(errs, fmt.Errorf("prepare %q: %w", query, err))
		}
		return st
	}
	*w = writeStmts{
		head:       p(sqlHead),
		version:    p(sqlVersion),
		insert:     p(sqlInsert),
		lookupKey:  p(sqlLookupKey),
		insertKey:  p(sqlInsertKey),
		savepoint:  p(`SAVEPOINT append_one`),
		rollbackTo: p(`ROLLBACK TO append_one`),
		release:    p(`RELEASE append_one`),
	}
	return errors.Join(errs...)
}

// txStmts are writeStmts bound to one transaction.
type txStmts writeStmts

func (w *writeStmts) in(ctx context.Context, tx *sql.Tx) txStmts {
	return txStmts{
		head:       tx.StmtContext(ctx, w.head),
		version:    tx.StmtContext(ctx, w.version),
		insert:     tx.StmtContext(ctx, w.insert),
		lookupKey:  tx.StmtContext(ctx, w.lookupKey),
		insertKey:  tx.StmtContext(ctx, w.insertKey),
		savepoint:  tx.StmtContext(ctx, w.savepoint),
		rollbackTo: tx.StmtContext(ctx, w.rollbackTo),
		release:    tx.StmtContext(ctx, w.release),
	}
}
