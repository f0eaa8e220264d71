package dadun

import (
	"encoding/json"
	"slices"

	"paiju/domain/table"
)

var _ table.Rated = (*Rules)(nil)

// Contests is the result's two sides, the banker and its friend against the
// other two, or in 打独 the soloist against the three, won by the result's
// winners (盾 awards, settled apart, do not count). An escape is a loss for
// the escaper's side, or, when it came before the sides were fixed, for the
// escaper alone against the other three as one side. A settlement that does
// not decode rates nobody.
func (r *Rules) Contests(hs table.HandSettled) []table.Contest {
	// Only the fields that say who won (a Result's cards cost more to
	// decode than the rating costs).
	var res struct {
		End     string  `json:"end"`
		Sides   [][]int `json:"sides"`
		Winners []int   `json:"winners"`
		Escaper *int    `json:"escaper"`
	}
	if json.Unmarshal(hs.Result, &res) != nil {
		return nil
	}
	if res.End == "escape" {
		if res.Escaper == nil {
			return nil
		}
		e := *res.Escaper
		for i, side := range res.Sides {
			if len(res.Sides) == 2 && slices.Contains(side, e) {
				return table.Beat(res.Sides[1-i], side)
			}
		}
		return table.Beat(table.SeatsBut(seats, e), []int{e})
	}
	if len(res.Sides) != 2 || len(res.Winners) == 0 {
		return nil
	}
	for i, side := range res.Sides {
		if slices.Contains(side, res.Winners[0]) {
			return table.Beat(side, res.Sides[1-i])
		}
	}
	return nil
}
