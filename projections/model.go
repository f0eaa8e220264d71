package projections

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TableID is the table of a table stream ("table-<id>"); other streams are
// not tables and projections ignore them.
func TableID(stream string) (string, bool) {
	id, ok := strings.CutPrefix(stream, "table-")
	return id, ok && id != ""
}

// HandID names a hand: <tableID>-<hand>.
func HandID(tableID string, hand int) string { return tableID + "-" + strconv.Itoa(hand) }

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

// Note reads the facts of the shared events into the hand's summary fields.
func (h *Hand) Note(e HandEvent) error {
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

// ClampLimit is the page size a request asks for: DefaultLimit for 0, an
// error matching ErrBadQuery outside 1..MaxLimit.
func ClampLimit(limit int) (int, error) {
	switch {
	case limit == 0:
		return DefaultLimit, nil
	case limit < 0 || limit > MaxLimit:
		return 0, fmt.Errorf("%w: limit must be 1..%d", ErrBadQuery, MaxLimit)
	}
	return limit, nil
}

// EncodeCursor is the cursor of the page after key k. Cursors are opaque
// to clients: a base64 of the last key seen.
func EncodeCursor(k int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("p" + strconv.FormatInt(k, 10)))
}

// DecodeCursor is the key a cursor names; 0 for none, ErrBadCursor for one
// this package did not issue.
func DecodeCursor(c string) (int64, error) {
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
