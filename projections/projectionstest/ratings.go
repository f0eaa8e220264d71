package projectionstest

import (
	"paiju/domain/table"
	"paiju/projections"
	"paiju/ratings"
)

// ByDeltas rates a random log's hands as a free-for-all: each seat its own
// team, placed by its delta (the games' own contests read the games'
// settlements, which a random log does not hold).
func ByDeltas(_ table.TableOpened, hs table.HandSettled) ([]table.Contest, bool) {
	var c table.Contest
	for seat, d := range hs.Deltas {
		place := 0
		for _, o := range hs.Deltas {
			if o > d {
				place++
			}
		}
		c.Teams, c.Places = append(c.Teams, []int{seat}), append(c.Places, place)
	}
	return []table.Contest{c}, true
}

// Rater is the default model rating a random log's hands by ByDeltas.
func Rater() projections.Rater {
	return projections.Rater{Model: ratings.Default(), Contests: ByDeltas}
}
