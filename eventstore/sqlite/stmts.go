package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"paiju/eventstore"
	"paiju/eventstore/internal/rowscan"
)

const (
	sqlHead      = `SELECT position, hash FROM events ORDER BY position DESC LIMIT 1`
	sqlVersion   = `SELECT COALESCE(MAX(version), 0) FROM events WHERE stream = ?`
	sqlLookupKey = `SELECT ` + rowscan.IdempotencyColumns + ` FROM idempotency WHERE scope = ? AND key = ?`
	// A known key stores nothing and changes no row: the writer reads the
	// record only then, instead of before every keyed append.
	sqlInsertKey = `INSERT INTO idempotency (scope, key, request_hash, stream, first_version, last_version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (scope, key) DO NOTHING`
)

// maxInsertRows is the most events one INSERT statement holds (7 variables
// each, far below SQLite's limit on variables).
const maxInsertRows = 64

// sqlInsertRows is the INSERT of n events. OR FAIL: a row refused leaves
// the rows before it in place instead of undoing them, which spares SQLite
// a statement journal for every multi-row insert; the writer undoes a failed
// append itself (the transaction or the append's savepoint).
func sqlInsertRows(n int) string {
	var b strings.Builder
	b.WriteString(`INSERT OR FAIL INTO events (stream, version, type, data, recorded_at, prev_hash, hash) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?)")
	}
	return b.String()
}

// insertRows is how many of n waiting events the next INSERT takes: the
// largest power of two up to n and maxInsertRows, so that a handful of
// statements serve every batch.
func insertRows(n int) int {
	k := 1
	for k*2 <= n && k*2 <= maxInsertRows {
		k *= 2
	}
	return k
}

// writeStmts are the writer's statements, prepared once on the write
// connection: parsing them on every append would cost more than running them.
// Only the writer goroutine uses them, and the buffers below.
type writeStmts struct {
	head, version, lookupKey, insertKey *sql.Stmt
	savepoint, rollbackTo, release      *sql.Stmt
	inserts                             map[int]*sql.Stmt // the INSERT of n events, n a power of two

	hasher eventstore.Hasher
	args   []any
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
		lookupKey:  p(sqlLookupKey),
		insertKey:  p(sqlInsertKey),
		savepoint:  p(`SAVEPOINT append_one`),
		rollbackTo: p(`ROLLBACK TO append_one`),
		release:    p(`RELEASE append_one`),
		inserts:    make(map[int]*sql.Stmt),
	}
	// All of them now: the write connection is the only one, so none can
	// be prepared while a transaction holds it.
	for n := 1; n <= maxInsertRows; n *= 2 {
		w.inserts[n] = p(sqlInsertRows(n))
	}
	return errors.Join(errs...)
}

// txStmts are writeStmts bound to one transaction as they are used.
type txStmts struct {
	w     *writeStmts
	ctx   context.Context
	tx    *sql.Tx
	bound []boundStmt
}

type boundStmt struct{ prepared, inTx *sql.Stmt }

func (w *writeStmts) in(ctx context.Context, tx *sql.Tx) *txStmts {
	return &txStmts{w: w, ctx: ctx, tx: tx, bound: make([]boundStmt, 0, 8)}
}

// bind returns stmt bound to the transaction, binding it once.
func (st *txStmts) bind(stmt *sql.Stmt) *sql.Stmt {
	for _, b := range st.bound {
		if b.prepared == stmt {
			return b.inTx
		}
	}
	inTx := st.tx.StmtContext(st.ctx, stmt)
	st.bound = append(st.bound, boundStmt{stmt, inTx})
	return inTx
}

// insertN returns the INSERT of n events (n from insertRows), bound to the
// transaction.
func (st *txStmts) insertN(n int) (*sql.Stmt, error) {
	stmt, ok := st.w.inserts[n]
	if !ok {
		return nil, fmt.Errorf("no prepared insert of %d events", n)
	}
	return st.bind(stmt), nil
}
