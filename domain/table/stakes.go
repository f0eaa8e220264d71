package table

import "math/bits"

// MaxStake bounds a table's base stake (rules/README.md, Stakes and settlement). It is
// chosen with MaxMultiplier so that no settlement of any game can overflow
// int64: MaxStake × MaxMultiplier < 2^58, 32 times below math.MaxInt64, so
// the running totals of a table also have room for many hands at the bound.
const MaxStake = 1_000_000

// MaxMultiplier bounds the stake units any one seat can win or lose in one
// hand, in every game. The worst case is 斗地主 fourplayer (two decks): an
// escaping landlord pays 16 × (ceiling 24 × 2 open × 2^26 for 26 four-card
// bombs × 4 for the rocket) = 3·2^36 < 2^38; played out, the landlord's
// 3 × 24 × 2 × 2^26 × 4 × 4 (spring) = 9·2^33 is smaller. hubei (one deck,
// 13 bombs) reaches 3·2^23, 升级 escapes 16 (× the bonus seats), 打盾 4 per
// opponent plus awards, 牛牛 5 per bout × 7 bouts, 双扣 3 × 2^(相 − 4) with
// bomb_bonus (at most 3·2^11); all far below.
const MaxMultiplier = 1 << 38

// MaxDelta bounds the magnitude of a seat's delta (and of the house's share)
// in one settlement at any legal stake.
const MaxDelta = MaxStake * MaxMultiplier

// ErrSettlementRange refuses an action whose settlement would leave the
// range a settlement may take (MaxDelta, or int64 for a running total). At a
// stake within MaxStake no game reaches it; it is the guard that turns an
// overflow into a refusal instead of a wrapped result.
var ErrSettlementRange = &Error{Kind: KindRule, Code: "settlement_out_of_range"}

// MulStake returns stake × units, or ErrSettlementRange when the product
// overflows int64 or exceeds MaxDelta in magnitude. Games compute every
// settlement amount through it (and through AddStake).
func MulStake(stake, units int) (int, error) {
	p, ok := mul(stake, units)
	if !ok || p > MaxDelta || p < -MaxDelta {
		return 0, ErrSettlementRange.With("stake %d × %d is outside the settlement range ±%d", stake, units, MaxDelta)
	}
	return p, nil
}

// AddStake returns a + b, or ErrSettlementRange when the sum overflows int64.
func AddStake(a, b int) (int, error) {
	s, ok := add(a, b)
	if !ok {
		return 0, ErrSettlementRange.With("%d + %d overflows", a, b)
	}
	return s, nil
}

// CheckSettlement checks a settlement against the bounds every game keeps:
// each delta and the house's share within MaxDelta, their sum exactly zero
// without overflow, and totals + deltas representable. totals may be nil.
func CheckSettlement(deltas []int, house int, totals []int) error {
	sum := house
	if house > MaxDelta || house < -MaxDelta {
		return ErrSettlementRange.With("house share %d is outside ±%d", house, MaxDelta)
	}
	for seat, d := range deltas {
		if d > MaxDelta || d < -MaxDelta {
			return ErrSettlementRange.With("seat %d's delta %d is outside ±%d", seat, d, MaxDelta)
		}
		var ok bool
		if sum, ok = add(sum, d); !ok {
			return ErrSettlementRange.With("the deltas overflow at seat %d", seat)
		}
		if seat < len(totals) {
			if _, ok := add(totals[seat], d); !ok {
				return ErrSettlementRange.With("seat %d's total %d + %d overflows", seat, totals[seat], d)
			}
		}
	}
	if sum != 0 {
		return ErrSettlementRange.With("the deltas and the house's share sum to %d, not 0", sum)
	}
	return nil
}

// mul is a × b with an overflow report, on the int64 a Go int is here.
func mul(a, b int) (int, bool) {
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(abs64(a), abs64(b))
	if hi != 0 || lo > 1<<63 || (lo == 1<<63 && !neg) {
		return 0, false
	}
	if neg {
		return int(-lo), true
	}
	return int(lo), true
}

func add(a, b int) (int, bool) {
	s := a + b
	// Overflow iff both operands have the same sign and the sum's differs.
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, false
	}
	return s, true
}

func abs64(a int) uint64 {
	if a < 0 {
		return uint64(-a) // -MinInt64 wraps to 1<<63, which is its magnitude
	}
	return uint64(a)
}
