package api

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"paiju/service"
)

// Private rooms (房间号). A private table has a six-digit room code drawn at
// random (crypto/rand: counting up from a known code finds nothing), unique
// among the tables that hold one. The code lives in the store beside the
// log, never in it: the log, /events and exports are read by spectators
// and auditors the code is not for; the table's players see it in the
// table's view. A closed table's code no longer finds it: a lookup that
// meets one releases it, and a new table that draws it takes it over.
//
// A private table is watched (its view, /events, /stream, /legal, /state)
// by its players past and present, their watchers, the auditor, and whoever
// sends its room code in the Room-Code header (a stream ticket obtained so
// carries it); anyone else gets 403 room_code_required.
//
// Guessing is bounded: failed attempts (an unknown code looked up, a wrong
// code to join or watch) are budgeted per player with backoff and per node
// (roomguard.go).

// ErrNoRoom is what Rooms returns for a code or table without a room.
var ErrNoRoom = errors.New("api: no such room")

// ErrRoomTaken is what Rooms.CreateRoom returns for a code (or a table)
// that already has a room.
var ErrRoomTaken = errors.New("api: room code taken")

// RoomRecord is a private table's room as the store keeps it.
type RoomRecord struct {
	Code      string
	TableID   string
	CreatedAt time.Time
}

// Rooms keeps the room codes of private tables, shared by every node.
type Rooms interface {
	// CreateRoom binds code to tableID, or returns ErrRoomTaken.
	CreateRoom(ctx context.Context, code, tableID string, at time.Time) error
	// TakeOverRoom rebinds code from the closed oldTable to newTable, or
	// returns ErrNoRoom when oldTable no longer holds it.
	TakeOverRoom(ctx context.Context, code, oldTable, newTable string, at time.Time) error
	// ReleaseRoom unbinds code if tableID holds it.
	ReleaseRoom(ctx context.Context, code, tableID string) error
	// RoomByCode returns ErrNoRoom for an unbound code.
	RoomByCode(ctx context.Context, code string) (RoomRecord, error)
	// RoomOfTable returns ErrNoRoom for a table without a room.
	RoomOfTable(ctx context.Context, tableID string) (RoomRecord, error)
}

var errNoRooms = problem(http.StatusServiceUnavailable, "rooms_unavailable", "this server keeps no room codes: private tables cannot be opened or found here")

// roomCodeDraws bounds the codes drawn for one table: with a million codes,
// twenty taken draws in a row mean the store is nearly full or failing.
const roomCodeDraws = 20

func drawRoomCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("crypto/rand: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// validRoomCode reports whether code has the form of a room code.
func validRoomCode(code string) bool {
	if len(code) != 6 {
		return false
	}
	for _, c := range []byte(code) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// roomCodeFor returns tableID's room code, drawing one if it has none yet.
func (s *server) roomCodeFor(ctx context.Context, tableID string) (string, error) {
	if room, err := s.Rooms.RoomOfTable(ctx, tableID); err == nil {
		return room.Code, nil
	} else if !errors.Is(err, ErrNoRoom) {
		return "", err
	}
	for range roomCodeDraws {
		code, err := drawRoomCode()
		if err != nil {
			return "", err
		}
		err = s.Rooms.CreateRoom(ctx, code, tableID, s.Now())
		if err == nil {
			return code, nil
		}
		if !errors.Is(err, ErrRoomTaken) {
			return "", err
		}
		holder, err := s.Rooms.RoomByCode(ctx, code)
		if errors.Is(err, ErrNoRoom) {
			continue // released meanwhile: draw again rather than race for it
		}
		if err != nil {
			return "", err
		}
		if holder.TableID == tableID {
			return code, nil // a concurrent replay of this opening bound it
		}
		l, err := s.Tables.Load(ctx, holder.TableID)
		if err != nil {
			return "", err
		}
		if !l.State.Closed {
			continue
		}
		switch err := s.Rooms.TakeOverRoom(ctx, code, holder.TableID, tableID, s.Now()); {
		case err == nil:
			return code, nil
		case !errors.Is(err, ErrNoRoom):
			return "", err
		}
	}
	return "", fmt.Errorf("no free room code in %d draws", roomCodeDraws)
}

// checkRoomCode reports whether code is tableID's room code, having
// written the refusal (429, or 403 room_code_wrong) when it is not.
func (s *server) checkRoomCode(w http.ResponseWriter, r *http.Request, tableID, code string) bool {
	if s.Rooms == nil {
		s.writeError(w, r, errNoRooms)
		return false
	}
	if err := s.matchRoomCode(r, tableID, code); err != nil {
		s.writeError(w, r, err)
		return false
	}
	return true
}

// matchRoomCode is nil if code is tableID's room code, a 429 if the
// caller may not try a code now, and 403 room_code_wrong (a failed
// attempt) if it is not the code.
func (s *server) matchRoomCode(r *http.Request, tableID, code string) error {
	try, err := s.roomAttempt(r)
	if err != nil {
		return err
	}
	defer func() { try.end(s.Now()) }()
	room, err := s.Rooms.RoomOfTable(r.Context(), tableID)
	if err != nil && !errors.Is(err, ErrNoRoom) {
		return fmt.Errorf("room of %s: %w", tableID, err)
	}
	if err != nil || subtle.ConstantTimeCompare([]byte(room.Code), []byte(code)) != 1 {
		try.fail()
		return problem(http.StatusForbidden, "room_code_wrong", "that is not this table's room code; ask its players for it")
	}
	return nil
}

// roomOut is what a room code finds: enough to decide to join.
type roomOut struct {
	TableID   string `json:"table_id"`
	Game      string `json:"game"`
	Variant   string `json:"variant"`
	Stake     int    `json:"stake"`
	Seats     int    `json:"seats"`
	FreeSeats []int  `json:"free_seats"`
}

var errNoSuchRoom = problem(http.StatusNotFound, "room_not_found", "no open table has that room code")

// getRoom answers GET /v1/rooms/{code}.
func (s *server) getRoom(w http.ResponseWriter, r *http.Request) {
	if s.Rooms == nil {
		s.writeError(w, r, errNoRooms)
		return
	}
	try, err := s.roomAttempt(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer func() { try.end(s.Now()) }()
	code := chi.URLParam(r, "code")
	if !validRoomCode(code) {
		try.fail()
		s.writeError(w, r, errNoSuchRoom)
		return
	}
	room, err := s.Rooms.RoomByCode(r.Context(), code)
	if errors.Is(err, ErrNoRoom) {
		try.fail()
		s.writeError(w, r, errNoSuchRoom)
		return
	}
	if err != nil {
		s.writeError(w, r, fmt.Errorf("room by code: %w", err))
		return
	}
	l, err := s.Tables.Load(r.Context(), room.TableID)
	if err != nil {
		s.writeError(w, r, fmt.Errorf("room's table %s: %w", room.TableID, err))
		return
	}
	st := l.State
	if st.Closed {
		// Its table is over: the code is free again.
		if err := s.Rooms.ReleaseRoom(r.Context(), code, room.TableID); err != nil {
			s.log.WarnContext(r.Context(), "release a closed table's room", "table", room.TableID, "err", err)
		}
		try.fail()
		s.writeError(w, r, errNoSuchRoom)
		return
	}
	out := roomOut{TableID: st.ID, Game: st.Game, Variant: st.Variant, Stake: st.Stake, Seats: len(st.Players), FreeSeats: []int{}}
	for i, p := range st.Players {
		if p == "" {
			out.FreeSeats = append(out.FreeSeats, i)
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// roomCodeHeader carries a private table's room code on reads: never in
// the URL, which logs and browser histories keep.
const roomCodeHeader = "Room-Code"

// watchesWithoutCode reports whether c may watch the private table l
// without its room code.
func watchesWithoutCode(l *service.Loaded, c caller) bool {
	if c.auditor || l.EverSeated(c.playerID) || l.State.SeatOf(c.playerID) >= 0 {
		return true
	}
	_, watching := l.State.Watching(c.playerID)
	return watching || c.roomTable == l.State.ID
}

// mayWatch is nil if the caller may read the table l.
func (s *server) mayWatch(r *http.Request, l *service.Loaded) error {
	c := callerOf(r.Context())
	if !l.State.Private || watchesWithoutCode(l, c) {
		return nil
	}
	code := r.Header.Get(roomCodeHeader)
	if code == "" {
		return problem(http.StatusForbidden, "room_code_required", "this table is private: send its room code in the Room-Code header to watch it")
	}
	if s.Rooms == nil {
		return errNoRooms
	}
	return s.matchRoomCode(r, l.State.ID, code)
}
