package dadun

import (
	"encoding/json"
	"fmt"

	"paiju/domain/table"
)

// Game is 乐安打盾 in the game registry.
type Game struct{}

// New returns the game; the registry in package games lists it explicitly.
func New() *Game { return &Game{} }

var (
	_ table.Game            = (*Game)(nil)
	_ table.Catalog         = (*Game)(nil)
	_ table.Decider[*State] = (*Rules)(nil)
	// Tables opened under an older rules version replay under it.
	_ table.Versioned = (*Game)(nil)
	// The lobby and the view show the options with defaults filled in.
	_ table.OptionsShown = (*Rules)(nil)
)

// Name is the game's API name.
func (*Game) Name() string { return "dadun" }

// EventTypes lists the game's own event types (table.Catalog).
func (*Game) EventTypes() []string { return events.Names() }

// ActionTypes lists the action types of every variant (table.Catalog).
func (*Game) ActionTypes() []string {
	return []string{ActionAlone, ActionCall, ActionPass, ActionPlay}
}

// Variants lists the variants: lean (乐安).
func (*Game) Variants() []string { return []string{variantLean} }

const (
	variantLean = "lean"
	// version is the rules version new tables open under; doc.go, Rules
	// versions, lists what each changed.
	version = "dadun/lean/2"

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

// Rules returns the rules of variant lean under the table options of
// dadun.md, Table options (see options.go); a bad option is refused with a
// table.BadOption naming its key.
func (*Game) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	if variant != variantLean {
		return nil, table.ErrUnknownVariant.With("dadun has no variant %q (variants: lean)", variant)
	}
	return rulesOf(current(), options)
}

// RulesAt returns the rules of lean as they were at version, for a table
// opened under it (docs/OPERATIONS.md, Rules versions): the current version,
// or dadun/lean/1 (doc.go, Rules versions), under the options the table
// recorded. Any other version is refused with an error wrapping
// table.ErrRulesVersion.
func (*Game) RulesAt(at, variant string, options json.RawMessage) (table.Rules, error) {
	v, ok := variantAt(at)
	if !ok {
		return nil, fmt.Errorf("%w: dadun keeps no rules %s", table.ErrRulesVersion, at)
	}
	if variant != variantLean {
		return nil, table.ErrUnknownVariant.With("dadun has no variant %q (variants: lean)", variant)
	}
	return rulesOf(v, options)
}

// rulesOf is the rules of version v under options.
func rulesOf(v variant, options json.RawMessage) (table.Rules, error) {
	o, err := readOptions(options)
	if err != nil {
		return nil, err
	}
	v.opts = o
	return table.Adapt[*State](&Rules{v: v}), nil
}

// variant is what a rules version of lean fixes: the current rules, or an
// older version's behaviour switched back on for the tables opened under it
// (never a copy of the code). Each flag is set by /1 alone.
type variant struct {
	version string
	// unstackedAwards: a bomb's colour award (四红 or 四黑) is 1 at most and
	// only for 4 to 6 cards. /2 stacks the awards (dadun.md, 盾 awards,
	// revised Decision): 1 for each 四红 and each 四黑, on every bomb.
	unstackedAwards bool
	// sameKickersToFollow: a trio or trio run follows only one with as many
	// kickers. /2 lets last cards short of kickers follow a full one
	// (dadun.md, Rulings: 最后一手牌只剩下三张牌的话，可以不带).
	sameKickersToFollow bool
	// soloPlaysOn: 打独 ends when the soloist is out or all three opponents
	// are. /2 ends it when anyone is out (dadun.md, Rulings: 打独的玩家必须是
	// 头游，不然就算失败).
	soloPlaysOn bool
	// opts are the table's options (dadun.md, Table options), which every
	// version reads; the zero value is the defaults.
	opts options
}

// current is the variant new tables open under.
func current() variant { return variant{version: version} }

// variantAt is the variant as rules version at played it.
func variantAt(at string) (variant, bool) {
	switch at {
	case version:
		return current(), true
	case "dadun/lean/1":
		return variant{version: at, unstackedAwards: true, sameKickersToFollow: true, soloPlaysOn: true}, true
	}
	return variant{}, false
}

// Rules are the rules of 乐安打盾; see doc.go.
type Rules struct {
	v variant
}

// Version names the rules engine version recorded in TableOpened.
func (r *Rules) Version() string { return r.v.version }

// Options is the normalized options, as TableOpened records them: the keys
// not at their defaults ({} for a table of defaults, as before options).
func (r *Rules) Options() json.RawMessage { return table.OptionsJSON(r.v.opts.recorded()) }

// ShownOptions is every option with its default filled in, for the lobby
// and the table view (table.OptionsShown).
func (r *Rules) ShownOptions() json.RawMessage { return table.OptionsJSON(r.v.opts.shown()) }

// Seats is the number of players: four.
func (r *Rules) Seats() int { return seats }

// NewState is the state of a table that has dealt nothing.
func (r *Rules) NewState() *State { return newStateOf(r.v) }

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
