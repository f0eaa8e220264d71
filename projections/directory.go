package projections

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"paiju/domain/table"
)

// Table statuses in the directory. A table is open while it has a free seat
// and is not closed, running while every seat is taken, closed once
// TableClosed is recorded. A seat emptied by PlayerLeft or PlayerEscaped
// makes a running table open again.
const (
	StatusOpen    = "open"
	StatusRunning = "running"
	StatusClosed  = "closed"
)

// TableSeat is who holds a seat of a table now.
type TableSeat struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
	Bot      bool   `json:"bot"`
}

// TableEntry is a table as the directory lists it: only what TableOpened,
// PlayerSeated, PlayerLeft, PlayerEscaped, HandSettled and TableClosed make
// public to everyone, never a card, a kitty or a seed.
type TableEntry struct {
	ID           string          `json:"id"`
	Game         string          `json:"game"`
	Variant      string          `json:"variant"`
	Stake        int             `json:"stake"`
	Options      json.RawMessage `json:"options"`
	RulesVersion string          `json:"rules_version"`
	Seats        int             `json:"seats"`
	Players      []TableSeat     `json:"players"`
	FreeSeats    int             `json:"free_seats"`
	Status       string          `json:"status"`
	HandsPlayed  int             `json:"hands_played"`
	// Spectators is the table's spectator policy ("public" or
	// "after_deal"); Watchers whether its players may let others watch
	// their seats (true at every table).
	Spectators string    `json:"spectators"`
	Watchers   bool      `json:"watchers"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// TablePage is a page of the directory; Next is the cursor of the next
// page, empty after the last.
type TablePage struct {
	Tables []TableEntry `json:"tables"`
	Next   string       `json:"next_cursor,omitempty"`
}

// TableQuery selects a page of the lobby: tables of every player, newest
// first.
type TableQuery struct {
	Game    string // empty: every game
	Variant string // empty: every variant
	// Statuses are the statuses listed (open, running or closed); none
	// lists open and running tables.
	Statuses []string
	Cursor   string
	Limit    int
}

// QuickKind is the kind of table quick play seats a player at: game,
// variant and stake, with the options, clock and rules version a table
// opened with no options records (compact JSON; Clock is table.Pace, ""
// for no clock, and says whether the table waits between hands). Tables
// with a max_hands limit are never of a quick kind. Spectators is the
// spectator policy ("public" or "after_deal").
type QuickKind struct {
	Game, Variant string
	Stake         int
	Options       string
	Clock         string
	RulesVersion  string
	Spectators    string
}

// SpectatorsOf is the spectator policy o is served under, as the directory
// records it: "public" unless the table recorded "after_deal" (a table
// that recorded a broadcast_delay is served as public).
func SpectatorsOf(o table.TableOpened) string {
	if o.Spectators == "" {
		return table.SpectatorsPublic
	}
	return o.Spectators
}

// StatusRank orders a player's tables: running first, then open, then
// closed.
func StatusRank(status string) int {
	switch status {
	case StatusRunning:
		return 0
	case StatusOpen:
		return 1
	}
	return 2
}

// EncodeRankCursor is the cursor of the page after the table of rank
// StatusRank and directory position pos, in a list ordered by rank, then
// newest first.
func EncodeRankCursor(rank int, pos int64) string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "r%d.%d", rank, pos))
}

// DecodeRankCursor reads a cursor of EncodeRankCursor; ok is false for
// none, ErrBadCursor for one this package did not issue.
func DecodeRankCursor(c string) (rank int, pos int64, ok bool, err error) {
	if c == "" {
		return 0, 0, false, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < 4 || b[0] != 'r' {
		return 0, 0, false, ErrBadCursor
	}
	rs, ps, found := strings.Cut(string(b[1:]), ".")
	if !found {
		return 0, 0, false, ErrBadCursor
	}
	rank, err = strconv.Atoi(rs)
	if err != nil || rank < 0 || rank > 2 {
		return 0, 0, false, ErrBadCursor
	}
	pos, err = strconv.ParseInt(ps, 10, 64)
	if err != nil || pos < 1 {
		return 0, 0, false, ErrBadCursor
	}
	return rank, pos, true, nil
}
