package doudizhu

import (
	"paiju/domain/cards"
	"paiju/domain/table"
)

// The game's own events. Their type names and JSON shapes are persisted and
// never change meaning; see doc.go for the shapes.

// BidMade: a seat bid 1, 2 or 3 (叫分).
type BidMade struct {
	Seat int `json:"seat"`
	Bid  int `json:"bid"`
}

// BidPassed: a seat declined to bid (不叫).
type BidPassed struct {
	Seat int `json:"seat"`
}

// LandlordChosen ends the bidding: Seat is the landlord (地主) at Bid, and
// Kitty, shown to everyone, joins the landlord's hand. The landlord leads
// (with the option double, after the doubling phase).
// Multiplier (hubei, fourplayer only; absent in classic) is the bidding's
// multiplier: Bid × 2 per grab, at most the ceiling of 24.
type LandlordChosen struct {
	Seat       int          `json:"seat"`
	Bid        int          `json:"bid"`
	Kitty      []cards.Card `json:"kitty"`
	Multiplier int          `json:"multiplier,omitempty"`
}

// CallWon (hubei, fourplayer) ends the call phase: Seat called the highest,
// Bid, and is the provisional landlord; the grab phase (抢地主) follows.
type CallWon struct {
	Seat int `json:"seat"`
	Bid  int `json:"bid"`
}

// GrabMade (hubei, fourplayer): Seat grabbed (抢地主) and is the provisional
// landlord. Back marks the caller's last grab-back. Multiplier is the
// bidding's multiplier after the grab (bid × 2 per grab, at most 24).
type GrabMade struct {
	Seat       int  `json:"seat"`
	Back       bool `json:"back,omitempty"`
	Multiplier int  `json:"multiplier"`
}

// GrabDeclined (hubei, fourplayer): Seat declined to grab (不抢).
type GrabDeclined struct {
	Seat int `json:"seat"`
}

// HandOpened (hubei, fourplayer): the landlord plays open (明牌). Cards is
// the landlord's whole hand at that moment, shown to everyone; Multiplier is
// the current multiplier after the ×2.
type HandOpened struct {
	Seat       int          `json:"seat"`
	Cards      []cards.Card `json:"cards"`
	Multiplier int          `json:"multiplier"`
}

// DoubleMade (option double, 加倍): a farmer doubled, or with Back the
// landlord doubled back on the farmers that doubled.
type DoubleMade struct {
	Seat int  `json:"seat"`
	Back bool `json:"back,omitempty"`
}

// DoublePassed (option double): Seat did not double.
type DoublePassed struct {
	Seat int `json:"seat"`
}

// MatchEnded ends a match of the option "hands": Hands is the number of
// hands played (more than the option when a tie for first needed extra
// hands) and Standings the final ranking. A table.TableClosed follows.
type MatchEnded struct {
	Hands     int        `json:"hands"`
	Standings []Standing `json:"standings"`
}

// Standing is one seat's place in a match. Standings are per seat, as the
// table's totals are: a seat left by an escape and taken by another player
// keeps its total. PlayerID is who held the seat in the match's last hand;
// Players lists everyone who held it in a dealt hand, in order.
type Standing struct {
	Place    int      `json:"place"` // 1 = first; equal totals share a place
	Seat     int      `json:"seat"`
	PlayerID string   `json:"player_id"`
	Players  []string `json:"players"`
	Total    int      `json:"total"`
}

// CardsPlayed: a seat played Cards (in display order), read as Reading.
type CardsPlayed struct {
	Seat    int          `json:"seat"`
	Cards   []cards.Card `json:"cards"`
	Reading Reading      `json:"reading"`
}

// PlayPassed: a seat passed (不出) on the current play.
type PlayPassed struct {
	Seat int `json:"seat"`
}

func (BidMade) EventType() string        { return "BidMade" }
func (BidPassed) EventType() string      { return "BidPassed" }
func (LandlordChosen) EventType() string { return "LandlordChosen" }
func (CardsPlayed) EventType() string    { return "CardsPlayed" }
func (PlayPassed) EventType() string     { return "PlayPassed" }
func (CallWon) EventType() string        { return "CallWon" }
func (GrabMade) EventType() string       { return "GrabMade" }
func (GrabDeclined) EventType() string   { return "GrabDeclined" }
func (HandOpened) EventType() string     { return "HandOpened" }
func (MatchEnded) EventType() string     { return "MatchEnded" }
func (DoubleMade) EventType() string     { return "DoubleMade" }
func (DoublePassed) EventType() string   { return "DoublePassed" }

// Result is the game's detail of a HandSettled, as its JSON result.
type Result struct {
	// End is "played_out" (someone played their last card) or "escape".
	End string `json:"end"`
	// Landlord is the landlord's seat; null when an escape ended the bidding.
	Landlord *int `json:"landlord"`
	// Winner is "landlord" or "farmers" when the hand was played out.
	Winner string `json:"winner,omitempty"`
	// Bid is the landlord's bid (0 before bidding ended).
	Bid int `json:"bid"`
	// Multiplier is M, what each farmer's stake was multiplied by before the
	// options double and cap (see Settled). classic: the bid (×2 per bomb and
	// rocket with bomb_double), × the spring factor (default 2) for a spring
	// or an anti-spring. hubei, fourplayer: BidMultiplier, ×2 if Open, ×2 per
	// bomb, ×4 per rocket, × the spring factor (default 4) for a spring, ×2
	// for an anti-spring. For an escape it is the current multiplier the
	// penalty was computed from (see State.multiplier; at most the cap).
	Multiplier int `json:"multiplier"`
	// Spring: the landlord went out and the farmers never played (春天).
	Spring bool `json:"spring"`
	// AntiSpring: a farmer went out and the landlord played only once: 002's
	// 反春 and 004's "地主只出了一手牌，而闲家先走".
	AntiSpring bool `json:"anti_spring"`
	// hubei, fourplayer only (absent in classic): the bidding's multiplier
	// (bid × 2 per grab, at most 24), the grabs (grab-back included) and
	// whether the caller grabbed back, open play, and the bombs and rockets
	// played (these also in classic with bomb_double).
	BidMultiplier int  `json:"bid_multiplier,omitempty"`
	Grabs         int  `json:"grabs,omitempty"`
	GrabBack      bool `json:"grab_back,omitempty"`
	Open          bool `json:"open,omitempty"`
	Bombs         int  `json:"bombs,omitempty"`
	Rockets       int  `json:"rockets,omitempty"`
	// The table options' marks, absent at the defaults (doudizhu.md, Table
	// options): Factors is each farmer's double factor (1, 2 or 4; 0 for
	// the landlord) when a farmer doubled; Settled, when some farmer's
	// differs from Multiplier, is what each seat was settled at (a farmer
	// stake × S_f = min(Multiplier × factor, cap), the landlord the sum of
	// the farmers'); Cap is the cap when it lowered the settlement.
	Factors []int `json:"factors,omitempty"`
	Settled []int `json:"settled,omitempty"`
	Cap     int   `json:"cap,omitempty"`
	// CardsLeft counts the cards each seat still held.
	CardsLeft []int `json:"cards_left"`
	// Escaper, Penalty: who escaped and the penalty they paid in stake units
	// multiplied out, shared among the seats that stayed.
	Escaper *int `json:"escaper,omitempty"`
	Penalty int  `json:"penalty,omitempty"`
}

// events decodes the game's own event types.
var events = table.Events(
	BidMade{}, BidPassed{}, LandlordChosen{}, CardsPlayed{}, PlayPassed{}, CallWon{}, GrabMade{}, GrabDeclined{}, HandOpened{}, MatchEnded{},
	DoubleMade{}, DoublePassed{},
)
