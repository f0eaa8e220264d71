package niuniu

import (
	"bytes"
	"encoding/json"
	"fmt"

	"paiju/domain/table"
)

// Game is 牛牛 in the game registry.
type Game struct{}

// New returns the game; the registry in package games lists it explicitly.
func New() *Game { return &Game{} }

var (
	_ table.Game  = (*Game)(nil)
	_ table.Rules = (*Rules)(nil)
)

// Name is the game's API name.
func (*Game) Name() string { return "niuniu" }

// Variants lists the variants this version plays.
func (*Game) Variants() []string { return []string{"classic"} }

// Table option bounds (niuniu.md: 2–4 players).
const (
	minSeats     = 2
	maxSeats     = 4
	defaultSeats = 4
)

// Options are the table options of classic; see doc.go.
type Options struct {
	// Seats is the number of seats, 2..4 (default 4).
	Seats int `json:"seats"`
	// Banker is the banker's seat (庄位), fixed for the table (default 0).
	Banker int `json:"banker"`
}

// Rules returns a variant's rules. Options are a JSON object with the
// optional integer keys "seats" and "banker"; any other key is rejected.
func (*Game) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	if variant != "classic" {
		return nil, table.ErrUnknownVariant.With("niuniu has no variant %q (variants: classic)", variant)
	}
	o, err := parseOptions(options)
	if err != nil {
		return nil, err
	}
	return &Rules{version: "niuniu/classic/1", opts: o}, nil
}

func parseOptions(raw json.RawMessage) (Options, error) {
	o := Options{Seats: defaultSeats}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return o, nil
	}
	var in struct {
		Seats  *int `json:"seats"`
		Banker *int `json:"banker"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return o, table.ErrBadOption.With("niuniu/classic options are a JSON object with the integer keys seats (2..4) and banker (a seat): %v", err)
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
	return o, nil
}

// Rules are the rules of classic with a table's options; see doc.go.
type Rules struct {
	version string
	opts    Options
}

// Version names the rules engine version recorded in TableOpened.
func (r *Rules) Version() string { return r.version }

// Options is the normalized options, both keys filled in.
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
func (r *Rules) NewState() table.GameState { return &State{seats: r.opts.Seats, banker: r.opts.Banker} }

// Decode decodes the game's own events.
func (r *Rules) Decode(typ string, data []byte) (table.Payload, error) { return decode(typ, data) }

func (r *Rules) state(gs table.GameState) (*State, error) {
	s, ok := gs.(*State)
	if !ok || s == nil {
		return nil, fmt.Errorf("niuniu: game state is %T, not *niuniu.State", gs)
	}
	return s, nil
}
