package doudizhu

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Game is 斗地主 in the game registry.
type Game struct{}

// New returns the game; main.go registers it explicitly.
func New() *Game { return &Game{} }

var (
	_ table.Game  = (*Game)(nil)
	_ table.Rules = (*Rules)(nil)
)

// Name is the game's API name.
func (*Game) Name() string { return "doudizhu" }

// Variants lists the variants this version plays.
func (*Game) Variants() []string { return []string{"classic"} }

// Rules returns a variant's rules. classic takes no options: the options must
// be empty, null or {}; any key is rejected by name.
func (*Game) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	v, ok := variantNamed(variant)
	if !ok {
		return nil, table.ErrUnknownVariant.With("doudizhu has no variant %q (variants: classic)", variant)
	}
	if err := checkOptions(v, options); err != nil {
		return nil, err
	}
	return &Rules{v: v}, nil
}

// variant is what one variant of the family fixes. The later variants of
// doudizhu.md differ from classic in these values (hubei: grab bidding,
// multipliers; fourplayer: two decks, four seats, an 8-card kitty), so that
// adding them is a new config plus the code its new fields switch on.
type variant struct {
	name    string
	version string
	decks   int
	seats   int
	kitty   int // cards left over after dealing, which go to the landlord
	maxBid  int // 叫分 bids are 1..maxBid; maxBid ends the bidding at once
	// escape penalties in units of stake × current multiplier (doudizhu.md, Escape).
	escapeLandlord int
	escapeFarmer   int
	// matchHands is the number of hands of a match (002's tournament plays 5);
	// 0 plays hands without end.
	matchHands int
}

func (v *variant) handSize() int { return (v.decks*cards.DeckSize - v.kitty) / v.seats }

func variantNamed(name string) (*variant, bool) {
	switch name {
	case "classic":
		return &variant{
			name: "classic", version: "doudizhu/classic/1",
			decks: 1, seats: 3, kitty: 3, maxBid: 3,
			escapeLandlord: 16, escapeFarmer: 8,
		}, true
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
		return table.ErrBadOption.With("doudizhu/%s options must be a JSON object: %v", v.name, err)
	}
	if len(m) > 0 {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return table.ErrBadOption.With("unknown option %q: doudizhu/%s takes no options (got %s)", keys[0], v.name, strings.Join(keys, ", "))
	}
	return nil
}

// Rules are one variant's rules; see doc.go.
type Rules struct {
	v *variant
}

// Version names the rules engine version recorded in TableOpened.
func (r *Rules) Version() string { return r.v.version }

// Options is the normalized options: {} for classic.
func (r *Rules) Options() json.RawMessage { return json.RawMessage(`{}`) }

// Seats is the number of players.
func (r *Rules) Seats() int { return r.v.seats }

// NewState is the state of a table that has dealt nothing.
func (r *Rules) NewState() table.GameState { return newState(r.v) }

// Decode decodes the game's own events.
func (r *Rules) Decode(typ string, data []byte) (table.Payload, error) { return decode(typ, data) }

// Redact shows every game event of 斗地主 to everyone: the game's only
// hidden cards are in HandDealt and its seed in DealSecret, both of which the
// table redacts.
func (r *Rules) Redact(p table.Payload, seat int, handOver bool) table.Payload {
	return p
}
