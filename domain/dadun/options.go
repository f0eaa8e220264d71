package dadun

import (
	"encoding/json"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// The option keys and values of dadun.md, Table options (house rules). The
// first value of each is the default, the behaviour before options.
const (
	optBombOrder    = "bomb_order"     // "seed" | "high"
	optPureSuits    = "pure_suits"     // "tie" | "suit"
	optJokerBombs   = "joker_bombs"    // 3 | 2
	optDunAwards    = "dun_awards"     // true | false
	optLeadAfterOut = "lead_after_out" // "next" | "partner"

	bombOrderSeed, bombOrderHigh  = "seed", "high"
	pureSuitsTie, pureSuitsSuit   = "tie", "suit"
	leadNext, leadPartner         = "next", "partner"
	jokerBombsSeed, jokerBombsTwo = 3, 2
)

// options are a table's house rules, read by the comparison of
// combinations, the classifier, the settlement and the 接风. The zero value
// is the defaults, so a variant without options plays as before them.
type options struct {
	// highBombs: bomb_order "high", the 510Ks above every bomb.
	highBombs bool
	// pureSuits: pure_suits "suit", pure 510Ks ranked ♠ > ♥ > ♣ > ♦.
	pureSuits bool
	// twoJokerBombs: joker_bombs 2, any two jokers a bomb.
	twoJokerBombs bool
	// noAwards: dun_awards false, no 盾 awards.
	noAwards bool
	// partnerLead: lead_after_out "partner", 接风 to the partner once the
	// sides are public.
	partnerLead bool
}

// readOptions reads raw (dadun.md, Table options) with the shared reader:
// a wrong type, an unknown value or an unknown key is refused naming it.
func readOptions(raw json.RawMessage) (options, error) {
	r := table.ReadOptions("dadun/lean", raw)
	order, suits, lead := bombOrderSeed, pureSuitsTie, leadNext
	jokers, awards := jokerBombsSeed, true
	r.Enum(optBombOrder, &order, bombOrderSeed, bombOrderHigh)
	r.Bool(optDunAwards, &awards)
	r.Int(optJokerBombs, jokerBombsTwo, jokerBombsSeed, &jokers)
	r.Enum(optLeadAfterOut, &lead, leadNext, leadPartner)
	r.Enum(optPureSuits, &suits, pureSuitsTie, pureSuitsSuit)
	if err := r.Done(); err != nil {
		return options{}, err
	}
	return options{
		highBombs:     order == bombOrderHigh,
		pureSuits:     suits == pureSuitsSuit,
		twoJokerBombs: jokers == jokerBombsTwo,
		noAwards:      !awards,
		partnerLead:   lead == leadPartner,
	}, nil
}

// optionsJSON is the options as JSON, keys in alphabetical order. The
// recorded form leaves out every key at its default (omitempty), so a table
// of defaults records {} as before options existed.
type optionsJSON struct {
	BombOrder    string `json:"bomb_order,omitempty"`
	DunAwards    *bool  `json:"dun_awards,omitempty"`
	JokerBombs   int    `json:"joker_bombs,omitempty"`
	LeadAfterOut string `json:"lead_after_out,omitempty"`
	PureSuits    string `json:"pure_suits,omitempty"`
}

// shown is every option, defaults filled in.
func (o options) shown() optionsJSON {
	awards := !o.noAwards
	s := optionsJSON{BombOrder: bombOrderSeed, DunAwards: &awards, JokerBombs: jokerBombsSeed,
		LeadAfterOut: leadNext, PureSuits: pureSuitsTie}
	if o.highBombs {
		s.BombOrder = bombOrderHigh
	}
	if o.twoJokerBombs {
		s.JokerBombs = jokerBombsTwo
	}
	if o.partnerLead {
		s.LeadAfterOut = leadPartner
	}
	if o.pureSuits {
		s.PureSuits = pureSuitsSuit
	}
	return s
}

// recorded is the normalized options: the keys not at their defaults.
func (o options) recorded() optionsJSON {
	var def options
	s, d := o.shown(), def.shown()
	if s.BombOrder == d.BombOrder {
		s.BombOrder = ""
	}
	if *s.DunAwards == *d.DunAwards {
		s.DunAwards = nil
	}
	if s.JokerBombs == d.JokerBombs {
		s.JokerBombs = 0
	}
	if s.LeadAfterOut == d.LeadAfterOut {
		s.LeadAfterOut = ""
	}
	if s.PureSuits == d.PureSuits {
		s.PureSuits = ""
	}
	return s
}

// suitOrder ranks the suits of pure 510Ks under pure_suits "suit"
// (dadun.md, Table options): ♠ > ♥ > ♣ > ♦, from 1 up.
func suitOrder(s cards.Suit) int8 {
	switch s {
	case cards.Spades:
		return 4
	case cards.Hearts:
		return 3
	case cards.Clubs:
		return 2
	case cards.Diamonds:
		return 1
	}
	return 0
}
