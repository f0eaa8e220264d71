package doudizhu

import (
	"errors"
	"math/big"
	"testing"

	"paiju/domain/table"
)

// worstFourplayer is a fourplayer deal at its largest multiplier: the
// ceiling bid (24), played open, all 26 four-card bombs of two decks played
// and (with the last play) the rocket (doudizhu.md, Scoring, fourplayer).
func worstFourplayer(t *testing.T, stake, bombs int) *State {
	t.Helper()
	v, ok := variantNamed("fourplayer")
	if !ok {
		t.Fatal("no fourplayer variant")
	}
	s := newState(v)
	s.Stake = stake
	s.phase, s.landlord, s.bid, s.bidMult, s.open, s.bombs = phasePlaying, 0, 3, v.ceiling, true, bombs
	return s
}

func mul(xs ...int64) *big.Int {
	p := big.NewInt(1)
	for _, x := range xs {
		p.Mul(p, big.NewInt(x))
	}
	return p
}

// TestSettlementAtMaxStake: at table.MaxStake the largest fourplayer
// settlements (a spring with every bomb and the rocket, a landlord escaping
// after them) are exact, and within the bounds every table keeps
// (doudizhu.md, Scoring and Escape; rules/README.md, Stakes and settlement).
func TestSettlementAtMaxStake(t *testing.T) {
	const bombs = 26 // 104 non-joker cards of two decks, four a bomb
	s := worstFourplayer(t, table.MaxStake, bombs)
	s.plays[0] = 12 // the farmers never played: a spring
	hs, err := s.settlePlayedOut(0, Reading{Type: Rocket})
	if err != nil {
		t.Fatalf("spring at MaxStake with %d bombs and the rocket: %v, want a settlement", bombs, err)
	}
	each := mul(table.MaxStake, 24, 2, 1<<bombs, 4, 4)
	want := new(big.Int).Mul(each, big.NewInt(3))
	if got := big.NewInt(int64(hs.Deltas[0])); got.Cmp(want) != 0 {
		t.Fatalf("landlord's spring delta at MaxStake: got %v, want %v (3 × stake × 24 × 2 × 2^26 × 4 × 4)", got, want)
	}
	if err := table.CheckSettlement(hs.Deltas, hs.House, nil); err != nil {
		t.Fatalf("spring at MaxStake: %v", err)
	}

	s = worstFourplayer(t, table.MaxStake, bombs)
	s.rockets = 1
	evs, err := s.escape(0)
	if err != nil {
		t.Fatalf("landlord escape at MaxStake after %d bombs and the rocket: %v, want a settlement", bombs, err)
	}
	hs = evs[1].(table.HandSettled)
	want = mul(table.MaxStake, 24, 2, 1<<bombs, 4, 16)
	if got := big.NewInt(int64(-hs.Deltas[0])); got.Cmp(want) != 0 {
		t.Fatalf("landlord's escape penalty at MaxStake: got %v, want %v (stake × 24 × 2 × 2^26 × 4 × 16)", got, want)
	}
	if err := table.CheckSettlement(hs.Deltas, hs.House, nil); err != nil {
		t.Fatalf("escape at MaxStake: %v", err)
	}
}

// TestOverflowingSettlementIsRefused: a stake no table may open with any
// more (the 2^60) makes the settlement refuse the action instead of
// wrapping (rules/README.md, Stakes and settlement).
func TestOverflowingSettlementIsRefused(t *testing.T) {
	for _, stake := range []int{1 << 60, 1 << 62} {
		s := worstFourplayer(t, stake, 0)
		if _, err := s.escape(1); !errors.Is(err, table.ErrSettlementRange) {
			t.Fatalf("farmer escape at stake %d: got %v, want settlement_out_of_range", stake, err)
		}
		s.plays[0] = 1
		if _, err := s.settlePlayedOut(0, Reading{Type: Bomb}); !errors.Is(err, table.ErrSettlementRange) {
			t.Fatalf("spring at stake %d: got %v, want settlement_out_of_range", stake, err)
		}
	}
}
