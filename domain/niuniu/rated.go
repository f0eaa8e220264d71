package niuniu

import (
	"encoding/json"

	"paiju/domain/table"
)

var _ table.Rated = (*Rules)(nil)

// Contests is one contest per settled bout, the banker against that player,
// in the result's order (seat order), won as the bout says: an escaper's
// forfeited bout is its loss, a banker's escape its loss to every player. A
// seat without a settled bout (empty, or its bouts cancelled under rules /1)
// is in no contest. A settlement that does not decode rates nobody.
func (r *Rules) Contests(hs table.HandSettled) []table.Contest {
	// Only the banker and the bouts (a Result's readings and cards cost
	// more to decode than the rating costs).
	var res struct {
		Banker int `json:"banker"`
		Bouts  []struct {
			Seat   int    `json:"seat"`
			Winner string `json:"winner"`
		} `json:"bouts"`
	}
	if json.Unmarshal(hs.Result, &res) != nil {
		return nil
	}
	var out []table.Contest
	for _, b := range res.Bouts {
		if b.Seat == res.Banker {
			continue
		}
		switch b.Winner {
		case "banker":
			out = append(out, table.Beat([]int{res.Banker}, []int{b.Seat})...)
		case "player":
			out = append(out, table.Beat([]int{b.Seat}, []int{res.Banker})...)
		}
	}
	return out
}
