package dadun

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"paiju/domain/table"
)

// Game is 乐安打盾 in the game registry.
type Game struct{}

// New returns the game; the registry in package games lists it explicitly.
func New() *Game { return &Game{} }

var (
	_ table.Game            = (*Game)(nil)
	_ table.Decider[*State] = (*Rules)(nil)
)

// Name is the game's API name.
func (*Game) Name() string { return "dadun" }

// Variants lists the variants: lean (乐安).
func (*Game) Variants() []string { return []string{variantLean} }

const (
	variantLean = "lean"
	version     = "dadun/lean/1"

	seats     = 4
	decks     = 2
	deckCards = decks * 54        // 108
	handSize  = deckCards / seats // 27, no kitty
	allPoints = decks * 100       // dadun.md, Points: two decks hold 200

	// dadun.md, Points and result: base stakes won or lost.
	winShuangying = 3 // 双赢: one side out 1st and 2nd
	winAll        = 3 // one side took all 200 points
	winPoints     = 2 // more than 100, or 100 each and the 头游's side
	winAlone      = 4 // 打独, against each of the three
	// dadun.md, Escape (Decision): the escaper pays 16 × base.
	escapePenalty = 16
)

// Rules returns the rules of variant lean. It takes no options: the options
// must be empty, null or {}; any key is rejected by name.
func (*Game) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	if variant != variantLean {
		return nil, table.ErrUnknownVariant.With("dadun has no variant %q (variants: lean)", variant)
	}
	if err := checkOptions(options); err != nil {
		return nil, err
	}
	return table.Adapt[*State](&Rules{}), nil
}

func checkOptions(raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return table.ErrBadOption.With("dadun/lean options must be a JSON object: %v", err)
	}
	if len(m) > 0 {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return table.ErrBadOption.With("unknown option %q: dadun/lean takes no options (got %s)", keys[0], strings.Join(keys, ", "))
	}
	return nil
}

// Rules are the rules of 乐安打盾; see doc.go.
type Rules struct{}

// Version names the rules engine version recorded in TableOpened.
func (r *Rules) Version() string { return version }

// Options is the normalized options: {}.
func (r *Rules) Options() json.RawMessage { return json.RawMessage(`{}`) }

// Seats is the number of players: four.
func (r *Rules) Seats() int { return seats }

// NewState is the state of a table that has dealt nothing.
func (r *Rules) NewState() *State { return newState() }

// Decode decodes the game's own events.
func (r *Rules) Decode(typ string, data []byte) (table.Payload, error) {
	return events.Decode(typ, data)
}

// Redact shows every game event to everyone. The friend's seat is the one
// secret of a running deal besides the hands and the seed, and no game event
// names it before FriendRevealed, which follows the public play of the friend
// card that gives it away; the hands (HandDealt) and the seed (DealSecret)
// are redacted by the table.
func (r *Rules) Redact(p table.Payload, seat int, handOver bool) table.Payload { return p }
