package shengji

import (
	"fmt"
	"slices"

	"paiju/domain/table"
)

const (
	endPlayedOut = "played_out"
	endEscape    = "escape"
)

// scoreTable reads the defenders' points X (shengji.md, Scoring and levels,
// ningyang): the winning side and the stake multiple, which is also the
// number of level steps (Decision). At the default step of 40: X = 0:
// dealer +3; 5–40: +2; 45–75: +1; 80–115: defenders +1; then +1 more every
// further 40. The step option (Table options, step, Decision) generalizes
// the table: X < 80, the dealer side wins 1 + ⌊(80 − X)/step⌋; X ≥ 80, the
// defenders 1 + ⌊(X − 80)/step⌋.
func scoreTable(x, step int) (dealerWins bool, multiple int) {
	if x < 80 {
		return true, 1 + (80-max(x, 0))/step
	}
	return false, (x-80)/step + 1
}

// guafengScore reads the defenders' points X by seed 003's table
// (shengji.md, Scoring and levels, guafeng), continued every 40 points both
// ways: −40…−5 dealer +4, 0 +3, 5–35 +2, 40–75 +1, 80–115 defenders +1
// (on stage, no level), 120–155 +2, … The multiple is the points each seat
// wins or loses; the dealer side goes up by it, the defenders by it − 1.
// With the step option (Table options, step, Decision): X < 80, the dealer
// side ⌈(80 − X)/step⌉, +1 when X ≤ 0; X ≥ 80, the defenders
// 1 + ⌊(X − 80)/step⌋.
func guafengScore(x, step int) (dealerWins bool, multiple int) {
	if x < 80 {
		k := (80 - x + step - 1) / step
		if x <= 0 {
			k++
		}
		return true, k
	}
	return false, (x-80)/step + 1
}

// kittyMultiplier is what the kitty's points are multiplied by when the
// last trick is won with a play of shape sh (shengji.md, Kitty, ningyang
// Decision; Table options, kitty_multiplier): with n cards and p pairs,
// by_shape 2^(p+1), double 2, linear 2n, cards n.
func (s *State) kittyMultiplier(sh Shape) int {
	switch s.o.kittyMode() {
	case KittyDouble:
		return 2
	case KittyLinear:
		return 2 * sh.Size()
	case KittyCards:
		return sh.Size()
	}
	return 1 << (sh.Pairs + 1)
}

// kittyPoints is what the buried cards are worth to the last trick.
func (s *State) kittyPoints() int {
	if !s.v.guafengKitty {
		return points(s.buried)
	}
	n := 0
	for _, c := range s.buried {
		n += s.order.guafengKittyValue(c)
	}
	return n
}

// optionsShown adds to res the options that shaped it, when not at their
// defaults (rules README, Table options: fields saying why, absent at the
// default).
func (s *State) optionsShown(res *Result) {
	def := KittyByShape
	if s.v.guafengKitty {
		def = KittyCards
	}
	if res.KittyMultiplier != 0 && s.o.kittyMode() != def {
		res.KittyRule = s.o.kittyMode()
	}
	if s.o.step() != defaultStep {
		res.Step = s.o.step()
	}
}

// settlePlayedOut settles the hand after its last trick, won by last with a
// play of shape sh (trumps when trump); def is the defenders' points from
// tricks.
func (s *State) settlePlayedOut(last int, sh Shape, trump bool, def int) ([]table.Payload, error) {
	dealer := s.dealer
	res := Result{
		End: endPlayedOut, Dealer: &dealer, Level: s.order.Level.String(), Trump: suitName(s.order.Trump),
		Kitty: slices.Clone(s.buried), TrickPoints: def, KittyPoints: s.kittyPoints(), LastTrick: last,
	}
	if s.declarer >= 0 {
		d := s.decls[s.declarer].seat
		res.Declarer = &d
	}
	x := def
	switch {
	case !s.v.guafengKitty:
		if s.isDefender(last) {
			res.KittyMultiplier = s.kittyMultiplier(sh)
			x += res.KittyPoints * res.KittyMultiplier
		}
	case !trump:
		// Seed 003 note 4: the kitty counts only when the last trick's
		// winning play is trumps.
	case s.isDefender(last):
		res.KittyMultiplier = s.kittyMultiplier(sh)
		x += res.KittyPoints * res.KittyMultiplier
	case s.o.KittyDeduction:
		res.KittyMultiplier = s.kittyMultiplier(sh)
		res.KittyDeducted = true
		x -= res.KittyPoints * res.KittyMultiplier
	}
	res.DefenderPoints = x
	s.optionsShown(&res)
	dealerWins, k := s.v.score(x, s.o.step())
	res.Multiple = k
	levels := s.levels
	dside := sideOf(dealer)
	var next int
	if dealerWins {
		res.Winner = "dealer"
		levels[dside], res.StepsLost = s.o.rise(levels[dside], k, true)
		res.LevelSteps = k - res.StepsLost
		next = partner(dealer)
	} else {
		// 上台: the defenders deal next at their own level, raised by
		// (multiple − 1); the first step is the change of dealer.
		res.Winner = "defenders"
		levels[1-dside], res.StepsLost = s.o.rise(levels[1-dside], k-1, false)
		res.LevelSteps = k - 1 - res.StepsLost
		next = (dealer + 1) % seats
	}
	if s.v.fixedLevel > 0 || s.o.Duplicate {
		// qiangbao: the level never moves; points decide the match.
		// duplicate: every hand is a first hand, no level moves.
		levels, res.LevelSteps, res.StepsLost = s.levels, 0, 0
	}
	if !s.o.Duplicate {
		// duplicate: no dealer carries over either.
		res.NextDealer = &next
	}
	for side, l := range levels {
		res.Levels = append(res.Levels, s.o.levelName(l))
		if l > s.o.last() {
			w := side
			res.MatchWinner = &w
		}
	}
	if s.v.matchHands > 0 && !s.o.Duplicate {
		s.qiangbaoMatch(&res, dealerWins, k)
	}
	each, err := table.MulStake(s.Stake, k)
	if err != nil {
		return nil, err
	}
	deltas := make([]int, seats)
	for seat := range deltas {
		won := (sideOf(seat) == dside) == dealerWins
		if won {
			deltas[seat] = each
		} else {
			deltas[seat] = -each
		}
	}
	return s.ending(deltas, res, res.MatchWinner != nil), nil
}

// escape settles the hand seat leaves (shengji.md, Escape, seed 000): the
// escaper pays 16 × stake; each other seat gets a bonus by the escaper's
// cards left X (X < 5: 2 × stake, X < 10: 1 × stake, else 0); the house
// keeps the rest (Decision: the deltas do not sum to zero; HandSettled.House
// and Result.House record the difference). Cards left count the escaper's dealt cards not
// yet played, drawn or not. Levels and the next dealer do not change.
func (s *State) escape(seat int) ([]table.Payload, error) {
	left := s.cardsLeft()
	x := left[seat]
	bonus := 0
	switch {
	case x < 5:
		bonus = 2
	case x < 10:
		bonus = 1
	}
	res := Result{End: endEscape, Escaper: &seat, CardsLeft: left, Level: s.order.Level.String()}
	if s.dealer >= 0 && s.phase >= phaseBurying {
		d := s.dealer
		res.Dealer = &d
	}
	if s.declarer >= 0 {
		d := s.decls[s.declarer].seat
		res.Declarer = &d
	}
	var err error
	if res.Penalty, err = table.MulStake(s.Stake, s.v.escapePenalty); err != nil {
		return nil, err
	}
	if res.Bonus, err = table.MulStake(s.Stake, bonus); err != nil {
		return nil, err
	}
	res.House = res.Penalty - (seats-1)*res.Bonus
	res.Kitty = slices.Clone(s.buried)
	// The levels that stand: as the deal found them, a 悶牌 drop undone
	// (Level keeps the level the hand was played at).
	for _, l := range s.dealLevels {
		res.Levels = append(res.Levels, s.o.levelName(l))
	}
	deltas := make([]int, seats)
	for i := range deltas {
		if i == seat {
			deltas[i] = -res.Penalty
		} else {
			deltas[i] = res.Bonus
		}
	}
	evs := []table.Payload{table.PlayerEscaped{Seat: seat, PlayerID: s.Players[seat], Hand: s.hand}}
	return append(evs, s.ending(deltas, res, false)...), nil
}

// cardsLeft counts, per seat, the dealt cards not yet played (undrawn ones
// included; the dealer's kitty while it is held).
func (s *State) cardsLeft() []int {
	left := make([]int, seats)
	for i := range left {
		left[i] = s.held[i].Len()
		if s.phase == phaseDrawing {
			left[i] += s.v.handSize - s.round
		}
	}
	return left
}

// ending is the HandSettled of the hand and, when the table is done (a side
// passed K, or a single-hand table), the TableClosed after it.
func (s *State) ending(deltas []int, res Result, matchOver bool) []table.Payload {
	settled, err := s.Settle(s.hand, deltas, res.House, res)
	if err != nil {
		panic(fmt.Sprintf("shengji: %v", err)) // plain data: cannot fail
	}
	evs := []table.Payload{settled}
	if matchOver || !s.o.Match {
		totals := slices.Clone(s.totals[:])
		for i, d := range deltas {
			totals[i] += d
		}
		reason := "match_over"
		if !s.o.Match {
			reason = "hand_over"
		}
		evs = append(evs, table.TableClosed{Reason: reason, Totals: totals})
	}
	return evs
}
