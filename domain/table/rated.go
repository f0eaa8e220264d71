package table

import "slices"

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

// Beat is the contest winners won against losers: two teams, each sorted,
// listed in the order of their lowest seat. An empty side makes no contest
// (nil).
func Beat(winners, losers []int) []Contest {
	if len(winners) == 0 || len(losers) == 0 {
		return nil
	}
	w, l := sortedSeats(winners), sortedSeats(losers)
	if l[0] < w[0] {
		return []Contest{{Teams: [][]int{l, w}, Places: []int{1, 0}}}
	}
	return []Contest{{Teams: [][]int{w, l}, Places: []int{0, 1}}}
}

// SeatsBut lists the seats of an n-seat table but the given ones, in order.
func SeatsBut(n int, but ...int) []int {
	var out []int
	for s := range n {
		if !slices.Contains(but, s) {
			out = append(out, s)
		}
	}
	return out
}

func sortedSeats(s []int) []int {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
