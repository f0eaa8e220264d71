package table_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"paiju/domain/dadun"
	"paiju/domain/doudizhu"
	"paiju/domain/niuniu"
	"paiju/domain/shengji"
	"paiju/domain/shuangkou"
	"paiju/domain/table"
)

// TestStakeBounds: a table opens with a stake from 1 to MaxStake and no
// other (rules/README.md, Stakes and settlement; the 2^60 and 2^62).
func TestStakeBounds(t *testing.T) {
	r, err := doudizhu.New().Rules("hubei", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stake int
		ok    bool
	}{
		{1, true}, {table.MaxStake, true},
		{0, false}, {-1, false}, {table.MaxStake + 1, false}, {1 << 58, false}, {1 << 60, false}, {1 << 62, false}, {math.MaxInt, false},
	} {
		_, err := table.Open(r, "T", "doudizhu", "hubei", c.stake, "p0")
		if c.ok && err != nil {
			t.Errorf("stake %d: got %v, want the table opened (1 ≤ stake ≤ MaxStake)", c.stake, err)
		}
		if !c.ok && !errors.Is(err, table.ErrBadOption) {
			t.Errorf("stake %d: got %v, want invalid_option (1 ≤ stake ≤ %d)", c.stake, err, table.MaxStake)
		}
	}
}

// TestMaxDeltaHasRoom: the bound every settlement keeps leaves int64 a
// margin, so that running totals have room too (beyond it they are refused
// with ErrSettlementRange, never wrapped). 8 since 斗地主's 加倍 (option
// double) took the worst hand past 2^38 units.
func TestMaxDeltaHasRoom(t *testing.T) {
	if got := math.MaxInt64 / table.MaxDelta; got < 8 {
		t.Fatalf("MaxInt64 / MaxDelta = %d, want ≥ 8", got)
	}
}

func TestMulStake(t *testing.T) {
	for _, c := range []struct {
		stake, units, want int
		ok                 bool
	}{
		{3, 48, 144, true},
		{3, -48, -144, true},
		{-3, 48, -144, true},
		{table.MaxStake, table.MaxMultiplier, table.MaxDelta, true},
		{table.MaxStake, -table.MaxMultiplier, -table.MaxDelta, true},
		{table.MaxStake, table.MaxMultiplier + 1, 0, false},
		{table.MaxStake + 1, table.MaxMultiplier, 0, false},
		{1 << 60, 4, 0, false},  // wraps to 0 without the check
		{1 << 58, 48, 0, false}, // the 湖北 case: 2^58 × 48
		{1 << 62, 2, 0, false},
		{math.MaxInt, math.MaxInt, 0, false},
		{math.MinInt, -1, 0, false},
		{math.MinInt, 1, 0, false}, // beyond MaxDelta although it fits int64
		{0, math.MaxInt, 0, true},
	} {
		got, err := table.MulStake(c.stake, c.units)
		switch {
		case c.ok && (err != nil || got != c.want):
			t.Errorf("MulStake(%d, %d) = %d, %v; want %d", c.stake, c.units, got, err, c.want)
		case !c.ok && !errors.Is(err, table.ErrSettlementRange):
			t.Errorf("MulStake(%d, %d) = %d, %v; want settlement_out_of_range", c.stake, c.units, got, err)
		}
	}
}

func TestAddStake(t *testing.T) {
	for _, c := range []struct {
		a, b, want int
		ok         bool
	}{
		{1, 2, 3, true},
		{math.MaxInt, math.MinInt, -1, true},
		{math.MaxInt, 0, math.MaxInt, true},
		{math.MaxInt, 1, 0, false},
		{math.MinInt, -1, 0, false},
		{1 << 62, 1 << 62, 0, false},
	} {
		got, err := table.AddStake(c.a, c.b)
		switch {
		case c.ok && (err != nil || got != c.want):
			t.Errorf("AddStake(%d, %d) = %d, %v; want %d", c.a, c.b, got, err, c.want)
		case !c.ok && !errors.Is(err, table.ErrSettlementRange):
			t.Errorf("AddStake(%d, %d) = %d, %v; want settlement_out_of_range", c.a, c.b, got, err)
		}
	}
}

// TestCheckSettlement: the wrapped settlements are all refused; a
// settlement at the bound is not (rules/README.md, Stakes and settlement).
func TestCheckSettlement(t *testing.T) {
	for _, c := range []struct {
		name   string
		deltas []int
		house  int
		totals []int
		ok     bool
	}{
		{"zero sum", []int{-2, 1, 1}, 0, nil, true},
		{"house keeps the remainder", []int{-16, 5, 5, 5}, 1, nil, true},
		{"at the bound", []int{-table.MaxDelta, table.MaxDelta}, 0, []int{table.MaxDelta, -table.MaxDelta}, true},
		{"beyond the bound", []int{-table.MaxDelta - 2, table.MaxDelta + 2}, 0, nil, false},
		{"everyone loses (wrapped sum −2^64)", []int{-1 << 62, math.MinInt, -1 << 62}, 0, nil, false},
		{"does not sum to zero", []int{-2, 1, 0}, 0, nil, false},
		{"house beyond the bound", []int{-1, 0}, table.MaxDelta + 1, nil, false},
		{"a running total overflows", []int{-1000, 1000}, 0, []int{0, math.MaxInt - 10}, false},
	} {
		err := table.CheckSettlement(c.deltas, c.house, c.totals)
		if c.ok && err != nil {
			t.Errorf("%s: got %v, want accepted", c.name, err)
		}
		if !c.ok && !errors.Is(err, table.ErrSettlementRange) {
			t.Errorf("%s: got %v, want settlement_out_of_range", c.name, err)
		}
	}
}

// TestEscapeAtMaxStake: in every game variant, escapes at MaxStake (one
// seat after another until the hand ends) settle within the bounds, each
// escape penalty a whole multiple of the stake (rules/README.md, Stakes and
// settlement, and each game's Escape).
func TestEscapeAtMaxStake(t *testing.T) {
	for _, g := range []table.Game{doudizhu.New(), niuniu.New(), shuangkou.New(), shengji.New(), dadun.New()} {
		for _, variant := range g.Variants() {
			t.Run(g.Name()+"/"+variant, func(t *testing.T) {
				r, err := g.Rules(variant, nil)
				if err != nil {
					t.Fatal(err)
				}
				st := table.New(r)
				evs, err := table.Open(r, "T", g.Name(), variant, table.MaxStake, "p0")
				if err != nil {
					t.Fatal(err)
				}
				apply(st, evs)
				seeds := &fixedSeeds{}
				for seat := range r.Seats() {
					evs, err := table.Join(st, fmt.Sprintf("p%d", seat), "", seat, seeds)
					if err != nil {
						t.Fatal(err)
					}
					apply(st, evs)
				}
				for seat := range r.Seats() {
					evs, err := table.Act(st, seat, table.Action{Type: table.ActionEscape}, seeds)
					if err != nil {
						t.Fatalf("seat %d escapes at MaxStake: %v, want the escape settled", seat, err)
					}
					apply(st, evs)
					for _, e := range evs {
						hs, ok := e.(table.HandSettled)
						if !ok {
							continue
						}
						if err := table.CheckSettlement(hs.Deltas, hs.House, nil); err != nil {
							t.Fatalf("escape settlement at MaxStake: %v", err)
						}
						if d := hs.Deltas[seat]; d >= 0 || d%table.MaxStake != 0 {
							t.Fatalf("escaper's delta at MaxStake: %d, want a loss in whole stakes", d)
						}
						return
					}
				}
				t.Fatal("every seat escaped and the hand never settled")
			})
		}
	}
}
