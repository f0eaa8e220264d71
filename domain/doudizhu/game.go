package doudizhu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

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
)

// Name is the game's API name.
func (*Game) Name() string { return "doudizhu" }

// EventTypes lists the game's own event types (table.Catalog).
func (*Game) EventTypes() []string { return events.Names() }

// ActionTypes lists the action types of every variant (table.Catalog).
func (*Game) ActionTypes() []string {
	return []string{ActionBid, ActionGrab, ActionOpen, ActionPass, ActionPlay}
}

// Variants lists the variants this version plays.
func (*Game) Variants() []string { return []string{"classic", "hubei", "fourplayer"} }

// Rules returns a variant's rules. Every variant takes one option, "hands"
// (an integer ≥ 1: the table plays a match of that many hands, see doc.go);
// empty, null or {} options play hands without end. Any other key is
// rejected by name.
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
}

func (v *variant) handSize() int { return (v.decks*cards.DeckSize - v.kitty) / v.seats }

// variantNamed returns a fresh config, which the caller may fill with options.
func variantNamed(name string) (*variant, bool) {
	switch name {
	case "classic":
		return &variant{
			name: "classic", version: "doudizhu/classic/2",
			decks: 1, seats: 3, kitty: 3, maxBid: 3,
			escapeLandlord: 16, escapeFarmer: 8,
		}, true
	case "hubei":
		return &variant{
			name: "hubei", version: "doudizhu/hubei/3",
			decks: 1, seats: 3, kitty: 3, maxBid: 3, grab: true, ceiling: 24,
			escapeLandlord: 16, escapeFarmer: 8,
		}, true
	case "fourplayer":
		return &variant{
			name: "fourplayer", version: "doudizhu/fourplayer/3",
			decks: 2, seats: 4, kitty: 8, maxBid: 3, grab: true, ceiling: 24,
			escapeLandlord: 16, escapeFarmer: 8,
		}, true
	}
	return nil, false
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

// maxMatchHands bounds the option "hands", so that it always fits an int.
const maxMatchHands = 1_000_000

// parseOptions reads the options of a table into v: only "hands", an integer
// from 1 to maxMatchHands.
func parseOptions(v *variant, raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return table.ErrBadOption.With("doudizhu/%s options must be a JSON object", v.name)
	}
	var unknown []string
	for k := range m {
		if k != "hands" {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return table.ErrBadOption.With("unknown option %q: doudizhu/%s takes only \"hands\" (got %s)", unknown[0], v.name, strings.Join(unknown, ", "))
	}
	if h, ok := m["hands"]; ok {
		// A JSON integer literal only: not a string, a fraction or an exponent.
		k, err := strconv.ParseInt(string(bytes.TrimSpace(h)), 10, 64)
		if err != nil || k < 1 || k > maxMatchHands {
			return table.ErrBadOption.With("option \"hands\" must be an integer from 1 to %d, got %s", maxMatchHands, h)
		}
		v.matchHands = int(k)
	}
	return nil
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

// Options is the normalized options: {} or {"hands":N}.
func (r *Rules) Options() json.RawMessage {
	if r.v.matchHands > 0 {
		return json.RawMessage(fmt.Sprintf(`{"hands":%d}`, r.v.matchHands))
	}
	return json.RawMessage(`{}`)
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
