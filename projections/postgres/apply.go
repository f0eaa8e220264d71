package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/projections"
)

// The projections make the same rows as projections/sqlite's, event for
// event. Where SQLite reads a row back to decide the next write, these
// either decide from rows read once per batch (load) and kept current in
// the transaction, or let PostgreSQL read it inside the statement, so that
// a batch's writes go to the server together.

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

// hhTable is a table as the hands projection keeps it.
type hhTable struct {
	game, variant string
	open          int // hand in progress, 0 between hands
}

// loadHands reads the hands projection's tables of the batch's streams.
func loadHands(ctx context.Context, tx *wtx, events []eventstore.Event) error {
	ss := tableStreams(events)
	tx.hh = make(map[string]*hhTable, len(ss))
	if len(ss) == 0 {
		return nil
	}
	rows, err := tx.tx.Query(ctx, `SELECT stream, game, variant, open_hand FROM hh_tables WHERE stream = ANY($1)`, ss)
	if err != nil {
		return fmt.Errorf("load tables: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		t := &hhTable{}
		if err := rows.Scan(&s, &t.game, &t.variant, &t.open); err != nil {
			return fmt.Errorf("load tables: %w", err)
		}
		tx.hh[s] = t
	}
	return rows.Err()
}

// applyHands keeps the hand history: every event of a table stream from a
// hand's first deal to its settlement, and the hand's seats, deltas and
// settlement time.
func applyHands(_ context.Context, tx *wtx, ev eventstore.Event) error {
	tid, ok := projections.TableID(ev.Stream)
	if !ok {
		return nil
	}
	switch ev.Type {
	case "TableOpened":
		o, err := decode[table.TableOpened](ev)
		if err != nil {
			return err
		}
		tx.exec(`INSERT INTO hh_tables (stream, table_id, game, variant, open_hand) VALUES ($1, $2, $3, $4, 0)
			ON CONFLICT (stream) DO UPDATE SET table_id = excluded.table_id, game = excluded.game, variant = excluded.variant, open_hand = 0`,
			ev.Stream, tid, o.Game, o.Variant)
		tx.hh[ev.Stream] = &hhTable{game: o.Game, variant: o.Variant}
		return nil
	case "PlayerSeated":
		p, err := decode[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		tx.exec(`INSERT INTO hh_seats (stream, seat, player_id, name) VALUES ($1, $2, $3, $4)
			ON CONFLICT (stream, seat) DO UPDATE SET player_id = excluded.player_id, name = excluded.name`,
			ev.Stream, p.Seat, p.PlayerID, p.Name)
	case "PlayerLeft":
		p, err := decode[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		tx.exec(`DELETE FROM hh_seats WHERE stream = $1 AND seat = $2`, ev.Stream, p.Seat)
	}

	t := tx.hh[ev.Stream]
	if t == nil {
		return nil // not a table this projection knows: nothing to record
	}
	if ev.Type == "HandDealt" {
		d, err := decode[table.HandDealt](ev)
		if err != nil {
			return err
		}
		if t.open != d.Hand {
			startHand(tx, ev, tid, t, d.Hand)
		}
	}
	if t.open == 0 {
		return nil
	}
	hid := projections.HandID(tid, t.open)
	tx.events.add(hid, ev)
	if ev.Type != "HandSettled" {
		return nil
	}
	s, err := decode[table.HandSettled](ev)
	if err != nil {
		return err
	}
	deltas, err := json.Marshal(s.Deltas)
	if err != nil {
		return err
	}
	tx.exec(`UPDATE hh_hands SET settled_at = $1, settled_position = $2, deltas = $3 WHERE hand_id = $4`,
		ev.RecordedAt.UTC().UnixNano(), ev.Position, string(deltas), hid)
	// Each seat the hand was dealt to, with its delta: the seats are read
	// from the hand's record, as they were when it was dealt.
	tx.exec(`INSERT INTO hh_player_hands (player_id, settled_position, hand_id, seat, delta)
		SELECT s.player_id, $2, $1, s.seat, ($3::bigint[])[s.seat + 1]
		FROM hh_hands h, json_to_recordset(h.seats::json) AS s(seat int, player_id text)
		WHERE h.hand_id = $1 AND s.seat >= 0 AND s.seat < cardinality($3::bigint[])
		ON CONFLICT DO NOTHING`,
		hid, ev.Position, int64s(s.Deltas))
	tx.exec(`UPDATE hh_tables SET open_hand = 0 WHERE stream = $1`, ev.Stream)
	t.open = 0
	return nil
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

// finishHands writes the batch's hand events in one statement.
func finishHands(tx *wtx) {
	e := tx.events
	if len(e.hands) == 0 {
		return
	}
	tx.exec(`INSERT INTO hh_hand_events (hand_id, position, version, type, data, recorded_at)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::text[], $6::bigint[])
		ON CONFLICT DO NOTHING`, e.hands, e.positions, e.versions, e.types, e.data, e.at)
}

// startHand records a new hand with the seats as they are at its first deal.
func startHand(tx *wtx, ev eventstore.Event, tid string, t *hhTable, hand int) {
	tx.exec(`INSERT INTO hh_hands (hand_id, table_id, hand, game, variant, seats, started_at)
		SELECT $1, $2, $3, $4, $5, COALESCE((
			SELECT json_agg(json_build_object('seat', seat, 'player_id', player_id, 'name', name) ORDER BY seat)
			FROM hh_seats WHERE stream = $6)::text, '[]'), $7
		ON CONFLICT DO NOTHING`,
		projections.HandID(tid, hand), tid, hand, t.game, t.variant, ev.Stream, ev.RecordedAt.UTC().UnixNano())
	tx.exec(`UPDATE hh_tables SET open_hand = $1 WHERE stream = $2`, hand, ev.Stream)
	t.open = hand
}

func int64s(xs []int) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}

// applyLeaderboards credits each seat's settlement delta to the player who
// held the seat when the hand was dealt.
func applyLeaderboards(_ context.Context, tx *wtx, ev eventstore.Event) error {
	tid, ok := projections.TableID(ev.Stream)
	if !ok {
		return nil
	}
	switch ev.Type {
	case "TableOpened":
		o, err := decode[table.TableOpened](ev)
		if err != nil {
			return err
		}
		tx.exec(`INSERT INTO lb_tables (stream, game, variant) VALUES ($1, $2, $3)
			ON CONFLICT (stream) DO UPDATE SET game = excluded.game, variant = excluded.variant`, ev.Stream, o.Game, o.Variant)
	case "PlayerSeated":
		p, err := decode[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		tx.exec(`INSERT INTO lb_seats (stream, seat, player_id) VALUES ($1, $2, $3)
			ON CONFLICT (stream, seat) DO UPDATE SET player_id = excluded.player_id`, ev.Stream, p.Seat, p.PlayerID)
		tx.exec(`INSERT INTO lb_names (player_id, name) VALUES ($1, $2) ON CONFLICT (player_id) DO UPDATE SET name = excluded.name`, p.PlayerID, p.Name)
	case "PlayerLeft":
		p, err := decode[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		tx.exec(`DELETE FROM lb_seats WHERE stream = $1 AND seat = $2`, ev.Stream, p.Seat)
	case "PlayerEscaped":
		p, err := decode[table.PlayerEscaped](ev)
		if err != nil {
			return err
		}
		// The escaper still answers for the hand they left: keep them in
		// the hand's seats, then empty the seat.
		tx.exec(`INSERT INTO lb_hand_seats (stream, hand, seat, player_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
			ev.Stream, p.Hand, p.Seat, p.PlayerID)
		tx.exec(`DELETE FROM lb_seats WHERE stream = $1 AND seat = $2`, ev.Stream, p.Seat)
	case "HandDealt":
		d, err := decode[table.HandDealt](ev)
		if err != nil {
			return err
		}
		tx.exec(`INSERT INTO lb_hand_seats (stream, hand, seat, player_id)
			SELECT stream, $1, seat, player_id FROM lb_seats WHERE stream = $2 ON CONFLICT DO NOTHING`, d.Hand, ev.Stream)
	case "HandSettled":
		s, err := decode[table.HandSettled](ev)
		if err != nil {
			return err
		}
		// Nothing for a table this projection does not know: every
		// statement asks for its lb_tables row. A settlement without a
		// deal (none of the games does this) falls back on the seats as
		// they are.
		tx.exec(`INSERT INTO lb_hand_seats (stream, hand, seat, player_id)
			SELECT stream, $1, seat, player_id FROM lb_seats
			WHERE stream = $2 AND EXISTS (SELECT 1 FROM lb_tables WHERE stream = $2)
			ON CONFLICT DO NOTHING`, s.Hand, ev.Stream)
		tx.exec(`INSERT INTO lb_results (hand_id, seat, player_id, game, variant, delta, settled_at)
			SELECT $1, hs.seat, hs.player_id, t.game, t.variant, ($4::bigint[])[hs.seat + 1], $5
			FROM lb_hand_seats hs JOIN lb_tables t ON t.stream = hs.stream
			WHERE hs.stream = $2 AND hs.hand = $3 AND hs.seat >= 0 AND hs.seat < cardinality($4::bigint[])
			ON CONFLICT DO NOTHING`,
			projections.HandID(tid, s.Hand), ev.Stream, s.Hand, int64s(s.Deltas), ev.RecordedAt.UTC().UnixNano())
		tx.exec(`DELETE FROM lb_hand_seats WHERE stream = $1 AND hand = $2 AND EXISTS (SELECT 1 FROM lb_tables WHERE stream = $1)`,
			ev.Stream, s.Hand)
	}
	return nil
}

// loadDirectory reads which of the batch's tables the directory knows.
func loadDirectory(ctx context.Context, tx *wtx, events []eventstore.Event) error {
	var ids []string
	for _, s := range tableStreams(events) {
		id, _ := projections.TableID(s)
		ids = append(ids, id)
	}
	tx.td = make(map[string]bool, len(ids))
	if len(ids) == 0 {
		return nil
	}
	rows, err := tx.tx.Query(ctx, `SELECT table_id FROM td_tables WHERE table_id = ANY($1)`, ids)
	if err != nil {
		return fmt.Errorf("load tables: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return fmt.Errorf("load tables: %w", err)
		}
		tx.td[id] = true
	}
	return rows.Err()
}

// applyDirectory keeps the table directory: each table's kind, its seats as
// they are now, its settled hands and its status.
func applyDirectory(_ context.Context, tx *wtx, ev eventstore.Event) error {
	tid, ok := projections.TableID(ev.Stream)
	if !ok {
		return nil
	}
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
		clock := ""
		if o.Clock != nil {
			b, err := json.Marshal(o.Clock)
			if err != nil {
				return err
			}
			clock = string(b)
		}
		tx.exec(`INSERT INTO td_tables
			(table_id, game, variant, stake, seats, options, clock, max_hands, rules_version, seated, hands, status, opened_position, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, 0, $10, $11, $12, $13)
			ON CONFLICT (table_id) DO UPDATE SET game = excluded.game, variant = excluded.variant, stake = excluded.stake,
				seats = excluded.seats, options = excluded.options, clock = excluded.clock, max_hands = excluded.max_hands,
				rules_version = excluded.rules_version, seated = 0, hands = 0, status = excluded.status,
				opened_position = excluded.opened_position, created_at = excluded.created_at, updated_at = excluded.updated_at`,
			tid, o.Game, o.Variant, o.Stake, o.Seats, opts, clock, o.MaxHands, o.RulesVersion, projections.StatusOpen, ev.Position, at, at)
		tx.td[tid] = true
		touch(tx, tid, at)
		return nil
	}
	if !tx.td[tid] {
		return nil // a stream without TableOpened: not a table this directory knows
	}
	touch(tx, tid, at)
	switch ev.Type {
	case "PlayerSeated":
		p, err := decode[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		tx.exec(`INSERT INTO td_seats (table_id, seat, player_id, name, bot) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (table_id, seat) DO UPDATE SET player_id = excluded.player_id, name = excluded.name, bot = excluded.bot`,
			tid, p.Seat, p.PlayerID, p.Name, p.Bot)
		recount(tx, tid)
	case "PlayerLeft":
		p, err := decode[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		emptySeat(tx, tid, p.Seat)
	case "PlayerEscaped":
		p, err := decode[table.PlayerEscaped](ev)
		if err != nil {
			return err
		}
		emptySeat(tx, tid, p.Seat)
	case "HandSettled":
		tx.exec(`UPDATE td_tables SET hands = hands + 1 WHERE table_id = $1`, tid)
	case "TableClosed":
		tx.exec(`UPDATE td_tables SET status = $1 WHERE table_id = $2`, projections.StatusClosed, tid)
	}
	return nil
}

// touch notes the time of a table's latest event, written by
// finishDirectory.
func touch(tx *wtx, tid string, at int64) {
	if tx.touched == nil {
		tx.touched = map[string]int64{}
	}
	if _, ok := tx.touched[tid]; !ok {
		tx.touchedAt = append(tx.touchedAt, tid)
	}
	tx.touched[tid] = at
}

// finishDirectory sets, in one statement, the time of each table's last
// event in the batch.
func finishDirectory(tx *wtx) {
	if len(tx.touchedAt) == 0 {
		return
	}
	at := make([]int64, len(tx.touchedAt))
	for i, tid := range tx.touchedAt {
		at[i] = tx.touched[tid]
	}
	tx.exec(`UPDATE td_tables t SET updated_at = u.at FROM unnest($1::text[], $2::bigint[]) AS u(id, at) WHERE t.table_id = u.id`,
		tx.touchedAt, at)
}

func emptySeat(tx *wtx, tid string, seat int) {
	tx.exec(`DELETE FROM td_seats WHERE table_id = $1 AND seat = $2`, tid, seat)
	recount(tx, tid)
}

// recount sets a table's seated count and, unless it is closed, its
// status from its seats.
func recount(tx *wtx, tid string) {
	tx.exec(`UPDATE td_tables SET
		seated = c.n,
		status = CASE
			WHEN status = 'closed' THEN 'closed'
			WHEN c.n >= seats THEN 'running'
			ELSE 'open' END
		FROM (SELECT count(*) AS n FROM td_seats WHERE table_id = $1) c
		WHERE table_id = $1`, tid)
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
