package shuangkou

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"paiju/domain/table"
)

// Game is 百变双扣 in the game registry.
type Game struct{}

// New returns the game; the registry in package games lists it explicitly.
func New() *Game { return &Game{} }

var (
	_ table.Game            = (*Game)(nil)
	_ table.Catalog         = (*Game)(nil)
	_ table.Decider[*State] = (*Rules)(nil)
)

// Name is the game's API name.
func (*Game) Name() string { return "shuangkou" }

// EventTypes lists the game's own event types (table.Catalog).
func (*Game) EventTypes() []string { return events.Names() }

// ActionTypes lists the action types of every variant (table.Catalog).
func (*Game) ActionTypes() []string {
	return []string{ActionPass, ActionPlay}
}

// Variants lists the variants: baibian (jokers wild) and classic (no wilds).
func (*Game) Variants() []string { return []string{"baibian", "classic"} }

// Rules returns a variant's rules. Neither variant takes options: the options
// must be empty, null or {}; any key is rejected by name.
func (*Game) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	v, ok := variantNamed(variant)
	if !ok {
		return nil, table.ErrUnknownVariant.With("shuangkou has no variant %q (variants: baibian, classic)", variant)
	}
	if err := checkOptions(v, options); err != nil {
		return nil, err
	}
	return table.Adapt[*State](&Rules{v: v}), nil
}

// variant is what one variant fixes. Both play four seats in partnerships
// with two decks of 27 cards each (shuangkou.md); they differ only in wild.
type variant struct {
	name    string
	version string
	wild    bool // jokers stand for any rank 3 … 2 inside a combination (百搭)
}

const (
	seats    = 4
	decks    = 2
	handSize = decks * 54 / seats // 27, no kitty

	// shuangkou.md, Result: base stakes won by each player of the winning side.
	winShuangkou = 3 // 双扣: the side finished 1st and 2nd
	winDankou    = 2 // 单扣: 1st and 3rd
	winPingkou   = 1 // 1st and 4th: the side of the 1st
	// shuangkou.md, Escape (Decision): the escaper pays for the whole side.
	escapeEach = winShuangkou
)

func variantNamed(name string) (*variant, bool) {
	switch name {
	case "baibian":
		return &variant{name: "baibian", version: "shuangkou/baibian/1", wild: true}, true
	case "classic":
		return &variant{name: "classic", version: "shuangkou/classic/1"}, true
	}
	return nil, false
}

func checkOptions(v *variant, raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return table.ErrBadOption.With("shuangkou/%s options must be a JSON object: %v", v.name, err)
	}
	if len(m) > 0 {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return table.ErrBadOption.With("unknown option %q: shuangkou/%s takes no options (got %s)", keys[0], v.name, strings.Join(keys, ", "))
	}
	return nil
}

// Rules are one variant's rules; see doc.go.
type Rules struct {
	v *variant
}

// Version names the rules engine version recorded in TableOpened.
func (r *Rules) Version() string { return r.v.version }

// Options is the normalized options: {}.
func (r *Rules) Options() json.RawMessage { return json.RawMessage(`{}`) }

// Seats is the number of players: four.
func (r *Rules) Seats() int { return seats }

// NewState is the state of a table that has dealt nothing.
func (r *Rules) NewState() *State { return newState(r.v) }

// Decode decodes the game's own events.
func (r *Rules) Decode(typ string, data []byte) (table.Payload, error) {
	return events.Decode(typ, data)
}

// Redact shows every game event to everyone: plays are public, and the only
// hidden cards are in HandDealt and the seed in DealSecret, which the table
// redacts.
func (r *Rules) Redact(p table.Payload, seat int, handOver bool) table.Payload { return p }
