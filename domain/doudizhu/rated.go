package doudizhu

import (
	"encoding/json"

	"paiju/domain/table"
)

var _ table.Rated = (*Rules)(nil)

// Contests is the landlord against the farmers, won as the result's winner
// says. An escape is a loss for the escaper's side: the landlord, or the
// farmers together; an escape during the bidding, before there is a
// landlord, is the escaper's loss against the other seats as one side. A
// settlement that does not decode rates nobody.
func (r *Rules) Contests(hs table.HandSettled) []table.Contest {
	// Only the fields that say who won: decoding the whole Result (its
	// cards) would cost the projection more than the rating does.
	var res struct {
		End      string `json:"end"`
		Landlord *int   `json:"landlord"`
		Winner   string `json:"winner"`
		Escaper  *int   `json:"escaper"`
	}
	if json.Unmarshal(hs.Result, &res) != nil {
		return nil
	}
	n := len(hs.Deltas)
	switch {
	case res.End == "escape" && res.Escaper != nil && res.Landlord == nil:
		return table.Beat(table.SeatsBut(n, *res.Escaper), []int{*res.Escaper})
	case res.Landlord == nil:
		return nil
	}
	landlord := []int{*res.Landlord}
	farmers := table.SeatsBut(n, *res.Landlord)
	landlordWon := res.Winner == "landlord"
	if res.End == "escape" {
		if res.Escaper == nil {
			return nil
		}
		landlordWon = *res.Escaper != *res.Landlord
	} else if res.Winner != "landlord" && res.Winner != "farmers" {
		return nil
	}
	if landlordWon {
		return table.Beat(landlord, farmers)
	}
	return table.Beat(farmers, landlord)
}
