package postgres

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/jackc/pgx/v5"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/projections"
)

// The projections make the same rows as projections/sqlite's, event for
// event, but not a statement per event. A batch first reads the rows it
// decides from, for the streams it holds (load); apply then keeps those
// rows in memory as the events change them and gathers the rows to write;
// finish writes them, a statement per table: the last state of each row
// a batch changed, which is what SQLite holds after the same events. Rows
// the batch only adds (hand events, results) go in one INSERT each.
// A batch holds the checkpoint's lock, so nothing else writes these rows
// meanwhile.

func decode[T any](ev eventstore.Event) (T, error) {
	var v T
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		return v, fmt.Errorf("decode %s: %w", ev.Type, err)
	}
	return v, nil
}

// tableStreams lists the table streams of events.
func tableStreams(events []eventstore.Event) []string {
	var out []string
	for _, s := range streams(events) {
		if _, ok := projections.TableID(s); ok {
			out = append(out, s)
		}
	}
	return out
}

// queueRows queues query, scanning each row it returns with scan.
func queueRows(b *pgx.Batch, scan func(pgx.Rows) error, query string, args ...any) {
	b.Queue(query, args...).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			if err := scan(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

// keyed holds one value per key, in the order keys were first set: the
// last value of each row a batch writes.
type keyed[T any] struct {
	keys []string
	m    map[string]T
}

func (k *keyed[T]) set(key string, v T) {
	if k.m == nil {
		k.m = map[string]T{}
	}
	if _, ok := k.m[key]; !ok {
		k.keys = append(k.keys, key)
	}
	k.m[key] = v
}

func (k *keyed[T]) get(key string) T { return k.m[key] }

func (k *keyed[T]) drop(key string) {
	if _, ok := k.m[key]; ok {
		delete(k.m, key)
		k.keys = slices.DeleteFunc(k.keys, func(s string) bool { return s == key })
	}
}

// values lists the keys and their values, in order.
func (k *keyed[T]) values() ([]string, []T) {
	vs := make([]T, len(k.keys))
	for i, key := range k.keys {
		vs[i] = k.m[key]
	}
	return k.keys, vs
}

func int32s(xs []int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

// seatRecord is who held a seat when a hand was dealt.
type seatRecord struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
}

// sortedSeats lists the seats of seats, in order.
func sortedSeats[T any](seats map[int]T) []int {
	return slices.Sorted(maps.Keys(seats))
}

// ---- hands ----

// hhTable is a table as the hands projection keeps it.
type hhTable struct {
	game, variant string
	open          int // hand in progress, 0 between hands
}

// handsState is the hands projection's rows of a batch's streams.
type handsState struct {
	tables map[string]*hhTable           // nil: not a table it knows
	seats  map[string]map[int]seatRecord // hh_seats by stream
	// Written by finishHands.
	seatsChanged keyed[bool]
	opened       keyed[int] // hh_tables.open_hand by stream
	started      startedHands
	events       handEvents
	settled      settlements
}

// loadHands reads the hands projection's tables and seats of the batch's
// streams.
func loadHands(b *pgx.Batch, tx *wtx, events []eventstore.Event) {
	ss := tableStreams(events)
	h := &handsState{tables: make(map[string]*hhTable, len(ss)), seats: make(map[string]map[int]seatRecord, len(ss))}
	tx.h = h
	if len(ss) == 0 {
		return
	}
	queueRows(b, func(rows pgx.Rows) error {
		var s string
		t := &hhTable{}
		if err := rows.Scan(&s, &t.game, &t.variant, &t.open); err != nil {
			return fmt.Errorf("load tables: %w", err)
		}
		h.tables[s] = t
		return nil
	}, `SELECT stream, game, variant, open_hand FROM hh_tables WHERE stream = ANY($1)`, ss)
	queueRows(b, func(rows pgx.Rows) error {
		var s string
		var r seatRecord
		if err := rows.Scan(&s, &r.Seat, &r.PlayerID, &r.Name); err != nil {
			return fmt.Errorf("load seats: %w", err)
		}
		h.seatsOf(s)[r.Seat] = r
		return nil
	}, `SELECT stream, seat, player_id, name FROM hh_seats WHERE stream = ANY($1)`, ss)
}

func (h *handsState) seatsOf(stream string) map[int]seatRecord {
	m := h.seats[stream]
	if m == nil {
		m = map[int]seatRecord{}
		h.seats[stream] = m
	}
	return m
}

// applyHands keeps the hand history: every event of a table stream from a
// hand's first deal to its settlement, and the hand's seats, deltas and
// settlement time.
func applyHands(_ context.Context, tx *wtx, ev eventstore.Event) error {
	tid, ok := projections.TableID(ev.Stream)
	if !ok {
		return nil
	}
	h := tx.h
	switch ev.Type {
	case "TableOpened":
		o, err := decode[table.TableOpened](ev)
		if err != nil {
			return err
		}
		tx.exec(`INSERT INTO hh_tables (stream, table_id, game, variant, open_hand) VALUES ($1, $2, $3, $4, 0)
			ON CONFLICT (stream) DO UPDATE SET table_id = excluded.table_id, game = excluded.game, variant = excluded.variant, open_hand = 0`,
			ev.Stream, tid, o.Game, o.Variant)
		h.tables[ev.Stream] = &hhTable{game: o.Game, variant: o.Variant}
		h.opened.drop(ev.Stream)
		return nil
	case "PlayerSeated":
		p, err := decode[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		h.seatsOf(ev.Stream)[p.Seat] = seatRecord{Seat: p.Seat, PlayerID: p.PlayerID, Name: p.Name}
		h.seatsChanged.set(ev.Stream, true)
	case "PlayerLeft":
		p, err := decode[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		delete(h.seatsOf(ev.Stream), p.Seat)
		h.seatsChanged.set(ev.Stream, true)
	}

	t := h.tables[ev.Stream]
	if t == nil {
		return nil // not a table this projection knows: nothing to record
	}
	if ev.Type == "HandDealt" {
		dealt, err := projections.HandNumber(ev.Data)
		if err != nil {
			return err
		}
		if t.open != dealt {
			if err := h.startHand(ev, tid, t, dealt); err != nil {
				return err
			}
		}
	}
	if t.open == 0 {
		return nil
	}
	hid := projections.HandID(tid, t.open)
	h.events.add(hid, ev)
	if ev.Type != "HandSettled" {
		return nil
	}
	s, err := projections.Settlement(ev.Data)
	if err != nil {
		return err
	}
	deltas, err := json.Marshal(s.Deltas)
	if err != nil {
		return err
	}
	h.settled.add(hid, ev, string(deltas))
	h.opened.set(ev.Stream, 0)
	t.open = 0
	return nil
}

// startHand records a new hand with the seats as they are at its first deal.
func (h *handsState) startHand(ev eventstore.Event, tid string, t *hhTable, hand int) error {
	seats := h.seatsOf(ev.Stream)
	recs := []seatRecord{}
	for _, s := range sortedSeats(seats) {
		recs = append(recs, seats[s])
	}
	js, err := json.Marshal(recs)
	if err != nil {
		return err
	}
	if hid := projections.HandID(tid, hand); !slices.Contains(h.started.hands, hid) {
		// The first record of a hand dealt again in the batch stays, as
		// ON CONFLICT DO NOTHING keeps a record already there.
		h.started.add(hid, tid, hand, t.game, t.variant, string(js), ev.RecordedAt.UTC().UnixNano())
	}
	h.opened.set(ev.Stream, hand)
	t.open = hand
	return nil
}

// startedHands are the rows of hh_hands a batch starts, by column.
type startedHands struct {
	hands, tables, games, variants, seats []string
	numbers                               []int32
	at                                    []int64
}

func (s *startedHands) add(hid, tid string, hand int, game, variant, seats string, at int64) {
	s.hands = append(s.hands, hid)
	s.tables = append(s.tables, tid)
	s.numbers = append(s.numbers, int32(hand))
	s.games = append(s.games, game)
	s.variants = append(s.variants, variant)
	s.seats = append(s.seats, seats)
	s.at = append(s.at, at)
}

// handEvents are rows of hh_hand_events, by column.
type handEvents struct {
	hands, types, data []string
	positions, at      []int64
	versions           []int32
}

func (h *handEvents) add(hid string, ev eventstore.Event) {
	h.hands = append(h.hands, hid)
	h.positions = append(h.positions, ev.Position)
	h.versions = append(h.versions, int32(ev.Version))
	h.types = append(h.types, ev.Type)
	h.data = append(h.data, string(ev.Data))
	h.at = append(h.at, ev.RecordedAt.UTC().UnixNano())
}

// settlements are the hands a batch settles, by column.
type settlements struct {
	hands, deltas []string
	positions, at []int64
}

func (s *settlements) add(hid string, ev eventstore.Event, deltas string) {
	s.add1(hid, ev.Position, ev.RecordedAt.UTC().UnixNano(), deltas)
}

func (s *settlements) add1(hid string, pos, at int64, deltas string) {
	s.hands = append(s.hands, hid)
	s.positions = append(s.positions, pos)
	s.at = append(s.at, at)
	s.deltas = append(s.deltas, deltas)
}

// writeHands queues the hands started and settled in the batch: the new
// records (the first record of a hand is kept, as SQLite's INSERT OR
// IGNORE keeps it), each written with its last settlement when the batch
// settled it; the last settlement of each hand whose record differs (a
// record from an earlier batch, or one kept on a conflict), and a row for
// each seat a settled hand was dealt to, with its delta (the seats are read
// from the hand's record, as they were when it was dealt).
func writeHands(tx *wtx) {
	h := tx.h
	s := h.settled
	last := make(map[string]int, len(s.hands))
	for i, hid := range s.hands {
		last[hid] = i
	}
	if st := h.started; len(st.hands) > 0 {
		n := len(st.hands)
		at, pos := make([]*int64, n), make([]*int64, n)
		deltas := make([]*string, n)
		for i, hid := range st.hands {
			if j, ok := last[hid]; ok {
				at[i], pos[i], deltas[i] = &s.at[j], &s.positions[j], &s.deltas[j]
			}
		}
		tx.exec(`INSERT INTO hh_hands (hand_id, table_id, hand, game, variant, seats, started_at, settled_at, settled_position, deltas)
			SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::bigint[], $10::text[])
			ON CONFLICT DO NOTHING`, st.hands, st.tables, st.numbers, st.games, st.variants, st.seats, st.at, at, pos, deltas)
		h.started = startedHands{}
	}
	if len(s.hands) > 0 {
		var u settlements
		for i, hid := range s.hands {
			if last[hid] == i {
				u.add1(hid, s.positions[i], s.at[i], s.deltas[i])
			}
		}
		// A record the INSERT above wrote holds its settlement already:
		// only the others change.
		tx.exec(`UPDATE hh_hands h SET settled_at = u.at, settled_position = u.pos, deltas = u.deltas
			FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[]) AS u(hid, pos, at, deltas)
			WHERE h.hand_id = u.hid AND (h.settled_position IS DISTINCT FROM u.pos OR h.settled_at IS DISTINCT FROM u.at OR h.deltas IS DISTINCT FROM u.deltas)`,
			u.hands, u.positions, u.at, u.deltas)
		tx.exec(`INSERT INTO hh_player_hands (player_id, settled_position, hand_id, seat, delta)
			SELECT p.player_id, u.pos, u.hid, p.seat, (u.deltas::json->>p.seat)::bigint
			FROM unnest($1::text[], $2::bigint[], $3::text[]) AS u(hid, pos, deltas)
			JOIN hh_hands h ON h.hand_id = u.hid,
			json_to_recordset(h.seats::json) AS p(seat int, player_id text)
			WHERE p.seat >= 0 AND p.seat < CASE WHEN json_typeof(u.deltas::json) = 'array' THEN json_array_length(u.deltas::json) ELSE 0 END
			ON CONFLICT DO NOTHING`, s.hands, s.positions, s.deltas)
		h.settled = settlements{}
	}
}

// finishHands writes what the batch changed: seats, hands, hand events and
// hands in progress.
func finishHands(tx *wtx) {
	h := tx.h
	if streams, _ := h.seatsChanged.values(); len(streams) > 0 {
		var ss, ids, names []string
		var seats []int32
		for _, s := range streams {
			m := h.seats[s]
			for _, n := range sortedSeats(m) {
				ss, seats, ids, names = append(ss, s), append(seats, int32(n)), append(ids, m[n].PlayerID), append(names, m[n].Name)
			}
		}
		tx.exec(`DELETE FROM hh_seats WHERE stream = ANY($1)`, streams)
		tx.exec(`INSERT INTO hh_seats (stream, seat, player_id, name) SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[])`,
			ss, seats, ids, names)
	}
	writeHands(tx)
	if e := h.events; len(e.hands) > 0 {
		tx.exec(`INSERT INTO hh_hand_events (hand_id, position, version, type, data, recorded_at)
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::text[], $6::bigint[])
			ON CONFLICT DO NOTHING`, e.hands, e.positions, e.versions, e.types, e.data, e.at)
	}
	if streams, open := h.opened.values(); len(streams) > 0 {
		tx.exec(`UPDATE hh_tables t SET open_hand = u.open FROM unnest($1::text[], $2::int[]) AS u(stream, open) WHERE t.stream = u.stream`,
			streams, int32s(open))
	}
}

// ---- leaderboards ----

// lbTable is a table's game and variant, as the leaderboards keep them.
type lbTable struct{ game, variant string }

// handKey names a hand of a stream.
type handKey struct {
	stream string
	hand   int
}

// boardState is the leaderboards' rows of a batch's streams.
type boardState struct {
	tables    map[string]lbTable          // lb_tables
	seats     map[string]map[int]string   // lb_seats: player by seat, by stream
	handSeats map[handKey]map[int]string  // lb_hand_seats
	byStream  map[string]map[handKey]bool // the keys of handSeats, by stream
	// Written by finishLeaderboards.
	seatsChanged, handSeatsChanged keyed[bool]
	names                          keyed[string] // lb_names.name by player
	results                        results
}

// results are rows of lb_results, by column.
type results struct {
	hands, players, games, variants []string
	seats                           []int32
	deltas, at                      []int64
}

// loadLeaderboards reads the leaderboards' tables, seats and hand seats of
// the batch's streams.
func loadLeaderboards(batch *pgx.Batch, tx *wtx, events []eventstore.Event) {
	ss := tableStreams(events)
	b := &boardState{tables: map[string]lbTable{}, seats: map[string]map[int]string{}, handSeats: map[handKey]map[int]string{}, byStream: map[string]map[handKey]bool{}}
	tx.l = b
	if len(ss) == 0 {
		return
	}
	queueRows(batch, func(rows pgx.Rows) error {
		var s string
		var t lbTable
		if err := rows.Scan(&s, &t.game, &t.variant); err != nil {
			return fmt.Errorf("load tables: %w", err)
		}
		b.tables[s] = t
		return nil
	}, `SELECT stream, game, variant FROM lb_tables WHERE stream = ANY($1)`, ss)
	queueRows(batch, func(rows pgx.Rows) error {
		var s, pid string
		var seat int
		if err := rows.Scan(&s, &seat, &pid); err != nil {
			return fmt.Errorf("load seats: %w", err)
		}
		b.seatsOf(s)[seat] = pid
		return nil
	}, `SELECT stream, seat, player_id FROM lb_seats WHERE stream = ANY($1)`, ss)
	queueRows(batch, func(rows pgx.Rows) error {
		var s, pid string
		var hand, seat int
		if err := rows.Scan(&s, &hand, &seat, &pid); err != nil {
			return fmt.Errorf("load hand seats: %w", err)
		}
		b.handSeatsOf(s, hand)[seat] = pid
		return nil
	}, `SELECT stream, hand, seat, player_id FROM lb_hand_seats WHERE stream = ANY($1)`, ss)
}

func (b *boardState) seatsOf(stream string) map[int]string {
	m := b.seats[stream]
	if m == nil {
		m = map[int]string{}
		b.seats[stream] = m
	}
	return m
}

func (b *boardState) handSeatsOf(stream string, hand int) map[int]string {
	k := handKey{stream, hand}
	m := b.handSeats[k]
	if m == nil {
		m = map[int]string{}
		b.handSeats[k] = m
		if b.byStream[stream] == nil {
			b.byStream[stream] = map[handKey]bool{}
		}
		b.byStream[stream][k] = true
	}
	return m
}

// keepHandSeats notes, for a hand, who holds each seat now, where the hand
// does not record the seat yet.
func (b *boardState) keepHandSeats(stream string, hand int) {
	hs := b.handSeatsOf(stream, hand)
	for seat, pid := range b.seatsOf(stream) {
		if _, ok := hs[seat]; !ok {
			hs[seat] = pid
		}
	}
	b.handSeatsChanged.set(stream, true)
}

// applyLeaderboards credits each seat's settlement delta to the player who
// held the seat when the hand was dealt.
func applyLeaderboards(_ context.Context, tx *wtx, ev eventstore.Event) error {
	tid, ok := projections.TableID(ev.Stream)
	if !ok {
		return nil
	}
	b := tx.l
	switch ev.Type {
	case "TableOpened":
		o, err := decode[table.TableOpened](ev)
		if err != nil {
			return err
		}
		tx.exec(`INSERT INTO lb_tables (stream, game, variant) VALUES ($1, $2, $3)
			ON CONFLICT (stream) DO UPDATE SET game = excluded.game, variant = excluded.variant`, ev.Stream, o.Game, o.Variant)
		b.tables[ev.Stream] = lbTable{o.Game, o.Variant}
	case "PlayerSeated":
		p, err := decode[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		if p.Bot {
			// Bots are on no leaderboard: their seat is as empty to it.
			delete(b.seatsOf(ev.Stream), p.Seat)
		} else {
			b.seatsOf(ev.Stream)[p.Seat] = p.PlayerID
			b.names.set(p.PlayerID, p.Name)
		}
		b.seatsChanged.set(ev.Stream, true)
	case "PlayerLeft":
		p, err := decode[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		delete(b.seatsOf(ev.Stream), p.Seat)
		b.seatsChanged.set(ev.Stream, true)
	case "PlayerEscaped":
		p, err := decode[table.PlayerEscaped](ev)
		if err != nil {
			return err
		}
		// The escaper still answers for the hand they left: keep them in
		// the hand's seats, then empty the seat.
		hs := b.handSeatsOf(ev.Stream, p.Hand)
		if _, ok := hs[p.Seat]; !ok {
			hs[p.Seat] = p.PlayerID
		}
		b.handSeatsChanged.set(ev.Stream, true)
		delete(b.seatsOf(ev.Stream), p.Seat)
		b.seatsChanged.set(ev.Stream, true)
	case "HandDealt":
		dealt, err := projections.HandNumber(ev.Data)
		if err != nil {
			return err
		}
		b.keepHandSeats(ev.Stream, dealt)
	case "HandSettled":
		s, err := projections.Settlement(ev.Data)
		if err != nil {
			return err
		}
		t, ok := b.tables[ev.Stream]
		if !ok {
			return nil
		}
		// A settlement without a deal (none of the games does this) falls
		// back on the seats as they are.
		b.keepHandSeats(ev.Stream, s.Hand)
		hid := projections.HandID(tid, s.Hand)
		hs := b.handSeatsOf(ev.Stream, s.Hand)
		r := &b.results
		for seat, delta := range s.Deltas {
			pid, ok := hs[seat]
			if !ok {
				continue
			}
			r.hands, r.seats, r.players = append(r.hands, hid), append(r.seats, int32(seat)), append(r.players, pid)
			r.games, r.variants = append(r.games, t.game), append(r.variants, t.variant)
			r.deltas, r.at = append(r.deltas, int64(delta)), append(r.at, ev.RecordedAt.UTC().UnixNano())
		}
		k := handKey{ev.Stream, s.Hand}
		delete(b.handSeats, k)
		delete(b.byStream[ev.Stream], k)
	}
	return nil
}

// finishLeaderboards writes what the batch changed: seats, hand seats,
// results and names.
func finishLeaderboards(tx *wtx) {
	b := tx.l
	if streams, _ := b.seatsChanged.values(); len(streams) > 0 {
		var ss, ids []string
		var seats []int32
		for _, s := range streams {
			m := b.seats[s]
			for _, n := range sortedSeats(m) {
				ss, seats, ids = append(ss, s), append(seats, int32(n)), append(ids, m[n])
			}
		}
		tx.exec(`DELETE FROM lb_seats WHERE stream = ANY($1)`, streams)
		tx.exec(`INSERT INTO lb_seats (stream, seat, player_id) SELECT * FROM unnest($1::text[], $2::int[], $3::text[])`, ss, seats, ids)
	}
	if streams, _ := b.handSeatsChanged.values(); len(streams) > 0 {
		var ss, ids []string
		var hands, seats []int32
		for _, s := range streams {
			keys := slices.SortedFunc(maps.Keys(b.byStream[s]), func(a, b handKey) int { return cmp.Compare(a.hand, b.hand) })
			for _, k := range keys {
				m := b.handSeats[k]
				for _, n := range sortedSeats(m) {
					ss, hands, seats, ids = append(ss, s), append(hands, int32(k.hand)), append(seats, int32(n)), append(ids, m[n])
				}
			}
		}
		tx.exec(`DELETE FROM lb_hand_seats WHERE stream = ANY($1)`, streams)
		tx.exec(`INSERT INTO lb_hand_seats (stream, hand, seat, player_id) SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[])`,
			ss, hands, seats, ids)
	}
	if r := b.results; len(r.hands) > 0 {
		tx.exec(`INSERT INTO lb_results (hand_id, seat, player_id, game, variant, delta, settled_at)
			SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])
			ON CONFLICT DO NOTHING`, r.hands, r.seats, r.players, r.games, r.variants, r.deltas, r.at)
	}
	if ids, names := b.names.values(); len(ids) > 0 {
		tx.exec(`INSERT INTO lb_names (player_id, name) SELECT * FROM unnest($1::text[], $2::text[])
			ON CONFLICT (player_id) DO UPDATE SET name = excluded.name`, ids, names)
	}
}

// ---- directory ----

// tdTable is what the directory decides a table's status from.
type tdTable struct {
	seats  int
	status string
}

// dirState is the directory's rows of a batch's tables.
type dirState struct {
	tables map[string]*tdTable                      // nil: not a table it knows
	seats  map[string]map[int]projections.TableSeat // td_seats by table
	// Written by finishDirectory.
	seatsChanged keyed[bool]  // tables whose td_seats rows changed
	counted      keyed[bool]  // tables whose seated count and status changed
	touched      keyed[int64] // td_tables.updated_at
	handsUp      keyed[int]   // hands to add to td_tables.hands
}

// loadDirectory reads the directory's tables and seats of the batch.
func loadDirectory(b *pgx.Batch, tx *wtx, events []eventstore.Event) {
	var ids []string
	for _, s := range tableStreams(events) {
		id, _ := projections.TableID(s)
		ids = append(ids, id)
	}
	d := &dirState{tables: make(map[string]*tdTable, len(ids)), seats: make(map[string]map[int]projections.TableSeat, len(ids))}
	tx.d = d
	if len(ids) == 0 {
		return
	}
	queueRows(b, func(rows pgx.Rows) error {
		var id string
		t := &tdTable{}
		if err := rows.Scan(&id, &t.seats, &t.status); err != nil {
			return fmt.Errorf("load tables: %w", err)
		}
		d.tables[id] = t
		return nil
	}, `SELECT table_id, seats, status FROM td_tables WHERE table_id = ANY($1)`, ids)
	queueRows(b, func(rows pgx.Rows) error {
		var id string
		var s projections.TableSeat
		if err := rows.Scan(&id, &s.Seat, &s.PlayerID, &s.Name, &s.Bot); err != nil {
			return fmt.Errorf("load seats: %w", err)
		}
		d.seatsOf(id)[s.Seat] = s
		return nil
	}, `SELECT table_id, seat, player_id, name, bot FROM td_seats WHERE table_id = ANY($1)`, ids)
}

func (d *dirState) seatsOf(tid string) map[int]projections.TableSeat {
	m := d.seats[tid]
	if m == nil {
		m = map[int]projections.TableSeat{}
		d.seats[tid] = m
	}
	return m
}

// applyDirectory keeps the table directory: each table's kind, its seats as
// they are now, its settled hands and its status.
func applyDirectory(_ context.Context, tx *wtx, ev eventstore.Event) error {
	tid, ok := projections.TableID(ev.Stream)
	if !ok {
		return nil
	}
	d := tx.d
	at := ev.RecordedAt.UTC().UnixNano()
	if ev.Type == "TableOpened" {
		o, err := decode[table.TableOpened](ev)
		if err != nil {
			return err
		}
		opts, err := compactJSON(o.Options)
		if err != nil {
			return err
		}
		clock := table.Pace(o.Clock, o.WaitBetweenHands)
		tx.exec(`INSERT INTO td_tables
			(table_id, game, variant, stake, seats, options, clock, max_hands, rules_version, seated, hands, status, opened_position, created_at, updated_at, private, spectators)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, 0, $10, $11, $12, $13, $14, $15)
			ON CONFLICT (table_id) DO UPDATE SET game = excluded.game, variant = excluded.variant, stake = excluded.stake,
				seats = excluded.seats, options = excluded.options, clock = excluded.clock, max_hands = excluded.max_hands,
				rules_version = excluded.rules_version, seated = 0, hands = 0, status = excluded.status,
				opened_position = excluded.opened_position, created_at = excluded.created_at, updated_at = excluded.updated_at,
				private = excluded.private, spectators = excluded.spectators`,
			tid, o.Game, o.Variant, o.Stake, o.Seats, opts, clock, o.MaxHands, o.RulesVersion, projections.StatusOpen, ev.Position, at, at, o.Private, projections.SpectatorsOf(o))
		d.tables[tid] = &tdTable{seats: o.Seats, status: projections.StatusOpen}
		// The row written again, seated 0 and open: what the batch counted
		// before is gone.
		d.handsUp.drop(tid)
		d.counted.drop(tid)
		d.touched.set(tid, at)
		return nil
	}
	t := d.tables[tid]
	if t == nil {
		return nil // a stream without TableOpened: not a table this directory knows
	}
	d.touched.set(tid, at)
	switch ev.Type {
	case "PlayerSeated":
		p, err := decode[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		d.seatsOf(tid)[p.Seat] = projections.TableSeat{Seat: p.Seat, PlayerID: p.PlayerID, Name: p.Name, Bot: p.Bot}
		d.recount(tid, t)
	case "PlayerLeft":
		p, err := decode[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		delete(d.seatsOf(tid), p.Seat)
		d.recount(tid, t)
	case "PlayerEscaped":
		p, err := decode[table.PlayerEscaped](ev)
		if err != nil {
			return err
		}
		delete(d.seatsOf(tid), p.Seat)
		d.recount(tid, t)
	case "HandSettled":
		d.handsUp.set(tid, d.handsUp.get(tid)+1)
	case "TableClosed":
		t.status = projections.StatusClosed
		// Written at once: a status otherwise changes only with the seats.
		tx.exec(`UPDATE td_tables SET status = $1 WHERE table_id = $2`, projections.StatusClosed, tid)
	}
	return nil
}

// recount notes a table whose seats changed and sets, unless it is closed,
// its status from its seats; finishDirectory writes both.
func (d *dirState) recount(tid string, t *tdTable) {
	if t.status != projections.StatusClosed {
		t.status = projections.StatusOpen
		if len(d.seats[tid]) >= t.seats {
			t.status = projections.StatusRunning
		}
	}
	d.seatsChanged.set(tid, true)
	d.counted.set(tid, true)
}

// finishDirectory writes what the batch changed: the seats, seated counts
// and statuses of the tables whose seats changed, the time of each
// table's last event, and the hands it settled.
func finishDirectory(tx *wtx) {
	d := tx.d
	if ids, _ := d.seatsChanged.values(); len(ids) > 0 {
		var tids, pids, names []string
		var seats []int32
		var bots []bool
		for _, id := range ids {
			m := d.seats[id]
			for _, n := range sortedSeats(m) {
				s := m[n]
				tids, seats, pids, names, bots = append(tids, id), append(seats, int32(n)), append(pids, s.PlayerID), append(names, s.Name), append(bots, s.Bot)
			}
		}
		tx.exec(`DELETE FROM td_seats WHERE table_id = ANY($1)`, ids)
		tx.exec(`INSERT INTO td_seats (table_id, seat, player_id, name, bot) SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bool[])`,
			tids, seats, pids, names, bots)
	}
	if ids, _ := d.counted.values(); len(ids) > 0 {
		seated := make([]int32, len(ids))
		statuses := make([]string, len(ids))
		for i, id := range ids {
			seated[i], statuses[i] = int32(len(d.seats[id])), d.tables[id].status
		}
		tx.exec(`UPDATE td_tables t SET seated = u.n, status = u.status FROM unnest($1::text[], $2::int[], $3::text[]) AS u(id, n, status) WHERE t.table_id = u.id`,
			ids, seated, statuses)
	}
	if ids, at := d.touched.values(); len(ids) > 0 {
		tx.exec(`UPDATE td_tables t SET updated_at = u.at FROM unnest($1::text[], $2::bigint[]) AS u(id, at) WHERE t.table_id = u.id`, ids, at)
	}
	if ids, n := d.handsUp.values(); len(ids) > 0 {
		tx.exec(`UPDATE td_tables t SET hands = t.hands + u.n FROM unnest($1::text[], $2::int[]) AS u(id, n) WHERE t.table_id = u.id`, ids, int32s(n))
	}
}

// compactJSON is raw without insignificant space, "{}" when absent: the
// form quick play compares options in.
func compactJSON(raw json.RawMessage) (string, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return "{}", nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", fmt.Errorf("options: %w", err)
	}
	return b.String(), nil
}
