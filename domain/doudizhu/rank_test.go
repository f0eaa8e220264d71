package doudizhu

import (
	"testing"

	"paiju/domain/cards"
)

func TestRankOfIndex(t *testing.T) {
	for i := range cards.DeckSize {
		if got, want := rankOfIndex(i), RankOf(cards.FromIndex(i)); got != want {
			t.Errorf("rankOfIndex(%d) = %v, want %v", i, got, want)
		}
	}
}
