package niuniu

import (
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
	// The lobby and the view show the options with defaults filled in.
	_ table.OptionsShown = (*Rules)(nil)
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
	Seats int
	// Banker is the banker's seat (庄位) of every hand under banker_mode
	// fixed, of hand 1 under rotate; unused under random (default 0).
	Banker int
	// ArrangeSeconds is the table's deadline: how long after the deal the
	// seats have to arrange before any seat may call the reveal (niuniu.md,
	// Arranging: "or when the table's clock runs out"). 0, the default, sets
	// no deadline: the hand waits for every seat (or an escape).
	ArrangeSeconds int
	// BankerMode is how each hand's banker is chosen (niuniu.md, Table
	// options, banker_mode): BankerFixed (default), BankerRotate or
	// BankerRandom.
	BankerMode string
	// Pay is the multiplier of each class when it wins (niuniu.md,
	// Settlement and Table options, multipliers and special_hands); 0 for a
	// special class the table does not play.
	Pay PayTable
	// NoJokers deals from 52 cards, BJ and RJ left out (option jokers
	// false).
	NoJokers bool
}

// The banker modes (option banker_mode).
const (
	BankerFixed  = "fixed"
	BankerRotate = "rotate"
	BankerRandom = "random"
)

// PayTable is the multiplier of each class, indexed by Bull.
type PayTable [FiveSmall + 1]int

// seedPay is the seed's table (niuniu.md, Settlement): 牛牛 ×5, 牛9 ×4,
// 牛8 ×3, 牛7 ×2, else ×1; no special class.
var seedPay = PayTable{1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 0, 0, 0}

// The option keys of the classes the table options price, in class order.
var (
	multiplierKeys = []Bull{7, 8, 9, BullBull}
	specialKeys    = []Bull{FiveFace, Bomb, FiveSmall}
)

// Bounds of the priced classes (niuniu.md, Table options).
const (
	minMultiplier = 1
	maxMultiplier = 20
	maxSpecial    = 50
)

// recordedOptions is the normalized options as TableOpened records them:
// seats always, banker unless drawn, every other key only when it is not
// its default, so that a table opened before the key existed records the
// same bytes (rules README, Table options: Default = today).
type recordedOptions struct {
	Seats          int            `json:"seats"`
	Banker         *int           `json:"banker,omitempty"`
	ArrangeSeconds int            `json:"arrange_seconds,omitempty"`
	BankerMode     string         `json:"banker_mode,omitempty"`
	Multipliers    map[string]int `json:"multipliers,omitempty"`
	SpecialHands   map[string]int `json:"special_hands,omitempty"`
	Jokers         *bool          `json:"jokers,omitempty"`
}

// shownOptions is every option with its default filled in, for the lobby
// and the table view; banker is left out when the seed draws it.
type shownOptions struct {
	Seats          int            `json:"seats"`
	Banker         *int           `json:"banker,omitempty"`
	ArrangeSeconds int            `json:"arrange_seconds"`
	BankerMode     string         `json:"banker_mode"`
	Multipliers    map[string]int `json:"multipliers"`
	SpecialHands   map[string]int `json:"special_hands"`
	Jokers         bool           `json:"jokers"`
}

// Rules returns a variant's rules. Options are a JSON object with the
// optional keys of doc.go, Table options; any other key is rejected.
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

// parseOptions reads the table options (doc.go, Table options); a refused
// value is a table.BadOption naming its key.
func parseOptions(raw json.RawMessage) (Options, error) {
	o := Options{Seats: defaultSeats, BankerMode: BankerFixed, Pay: seedPay}
	r := table.ReadOptions("niuniu/classic", raw)
	r.Int("seats", minSeats, maxSeats, &o.Seats)
	r.Enum("banker_mode", &o.BankerMode, BankerFixed, BankerRotate, BankerRandom)
	if o.BankerMode == BankerRandom {
		// niuniu.md, Table options, banker_mode: "banker with it is 422".
		if r.Has("banker") {
			r.Fail(table.BadOption("banker", "banker_mode random draws the banker of each hand: the option banker does not go with it"))
		}
	} else {
		r.Int("banker", 0, o.Seats-1, &o.Banker)
	}
	r.Int("arrange_seconds", 0, maxArrangeSeconds, &o.ArrangeSeconds)
	var mult, special map[string]int
	r.IntMap("multipliers", bullNames(multiplierKeys), minMultiplier, maxMultiplier, &mult)
	r.IntMap("special_hands", bullNames(specialKeys), minMultiplier, maxSpecial, &special)
	jokers := true
	r.Bool("jokers", &jokers)
	o.NoJokers = !jokers
	if err := r.Done(); err != nil {
		return o, err
	}
	return o, o.price(mult, special)
}

// price fills o.Pay from the multipliers and special_hands options and
// checks them (niuniu.md, Table options, Decisions): missing multipliers
// take the seed's value and the four must not decrease from 牛7 to 牛牛; a
// special class is worth at least 牛牛.
func (o *Options) price(mult, special map[string]int) error {
	prev := 0
	for _, b := range multiplierKeys {
		if m, ok := mult[b.String()]; ok {
			o.Pay[b] = m
		}
		if o.Pay[b] < prev {
			return table.BadOption("multipliers", "multipliers must not decrease from bull_7 to bull_bull (the seed's values fill the missing keys): %s is %d, below %d", b, o.Pay[b], prev)
		}
		prev = o.Pay[b]
	}
	for _, b := range specialKeys {
		m, ok := special[b.String()]
		if !ok {
			continue
		}
		if m < o.Pay[BullBull] {
			return table.BadOption("special_hands", "special_hands: %s is %d, below the bull_bull multiplier %d", b, m, o.Pay[BullBull])
		}
		o.Pay[b] = m
	}
	return nil
}

func bullNames(bs []Bull) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.String()
	}
	return out
}

// priced is the multipliers of the classes bs the table plays, by name,
// when one differs from the seed's; else nil (the default, left out of the
// recorded options).
func (o Options) priced(bs []Bull) map[string]int {
	m := map[string]int{}
	changed := false
	for _, b := range bs {
		if o.Pay[b] != 0 {
			m[b.String()] = o.Pay[b]
		}
		changed = changed || o.Pay[b] != seedPay[b]
	}
	if !changed {
		return nil
	}
	return m
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

// Options is the normalized options: seats, and banker unless drawn,
// filled in; every other key only when it is not its default.
func (r *Rules) Options() json.RawMessage {
	o := r.opts
	rec := recordedOptions{
		Seats: o.Seats, ArrangeSeconds: o.ArrangeSeconds,
		Multipliers: o.priced(multiplierKeys), SpecialHands: o.priced(specialKeys),
	}
	if o.BankerMode != BankerRandom {
		rec.Banker = &o.Banker
	}
	if o.BankerMode != BankerFixed {
		rec.BankerMode = o.BankerMode
	}
	if o.NoJokers {
		rec.Jokers = new(bool)
	}
	return table.OptionsJSON(rec)
}

// ShownOptions is every option with its default filled in
// (table.OptionsShown).
func (r *Rules) ShownOptions() json.RawMessage {
	o := r.opts
	sh := shownOptions{
		Seats: o.Seats, ArrangeSeconds: o.ArrangeSeconds, BankerMode: o.BankerMode,
		Multipliers: map[string]int{}, SpecialHands: map[string]int{}, Jokers: !o.NoJokers,
	}
	if o.BankerMode != BankerRandom {
		sh.Banker = &o.Banker
	}
	for _, b := range multiplierKeys {
		sh.Multipliers[b.String()] = o.Pay[b]
	}
	for _, b := range specialKeys {
		if o.Pay[b] != 0 {
			sh.SpecialHands[b.String()] = o.Pay[b]
		}
	}
	return table.OptionsJSON(sh)
}

// Seats is the number of players.
func (r *Rules) Seats() int { return r.opts.Seats }

// Banker is the banker's seat of hand 1 (of every hand under banker_mode
// fixed); 0 under random, where the seed draws it.
func (r *Rules) Banker() int { return r.opts.Banker }

// NewState is the state of a table that has dealt nothing.
func (r *Rules) NewState() *State {
	return &State{
		seats: r.opts.Seats, banker: r.opts.Banker, bankerMoves: r.opts.BankerMode != BankerFixed,
		pay:        r.opts.Pay,
		arrangeFor: time.Duration(r.opts.ArrangeSeconds) * time.Second, escapeCancelsBouts: r.escapeCancelsBouts,
	}
}

// Decode decodes the game's own events.
func (r *Rules) Decode(typ string, data []byte) (table.Payload, error) {
	return events.Decode(typ, data)
}
