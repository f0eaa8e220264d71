package shuangkou

import (
	"encoding/json"

	"paiju/domain/table"
)

var _ table.Rated = (*Rules)(nil)

// Contests is the two partnerships (seats 0 and 2 against 1 and 3), won by
// the result's winners; an escape is already recorded as a loss for the
// escaper's side (shuangkou.md, Escape), its partner's refund aside. A
// settlement that does not decode rates nobody.
func (r *Rules) Contests(hs table.HandSettled) []table.Contest {
	// Only the winners (a Result's other fields cost more to decode than
	// the rating costs).
	var res struct {
		Winners []int `json:"winners"`
	}
	if json.Unmarshal(hs.Result, &res) != nil || len(res.Winners) != 2 {
		return nil
	}
	won := res.Winners[0] % 2
	return table.Beat([]int{won, won + 2}, []int{1 - won, 3 - won})
}
