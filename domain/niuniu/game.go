package niuniu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"paiju/domain/table"
)

// Game is 牛牛 in the game registry.
type Game struct{}

// New returns the game; the registry in package games lists it explicitly.
func New() *Game { return &Game{} }

var (
	_ table.Game            = (*Game)(nil)
	_ table.Catalog         = (*Game)(nil)
	_ table.Decider[*State] = (*Rules)(nil)
	// The reveal becomes legal once the deadline has passed.
	_ table.TimedDecider[*State] = (*Rules)(nil)
	// Tables opened under an older rules version replay under it.
	_ table.Versioned = (*Game)(nil)
)

// Name is the game's API name.
func (*Game) Name() string { return "niuniu" }

// EventTypes lists the game's own event types (table.Catalog).
func (*Game) EventTypes() []string { return events.Names() }

// ActionTypes lists the action types of every variant (table.Catalog).
func (*Game) ActionTypes() []string {
	return []string{ActionArrange, ActionNoBull, ActionReveal}
}

// Variants lists the variants this version plays.
func (*Game) Variants() []string { return []string{"classic"} }

// Table option bounds (niuniu.md: 2–4 players).
const (
	minSeats     = 2
	maxSeats     = 4
	defaultSeats = 4
	// maxArrangeSeconds bounds the deadline at an hour: a longer one is a
	// table that never ends.
	maxArrangeSeconds = 3600
)

// Options are the table options of classic; see doc.go.
type Options struct {
	// Seats is the number of seats, 2..4 (default 4).
	Seats int `json:"seats"`
	// Banker is the banker's seat (庄位), fixed for the table (default 0).
	Banker int `json:"banker"`
	// ArrangeSeconds is the table's deadline: how long after the deal the
	// seats have to arrange before any seat may call the reveal (niuniu.md,
	// Arranging: "or when the table's clock runs out"). 0, the default, sets
	// no deadline: the hand waits for every seat (or an escape). Omitted when
	// 0, so tables opened before the option existed record the same options.
	ArrangeSeconds int `json:"arrange_seconds,omitempty"`
}

// Rules returns a variant's rules. Options are a JSON object with the
// optional integer keys "seats", "banker" and "arrange_seconds"; any other
// key is rejected.
func (*Game) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	return rulesOf(&Rules{version: currentVersion}, variant, options)
}

// currentVersion is the rules version new tables open under; doc.go, Rules
// versions, lists what each changed.
const currentVersion = "niuniu/classic/2"

// RulesAt returns the rules of classic as they were at version, for a table
// opened under it (docs/OPERATIONS.md, Rules versions): the current version,
// or niuniu/classic/1, whose escape cancels the other bouts. Any other
// version is refused with an error wrapping table.ErrRulesVersion.
func (*Game) RulesAt(version, variant string, options json.RawMessage) (table.Rules, error) {
	r := &Rules{version: version}
	switch version {
	case currentVersion:
	case "niuniu/classic/1":
		r.escapeCancelsBouts = true
	default:
		return nil, fmt.Errorf("%w: niuniu keeps no rules %s", table.ErrRulesVersion, version)
	}
	return rulesOf(r, variant, options)
}

// rulesOf completes r with the table's options.
func rulesOf(r *Rules, variant string, options json.RawMessage) (table.Rules, error) {
	if variant != "classic" {
		return nil, table.ErrUnknownVariant.With("niuniu has no variant %q (variants: classic)", variant)
	}
	o, err := parseOptions(options)
	if err != nil {
		return nil, err
	}
	r.opts = o
	return table.Adapt[*State](r), nil
}

func parseOptions(raw json.RawMessage) (Options, error) {
	o := Options{Seats: defaultSeats}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return o, nil
	}
	var in struct {
		Seats          *int `json:"seats"`
		Banker         *int `json:"banker"`
		ArrangeSeconds *int `json:"arrange_seconds"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return o, table.ErrBadOption.With("niuniu/classic options are a JSON object with the integer keys seats (2..4), banker (a seat) and arrange_seconds (0..3600): %v", err)
	}
	if dec.More() {
		return o, table.ErrBadOption.With("niuniu/classic options must be one JSON object")
	}
	if in.Seats != nil {
		o.Seats = *in.Seats
	}
	if o.Seats < minSeats || o.Seats > maxSeats {
		return o, table.ErrBadOption.With("seats must be %d..%d (niuniu.md: 2–4 players), got %d", minSeats, maxSeats, o.Seats)
	}
	if in.Banker != nil {
		o.Banker = *in.Banker
	}
	if o.Banker < 0 || o.Banker >= o.Seats {
		return o, table.ErrBadOption.With("banker must be a seat of the table, 0..%d, got %d", o.Seats-1, o.Banker)
	}
	if in.ArrangeSeconds != nil {
		o.ArrangeSeconds = *in.ArrangeSeconds
	}
	if o.ArrangeSeconds < 0 || o.ArrangeSeconds > maxArrangeSeconds {
		return o, table.ErrBadOption.With("arrange_seconds must be 0 (no deadline) .. %d, got %d", maxArrangeSeconds, o.ArrangeSeconds)
	}
	return o, nil
}

// Rules are the rules of classic with a table's options; see doc.go.
type Rules struct {
	version string
	opts    Options
	// escapeCancelsBouts keeps rules /1 (niuniu/classic/1): a player's
	// escape ends the hand at once and the other players' bouts are not
	// played. The revised Decision (niuniu.md, Escape; /2) forfeits the
	// escaper's bout alone and plays the others on.
	escapeCancelsBouts bool
}

// Version names the rules engine version recorded in TableOpened.
func (r *Rules) Version() string { return r.version }

// Options is the normalized options: seats and banker filled in,
// arrange_seconds when a deadline is set.
func (r *Rules) Options() json.RawMessage {
	b, err := json.Marshal(r.opts)
	if err != nil {
		panic(fmt.Sprintf("niuniu: encode options: %v", err)) // two ints always encode
	}
	return b
}

// Seats is the number of players.
func (r *Rules) Seats() int { return r.opts.Seats }

// Banker is the banker's seat.
func (r *Rules) Banker() int { return r.opts.Banker }

// NewState is the state of a table that has dealt nothing.
func (r *Rules) NewState() *State {
	return &State{seats: r.opts.Seats, banker: r.opts.Banker, arrangeFor: time.Duration(r.opts.ArrangeSeconds) * time.Second, escapeCancelsBouts: r.escapeCancelsBouts}
}

// Decode decodes the game's own events.
func (r *Rules) Decode(typ string, data []byte) (table.Payload, error) {
	return events.Decode(typ, data)
}
