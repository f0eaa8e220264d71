package shuangkou

import (
	"encoding/json"

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
	_ table.OptionsShown    = (*Rules)(nil)
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

// Rules returns a variant's rules under the table's options
// (shuangkou.md, Table options; doc.go, Options). A bad option is a
// table.BadOption naming its key.
func (*Game) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	v, ok := variantNamed(variant)
	if !ok {
		return nil, table.ErrUnknownVariant.With("shuangkou has no variant %q (variants: baibian, classic)", variant)
	}
	if err := v.readOptions(options); err != nil {
		return nil, err
	}
	return table.Adapt[*State](&Rules{v: v}), nil
}

// variant is what one variant fixes, and the table's options read into it.
// Both variants play four seats in partnerships with two decks of 27 cards
// each (shuangkou.md); they differ only in which jokers are wild, which the
// option "wild" may change too.
type variant struct {
	name    string
	version string
	// wildDefault is the variant's own wild (baibian all, classic none);
	// wild is the table's, from the option "wild".
	wildDefault, wild Wild

	// The house rules (shuangkou.md, Table options); each zero value is
	// the behaviour before the option existed.
	matchHands int  // "hands": the match's hands, decided by sides; 0 endless
	bombBonus  bool // "bomb_bonus": 相 doubles a played-out result from 5相
	cap        int  // "cap": a seat's win or loss in a played-out hand at most cap × stake; 0 none
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

	// Bounds of the integer options (shuangkou.md, Table options).
	maxMatchHands = 1_000_000
	minCap        = 3 // below 3 the cap would cut every 双扣
	maxCap        = 1_000_000
)

func variantNamed(name string) (*variant, bool) {
	switch name {
	case "baibian":
		return &variant{name: "baibian", version: "shuangkou/baibian/1", wildDefault: WildAll, wild: WildAll}, true
	case "classic":
		return &variant{name: "classic", version: "shuangkou/classic/1", wildDefault: WildNone, wild: WildNone}, true
	}
	return nil, false
}

// readOptions reads the table's options into v: "hands", "wild",
// "bomb_bonus" and "cap", each optional (shuangkou.md, Table options).
func (v *variant) readOptions(raw json.RawMessage) error {
	o := table.ReadOptions("shuangkou/"+v.name, raw)
	o.Int("hands", 1, maxMatchHands, &v.matchHands)
	w := string(v.wild)
	if o.Enum("wild", &w, string(WildAll), string(WildBig), string(WildNone)) {
		v.wild = Wild(w)
	}
	o.Bool("bomb_bonus", &v.bombBonus)
	o.Int("cap", minCap, maxCap, &v.cap)
	return o.Done()
}

// options is the options as JSON: every key for ShownOptions, the keys
// away from their defaults for Options.
type options struct {
	BombBonus *bool  `json:"bomb_bonus,omitempty"`
	Cap       int    `json:"cap,omitempty"`
	Hands     int    `json:"hands,omitempty"`
	Wild      string `json:"wild,omitempty"`
}

func (v *variant) options(shown bool) options {
	o := options{Cap: v.cap, Hands: v.matchHands}
	if shown || v.bombBonus {
		o.BombBonus = &v.bombBonus
	}
	if shown || v.wild != v.wildDefault {
		o.Wild = string(v.wild)
	}
	return o
}

// Rules are one variant's rules; see doc.go.
type Rules struct {
	v *variant
}

// Version names the rules engine version recorded in TableOpened.
func (r *Rules) Version() string { return r.v.version }

// Options is the normalized options, as TableOpened records them: only the
// keys away from their defaults, so that a table without options records
// {} as before the options existed (rules README, Table options).
func (r *Rules) Options() json.RawMessage { return table.OptionsJSON(r.v.options(false)) }

// ShownOptions is every option with a value, defaults filled in, for the
// lobby and the table view; "hands" and "cap" are shown only when set.
func (r *Rules) ShownOptions() json.RawMessage { return table.OptionsJSON(r.v.options(true)) }

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
