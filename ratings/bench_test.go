package ratings

import (
	"testing"

	"paiju/domain/table"
)

// BenchmarkHand is the model's cost per settled hand of each shape: a
// partnership hand, one against two, and 牛牛's three bouts.
func BenchmarkHand(b *testing.B) {
	m := Default()
	seats := []Seat{{Player: "a"}, {Player: "b"}, {Player: "c"}, {Player: "d"}}
	before := map[string]Rating{"a": {Mu: 27, Sigma: 2}, "b": {Mu: 24, Sigma: 3}, "c": {Mu: 25, Sigma: 1.5}, "d": {Mu: 22, Sigma: 6}}
	for _, c := range []struct {
		name     string
		contests []table.Contest
	}{
		{"partnerships", []table.Contest{{Teams: [][]int{{0, 2}, {1, 3}}, Places: []int{1, 0}}}},
		{"one_against_two", []table.Contest{{Teams: [][]int{{0}, {1, 2}}, Places: []int{0, 1}}}},
		{"bouts", []table.Contest{
			{Teams: [][]int{{0}, {1}}, Places: []int{0, 1}},
			{Teams: [][]int{{0}, {2}}, Places: []int{1, 0}},
			{Teams: [][]int{{0}, {3}}, Places: []int{0, 1}},
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				m.Hand(c.contests, seats, before)
			}
		})
	}
}
