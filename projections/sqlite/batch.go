package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"

	"paiju/eventstore"
	"paiju/projections"
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
	// runs are the hh_hand_event_runs rows to insert, one a hand the batch
	// recorded events of (runOrder: in the order first met).
	runs     map[string]*handRun
	runOrder []string
	// lbResults are the lb_results rows to insert, seven values a row.
	lbResults []any
	// hhSeats are the hh_seats rows of each stream the batch read them
	// for, by seat, kept as the batch changes them.
	hhSeats map[string][]seatRecord
	// started are the hh_hands rows of the hands the batch started, by
	// hand ID (startOrder: in the order started), and settled the
	// settlements it applied, in order: flushHands writes both, a hand
	// started and settled in the batch as one row.
	started    map[string]*startedHand
	startOrder []string
	settled    []handSettlement
	// lb is the leaderboards' lb_tables row of each stream the batch
	// settled a hand of, nil for none.
	lb map[string]*lbTable
	// lbSeats are the lb_seats rows (seat to player) of each stream the
	// batch read them for, and lbHand the lb_hand_seats rows of each hand
	// of those streams, both kept as the batch changes them; lbHandRead are
	// the streams read, lbHandHad the hands that had rows when they were.
	// flush writes lbHand back.
	lbSeats    map[string]map[int]string
	lbHand     map[lbHandKey]map[int]string
	lbHandRead map[string]bool
	lbHandHad  []lbHandKey
	// lbSeatsDirty and hhSeatsDirty are the streams whose seats the batch
	// changed in lbSeats, hhSeats; lbNames the players' names it met, the
	// last of each (lbNameOrder: in the order first met).
	lbSeatsDirty, hhSeatsDirty map[string]bool
	lbNames                    map[string]string
	lbNameOrder                []string
	// td is the directory's knowledge of each table the batch met.
	td map[string]*tdTable
	// tdSeats are the td_seats rows the batch changed, by table and seat:
	// the row as the batch leaves it, nil for an empty seat (tdSeatOrder:
	// the keys in the order first changed). Nothing reads td_seats before
	// flush writes them.
	tdSeats     map[tdSeatKey]*tdSeat
	tdSeatOrder []tdSeatKey
	// rt is the ratings projection's fold of the batch, written by
	// flushRatings.
	rt *projections.RatingsFold
}

type tdSeatKey struct {
	table string
	seat  int
}

// tdSeat is a row of td_seats.
type tdSeat struct {
	player, name string
	bot          bool
}

// tdSeat records that a seat of table tid is r (INSERT OR REPLACE), or
// empty for nil (DELETE), which flush writes.
func (t *wtx) tdSeat(tid string, seat int, r *tdSeat) {
	if t.tdSeats == nil {
		t.tdSeats = map[tdSeatKey]*tdSeat{}
	}
	k := tdSeatKey{tid, seat}
	if _, ok := t.tdSeats[k]; !ok {
		t.tdSeatOrder = append(t.tdSeatOrder, k)
	}
	t.tdSeats[k] = r
}

// startedHand is a new row of hh_hands.
type startedHand struct {
	table, game, variant string
	hand                 int
	seats                []seatRecord
	seatsJSON            string
	at                   int64
}

// handSettlement is a HandSettled the hands projection applied.
type handSettlement struct {
	hand         string
	at, position int64
	deltas       []int
	deltasJSON   string
}

// flushHands writes the hands the batch started and settled: one query
// for the rows hh_hands already has among them (a hand number dealt
// again keeps its first record, as INSERT OR IGNORE kept it), one INSERT
// for the others, each with its last settlement if the batch settled it,
// one UPDATE for the settlements of the rows already there, and a row of
// hh_player_hands for each seat a settled hand was dealt to, with the
// seats of the hand's record.
func (t *wtx) flushHands(ctx context.Context) error {
	if len(t.startOrder) == 0 && len(t.settled) == 0 {
		return nil
	}
	var ids []string
	seen := make(map[string]bool, len(t.startOrder)+len(t.settled))
	for _, hid := range t.startOrder {
		seen[hid] = true
		ids = append(ids, hid)
	}
	for _, s := range t.settled {
		if !seen[s.hand] {
			seen[s.hand] = true
			ids = append(ids, s.hand)
		}
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	// The seats of the rows there are, decoded when a settlement needs them.
	had := map[string]string{}
	rows, err := t.QueryContext(ctx, `SELECT hand_id, seats FROM hh_hands WHERE hand_id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return fmt.Errorf("hands: %w", err)
	}
	for rows.Next() {
		var hid, seats string
		if err := rows.Scan(&hid, &seats); err != nil {
			rows.Close()
			return fmt.Errorf("hands: %w", err)
		}
		had[hid] = seats
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("hands: %w", err)
	}
	last := make(map[string]*handSettlement, len(t.settled))
	for i := range t.settled {
		last[t.settled[i].hand] = &t.settled[i]
	}
	var ins []any
	for _, hid := range t.startOrder {
		if _, ok := had[hid]; ok {
			continue
		}
		h := t.started[hid]
		var at, pos, deltas any // NULL while in progress
		if s := last[hid]; s != nil {
			at, pos, deltas = s.at, s.position, s.deltasJSON
			delete(last, hid)
		}
		ins = append(ins, hid, h.table, h.hand, h.game, h.variant, h.seatsJSON, h.at, at, pos, deltas)
	}
	if err := t.insertRows(ctx, `INSERT INTO hh_hands (hand_id, table_id, hand, game, variant, seats, started_at, settled_at, settled_position, deltas) VALUES `, 10, ins); err != nil {
		return fmt.Errorf("hands: %w", err)
	}
	// What is left in last are the settlements of rows hh_hands had.
	var upd []any
	for i := range t.settled {
		if s := &t.settled[i]; last[s.hand] == s {
			upd = append(upd, []any{s.hand, s.at, s.position, s.deltasJSON})
		}
	}
	if len(upd) > 0 {
		js, err := json.Marshal(upd)
		if err != nil {
			return err
		}
		if _, err := t.ExecContext(ctx, `UPDATE hh_hands SET settled_at = json_extract(v.value, '$[1]'),
			settled_position = json_extract(v.value, '$[2]'), deltas = json_extract(v.value, '$[3]')
			FROM json_each(?) AS v WHERE hh_hands.hand_id = json_extract(v.value, '$[0]')`, string(js)); err != nil {
			return fmt.Errorf("settlements: %w", err)
		}
	}
	var players []any
	decoded := map[string][]seatRecord{}
	for _, s := range t.settled {
		var seats []seatRecord
		if js, ok := had[s.hand]; ok {
			if seats, ok = decoded[s.hand]; !ok {
				if err := json.Unmarshal([]byte(js), &seats); err != nil {
					return fmt.Errorf("hand %s: seats: %w", s.hand, err)
				}
				decoded[s.hand] = seats
			}
		} else if h := t.started[s.hand]; h != nil {
			seats = h.seats
		} else {
			return fmt.Errorf("hand %s: settled, never dealt", s.hand)
		}
		for _, st := range seats {
			if st.Seat < 0 || st.Seat >= len(s.deltas) {
				continue
			}
			players = append(players, st.PlayerID, s.position, s.hand, st.Seat, s.deltas[st.Seat])
		}
	}
	if err := t.insertRows(ctx, `INSERT OR IGNORE INTO hh_player_hands (player_id, settled_position, hand_id, seat, delta) VALUES `, 5, players); err != nil {
		return fmt.Errorf("player hands: %w", err)
	}
	return nil
}

// hhTable is a row of hh_tables; dirty when open differs from the row's.
type hhTable struct {
	game, variant string
	open          int
	dirty         bool
}

// seatTaken records in hhSeats, if the batch read them, that r holds its
// seat (INSERT OR REPLACE), or that the seat is empty when left; flush
// writes them. false when the batch did not read them: the caller writes
// the change.
func (t *wtx) seatTaken(stream string, r seatRecord, left bool) bool {
	seats, ok := t.hhSeats[stream]
	if !ok {
		return false
	}
	if t.hhSeatsDirty == nil {
		t.hhSeatsDirty = map[string]bool{}
	}
	t.hhSeatsDirty[stream] = true
	i, found := slices.BinarySearchFunc(seats, r.Seat, func(s seatRecord, seat int) int { return cmp.Compare(s.Seat, seat) })
	switch {
	case left && found:
		seats = slices.Delete(seats, i, i+1)
	case !left && found:
		seats[i] = r
	case !left:
		seats = slices.Insert(seats, i, r)
	}
	t.hhSeats[stream] = seats
	return true
}

// nameSeen records a player's name, which flush writes to lb_names.
func (t *wtx) nameSeen(pid, name string) {
	if t.lbNames == nil {
		t.lbNames = map[string]string{}
	}
	if _, ok := t.lbNames[pid]; !ok {
		t.lbNameOrder = append(t.lbNameOrder, pid)
	}
	t.lbNames[pid] = name
}

// flushSeats writes the seats the batch changed in memory (hh_seats,
// lb_seats: each changed stream's rows deleted and inserted again) and
// the names it met.
func (t *wtx) flushSeats(ctx context.Context) error {
	var rows []any
	for _, stream := range slices.Sorted(maps.Keys(t.hhSeatsDirty)) {
		for _, r := range t.hhSeats[stream] {
			rows = append(rows, stream, r.Seat, r.PlayerID, r.Name)
		}
	}
	if err := t.execList(ctx, `DELETE FROM hh_seats WHERE stream IN (SELECT value FROM json_each(?))`, slices.Sorted(maps.Keys(t.hhSeatsDirty))); err != nil {
		return err
	}
	if err := t.insertRows(ctx, `INSERT INTO hh_seats (stream, seat, player_id, name) VALUES `, 4, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, stream := range slices.Sorted(maps.Keys(t.lbSeatsDirty)) {
		for seat, pid := range t.lbSeats[stream] {
			rows = append(rows, stream, seat, pid)
		}
	}
	if err := t.execList(ctx, `DELETE FROM lb_seats WHERE stream IN (SELECT value FROM json_each(?))`, slices.Sorted(maps.Keys(t.lbSeatsDirty))); err != nil {
		return err
	}
	if err := t.insertRows(ctx, `INSERT INTO lb_seats (stream, seat, player_id) VALUES `, 3, rows); err != nil {
		return err
	}
	var keys [][2]any
	rows = rows[:0]
	for _, k := range t.tdSeatOrder {
		keys = append(keys, [2]any{k.table, k.seat})
		if r := t.tdSeats[k]; r != nil {
			rows = append(rows, k.table, k.seat, r.player, r.name, r.bot)
		}
	}
	if err := t.execPairs(ctx, `DELETE FROM td_seats WHERE (table_id, seat) IN
		(SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))`, keys); err != nil {
		return err
	}
	if err := t.insertRows(ctx, `INSERT INTO td_seats (table_id, seat, player_id, name, bot) VALUES `, 5, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, pid := range t.lbNameOrder {
		rows = append(rows, pid, t.lbNames[pid])
	}
	return t.insertRows(ctx, `INSERT INTO lb_names (player_id, name) VALUES `, 2, rows, `ON CONFLICT (player_id) DO UPDATE SET name = excluded.name`)
}

// execList runs query with list as its one argument, a JSON array, if it
// is not empty.
func (t *wtx) execList(ctx context.Context, query string, list []string) error {
	if len(list) == 0 {
		return nil
	}
	js, err := json.Marshal(list)
	if err != nil {
		return err
	}
	_, err = t.ExecContext(ctx, query, string(js))
	return err
}

type lbHandKey struct {
	stream string
	hand   int
}

// lbSeatsOf returns stream's lb_seats rows, read once a batch.
func (t *wtx) lbSeatsOf(ctx context.Context, stream string) (map[int]string, error) {
	if seats, ok := t.lbSeats[stream]; ok {
		return seats, nil
	}
	if err := t.readLeaderboardSeats(ctx, []string{stream}); err != nil {
		return nil, err
	}
	return t.lbSeats[stream], nil
}

// lbHandSeatsOf returns the lb_hand_seats rows of a hand, read once a batch:
// the map the batch changes.
func (t *wtx) lbHandSeatsOf(ctx context.Context, stream string, hand int) (map[int]string, error) {
	if !t.lbHandRead[stream] {
		if err := t.readLeaderboardSeats(ctx, []string{stream}); err != nil {
			return nil, err
		}
	}
	k := lbHandKey{stream, hand}
	hs, ok := t.lbHand[k]
	if !ok {
		hs = map[int]string{}
		t.lbHand[k] = hs
	}
	return hs, nil
}

// readLeaderboardSeats reads the lb_seats and lb_hand_seats rows of
// streams, in two queries.
func (t *wtx) readLeaderboardSeats(ctx context.Context, streams []string) error {
	list, err := json.Marshal(streams)
	if err != nil {
		return err
	}
	if t.lbSeats == nil {
		t.lbSeats, t.lbHand, t.lbHandRead = map[string]map[int]string{}, map[lbHandKey]map[int]string{}, map[string]bool{}
		t.lbSeatsDirty = map[string]bool{}
	}
	for _, s := range streams {
		t.lbSeats[s] = map[int]string{}
		t.lbHandRead[s] = true
	}
	rows, err := t.QueryContext(ctx, `SELECT stream, seat, player_id FROM lb_seats WHERE stream IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	for rows.Next() {
		var s, pid string
		var seat int
		if err := rows.Scan(&s, &seat, &pid); err != nil {
			rows.Close()
			return fmt.Errorf("seats: %w", err)
		}
		t.lbSeats[s][seat] = pid
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	rows, err = t.QueryContext(ctx, `SELECT stream, hand, seat, player_id FROM lb_hand_seats WHERE stream IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return fmt.Errorf("hand seats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k lbHandKey
		var seat int
		var pid string
		if err := rows.Scan(&k.stream, &k.hand, &seat, &pid); err != nil {
			return fmt.Errorf("hand seats: %w", err)
		}
		hs, ok := t.lbHand[k]
		if !ok {
			hs = map[int]string{}
			t.lbHand[k] = hs
			t.lbHandHad = append(t.lbHandHad, k)
		}
		hs[seat] = pid
	}
	return rows.Err()
}

// flushHandSeats writes lbHand back: the rows of the hands that had some
// are deleted, and every hand's rows now are inserted.
func (t *wtx) flushHandSeats(ctx context.Context) error {
	var had [][2]any
	for _, k := range t.lbHandHad {
		had = append(had, [2]any{k.stream, k.hand})
	}
	if err := t.execPairs(ctx, `DELETE FROM lb_hand_seats WHERE (stream, hand) IN
		(SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))`, had); err != nil {
		return err
	}
	var rows []any
	for k, hs := range t.lbHand {
		for seat, pid := range hs {
			rows = append(rows, k.stream, k.hand, seat, pid)
		}
	}
	return t.insertRows(ctx, `INSERT INTO lb_hand_seats (stream, hand, seat, player_id) VALUES `, 4, rows)
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

// readLeaderboardTables reads the lb_tables rows of streams (list, as a
// JSON array) in one query: a query a stream settling a hand was a tenth
// of the leaderboards' statements.
func (t *wtx) readLeaderboardTables(ctx context.Context, streams []string, list string) error {
	t.lb = make(map[string]*lbTable, len(streams))
	for _, s := range streams {
		t.lb[s] = nil
	}
	rows, err := t.QueryContext(ctx, `SELECT stream, game, variant FROM lb_tables WHERE stream IN (SELECT value FROM json_each(?))`, list)
	if err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		r := &lbTable{}
		if err := rows.Scan(&s, &r.game, &r.variant); err != nil {
			return fmt.Errorf("tables: %w", err)
		}
		t.lb[s] = r
	}
	return rows.Err()
}

// tdTable is whether td_tables has a table, and the recording time of its
// last event of the batch (its updated_at) when the batch changed it.
type tdTable struct {
	known   bool
	touched bool
	at      int64
	// recount: the batch changed the table's seats.
	recount bool
	// hands is the number of hands the batch settled.
	hands int
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

// prefetch reads, in one query, the rows the projection name reads for
// every table the events after position cp name (hh_tables, td_tables,
// lb_tables and the seats):
// one query a table a batch was most of the statements left.
func (t *wtx) prefetch(ctx context.Context, name string, events []eventstore.Event, cp int64) error {
	if name != projections.Hands && name != projections.Directory && name != projections.Leaderboards {
		return nil
	}
	seen := map[string]bool{}
	var keys []string
	for _, ev := range events {
		tid, ok := projections.TableID(ev.Stream)
		if ev.Position <= cp || !ok {
			continue
		}
		k := ev.Stream
		if name == projections.Directory {
			k = tid
		}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	list, err := json.Marshal(keys)
	if err != nil {
		return err
	}
	if name == projections.Leaderboards {
		if err := t.readLeaderboardSeats(ctx, keys); err != nil {
			return err
		}
		return t.readLeaderboardTables(ctx, keys, string(list))
	}
	if name == projections.Hands {
		t.hh = make(map[string]*hhTable, len(keys))
		for _, k := range keys {
			t.hh[k] = nil
		}
		rows, err := t.QueryContext(ctx, `SELECT stream, game, variant, open_hand FROM hh_tables WHERE stream IN (SELECT value FROM json_each(?))`, string(list))
		if err != nil {
			return fmt.Errorf("tables: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			r := &hhTable{}
			if err := rows.Scan(&k, &r.game, &r.variant, &r.open); err != nil {
				return fmt.Errorf("tables: %w", err)
			}
			t.hh[k] = r
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("tables: %w", err)
		}
		rows.Close()
		t.hhSeats = make(map[string][]seatRecord, len(keys))
		for _, k := range keys {
			t.hhSeats[k] = nil
		}
		rows, err = t.QueryContext(ctx, `SELECT stream, seat, player_id, name FROM hh_seats WHERE stream IN (SELECT value FROM json_each(?)) ORDER BY stream, seat`, string(list))
		if err != nil {
			return fmt.Errorf("seats: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			var r seatRecord
			if err := rows.Scan(&k, &r.Seat, &r.PlayerID, &r.Name); err != nil {
				return fmt.Errorf("seats: %w", err)
			}
			t.hhSeats[k] = append(t.hhSeats[k], r)
		}
		return rows.Err()
	}
	t.td = make(map[string]*tdTable, len(keys))
	for _, k := range keys {
		t.td[k] = &tdTable{}
	}
	rows, err := t.QueryContext(ctx, `SELECT table_id FROM td_tables WHERE table_id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return fmt.Errorf("tables: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return fmt.Errorf("tables: %w", err)
		}
		t.td[k].known = true
	}
	return rows.Err()
}

// flush writes what the batch kept in memory.
func (t *wtx) flush(ctx context.Context) error {
	if err := t.flushRatings(ctx); err != nil {
		return err
	}
	if err := t.flushRuns(ctx); err != nil {
		return fmt.Errorf("hand events: %w", err)
	}
	if err := t.flushHands(ctx); err != nil {
		return err
	}
	if err := t.flushSeats(ctx); err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	if err := t.flushHandSeats(ctx); err != nil {
		return fmt.Errorf("hand seats: %w", err)
	}
	if err := t.insertRows(ctx, `INSERT OR IGNORE INTO lb_results (hand_id, seat, player_id, game, variant, delta, settled_at) VALUES `, 7, t.lbResults); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	// One statement a kind of change, its rows as a JSON array of pairs.
	var open, updated, recount, hands [][2]any
	for stream, r := range t.hh {
		if r != nil && r.dirty {
			open = append(open, [2]any{stream, r.open})
		}
	}
	for tid, r := range t.td {
		if r.touched {
			updated = append(updated, [2]any{tid, r.at})
		}
		if r.recount {
			recount = append(recount, [2]any{tid, 0})
		}
		if r.hands > 0 {
			hands = append(hands, [2]any{tid, r.hands})
		}
	}
	if err := t.execPairs(ctx, `UPDATE hh_tables SET open_hand = json_extract(v.value, '$[1]')
		FROM json_each(?) AS v WHERE hh_tables.stream = json_extract(v.value, '$[0]')`, open); err != nil {
		return fmt.Errorf("open hands: %w", err)
	}
	if err := t.execPairs(ctx, `UPDATE td_tables SET updated_at = json_extract(v.value, '$[1]')
		FROM json_each(?) AS v WHERE td_tables.table_id = json_extract(v.value, '$[0]')`, updated); err != nil {
		return fmt.Errorf("tables updated: %w", err)
	}
	if err := t.execPairs(ctx, `UPDATE td_tables SET hands = hands + json_extract(v.value, '$[1]')
		FROM json_each(?) AS v WHERE td_tables.table_id = json_extract(v.value, '$[0]')`, hands); err != nil {
		return fmt.Errorf("hands played: %w", err)
	}
	// A table's seated count and, unless it is closed, its status from its
	// seats, once a batch for the tables whose seats it changed.
	if err := t.execPairs(ctx, `UPDATE td_tables SET
		seated = (SELECT count(*) FROM td_seats s WHERE s.table_id = td_tables.table_id),
		status = CASE
			WHEN status = 'closed' THEN 'closed'
			WHEN (SELECT count(*) FROM td_seats s WHERE s.table_id = td_tables.table_id) >= seats THEN 'running'
			ELSE 'open' END
		FROM json_each(?) AS v WHERE td_tables.table_id = json_extract(v.value, '$[0]')`, recount); err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	return nil
}

// execPairs runs query with pairs as its one argument, a JSON array, if
// there are any.
func (t *wtx) execPairs(ctx context.Context, query string, pairs [][2]any) error {
	if len(pairs) == 0 {
		return nil
	}
	js, err := json.Marshal(pairs)
	if err != nil {
		return err
	}
	_, err = t.ExecContext(ctx, query, string(js))
	return err
}

// maxRowsInsert is the most rows one INSERT of insertRows holds.
const maxRowsInsert = 64

// insertRows inserts rows (cols values each, in order) with head, an
// "INSERT … VALUES " clause: up to maxRowsInsert rows a statement, and only
// power-of-two counts of rows, so that few statements are ever prepared.
func (t *wtx) insertRows(ctx context.Context, head string, cols int, args []any, tail ...string) error {
	for len(args) > 0 {
		n := min(len(args)/cols, maxRowsInsert)
		n = 1 << (bits.Len(uint(n)) - 1)
		q := t.valuesQuery(head, cols, n)
		if len(tail) > 0 {
			q += " " + tail[0]
		}
		if _, err := t.ExecContext(ctx, q, args[:n*cols]...); err != nil {
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
