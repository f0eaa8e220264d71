package table

import (
	"errors"
	"fmt"
)

// Kind classifies a domain error. The api package alone maps kinds to HTTP
// statuses; the domain never speaks of transport.
type Kind int

// Error kinds.
const (
	// KindInvalid: the command is malformed for this game (missing or
	// unexpected fields, an unknown action type, a bad option).
	KindInvalid Kind = iota + 1
	// KindRule: the command is well formed but the rules forbid it now
	// (a card not in hand, a play that does not beat the last one).
	KindRule
	// KindConflict: the command does not fit the table's current state
	// (not your turn, wrong phase, seat taken, table full).
	KindConflict
	// KindForbidden: the caller may not act at this table.
	KindForbidden
	// KindNotFound: no such table, player or seat.
	KindNotFound
)

// Error is a domain error with a stable machine-readable code. Its message is
// safe to show to the caller: it never names another seat's hidden cards.
type Error struct {
	Kind Kind
	Code string // stable snake_case code, e.g. "not_your_turn"
	Msg  string // human-readable detail
	// Option names the table option an ErrBadOption refuses (BadOption),
	// when the error is about one key.
	Option string
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

// Is matches errors by Code, so tests can write errors.Is(err, table.ErrNotYourTurn).
func (e *Error) Is(target error) bool {
	var t *Error
	if errors.As(target, &t) {
		return t.Code == e.Code
	}
	return false
}

// Errorf builds an *Error of the given kind and code.
func Errorf(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Sentinels for errors.Is. Games add their own codes with Errorf.
var (
	ErrNotYourTurn   = &Error{Kind: KindConflict, Code: "not_your_turn"}
	ErrWrongPhase    = &Error{Kind: KindConflict, Code: "wrong_phase"}
	ErrSeatTaken     = &Error{Kind: KindConflict, Code: "seat_taken"}
	ErrTableFull     = &Error{Kind: KindConflict, Code: "table_full"}
	ErrAlreadySeated = &Error{Kind: KindConflict, Code: "already_seated"}
	ErrTableClosed   = &Error{Kind: KindConflict, Code: "table_closed"}
	ErrNotSeated     = &Error{Kind: KindForbidden, Code: "not_seated"}
	ErrSeatReserved  = &Error{Kind: KindForbidden, Code: "seat_reserved"}
	// ErrRoomCodeRequired: a private table is joined with its room code.
	ErrRoomCodeRequired = &Error{Kind: KindForbidden, Code: "room_code_required"}
	ErrNoSuchSeat       = &Error{Kind: KindInvalid, Code: "no_such_seat"}
	ErrUnknownAction    = &Error{Kind: KindInvalid, Code: "unknown_action"}
	ErrBadAction        = &Error{Kind: KindInvalid, Code: "invalid_action"}
	ErrCardNotInHand    = &Error{Kind: KindRule, Code: "card_not_in_hand"}
	ErrInvalidCombo     = &Error{Kind: KindRule, Code: "invalid_combination"}
	ErrDoesNotBeat      = &Error{Kind: KindRule, Code: "does_not_beat"}
	ErrCannotPass       = &Error{Kind: KindRule, Code: "cannot_pass"}
	ErrBidTooLow        = &Error{Kind: KindRule, Code: "bid_too_low"}
	ErrUnknownGame      = &Error{Kind: KindInvalid, Code: "unknown_game"}
	ErrUnknownVariant   = &Error{Kind: KindInvalid, Code: "unknown_variant"}
	ErrBadOption        = &Error{Kind: KindInvalid, Code: "invalid_option"}
	// ErrNotBetweenHands: continue posted while the table waits for no
	// seat to be ready (a hand is running, or the table deals at once).
	ErrNotBetweenHands = &Error{Kind: KindConflict, Code: "not_between_hands"}
	// ErrAlreadyReady: continue posted by a seat that is ready already.
	ErrAlreadyReady = &Error{Kind: KindConflict, Code: "already_ready"}
)

// With returns a copy of a sentinel with a specific message.
func (e *Error) With(format string, args ...any) *Error {
	return &Error{Kind: e.Kind, Code: e.Code, Msg: fmt.Sprintf(format, args...)}
}
