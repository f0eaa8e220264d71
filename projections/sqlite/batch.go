package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// batch is what the projections of one ApplyBatch keep in memory between
// its events and write once, at its end (flush), before the checkpoint and
// in the same transaction: rows read again at every event of a table, and
// rows written by every event, are most of the statements otherwise. The
// transaction holds the file's write lock (BEGIN IMMEDIATE) from the first
// read, so what it read stays true until it commits.
type batch struct {
	// hh is the hands projection's hh_tables row of each stream the batch
	// met, nil for a stream it has none for.
	hh map[string]*hhTable
	// handEvents are the hh_hand_events rows to insert, six values a row.
	handEvents []any
	// playerHands are the hh_player_hands rows to insert, five values a
	// row, and lbResults the lb_results rows, seven.
	playerHands, lbResults []any
	// handSeats are the seats of the hands the batch started (hh_hands'
	// seats).
	handSeats map[string][]seatRecord
	// lb is the leaderboards' lb_tables row of each stream the batch
	// settled a hand of, nil for none.
	lb map[string]*lbTable
	// td is the directory's knowledge of each table the batch met.
	td map[string]*tdTable
}

// hhTable is a row of hh_tables; dirty when open differs from the row's.
type hhTable struct {
	game, variant string
	open          int
	dirty         bool
}

// lbTable is a row of lb_tables.
type lbTable struct{ game, variant string }

// lbTableOf returns stream's lb_tables row, read once a batch.
func (t *wtx) lbTableOf(ctx context.Context, stream string) (*lbTable, error) {
	if r, ok := t.lb[stream]; ok {
		return r, nil
	}
	r := &lbTable{}
	err := t.QueryRowContext(ctx, `SELECT game, variant FROM lb_tables WHERE stream = ?`, stream).Scan(&r.game, &r.variant)
	if errors.Is(err, sql.ErrNoRows) {
		r = nil
	} else if err != nil {
		return nil, err
	}
	if t.lb == nil {
		t.lb = map[string]*lbTable{}
	}
	t.lb[stream] = r
	return r, nil
}

// tdTable is whether td_tables has a table, and the recording time of its
// last event of the batch (its updated_at) when the batch changed it.
type tdTable struct {
	known   bool
	touched bool
	at      int64
}

// hhTableOf returns stream's hh_tables row, read once a batch.
func (t *wtx) hhTableOf(ctx context.Context, stream string) (*hhTable, error) {
	if r, ok := t.hh[stream]; ok {
		return r, nil
	}
	r := &hhTable{}
	err := t.QueryRowContext(ctx, `SELECT game, variant, open_hand FROM hh_tables WHERE stream = ?`, stream).Scan(&r.game, &r.variant, &r.open)
	if errors.Is(err, sql.ErrNoRows) {
		r = nil
	} else if err != nil {
		return nil, err
	}
	if t.hh == nil {
		t.hh = map[string]*hhTable{}
	}
	t.hh[stream] = r
	return r, nil
}

// tdTableOf returns whether td_tables has table tid, read once a batch.
func (t *wtx) tdTableOf(ctx context.Context, tid string) (*tdTable, error) {
	if r, ok := t.td[tid]; ok {
		return r, nil
	}
	r := &tdTable{}
	var one int
	err := t.QueryRowContext(ctx, `SELECT 1 FROM td_tables WHERE table_id = ?`, tid).Scan(&one)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	r.known = err == nil
	if t.td == nil {
		t.td = map[string]*tdTable{}
	}
	t.td[tid] = r
	return r, nil
}

// flush writes what the batch kept in memory.
func (t *wtx) flush(ctx context.Context) error {
	if err := t.insertRows(ctx, `INSERT OR IGNORE INTO hh_hand_events (hand_id, position, version, type, data, recorded_at) VALUES `, 6, t.handEvents); err != nil {
		return fmt.Errorf("hand events: %w", err)
	}
	if err := t.insertRows(ctx, `INSERT OR IGNORE INTO hh_player_hands (player_id, settled_position, hand_id, seat, delta) VALUES `, 5, t.playerHands); err != nil {
		return fmt.Errorf("player hands: %w", err)
	}
	if err := t.insertRows(ctx, `INSERT OR IGNORE INTO lb_results (hand_id, seat, player_id, game, variant, delta, settled_at) VALUES `, 7, t.lbResults); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	for stream, r := range t.hh {
		if r == nil || !r.dirty {
			continue
		}
		if _, err := t.ExecContext(ctx, `UPDATE hh_tables SET open_hand = ? WHERE stream = ?`, r.open, stream); err != nil {
			return fmt.Errorf("open hand: %w", err)
		}
	}
	for tid, r := range t.td {
		if !r.touched {
			continue
		}
		if _, err := t.ExecContext(ctx, `UPDATE td_tables SET updated_at = ? WHERE table_id = ?`, r.at, tid); err != nil {
			return fmt.Errorf("table updated: %w", err)
		}
	}
	return nil
}

// maxRowsInsert is the most rows one INSERT of insertRows holds.
const maxRowsInsert = 64

// insertRows inserts rows (cols values each, in order) with head, an
// "INSERT … VALUES " clause: up to maxRowsInsert rows a statement, and only
// power-of-two counts of rows, so that few statements are ever prepared.
func (t *wtx) insertRows(ctx context.Context, head string, cols int, args []any) error {
	for len(args) > 0 {
		n := min(len(args)/cols, maxRowsInsert)
		n = 1 << (bits.Len(uint(n)) - 1)
		if _, err := t.ExecContext(ctx, t.valuesQuery(head, cols, n), args[:n*cols]...); err != nil {
			return err
		}
		args = args[n*cols:]
	}
	return nil
}

type valuesKey struct {
	head       string
	cols, rows int
}

// valuesQuery is the text of an INSERT of rows rows, kept in the statement
// cache so that looking its statement up does not build it again.
func (t *wtx) valuesQuery(head string, cols, rows int) string {
	k := valuesKey{head, cols, rows}
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if q, ok := c.texts[k]; ok {
		return q
	}
	row := "(" + strings.Repeat("?, ", cols-1) + "?)"
	var b strings.Builder
	b.WriteString(head)
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	if c.texts == nil {
		c.texts = map[valuesKey]string{}
	}
	c.texts[k] = b.String()
	return c.texts[k]
}
