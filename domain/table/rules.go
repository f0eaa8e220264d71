package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"paiju/domain/cards"
)

// Game is one game family in the registry: it turns a variant name and table
// options into that variant's Rules.
type Game interface {
	// Name is the game's API name ("doudizhu").
	Name() string
	// Variants lists the variant names the game accepts.
	Variants() []string
	// Rules returns the rules of a variant with the given options (a JSON object,
	// or empty for the defaults). Unknown variants and bad options are *Error of
	// KindInvalid (ErrUnknownVariant, ErrBadOption).
	Rules(variant string, options json.RawMessage) (Rules, error)
}

// Rules is one variant's rules as a decider. Every method is pure: no clock,
// no global randomness, no I/O. Decide and Legal never modify the state they
// are given; Evolve may modify it in place and return it. A game does not
// implement Rules itself: it implements Decider over its own state type and
// hands out Adapt's Rules.
type Rules interface {
	// Version names the rules engine version; it is recorded in TableOpened and
	// a table is always replayed with the rules it was opened under.
	Version() string
	// Options is the normalized options (defaults filled in), recorded in
	// TableOpened.
	Options() json.RawMessage
	// Seats is the number of players a hand needs.
	Seats() int
	// NewState is the game state of a table that has dealt nothing yet.
	NewState() GameState
	// Decode decodes the game's own event types; unknown types are an error.
	Decode(typ string, data []byte) (Payload, error)
	// Deal starts the next deal from seed: a HandDealt, then a DealSecret with
	// the seed (so that the event ending the deal can reveal it), then any game
	// events that go with them. It is called when every seat is filled and the state
	// NeedsDeal. d numbers the hand and the deal.
	Deal(s GameState, d DealNumber, seed cards.Seed) ([]Payload, error)
	// Decide validates an action of seat and returns the events it causes, or an
	// *Error. The generic action "escape" during a hand reaches Decide too; the
	// game answers with PlayerEscaped and its escape HandSettled.
	Decide(s GameState, seat int, a Action) ([]Payload, error)
	// Evolve applies an event, the common ones included. It never fails on a
	// stream Decide produced.
	Evolve(s GameState, p Payload) GameState
	// View is what seat may see of the state (Spectator and Auditor included).
	View(s GameState, seat int) View
	// Legal lists every action seat may take now, each postable as it is
	// (escape excluded: the table adds it). Nil when seat may not act.
	Legal(s GameState, seat int) []Action
	// Redact returns p as seat may see it, or nil when seat may not see it at
	// all. handOver reports that the deal p belongs to has ended (settled or
	// voided), when hidden cards may be shown. DealSecret is redacted by the
	// table and never reaches Redact; a running deal's HandDealt reaches it
	// after the table's redaction (the seat's own cards only), so that a game
	// may hide more, never less.
	Redact(p Payload, seat int, handOver bool) Payload
	// Command names the action (and its seat) whose batch of events begins
	// with p, so that an auditor can re-decide a stored stream action by
	// action; ok is false for events that only follow others in a batch.
	Command(p Payload) (seat int, a Action, ok bool)
}

// Catalog names what a game adds to the API, so that the published
// contract (openapi.yaml) can be checked to describe all of it. Every game
// implements it.
type Catalog interface {
	// EventTypes lists the game's own event types, sorted (the shared ones
	// are CommonEventTypes).
	EventTypes() []string
	// ActionTypes lists every action type any variant of the game takes,
	// sorted (the table's own are TableActionTypes).
	ActionTypes() []string
}

// TableActionTypes lists the actions the table handles for every game.
func TableActionTypes() []string {
	return []string{ActionContinue, ActionDelegate, ActionEscape, ActionLeave, ActionResume}
}

// GameState is a game's own state of one table. The game owns its concrete type.
type GameState interface {
	// Clone returns a deep copy, so that the table can evolve a scratch copy.
	Clone() GameState
	// NeedsDeal reports that no deal is running and the game wants the next one
	// (false once a match is over).
	NeedsDeal() bool
}

// DealNumber identifies a deal: Hand counts from 1; Deal counts deals of the
// same hand from 1 (re-deals).
type DealNumber struct {
	Hand int
	Deal int
}

// Special viewers.
const (
	// Spectator is a caller with no seat at the table: public information only.
	Spectator = -1
	// Auditor sees everything, hidden cards and all.
	Auditor = -2
)

// Action is a command from a seat as posted to /actions. One struct serves
// every game; a game rejects fields its action type does not take.
type Action struct {
	Type  string       `json:"type"`
	Bid   *int         `json:"bid,omitempty"`
	Cards []cards.Card `json:"cards,omitempty"`
	// As names the reading of an ambiguous play (e.g. "airplane_pairs").
	As string `json:"as,omitempty"`
	// At is when the command was decided, stamped by the service from its
	// clock and never read from a client; zero when unknown. A game whose
	// rules depend on it records it in the event the action causes, so that
	// Command gives it back on replay.
	At time.Time `json:"-"`
}

// TypeOnly reports whether a carries nothing besides its type: the shape of
// every action that takes no fields (pass, escape, leave, …).
func (a Action) TypeOnly() bool { return a.Bid == nil && len(a.Cards) == 0 && a.As == "" }

// Generic action types handled by the table itself.
const (
	ActionEscape = "escape" // leave a running hand (逃跑), with the game's penalty
	ActionLeave  = "leave"  // leave the table between hands
	// ActionContinue: ready for the next deal, at a table that waits
	// between hands (TableOpened.WaitBetweenHands).
	ActionContinue = "continue"
)

// View is what one seat sees of a game.
type View struct {
	Phase string       `json:"phase"`
	Turn  *int         `json:"turn"`
	Hand  []cards.Card `json:"hand"`
	// Game is the game's public details (bids, last play, counts, kitty once
	// shown, multiplier…), a JSON-encodable value.
	Game any `json:"game"`
}

// Seat returns a pointer to s, for View.Turn.
func Seat(s int) *int { return &s }

// Registry maps game names to games. main builds it explicitly (no init-time
// registration): adding a game is one package and one line in package games.
type Registry map[string]Game

// ErrRulesVersion: a table was opened under a rules version this server
// cannot replay.
var ErrRulesVersion = errors.New("rules version not replayable")

// TournamentOptions is a Game with options that only a tournament's tables
// take (升级 "duplicate": shengji.md, qiangbao and README, Tournaments). Its
// Rules accept them, so that those tables open and replay, but an ordinary
// table asking for one is refused (CheckOrdinaryOptions).
type TournamentOptions interface {
	TournamentOnly() []string
}

// CheckOrdinaryOptions refuses, with ErrBadOption naming the key, options of
// an ordinary table (not a tournament's) that hold a key g keeps for
// tournament tables. Options that are no JSON object are left to the rules.
func CheckOrdinaryOptions(g Game, options json.RawMessage) error {
	t, ok := g.(TournamentOptions)
	if !ok {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(options, &m) != nil {
		return nil
	}
	for _, k := range t.TournamentOnly() {
		if _, ok := m[k]; ok {
			return BadOption(k, "option %q is only for the tables of a duplicate tournament, never an ordinary table's", k)
		}
	}
	return nil
}

// Versioned is a Game that still replays tables opened under its older
// rules versions. A rules change that would decide any recorded stream
// differently bumps the game's Version and keeps the old rules here, so
// that every table goes on replaying (and verifying) under the rules it was
// opened with, while new tables open under the new ones (docs/OPERATIONS.md,
// Rules versions).
type Versioned interface {
	// RulesAt returns variant's rules as they were at version, with
	// options as recorded then; an error wrapping ErrRulesVersion when the
	// game keeps no such version.
	RulesAt(version, variant string, options json.RawMessage) (Rules, error)
}

// Rules returns the rules a table was opened under: its game's variant with
// its options, at the rules version recorded in o. A version other than the
// current one comes from the game's Versioned.RulesAt; a game that keeps
// none refuses the table with ErrRulesVersion.
func (reg Registry) Rules(o TableOpened) (Rules, error) {
	g, ok := reg[o.Game]
	if !ok {
		return nil, fmt.Errorf("game %q is not in this server's registry", o.Game)
	}
	r, err := g.Rules(o.Variant, o.Options)
	if err != nil {
		return nil, fmt.Errorf("rules of %s/%s: %w", o.Game, o.Variant, err)
	}
	if r.Version() == o.RulesVersion {
		return r, nil
	}
	v, ok := g.(Versioned)
	if !ok {
		return nil, fmt.Errorf("%w: table was played under rules %s, this server has %s and keeps no older rules of %s", ErrRulesVersion, o.RulesVersion, r.Version(), o.Game)
	}
	old, err := v.RulesAt(o.RulesVersion, o.Variant, o.Options)
	if err != nil {
		return nil, fmt.Errorf("rules %s of %s/%s: %w", o.RulesVersion, o.Game, o.Variant, err)
	}
	if old.Version() != o.RulesVersion {
		return nil, fmt.Errorf("%w: %s asked for rules %s gave %s", ErrRulesVersion, o.Game, o.RulesVersion, old.Version())
	}
	return old, nil
}
