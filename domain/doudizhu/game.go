package doudizhu

import (
	"encoding/json"
	"fmt"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Game is 斗地主 in the game registry.
type Game struct{}

// New returns the game; main.go registers it explicitly.
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
func (*Game) Name() string { return "doudizhu" }

// EventTypes lists the game's own event types (table.Catalog).
func (*Game) EventTypes() []string { return events.Names() }

// ActionTypes lists the action types of every variant (table.Catalog).
func (*Game) ActionTypes() []string {
	return []string{ActionBid, ActionDouble, ActionGrab, ActionOpen, ActionPass, ActionPlay}
}

// Variants lists the variants this version plays.
func (*Game) Variants() []string { return []string{"classic", "hubei", "fourplayer"} }

// Rules returns a variant's rules under a table's options (doc.go, Options):
// "hands" (a match of that many hands) and the house rules of doudizhu.md,
// Table options; empty, null or {} options play today's rules without end.
// Any other key, or a bad value, is invalid_option naming the key.
func (*Game) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	v, ok := variantNamed(variant)
	if !ok {
		return nil, table.ErrUnknownVariant.With("doudizhu has no variant %q (variants: classic, hubei, fourplayer)", variant)
	}
	if err := parseOptions(v, options); err != nil {
		return nil, err
	}
	return table.Adapt[*State](&Rules{v: v}), nil
}

// RulesAt returns a variant's rules as they were at version, for a table
// opened under it (docs/OPERATIONS.md, Rules versions): the current version,
// or an older one this package still plays (doc.go, Rules versions). Any
// other version is refused with an error wrapping table.ErrRulesVersion.
func (*Game) RulesAt(version, variant string, options json.RawMessage) (table.Rules, error) {
	v, ok := variantAt(version, variant)
	if !ok {
		return nil, fmt.Errorf("%w: doudizhu keeps no rules %s of variant %q", table.ErrRulesVersion, version, variant)
	}
	if err := parseOptions(v, options); err != nil {
		return nil, err
	}
	return table.Adapt[*State](&Rules{v: v}), nil
}

// variant is what one variant of the family fixes, as doudizhu.md has it.
type variant struct {
	name    string
	version string
	decks   int
	seats   int
	kitty   int // cards left over after dealing, which go to the landlord
	maxBid  int // 叫分 bids are 1..maxBid; maxBid ends the bidding at once
	// grab plays the hubei bidding and scoring (doudizhu.md, Bidding, hubei
	// and Scoring, hubei): the grab phase (抢地主), 明牌, and multipliers for
	// grabs, open play, bombs, rockets, spring and the landlord played once.
	grab bool
	// grabAfterPass keeps rules /1 of hubei and fourplayer: every seat but
	// the caller may grab, a seat that passed the call too. The revised
	// Decision (doudizhu.md, Bidding, hubei; /2) takes the grab from a seat
	// that passed (叫分不叫视放弃).
	grabAfterPass bool
	// timeoutBids keeps rules /1 of classic and /2 of hubei and fourplayer:
	// the last bidder after every other seat passed bids 1 when its time
	// runs out, and no table is abandoned. Since, a timeout passes there
	// and the deal is thrown in (rules README, Clocks, timeouts and absent
	// players).
	timeoutBids bool
	// ceiling caps bid × 2 per grab (004: 该轮最大基础分为本次对局分的24倍).
	ceiling int
	// escape penalties in units of stake × current multiplier (doudizhu.md, Escape).
	escapeLandlord int
	escapeFarmer   int
	// matchHands is the number of hands of a match (002's tournament plays 5),
	// from the option "hands"; 0 plays hands without end.
	matchHands int
	// opt is the table's house rules (doudizhu.md, Table options).
	opt options
}

func (v *variant) handSize() int { return (v.decks*cards.DeckSize - v.kitty) / v.seats }

// variantNamed returns a fresh config, which the caller may fill with options.
func variantNamed(name string) (*variant, bool) {
	var v *variant
	switch name {
	case "classic":
		v = &variant{
			name: "classic", version: "doudizhu/classic/2",
			decks: 1, seats: 3, kitty: 3, maxBid: 3,
			escapeLandlord: 16, escapeFarmer: 8,
		}
	case "hubei":
		v = &variant{
			name: "hubei", version: "doudizhu/hubei/3",
			decks: 1, seats: 3, kitty: 3, maxBid: 3, grab: true, ceiling: 24,
			escapeLandlord: 16, escapeFarmer: 8,
		}
	case "fourplayer":
		v = &variant{
			name: "fourplayer", version: "doudizhu/fourplayer/3",
			decks: 2, seats: 4, kitty: 8, maxBid: 3, grab: true, ceiling: 24,
			escapeLandlord: 16, escapeFarmer: 8,
		}
	default:
		return nil, false
	}
	v.opt.spring = v.defaultSpring()
	return v, true
}

// variantAt returns a fresh config of variant name as it was at rules
// version: the current one, or an older one kept for the tables opened under
// it, as the current config with the old behaviour switched back on (never a
// copy of the code).
func variantAt(version, name string) (*variant, bool) {
	v, ok := variantNamed(name)
	if !ok {
		return nil, false
	}
	switch version {
	case v.version:
	case "doudizhu/classic/1":
		if name != "classic" {
			return nil, false
		}
		v.version, v.timeoutBids = version, true
	case "doudizhu/hubei/2", "doudizhu/fourplayer/2":
		if version != "doudizhu/"+name+"/2" {
			return nil, false
		}
		v.version, v.timeoutBids = version, true
	case "doudizhu/hubei/1", "doudizhu/fourplayer/1":
		if version != "doudizhu/"+name+"/1" {
			return nil, false
		}
		v.version, v.grabAfterPass, v.timeoutBids = version, true, true
	default:
		return nil, false
	}
	return v, true
}

// maxMatchHands bounds the option "hands", so that it always fits an int;
// maxCap bounds "cap" alike (doudizhu.md, Table options, cap).
const (
	maxMatchHands = 1_000_000
	minCap        = 3 // Decision: never below a bid
	maxCap        = 1_000_000
)

// options are a table's house rules (doudizhu.md, Table options), read by
// the rules as fields of the variant. Their zero values are the defaults but
// for spring, whose default depends on the variant (defaultSpring).
type options struct {
	// cap 封顶 bounds each farmer's settled multiplier and an escape's
	// multiplier; 0 = no cap.
	cap int
	// bombDouble (classic only): ×2 per bomb and per rocket played.
	bombDouble bool
	// spring is the 春天 factor (and classic's 反春 factor).
	spring int
	// double 加倍: the doubling phase after LandlordChosen.
	double bool
	// hideCounts is show_counts false: cards_left shows another seat's
	// count only at 2 or fewer.
	hideCounts bool
}

// defaultSpring is the spring factor before the option existed: ×2 in
// classic (002), ×4 in hubei and fourplayer (004).
func (v *variant) defaultSpring() int {
	if v.grab {
		return 4
	}
	return 2
}

// parseOptions reads the options of a table into v (doudizhu.md, Table
// options): "hands", "cap", "bomb_double" (classic only), "spring",
// "double", "show_counts"; any other key is refused by name.
func parseOptions(v *variant, raw json.RawMessage) error {
	r := table.ReadOptions("doudizhu/"+v.name, raw)
	r.Int("hands", 1, maxMatchHands, &v.matchHands)
	r.Int("cap", minCap, maxCap, &v.opt.cap)
	if v.grab {
		if r.Has("bomb_double") {
			r.Fail(table.BadOption("bomb_double", "option \"bomb_double\" is classic only: doudizhu/%s already counts its bombs", v.name))
		}
	} else {
		r.Bool("bomb_double", &v.opt.bombDouble)
	}
	r.Int("spring", 1, 4, &v.opt.spring)
	r.Bool("double", &v.opt.double)
	show := true
	r.Bool("show_counts", &show)
	v.opt.hideCounts = !show
	return r.Done()
}

// recordedOptions is the options as TableOpened records them: a key at its
// default is left out, so {} and {"hands":N} stay as they always were.
type recordedOptions struct {
	BombDouble bool  `json:"bomb_double,omitempty"`
	Cap        int   `json:"cap,omitempty"`
	Double     bool  `json:"double,omitempty"`
	Hands      int   `json:"hands,omitempty"`
	ShowCounts *bool `json:"show_counts,omitempty"`
	Spring     int   `json:"spring,omitempty"`
}

// shownOptions is every option the variant takes that has a value, defaults
// filled in: no "cap" without a cap, no "hands" on an endless table, no
// "bomb_double" but in classic.
type shownOptions struct {
	BombDouble *bool `json:"bomb_double,omitempty"`
	Cap        int   `json:"cap,omitempty"`
	Double     bool  `json:"double"`
	Hands      int   `json:"hands,omitempty"`
	ShowCounts bool  `json:"show_counts"`
	Spring     int   `json:"spring"`
}

// Rules are one variant's rules; see doc.go.
type Rules struct {
	v *variant
}

// abandonAfter is how many deals in a row thrown in with every seat absent
// close a table (rules README, Clocks, timeouts and absent players).
const abandonAfter = 3

// AbandonAfter closes a table of absent players (table.Abandoning); 0 under
// the versions before the rule.
func (r *Rules) AbandonAfter() int {
	if r.v.timeoutBids {
		return 0
	}
	return abandonAfter
}

// Version names the rules engine version recorded in TableOpened.
func (r *Rules) Version() string { return r.v.version }

// Options is the normalized options, as recorded: {} at every default.
func (r *Rules) Options() json.RawMessage {
	o := r.v.opt
	rec := recordedOptions{BombDouble: o.bombDouble, Cap: o.cap, Double: o.double, Hands: r.v.matchHands}
	if o.hideCounts {
		rec.ShowCounts = new(bool)
	}
	if o.spring != r.v.defaultSpring() {
		rec.Spring = o.spring
	}
	return table.OptionsJSON(rec)
}

// ShownOptions is the options with their defaults filled in, for the lobby
// and the table view (table.OptionsShown).
func (r *Rules) ShownOptions() json.RawMessage {
	o := r.v.opt
	shown := shownOptions{Cap: o.cap, Double: o.double, Hands: r.v.matchHands, ShowCounts: !o.hideCounts, Spring: o.spring}
	if !r.v.grab {
		shown.BombDouble = &o.bombDouble
	}
	return table.OptionsJSON(shown)
}

// Seats is the number of players.
func (r *Rules) Seats() int { return r.v.seats }

// NewState is the state of a table that has dealt nothing.
func (r *Rules) NewState() *State { return newState(r.v) }

// Decode decodes the game's own events.
func (r *Rules) Decode(typ string, data []byte) (table.Payload, error) {
	if p, ok := decodeCanonical(typ, data); ok {
		return p, nil
	}
	return events.Decode(typ, data)
}

// Classify returns every reading of cs as one play under this variant's card
// types: Classify for the one-deck variants, the two-deck types of
// doudizhu.md (fourplayer) for fourplayer.
func (r *Rules) Classify(cs []cards.Card) []Reading {
	return r.v.cardTypes().classifyCards(cs, nil)
}

// Redact shows every game event of 斗地主 to everyone: the game's only
// hidden cards are in HandDealt and its seed in DealSecret, both of which the
// table redacts. HandOpened shows the landlord's hand to all, as 明牌 means.
func (r *Rules) Redact(p table.Payload, seat int, handOver bool) table.Payload {
	return p
}
