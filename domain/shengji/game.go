package shengji

import (
	"encoding/json"
	"fmt"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Game is the 升级 family in the game registry.
type Game struct{}

// New returns the game; the registry lists it explicitly.
func New() *Game { return &Game{} }

var (
	_ table.Game            = (*Game)(nil)
	_ table.Catalog         = (*Game)(nil)
	_ table.Decider[*State] = (*Rules)(nil)
	_ table.GameState       = (*State)(nil)
	// Tables opened under an older rules version replay under it.
	_ table.Versioned = (*Game)(nil)
	// "duplicate" is refused on an ordinary table.
	_ table.TournamentOptions = (*Game)(nil)
	// The lobby and the view show every option, defaults filled in.
	_ table.OptionsShown = (*Rules)(nil)
)

// Name is the game's API name.
func (*Game) Name() string { return "shengji" }

// EventTypes lists the game's own event types (table.Catalog).
func (*Game) EventTypes() []string { return events.Names() }

// ActionTypes lists the action types of every variant (table.Catalog).
func (*Game) ActionTypes() []string {
	return []string{ActionBury, ActionDeclare, ActionDraw, ActionExchange, ActionPass, ActionPlay, ActionReinforce, ActionStick, ActionSwap}
}

// Variants lists the variants this version plays.
func (*Game) Variants() []string { return []string{"ningyang", "guafeng", "qiangbao"} }

// TournamentOnly: "duplicate" is only for the tables of a duplicate
// tournament, never an option of an ordinary table (shengji.md, qiangbao,
// turn 3 Decision; table.TournamentOptions).
func (*Game) TournamentOnly() []string { return []string{"duplicate"} }

// Rules returns a variant's rules with its options (see doc.go, Options).
func (*Game) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	v, ok := variantNamed(variant)
	if !ok {
		return nil, table.ErrUnknownVariant.With("shengji has no variant %q (variants: ningyang, guafeng, qiangbao)", variant)
	}
	o, err := parseOptions(v, options)
	if err != nil {
		return nil, err
	}
	return table.Adapt[*State](&Rules{v: v, o: o}), nil
}

// RulesAt returns a variant's rules as they were at version, for a table
// opened under it (docs/OPERATIONS.md, Rules versions): the current version,
// or an older one this package still plays (doc.go, Rules versions). Any
// other version is refused with an error wrapping table.ErrRulesVersion.
func (*Game) RulesAt(version, variant string, options json.RawMessage) (table.Rules, error) {
	v, ok := variantAt(version, variant)
	if !ok {
		return nil, fmt.Errorf("%w: shengji keeps no rules %s of variant %q", table.ErrRulesVersion, version, variant)
	}
	o, err := parseOptions(v, options)
	if err != nil {
		return nil, err
	}
	return table.Adapt[*State](&Rules{v: v, o: o}), nil
}

// variant is what one variant of the family fixes: ningyang (seed 000) and
// guafeng (seed 003) are two values of this struct, and every rule in which
// they differ is a field here that the shared engine switches on.
type variant struct {
	name    string
	version string
	// declarerDeals: the first hand's dealer is the final declarer (guafeng)
	// rather than the declarer's partner (ningyang, "亮牌和莊家不能為同一家").
	declarerDeals bool
	// escapePenalty is what an escaper pays, in stakes (shengji.md, Escape).
	escapePenalty int
	// fixedTrumps: 2, 3 and 5 are fixed trumps and plays are guafeng's
	// combinations (风, 雨, 雷) (shengji.md, Trump order and Plays, guafeng).
	fixedTrumps bool
	// jokerDeclarations: a declaration holds one joker or more; 沖主, 續牌
	// and 粘牌 replace ningyang's 反主 (shengji.md, guafeng declarations).
	jokerDeclarations bool
	// partnerBuries: when the dealer is the final declarer, the dealer's
	// partner takes and buries the kitty; the burier must bury every joker
	// it holds (shengji.md, Kitty, guafeng).
	partnerBuries bool
	// guafengKitty: the kitty's special values and the multiplier of the
	// last trick's card count, only when it was won with trumps (shengji.md,
	// Kitty, guafeng; seed 003 notes 3, 4 and 6).
	guafengKitty bool
	// menPai: a later hand nobody declares drops the dealer side a level and
	// flips the kitty; a first one is dealt again (悶牌, seed 003).
	menPai bool
	// score is the scoring table: the winning side and the multiple, for
	// the defenders' points x and the step option's points per level.
	score func(x, step int) (dealerWins bool, multiple int)
	// handSize and kittyLen: the cards each seat draws and the kitty
	// (26 and 4; qiangbao 25 and 8).
	handSize, kittyLen int
	// qiangbao (seed 002, qiangbao.go): level cards are shown to declare,
	// the level never moves, and a match is matchHands hands scored by
	// points; the bury goes one card per action (8 of 33 cards is too
	// large a free choice to list).
	qiangbao bool
	// fixedLevel is the level of every hand (qiangbao: 3), 0 when levels
	// move.
	fixedLevel int
	// matchHands is how many played-out hands make a match when points
	// decide it (qiangbao: 5, then one more at a time until untied).
	matchHands int
	// stickOwesJokersOnly keeps rules guafeng/1's 粘牌 exchange: of the
	// cards taken, one trump is owed back per joker taken. The revised
	// Decision (shengji.md, 粘牌; /2) owes one per card taken that is a
	// trump under the final trump.
	stickOwesJokersOnly bool
	// noKittySwap keeps rules guafeng/1: the last card given back ends the
	// exchange and the dealer leads; /2 opens the 粘牌 kitty swap there
	// (shengji.md, 粘牌 kitty swap).
	noKittySwap bool
	// ownPairAnySuit keeps rules qiangbao/1: a seat's own pair of any suit
	// overrode its own standing single; /2 takes only the same suit
	// (shengji.md, qiangbao, turn 3 Decision).
	ownPairAnySuit bool
	// timeoutDeclares keeps rules guafeng/1, guafeng/2 and qiangbao/1: in a
	// first hand with nothing declared, a seat timing out in the final
	// window made its weakest declaration, and no table was abandoned.
	// Since, a timeout passes there, a window nobody declared in deals again,
	// and a table of absent seats closes (rules README, Clocks, timeouts and
	// absent players).
	timeoutDeclares bool
}

func variantNamed(name string) (*variant, bool) {
	switch name {
	case "ningyang":
		return &variant{name: "ningyang", version: "shengji/ningyang/1", escapePenalty: 16, score: scoreTable, handSize: 26, kittyLen: 4}, true
	case "guafeng":
		return &variant{
			name: "guafeng", version: "shengji/guafeng/3", escapePenalty: 16,
			declarerDeals: true, fixedTrumps: true, jokerDeclarations: true, partnerBuries: true,
			guafengKitty: true, menPai: true, score: guafengScore, handSize: 26, kittyLen: 4,
		}, true
	case "qiangbao":
		return qiangbaoVariant(), true
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
	switch {
	case version == v.version:
	case version == "shengji/guafeng/1" && name == "guafeng":
		v.version, v.stickOwesJokersOnly, v.noKittySwap, v.timeoutDeclares = version, true, true, true
	case version == "shengji/guafeng/2" && name == "guafeng":
		v.version, v.timeoutDeclares = version, true
	case version == "shengji/qiangbao/1" && name == "qiangbao":
		v.version, v.ownPairAnySuit, v.timeoutDeclares = version, true, true
	default:
		return nil, false
	}
	return v, true
}

// Kitty multiplier modes (shengji.md, Kitty, ningyang Decision; Table
// options, kitty_multiplier): what the kitty's points are multiplied by,
// with n cards and p pairs in the last trick's winning play.
const (
	// KittyByShape: 2^(p+1): ×2 for a single, ×4 for a pair, ×2^(pairs+1)
	// for a tractor (ningyang's and qiangbao's default).
	KittyByShape = "by_shape"
	// KittyDouble: ×2 whatever the shape of the last trick's winning play.
	KittyDouble = "double"
	// KittyLinear: ×2n.
	KittyLinear = "linear"
	// KittyCards: ×n (guafeng's default, seed 003 note 4).
	KittyCards = "cards"
)

// must_defend (必打) modes (shengji.md, Table options, must_defend).
const (
	MustDefendNone   = "none"
	MustDefendLast   = "last"
	MustDefendPoints = "points"
)

// Defaults of the options the rules file added in turn 3 (shengji.md, Table
// options): the behaviour before they existed.
const (
	defaultStep = 40
	// startAce and startTwo are the first level of the start_level option:
	// levels are numbered by rank (1 = A, 2..13 = 2..K) and a start at 2
	// climbs 2 … K and then A, numbered 14.
	startAce = 1
	startTwo = 2
)

// options are a table's options as the rules read them. The zero value of
// every field added in turn 3 is its default (Step 0 is 40, StartLevel 0 is
// A, MustDefend "" is none, HidePoints false shows them), so a stream that
// lacks a key plays it at its default.
type options struct {
	// Match: play hands until a side passes its last level (true, the
	// default), or one hand only (shengji.md, Levels: "a table may be
	// opened as a single hand or as a match").
	Match bool
	// KittyMultiplier is one of the Kitty* modes; "" reads as by_shape.
	KittyMultiplier string
	// KittyDeduction (guafeng, default true): when the dealer side wins the
	// last trick with trumps, the kitty's points × the multiplier are taken
	// off the defenders' points (shengji.md, Scoring, guafeng Decision).
	KittyDeduction bool
	// Duplicate: every hand is played as a match's first hand — levels as
	// they start, the first-hand rule choosing the dealer — and nothing
	// ends the match but the table's max_hands. Tables of a duplicate
	// tournament play the same deals, and a deal is only comparable
	// between them if it is played under the same level and dealer rule
	// wherever it is dealt, not under what each table's earlier hands made.
	Duplicate bool
	// Step is the defenders' points per level step (40, 30 or 20).
	Step int
	// StartLevel is the first level, startAce or startTwo.
	StartLevel int
	// MustDefend is one of the MustDefend* modes; "" reads as none.
	MustDefend string
	// HidePoints (show_points false): the views show no trick points until
	// the hand is over (view-only).
	HidePoints bool
}

// optionsJSON is the JSON form of the options, recorded (defaults of the
// turn-3 options left out, the older keys as they always were recorded) or
// shown (every option of the variant, defaults filled in).
type optionsJSON struct {
	Match           bool   `json:"match"`
	KittyMultiplier string `json:"kitty_multiplier,omitempty"`
	KittyDeduction  *bool  `json:"kitty_deduction,omitempty"`
	Duplicate       bool   `json:"duplicate,omitempty"`
	Step            int    `json:"step,omitempty"`
	StartLevel      string `json:"start_level,omitempty"`
	MustDefend      string `json:"must_defend,omitempty"`
	ShowPoints      *bool  `json:"show_points,omitempty"`
}

func parseOptions(v *variant, raw json.RawMessage) (options, error) {
	o := options{Match: true, KittyMultiplier: KittyByShape, Step: defaultStep, StartLevel: startAce, MustDefend: MustDefendNone}
	kitty := []string{KittyByShape, KittyDouble, KittyLinear, KittyCards}
	if v.guafengKitty {
		o.KittyMultiplier, o.KittyDeduction = KittyCards, true
		kitty = []string{KittyCards, KittyLinear, KittyDouble}
	}
	r := table.ReadOptions("shengji/"+v.name, raw)
	r.Bool("match", &o.Match)
	r.Enum("kitty_multiplier", &o.KittyMultiplier, kitty...)
	if v.guafengKitty {
		r.Bool("kitty_deduction", &o.KittyDeduction)
	}
	r.Bool("duplicate", &o.Duplicate)
	if v.fixedLevel > 0 {
		// qiangbao plays level 3 throughout and has no level table
		// (shengji.md, Table options: 422 in qiangbao).
		for _, k := range []string{"step", "start_level", "must_defend"} {
			if r.Has(k) {
				r.Fail(table.BadOption(k, "option %q: shengji/%s plays level %d in every hand and moves no level", k, v.name, v.fixedLevel))
			}
		}
	} else {
		readStep(r, &o.Step)
		start := "A"
		if r.Enum("start_level", &start, "A", "2") && start == "2" {
			o.StartLevel = startTwo
		}
		r.Enum("must_defend", &o.MustDefend, MustDefendNone, MustDefendLast, MustDefendPoints)
	}
	show := true
	r.Bool("show_points", &show)
	o.HidePoints = !show
	return o, r.Done()
}

// readStep reads step, one of 40, 30 and 20 points per level.
func readStep(r *table.OptionReader, dst *int) {
	step := *dst
	if r.Int("step", 20, 40, &step) && step%10 != 0 {
		r.Fail(table.BadOption("step", "option %q must be 40, 30 or 20, got %d", "step", step))
		return
	}
	*dst = step
}

// recorded is the normalized form TableOpened records: match always, and
// kitty_multiplier (ningyang, qiangbao) and kitty_deduction (guafeng) as
// they were recorded before the turn-3 options; every other key only when
// it is not its default, so a table opened without them records what it
// recorded before they existed.
func (o options) recorded(v *variant) optionsJSON {
	j := optionsJSON{Match: o.Match, Duplicate: o.Duplicate}
	switch {
	case !v.guafengKitty:
		j.KittyMultiplier = o.kittyMode()
	case o.kittyMode() != KittyCards:
		j.KittyMultiplier = o.kittyMode()
	}
	if v.guafengKitty {
		on := o.KittyDeduction
		j.KittyDeduction = &on
	}
	if o.step() != defaultStep {
		j.Step = o.step()
	}
	if o.first() != startAce {
		j.StartLevel = o.startName()
	}
	if o.mustDefend() != MustDefendNone {
		j.MustDefend = o.mustDefend()
	}
	if o.HidePoints {
		off := false
		j.ShowPoints = &off
	}
	return j
}

// shown is every option the variant takes, defaults filled in (duplicate
// only on a tournament's table, where it is set).
func (o options) shown(v *variant) optionsJSON {
	j := o.recorded(v)
	j.KittyMultiplier = o.kittyMode()
	if v.fixedLevel == 0 {
		j.Step, j.StartLevel, j.MustDefend = o.step(), o.startName(), o.mustDefend()
	}
	show := !o.HidePoints
	j.ShowPoints = &show
	return j
}

func (o options) kittyMode() string {
	if o.KittyMultiplier == "" {
		return KittyByShape
	}
	return o.KittyMultiplier
}

func (o options) step() int {
	if o.Step == 0 {
		return defaultStep
	}
	return o.Step
}

func (o options) mustDefend() string {
	if o.MustDefend == "" {
		return MustDefendNone
	}
	return o.MustDefend
}

// first is the level every side starts at (start_level): 1 (A) or 2.
func (o options) first() int { return max(startAce, o.StartLevel) }

// last is the last level: K (13) from A, A (14) from 2; a side passing it
// has won the match.
func (o options) last() int { return o.first() + 12 }

func (o options) startName() string { return levelRank(o.first()).String() }

// levelName writes a side's level for events and views: "A", "2" … "K",
// and "won" past the last level.
func (o options) levelName(level int) string {
	if level > o.last() {
		return "won"
	}
	return levelRank(level).String()
}

// levelNumber reads levelName back.
func (o options) levelNumber(name string) int {
	if name == "won" {
		return o.last() + 1
	}
	for l := o.first(); l <= o.last(); l++ {
		if levelRank(l).String() == name {
			return l
		}
	}
	panic(fmt.Sprintf("shengji: corrupt stream: level %q", name))
}

// gates are the levels must_defend (必打) makes a side stop at, ascending:
// the last level (last), or 5, 10, K and the last level (points).
func (o options) gates() []int {
	switch o.mustDefend() {
	case MustDefendLast:
		return []int{o.last()}
	case MustDefendPoints:
		return slices.Compact([]int{5, 10, 13, o.last()})
	}
	return nil
}

// rise is where a side at level l goes up n steps to, and the steps lost
// (shengji.md, Table options, must_defend): a side below a gate stops
// there; a side at a gate rises only by a hand it won as the dealer side
// (asDealer), else stays.
func (o options) rise(l, n int, asDealer bool) (to, lost int) {
	if n <= 0 {
		return l, 0
	}
	gates := o.gates()
	if slices.Contains(gates, l) && !asDealer {
		return l, n
	}
	for _, g := range gates {
		if l < g && l+n > g {
			return g, l + n - g
		}
	}
	return l + n, 0
}

// Rules are one variant's rules with a table's options; see doc.go.
type Rules struct {
	v *variant
	o options
}

// abandonAfter is how many deals in a row thrown in with every seat absent
// close a table (rules README, Clocks, timeouts and absent players).
const abandonAfter = 3

// AbandonAfter closes a table of absent players (table.Abandoning) in the
// variants whose first hand is dealt again when nobody declares (guafeng,
// qiangbao); 0 for ningyang, whose timeouts never leave a hand unplayed, and
// for the versions before the rule.
func (r *Rules) AbandonAfter() int {
	if r.v.timeoutDeclares || !r.v.menPai && !r.v.qiangbao {
		return 0
	}
	return abandonAfter
}

// Version names the rules engine version recorded in TableOpened.
func (r *Rules) Version() string { return r.v.version }

// Options is the normalized options.
func (r *Rules) Options() json.RawMessage { return table.OptionsJSON(r.o.recorded(r.v)) }

// ShownOptions is every option of the variant, defaults filled in, for the
// lobby and the table view (table.OptionsShown).
func (r *Rules) ShownOptions() json.RawMessage { return table.OptionsJSON(r.o.shown(r.v)) }

// Seats is the number of players: two partnerships, 0&2 and 1&3.
func (r *Rules) Seats() int { return seats }

// NewState is the state of a table that has dealt nothing.
func (r *Rules) NewState() *State { return newState(r.v, r.o) }

// Decode decodes the game's own events.
func (r *Rules) Decode(typ string, data []byte) (table.Payload, error) {
	return events.Decode(typ, data)
}

const (
	seats = 4
	decks = 2
	// handSize and kittyLen are ningyang's and guafeng's (qiangbao's are
	// variant.handSize and variant.kittyLen).
	handSize = 26 // cards per seat, drawn one per round
	kittyLen = 4
	// totalPoints is the point cards' sum in two decks (5 = 5, 10 = 10, K = 10).
	totalPoints = 200
)

func partner(seat int) int { return (seat + 2) % seats }
func sideOf(seat int) int  { return seat % 2 }

// levelRank is the card rank of a level: level 1 is A (every side starts
// there, shengji.md, Levels), 2..13 are 2..K, and 14 is the A a match
// started at 2 ends with (start_level).
func levelRank(level int) cards.Rank {
	if level <= 1 {
		return cards.Ace
	}
	return cards.Rank(level)
}

// levelName writes a level of a match started at A (the default
// start_level); options.levelName is the table's.
func levelName(level int) string { return options{}.levelName(level) }
