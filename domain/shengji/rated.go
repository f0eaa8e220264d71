package shengji

import (
	"encoding/json"

	"paiju/domain/table"
)

var _ table.Rated = (*Rules)(nil)

// Contests is the two partnerships (seats 0 and 2 against 1 and 3), won by
// the dealer's side or the defenders as the result says. An escape is a loss
// for the escaper's partnership. A settlement that does not decode rates
// nobody.
func (r *Rules) Contests(hs table.HandSettled) []table.Contest {
	// Only the fields that say who won (a Result's cards cost more to
	// decode than the rating costs).
	var res struct {
		End     string `json:"end"`
		Dealer  *int   `json:"dealer"`
		Winner  string `json:"winner"`
		Escaper *int   `json:"escaper"`
	}
	if json.Unmarshal(hs.Result, &res) != nil {
		return nil
	}
	var won int // the winning side: 0 for seats 0 and 2, 1 for 1 and 3
	switch {
	case res.End == "escape" && res.Escaper != nil:
		won = 1 - sideOf(*res.Escaper)
	case res.Dealer != nil && res.Winner == "dealer":
		won = sideOf(*res.Dealer)
	case res.Dealer != nil && res.Winner == "defenders":
		won = 1 - sideOf(*res.Dealer)
	default:
		return nil
	}
	return table.Beat([]int{won, won + 2}, []int{1 - won, 3 - won})
}
