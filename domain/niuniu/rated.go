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
	var res Result
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
