package table

// Contest is one rated contest of a settled hand: teams of seats and each
// team's place (0 first; equal places tie). Teams are listed in the order of
// their lowest seat, and the seats of a team in ascending order, so that a
// contest is a pure function of the settlement.
type Contest struct {
	Teams  [][]int `json:"teams"`
	Places []int   `json:"places"`
}

// Rated is Rules that say who played against whom in a settled hand. Seats
// whose hand the rules voided are in no team; a hand that rates nobody has no
// contests. Contests reads only the settlement (its deltas and its result),
// so that a rating is a pure function of the log. Each game's own Rules
// value (table.Adapted(r)) implements it.
type Rated interface {
	Contests(hs HandSettled) []Contest
}
