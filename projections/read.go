package projections

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Seat is who held a seat in a hand.
type Seat struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
}

// HandEvent is one event of a hand as recorded.
type HandEvent struct {
	Position   int64           `json:"position"`
	Version    int             `json:"version"`
	Type       string          `json:"type"`
	RecordedAt time.Time       `json:"recorded_at"`
	Data       json.RawMessage `json:"data"`
}

// Deal is a deal of a hand: every seat's cards, the kitty, the commitment
// and the seed revealed when the deal ended.
type Deal struct {
	Deal       int             `json:"deal"`
	Commitment string          `json:"commitment"`
	Hands      json.RawMessage `json:"hands"`
	Kitty      json.RawMessage `json:"kitty"`
	FirstSeat  int             `json:"first_seat"`
	Seed       string          `json:"seed"`
	Voided     string          `json:"voided,omitempty"` // the reason, for a thrown-in deal
}

// Hand is a finished hand's full record.
type Hand struct {
	HandID          string          `json:"hand_id"`
	TableID         string          `json:"table_id"`
	Hand            int             `json:"hand"`
	Game            string          `json:"game"`
	Variant         string          `json:"variant"`
	Seats           []Seat          `json:"seats"`
	Deals           []Deal          `json:"deals"`
	Events          []HandEvent     `json:"events"`
	Result          json.RawMessage `json:"result"`
	Deltas          []int           `json:"deltas"`
	House           int             `json:"house"`
	Seed            string          `json:"seed"`
	Commitment      string          `json:"commitment"`
	StartedAt       time.Time       `json:"started_at"`
	SettledAt       time.Time       `json:"settled_at"`
	SettledPosition int64           `json:"settled_position"`
}

// Hand returns the record of a finished hand; ErrHandInProgress for a hand
// still being played (its record would show hidden cards), ErrNotFound for
// an unknown one.
func (d *DB) Hand(ctx context.Context, handID string) (Hand, error) {
	var h Hand
	var seats string
	var started int64
	var settled, settledPos sql.NullInt64
	var deltas sql.NullString
	err := d.db.QueryRowContext(ctx, `SELECT hand_id, table_id, hand, game, variant, seats, started_at, settled_at, settled_position, deltas
		FROM hh_hands WHERE hand_id = ?`, handID).Scan(&h.HandID, &h.TableID, &h.Hand, &h.Game, &h.Variant, &seats, &started, &settled, &settledPos, &deltas)
	if errors.Is(err, sql.ErrNoRows) {
		return Hand{}, ErrNotFound
	}
	if err != nil {
		return Hand{}, err
	}
	if !settled.Valid {
		return Hand{}, ErrHandInProgress
	}
	h.StartedAt = time.Unix(0, started).UTC()
	h.SettledAt = time.Unix(0, settled.Int64).UTC()
	h.SettledPosition = settledPos.Int64
	if err := json.Unmarshal([]byte(seats), &h.Seats); err != nil {
		return Hand{}, err
	}
	if err := json.Unmarshal([]byte(deltas.String), &h.Deltas); err != nil {
		return Hand{}, err
	}
	rows, err := d.db.QueryContext(ctx, `SELECT position, version, type, data, recorded_at FROM hh_hand_events WHERE hand_id = ? ORDER BY position`, handID)
	if err != nil {
		return Hand{}, err
	}
	defer rows.Close()
	h.Events = []HandEvent{}
	h.Deals = []Deal{}
	for rows.Next() {
		var e HandEvent
		var data string
		var at int64
		if err := rows.Scan(&e.Position, &e.Version, &e.Type, &data, &at); err != nil {
			return Hand{}, err
		}
		e.Data = json.RawMessage(data)
		e.RecordedAt = time.Unix(0, at).UTC()
		h.Events = append(h.Events, e)
		if err := h.note(e); err != nil {
			return Hand{}, err
		}
	}
	return h, rows.Err()
}

// note reads the facts of the shared events into the hand's summary fields.
func (h *Hand) note(e HandEvent) error {
	switch e.Type {
	case "HandDealt":
		var v struct {
			Deal       int             `json:"deal"`
			Commitment string          `json:"commitment"`
			Hands      json.RawMessage `json:"hands"`
			Kitty      json.RawMessage `json:"kitty"`
			FirstSeat  int             `json:"first_seat"`
		}
		if err := json.Unmarshal(e.Data, &v); err != nil {
			return err
		}
		if len(v.Kitty) == 0 || string(v.Kitty) == "null" {
			v.Kitty = json.RawMessage("[]")
		}
		h.Deals = append(h.Deals, Deal{Deal: v.Deal, Commitment: v.Commitment, Hands: v.Hands, Kitty: v.Kitty, FirstSeat: v.FirstSeat})
		h.Commitment = v.Commitment
	case "DealSecret", "DealVoided":
		var v struct {
			Deal   int    `json:"deal"`
			Seed   string `json:"seed"`
			Reason string `json:"reason"`
		}
		if err := json.Unmarshal(e.Data, &v); err != nil {
			return err
		}
		for i := range h.Deals {
			if h.Deals[i].Deal == v.Deal {
				h.Deals[i].Seed = v.Seed
				if e.Type == "DealVoided" {
					h.Deals[i].Voided = v.Reason
				}
			}
		}
	case "HandSettled":
		var v struct {
			House  int             `json:"house"`
			Result json.RawMessage `json:"result"`
			Seed   string          `json:"seed"`
		}
		if err := json.Unmarshal(e.Data, &v); err != nil {
			return err
		}
		h.House, h.Result, h.Seed = v.House, v.Result, v.Seed
		if len(h.Result) == 0 {
			h.Result = json.RawMessage("null")
		}
	}
	return nil
}

// HandSummary is a finished hand in a list.
type HandSummary struct {
	HandID          string    `json:"hand_id"`
	TableID         string    `json:"table_id"`
	Hand            int       `json:"hand"`
	Game            string    `json:"game"`
	Variant         string    `json:"variant"`
	Deltas          []int     `json:"deltas"`
	SettledAt       time.Time `json:"settled_at"`
	SettledPosition int64     `json:"settled_position"`
	// Seat and Delta are the player's, in a player's list.
	Seat  *int `json:"seat,omitempty"`
	Delta *int `json:"delta,omitempty"`
}

// HandPage is a page of hands, oldest first; Next is the cursor of the next
// page, empty after the last.
type HandPage struct {
	Hands []HandSummary `json:"hands"`
	Next  string        `json:"next_cursor,omitempty"`
}

// Page sizes.
const (
	DefaultLimit = 50
	MaxLimit     = 200
)

func clampLimit(limit int) (int, error) {
	switch {
	case limit == 0:
		return DefaultLimit, nil
	case limit < 0 || limit > MaxLimit:
		return 0, fmt.Errorf("%w: limit must be 1..%d", ErrBadQuery, MaxLimit)
	}
	return limit, nil
}

// Cursors are opaque to clients: a base64 of the last key seen.
func encodeCursor(k int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("p" + strconv.FormatInt(k, 10)))
}

func decodeCursor(c string) (int64, error) {
	if c == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < 2 || b[0] != 'p' {
		return 0, ErrBadCursor
	}
	k, err := strconv.ParseInt(string(b[1:]), 10, 64)
	if err != nil || k < 0 {
		return 0, ErrBadCursor
	}
	return k, nil
}

// TableHands lists a table's finished hands in hand order.
func (d *DB) TableHands(ctx context.Context, tableID, cursor string, limit int) (HandPage, error) {
	after, err := decodeCursor(cursor)
	if err != nil {
		return HandPage{}, err
	}
	if limit, err = clampLimit(limit); err != nil {
		return HandPage{}, err
	}
	rows, err := d.db.QueryContext(ctx, `SELECT hand_id, table_id, hand, game, variant, deltas, settled_at, settled_position
		FROM hh_hands WHERE table_id = ? AND settled_at IS NOT NULL AND hand > ? ORDER BY hand LIMIT ?`, tableID, after, limit+1)
	if err != nil {
		return HandPage{}, err
	}
	defer rows.Close()
	p := HandPage{Hands: []HandSummary{}}
	for rows.Next() {
		var s HandSummary
		var deltas string
		var at int64
		if err := rows.Scan(&s.HandID, &s.TableID, &s.Hand, &s.Game, &s.Variant, &deltas, &at, &s.SettledPosition); err != nil {
			return HandPage{}, err
		}
		if err := json.Unmarshal([]byte(deltas), &s.Deltas); err != nil {
			return HandPage{}, err
		}
		s.SettledAt = time.Unix(0, at).UTC()
		p.Hands = append(p.Hands, s)
	}
	if err := rows.Err(); err != nil {
		return HandPage{}, err
	}
	if len(p.Hands) > limit {
		p.Hands = p.Hands[:limit]
		p.Next = encodeCursor(int64(p.Hands[limit-1].Hand))
	}
	return p, nil
}

// PlayerHands lists the finished hands a player held a seat in, in
// settlement order.
func (d *DB) PlayerHands(ctx context.Context, playerID, cursor string, limit int) (HandPage, error) {
	after, err := decodeCursor(cursor)
	if err != nil {
		return HandPage{}, err
	}
	if limit, err = clampLimit(limit); err != nil {
		return HandPage{}, err
	}
	rows, err := d.db.QueryContext(ctx, `SELECT h.hand_id, h.table_id, h.hand, h.game, h.variant, h.deltas, h.settled_at, h.settled_position, p.seat, p.delta
		FROM hh_player_hands p JOIN hh_hands h ON h.hand_id = p.hand_id
		WHERE p.player_id = ? AND p.settled_position > ? ORDER BY p.settled_position, p.seat LIMIT ?`, playerID, after, limit+1)
	if err != nil {
		return HandPage{}, err
	}
	defer rows.Close()
	p := HandPage{Hands: []HandSummary{}}
	for rows.Next() {
		var s HandSummary
		var deltas string
		var at int64
		var seat, delta int
		if err := rows.Scan(&s.HandID, &s.TableID, &s.Hand, &s.Game, &s.Variant, &deltas, &at, &s.SettledPosition, &seat, &delta); err != nil {
			return HandPage{}, err
		}
		if err := json.Unmarshal([]byte(deltas), &s.Deltas); err != nil {
			return HandPage{}, err
		}
		s.SettledAt = time.Unix(0, at).UTC()
		s.Seat, s.Delta = &seat, &delta
		p.Hands = append(p.Hands, s)
	}
	if err := rows.Err(); err != nil {
		return HandPage{}, err
	}
	if len(p.Hands) > limit {
		p.Hands = p.Hands[:limit]
		p.Next = encodeCursor(p.Hands[limit-1].SettledPosition)
	}
	return p, nil
}

// ProjectionStatus is one projection's progress.
type ProjectionStatus struct {
	Name     string `json:"name"`
	Position int64  `json:"position"`
	Lag      int64  `json:"lag"` // events of the log not yet applied
}

// Status is every projection's progress against the log's head.
type Status struct {
	Head        int64              `json:"head"`
	Projections []ProjectionStatus `json:"projections"`
}

// StatusAt reports each projection's checkpoint and lag behind head.
func (d *DB) StatusAt(ctx context.Context, head int64) (Status, error) {
	s := Status{Head: head, Projections: []ProjectionStatus{}}
	for _, n := range Names {
		cp, err := d.Checkpoint(ctx, n)
		if err != nil {
			return Status{}, err
		}
		s.Projections = append(s.Projections, ProjectionStatus{Name: n, Position: cp, Lag: max(head-cp, 0)})
	}
	return s, nil
}

// Reader is the read side the API uses: the projections with the log whose
// head their lag is measured against.
type Reader struct {
	*DB
	Log Source
}

// Status reports each projection's checkpoint and lag behind the log's head.
func (r Reader) Status(ctx context.Context) (Status, error) {
	head, _, err := r.Log.Head(ctx)
	if err != nil {
		return Status{}, fmt.Errorf("projections: log head: %w", err)
	}
	return r.DB.StatusAt(ctx, head)
}
