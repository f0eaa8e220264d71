package sqlite

import (
	"paiju/projections"

	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"paiju/domain/table"
	"paiju/eventstore"
)

func decode[T any](ev eventstore.Event) (T, error) {
	var v T
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		return v, fmt.Errorf("decode %s: %w", ev.Type, err)
	}
	return v, nil
}

// seatRecord is who held a seat when a hand was dealt.
type seatRecord struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
}

// applyHands keeps the hand history: every event of a table stream from a
// hand's first deal to its settlement, and the hand's seats, deltas and
// settlement time.
func applyHands(ctx context.Context, tx *wtx, ev eventstore.Event) error {
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
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO hh_tables (stream, table_id, game, variant, open_hand) VALUES (?, ?, ?, ?, 0)`,
			ev.Stream, tid, o.Game, o.Variant); err != nil {
			return err
		}
		if tx.hh == nil {
			tx.hh = map[string]*hhTable{}
		}
		tx.hh[ev.Stream] = &hhTable{game: o.Game, variant: o.Variant}
		return nil
	case "PlayerSeated":
		p, err := decode[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		if !tx.seatTaken(ev.Stream, seatRecord{Seat: p.Seat, PlayerID: p.PlayerID, Name: p.Name}, false) {
			_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO hh_seats (stream, seat, player_id, name) VALUES (?, ?, ?, ?)`,
				ev.Stream, p.Seat, p.PlayerID, p.Name)
			if err != nil {
				return err
			}
		}
	case "PlayerLeft":
		p, err := decode[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		if !tx.seatTaken(ev.Stream, seatRecord{Seat: p.Seat}, true) {
			if _, err := tx.ExecContext(ctx, `DELETE FROM hh_seats WHERE stream = ? AND seat = ?`, ev.Stream, p.Seat); err != nil {
				return err
			}
		}
	}

	t, err := tx.hhTableOf(ctx, ev.Stream)
	if err != nil {
		return err
	}
	if t == nil {
		return nil // not a table this projection knows: nothing to record
	}
	if ev.Type == "HandDealt" {
		dealt, err := projections.HandNumber(ev.Data)
		if err != nil {
			return err
		}
		if t.open != dealt {
			if err := startHand(ctx, tx, ev, tid, t.game, t.variant, dealt); err != nil {
				return err
			}
			t.open, t.dirty = dealt, true
		}
	}
	if t.open == 0 {
		return nil
	}
	hid := projections.HandID(tid, t.open)
	// Inserted with the batch's others at its end: nothing reads them
	// before.
	tx.handEvent(hid, ev)
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
	// Written at the batch's end (flushHands), with the rows of the hands
	// it started.
	tx.settled = append(tx.settled, handSettlement{hand: hid, at: ev.RecordedAt.UTC().UnixNano(), position: ev.Position, deltas: s.Deltas, deltasJSON: string(deltas)})
	t.open, t.dirty = 0, true
	return nil
}

// startHand records a new hand with the seats as they are at its first
// deal; flushHands writes it.
func startHand(ctx context.Context, tx *wtx, ev eventstore.Event, tid, game, variant string, hand int) error {
	hid := projections.HandID(tid, hand)
	if _, ok := tx.started[hid]; ok {
		return nil // as INSERT OR IGNORE: the first record of a hand stays
	}
	seats, ok := tx.hhSeats[ev.Stream]
	// Not nil: no seats is an empty list, not null.
	seats = append([]seatRecord{}, seats...)
	if !ok {
		var err error
		if seats, err = readSeats(ctx, tx, ev.Stream); err != nil {
			return err
		}
	}
	js, err := json.Marshal(seats)
	if err != nil {
		return err
	}
	if tx.started == nil {
		tx.started = map[string]*startedHand{}
	}
	tx.started[hid] = &startedHand{table: tid, hand: hand, game: game, variant: variant, seats: seats, seatsJSON: string(js), at: ev.RecordedAt.UTC().UnixNano()}
	tx.startOrder = append(tx.startOrder, hid)
	return nil // the caller records the open hand, which flush writes
}

// readSeats reads stream's hh_seats rows, by seat.
func readSeats(ctx context.Context, tx *wtx, stream string) ([]seatRecord, error) {
	rows, err := tx.QueryContext(ctx, `SELECT seat, player_id, name FROM hh_seats WHERE stream = ? ORDER BY seat`, stream)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	seats := []seatRecord{}
	for rows.Next() {
		var s seatRecord
		if err := rows.Scan(&s.Seat, &s.PlayerID, &s.Name); err != nil {
			return nil, err
		}
		seats = append(seats, s)
	}
	return seats, rows.Err()
}

// applyLeaderboards credits each seat's settlement delta to the player who
// held the seat when the hand was dealt.
func applyLeaderboards(ctx context.Context, tx *wtx, ev eventstore.Event) error {
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
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO lb_tables (stream, game, variant) VALUES (?, ?, ?)`, ev.Stream, o.Game, o.Variant); err != nil {
			return err
		}
		if tx.lb == nil {
			tx.lb = map[string]*lbTable{}
		}
		tx.lb[ev.Stream] = &lbTable{game: o.Game, variant: o.Variant}
		return nil
	case "PlayerSeated":
		p, err := decode[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		if p.Bot {
			// Bots are on no leaderboard: their seat is as empty to it.
			return tx.lbSeatEmptied(ctx, ev.Stream, p.Seat)
		}
		if seats := tx.lbSeats[ev.Stream]; seats != nil {
			seats[p.Seat] = p.PlayerID
			tx.lbSeatsDirty[ev.Stream] = true
		} else if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO lb_seats (stream, seat, player_id) VALUES (?, ?, ?)`, ev.Stream, p.Seat, p.PlayerID); err != nil {
			return err
		}
		tx.nameSeen(p.PlayerID, p.Name)
		return nil
	case "PlayerLeft":
		p, err := decode[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		return tx.lbSeatEmptied(ctx, ev.Stream, p.Seat)
	case "PlayerEscaped":
		p, err := decode[table.PlayerEscaped](ev)
		if err != nil {
			return err
		}
		// The escaper still answers for the hand they left: keep them in
		// the hand's seats, then empty the seat.
		hs, err := tx.lbHandSeatsOf(ctx, ev.Stream, p.Hand)
		if err != nil {
			return err
		}
		if _, ok := hs[p.Seat]; !ok {
			hs[p.Seat] = p.PlayerID
		}
		if seats := tx.lbSeats[ev.Stream]; seats != nil {
			delete(seats, p.Seat)
			tx.lbSeatsDirty[ev.Stream] = true
			return nil
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM lb_seats WHERE stream = ? AND seat = ?`, ev.Stream, p.Seat)
		return err
	case "HandDealt":
		dealt, err := projections.HandNumber(ev.Data)
		if err != nil {
			return err
		}
		hs, err := tx.lbHandSeatsOf(ctx, ev.Stream, dealt)
		if err != nil {
			return err
		}
		seats, err := tx.lbSeatsOf(ctx, ev.Stream)
		if err != nil {
			return err
		}
		for seat, pid := range seats {
			if _, ok := hs[seat]; !ok {
				hs[seat] = pid
			}
		}
		return nil
	case "HandSettled":
		s, err := projections.Settlement(ev.Data)
		if err != nil {
			return err
		}
		kind, err := tx.lbTableOf(ctx, ev.Stream)
		if err != nil {
			return err
		}
		if kind == nil {
			return nil
		}
		// Who held each seat at the deal; a settlement without a deal (none
		// of the games does this) falls back on the seats as they are, seat
		// by seat.
		hs, err := tx.lbHandSeatsOf(ctx, ev.Stream, s.Hand)
		if err != nil {
			return err
		}
		seats, err := tx.lbSeatsOf(ctx, ev.Stream)
		if err != nil {
			return err
		}
		held := maps.Clone(hs)
		for seat, pid := range seats {
			if _, ok := held[seat]; !ok {
				held[seat] = pid
			}
		}
		hid := projections.HandID(tid, s.Hand)
		at := ev.RecordedAt.UTC().UnixNano()
		for _, seat := range slices.Sorted(maps.Keys(held)) {
			if seat >= 0 && seat < len(s.Deltas) {
				tx.lbResults = append(tx.lbResults, hid, seat, held[seat], kind.game, kind.variant, s.Deltas[seat], at)
			}
		}
		clear(hs) // the hand's seats are deleted (flush)
		return nil
	}
	return nil
}

// lbSeatEmptied records that no player the leaderboards count holds seat of
// stream: it was left, or a bot took it.
func (tx *wtx) lbSeatEmptied(ctx context.Context, stream string, seat int) error {
	if seats := tx.lbSeats[stream]; seats != nil {
		delete(seats, seat)
		tx.lbSeatsDirty[stream] = true
		return nil
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM lb_seats WHERE stream = ? AND seat = ?`, stream, seat)
	return err
}
