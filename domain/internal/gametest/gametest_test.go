package gametest

import (
	"crypto/sha256"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// The golden hands of every game were dealt from this construction; a change
// would deal them other cards.
func TestSeedSeqIsPinned(t *testing.T) {
	q := &SeedSeq{ID: 1}
	q.NewSeed()
	got, _ := q.NewSeed()
	want := sha256.Sum256([]byte{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1})
	if got != cards.Seed(want) {
		t.Errorf("seed 1 of stream 1 is %x, want SHA-256(1 ‖ 1) = %x", got, want)
	}
}

func TestDescribeAction(t *testing.T) {
	bid := 3
	for _, tc := range []struct {
		a    table.Action
		want string
	}{
		{table.Action{Type: "bid", Bid: &bid}, "bid 3"},
		{table.Action{Type: "play", Cards: cards.MustParse("S3 H3"), As: "pair"}, "play S3 H3 as pair"},
	} {
		if got := DescribeAction(tc.a); got != tc.want {
			t.Errorf("DescribeAction = %q, want %q", got, tc.want)
		}
	}
}

func TestSettledOfDecodesTheResult(t *testing.T) {
	type result struct{ Multiplier int }
	evs := []table.Payload{table.PlayerSeated{Seat: 1}, table.HandSettled{Hand: 2, Result: []byte(`{"Multiplier":3}`)}}
	hs, res := SettledOf[result](t, evs)
	if hs.Hand != 2 || res.Multiplier != 3 {
		t.Errorf("SettledOf = hand %d, %+v; want hand 2, multiplier 3", hs.Hand, res)
	}
}
