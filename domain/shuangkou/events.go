package shuangkou

import (
	"paiju/domain/cards"
	"paiju/domain/table"
)

// The game's own events. Their type names and JSON shapes are persisted and
// never change meaning; see doc.go for the shapes.

// CardsPlayed: a seat played Cards (in display order), read as Reading; in
// 百变 the reading records what the jokers stand for.
type CardsPlayed struct {
	Seat    int          `json:"seat"`
	Cards   []cards.Card `json:"cards"`
	Reading Reading      `json:"reading"`
}

// PlayPassed: a seat passed (不出) on the current play.
type PlayPassed struct {
	Seat int `json:"seat"`
}

// PlayerOut: a seat played its last card and finished in Place (1 = 头游).
type PlayerOut struct {
	Seat  int `json:"seat"`
	Place int `json:"place"`
}

// TrickEnded: every other seat with cards passed on Winner's play; Leader
// leads next. Leader is Winner, unless Winner is out: then the lead passes
// to Winner's partner if the partner has cards (接风, Jiefeng true), else to
// the next seat with cards.
type TrickEnded struct {
	Winner  int  `json:"winner"`
	Leader  int  `json:"leader"`
	Jiefeng bool `json:"jiefeng"`
}

// MatchEnded ends a match of the option "hands" (shuangkou.md, Table
// options, Decision: decided by sides): Hands is the hands played (more
// than the option when the sides were level after it), Sides the two
// sides' totals, the winner first. A table.TableClosed follows.
type MatchEnded struct {
	Hands int         `json:"hands"`
	Sides []SideTotal `json:"sides"`
}

// SideTotal is a side's total in a match: its two seats' totals summed.
type SideTotal struct {
	Place int   `json:"place"` // 1 = first; equal totals share a place
	Seats []int `json:"seats"` // the side's seats, lowest first
	Total int   `json:"total"`
}

func (CardsPlayed) EventType() string { return "CardsPlayed" }
func (PlayPassed) EventType() string  { return "PlayPassed" }
func (PlayerOut) EventType() string   { return "PlayerOut" }
func (TrickEnded) EventType() string  { return "TrickEnded" }
func (MatchEnded) EventType() string  { return "MatchEnded" }

// The outcomes of a hand played out (shuangkou.md, Result).
const (
	OutcomeShuangkou = "shuangkou" // 双扣: one side 1st and 2nd, 3 × base each
	OutcomeDankou    = "dankou"    // 单扣: one side 1st and 3rd, 2 × base each
	OutcomePingkou   = "pingkou"   // 1st and 4th on one side: the 1st's side wins 1 × base each
)

// Result is the game's detail of a HandSettled, as its JSON result.
type Result struct {
	// End is "played_out" (a side is out) or "escape".
	End string `json:"end"`
	// Outcome is shuangkou, dankou or pingkou for a hand played out.
	Outcome string `json:"outcome,omitempty"`
	// Finish lists the seats that went out, in order (头游 first).
	Finish []int `json:"finish"`
	// Winners is the winning side's two seats, lowest first.
	Winners []int `json:"winners"`
	// Multiplier is the base stakes each winner wins and each loser pays:
	// 3, 2 or 1; for an escape 3, the escaper paying the partner's share too.
	// With the options bomb_bonus and cap, Bonus multiplies it and Cap
	// bounds the product.
	Multiplier int `json:"multiplier"`
	// CardsLeft counts the cards each seat still held.
	CardsLeft []int `json:"cards_left"`
	// Escaper, Penalty: who escaped and what they paid, in stake units
	// multiplied out.
	Escaper *int `json:"escaper,omitempty"`
	Penalty int  `json:"penalty,omitempty"`
	// Xiang, Bonus (option bomb_bonus, a hand played out): the winning
	// side's 相 (0 without a bomb) and the factor it gives, 2^(xiang−4)
	// from 5相, else 1.
	Xiang *int `json:"xiang,omitempty"`
	Bonus int  `json:"bonus,omitempty"`
	// Capped (option cap): the cap, when it cut the stake units each seat
	// won or lost (Multiplier × Bonus) down to it.
	Capped int `json:"capped,omitempty"`
}

// events decodes the game's own event types.
var events = table.Events(
	CardsPlayed{}, PlayPassed{}, PlayerOut{}, TrickEnded{}, MatchEnded{},
)
