package dadun

import (
	"paiju/domain/cards"
	"paiju/domain/table"
)

// The game's own events. Their type names and JSON shapes are persisted and
// never change meaning; see doc.go for the shapes.

// CardTurned follows the DealSecret of every deal: the card turned up before
// the deal (翻牌) and the seat it was dealt to, the banker. Public.
type CardTurned struct {
	Hand   int        `json:"hand"`
	Deal   int        `json:"deal"`
	Card   cards.Card `json:"card"`
	Banker int        `json:"banker"`
}

// FriendCalled: the banker, holding both copies of the turned card, named
// Card instead (one it holds exactly one copy of); the holder of its other
// copy is the friend. It also declines going alone for the banker.
type FriendCalled struct {
	Seat int        `json:"seat"`
	Card cards.Card `json:"card"`
}

// AloneDeclared: Seat goes alone (打独), 1 against 3, and leads.
type AloneDeclared struct {
	Seat int `json:"seat"`
}

// AloneDeclined: Seat does not go alone. After the fourth, the banker leads.
type AloneDeclined struct {
	Seat int `json:"seat"`
}

// CardsPlayed: a seat played Cards (in display order), read as Reading,
// earning Awards 盾 awards (dadun.md, 盾 awards).
type CardsPlayed struct {
	Seat    int          `json:"seat"`
	Cards   []cards.Card `json:"cards"`
	Reading Reading      `json:"reading"`
	Awards  int          `json:"awards,omitempty"`
}

// PlayPassed: a seat passed (不出) on the current play.
type PlayPassed struct {
	Seat int `json:"seat"`
}

// FriendRevealed follows the CardsPlayed in which the friend played its copy
// of the friend card: the sides are public from here on.
type FriendRevealed struct {
	Seat int        `json:"seat"`
	Card cards.Card `json:"card"`
}

// PlayerOut: a seat played its last card and finished in Place (1 = 头游).
type PlayerOut struct {
	Seat  int `json:"seat"`
	Place int `json:"place"`
}

// TrickEnded: every other seat with cards passed on Winner's play; Winner
// takes the trick's Points; Leader leads next: Winner, or when Winner is out
// the next seat after it with cards (接风, Jiefeng true).
type TrickEnded struct {
	Winner  int  `json:"winner"`
	Points  int  `json:"points"`
	Leader  int  `json:"leader"`
	Jiefeng bool `json:"jiefeng"`
}

func (CardTurned) EventType() string     { return "CardTurned" }
func (FriendCalled) EventType() string   { return "FriendCalled" }
func (AloneDeclared) EventType() string  { return "AloneDeclared" }
func (AloneDeclined) EventType() string  { return "AloneDeclined" }
func (CardsPlayed) EventType() string    { return "CardsPlayed" }
func (PlayPassed) EventType() string     { return "PlayPassed" }
func (FriendRevealed) EventType() string { return "FriendRevealed" }
func (PlayerOut) EventType() string      { return "PlayerOut" }
func (TrickEnded) EventType() string     { return "TrickEnded" }

// The outcomes of a hand played out (dadun.md, Points and result).
const (
	OutcomeShuangying = "shuangying" // 双赢: one side out 1st and 2nd, 3 × base each
	OutcomePoints     = "points"     // the side with more than 100 points, 2 × base each (3 × with all 200)
	OutcomeTie        = "tie"        // 100 each: the 头游's side wins 2 × base each
	OutcomeAloneWon   = "alone_won"  // 打独, the soloist out first: 4 × base from each opponent
	OutcomeAloneLost  = "alone_lost" // 打独, the soloist not first: 4 × base to each opponent
)

// Award is one play that earned 盾 awards.
type Award struct {
	Seat   int          `json:"seat"`
	Cards  []cards.Card `json:"cards"`
	Awards int          `json:"awards"`
}

// Result is the game's detail of a HandSettled, as its JSON result.
type Result struct {
	// End is "played_out" or "escape".
	End string `json:"end"`
	// Outcome is one of the Outcome constants for a hand played out.
	Outcome string `json:"outcome,omitempty"`
	// Turned is the card turned up; Banker its holder; FriendCard the card
	// whose other copy made the friend (the turned card unless called).
	Turned     cards.Card  `json:"turned"`
	Banker     int         `json:"banker"`
	FriendCard *cards.Card `json:"friend_card,omitempty"`
	// Friend is the banker's friend; absent in 打独 or before the banker
	// holding both copies called.
	Friend *int `json:"friend,omitempty"`
	// Soloist is the seat that went alone (打独).
	Soloist *int `json:"soloist,omitempty"`
	// Sides are the two sides, the banker's (or the soloist) first; absent
	// when an escape came before they were fixed.
	Sides [][]int `json:"sides,omitempty"`
	// Finish lists the seats that went out, in order (头游 first).
	Finish []int `json:"finish"`
	// Captured is the points each seat took in tricks, before the 末游's
	// transfers; the unfinished trick goes to its last player (Decision).
	Captured []int `json:"captured"`
	// Last is the 末游 whose points moved, when one did.
	Last *int `json:"last,omitempty"`
	// Points is each side's points after the 末游's transfers, in the order
	// of Sides; absent when points did not decide (双赢, 打独, escape).
	Points []int `json:"points,omitempty"`
	// Winners are the winning side's seats, lowest first (none on escape).
	Winners []int `json:"winners"`
	// Multiplier is the base stakes each winner wins from each loser's side
	// as the rules file states it: 3 or 2, or 4 for 打独.
	Multiplier int `json:"multiplier,omitempty"`
	// Outcome deltas and award deltas, which HandSettled's deltas sum.
	ResultDeltas []int `json:"result_deltas"`
	AwardDeltas  []int `json:"award_deltas"`
	// Awards lists every play that earned 盾 awards, settled apart from the
	// result: each other player pays the earner awards × base.
	Awards []Award `json:"awards"`
	// CardsLeft counts the cards each seat still held.
	CardsLeft []int `json:"cards_left"`
	// Escaper, Penalty, House: who escaped, what they paid and what the house
	// kept of it, in stake units multiplied out.
	Escaper *int `json:"escaper,omitempty"`
	Penalty int  `json:"penalty,omitempty"`
	House   int  `json:"house,omitempty"`
}

// events decodes the game's own event types.
var events = table.Events(
	CardTurned{}, FriendCalled{}, AloneDeclared{}, AloneDeclined{}, CardsPlayed{}, PlayPassed{}, FriendRevealed{}, PlayerOut{}, TrickEnded{},
)
