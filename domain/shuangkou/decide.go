package shuangkou

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// Action types of the game, besides the table's escape.
const (
	ActionPass = "pass"
	ActionPlay = "play"
)

// Decide validates an action of seat and returns the events it causes.
// Errors are *table.Error; their messages name only the caller's own cards
// and public plays.
func (r *Rules) Decide(s *State, seat int, a table.Action) ([]table.Payload, error) {
	if seat < 0 || seat >= seats {
		return nil, table.ErrNoSuchSeat.With("seat %d does not exist: this table has seats 0..%d", seat, seats-1)
	}
	switch a.Type {
	case table.ActionEscape:
		if s.phase == phaseWaiting {
			return nil, table.ErrWrongPhase.With("no hand is running: there is nothing to escape")
		}
		return s.escape(seat)
	case ActionPass:
		if !a.TypeOnly() {
			return nil, table.ErrBadAction.With(`a pass takes no fields besides "type"`)
		}
		if err := s.onTurn(seat); err != nil {
			return nil, err
		}
		if s.last == nil {
			return nil, table.ErrCannotPass.With("you lead: play any combination (shuangkou.md, climbing play)")
		}
		return s.decidePass(seat), nil
	case ActionPlay:
		if a.Bid != nil || len(a.Cards) == 0 {
			return nil, table.ErrBadAction.With(`a play takes "cards" (at least one) and optionally "as", never "bid"`)
		}
		for i, c := range a.Cards {
			if !c.Valid() {
				return nil, table.ErrBadAction.With("card %d of the play is not a card", i+1)
			}
		}
		if a.As != "" && !validAs(a.As) {
			return nil, table.ErrBadAction.With(`"as" is "<combination>" or "<combination>:<main rank>" (e.g. "bomb:7", "straight:A"), got %q`, a.As)
		}
		if err := s.onTurn(seat); err != nil {
			return nil, err
		}
		return s.decidePlay(seat, a)
	}
	return nil, table.ErrUnknownAction.With("shuangkou has no action %q (actions: pass, play, escape)", a.Type)
}

func (s *State) onTurn(seat int) error {
	if s.phase == phaseWaiting {
		return table.ErrWrongPhase.With("no hand is running")
	}
	if s.turn != seat {
		return table.ErrNotYourTurn.With("it is seat %d's turn", s.turn)
	}
	return nil
}

// decidePass records a pass and, when every other seat with cards has passed
// on the last play, the end of the trick (shuangkou.md, climbing play and
// 接风 Decision): the last player leads again; if that player is out, the
// partner leads if the partner has cards, else the next seat with cards.
func (s *State) decidePass(seat int) []table.Payload {
	evs := []table.Payload{PlayPassed{Seat: seat}}
	w := s.last.seat
	if s.passes+1 < s.othersWithCards(w) {
		return evs
	}
	end := TrickEnded{Winner: w, Leader: w}
	if s.out(w) {
		if p := partner(w); !s.out(p) {
			end.Leader, end.Jiefeng = p, true
		} else {
			end.Leader = s.nextWithCards(w)
		}
	}
	return append(evs, end)
}

func (s *State) decidePlay(seat int, a table.Action) ([]table.Payload, error) {
	hand := &s.hands[seat]
	if missing := hand.Missing(a.Cards); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you do not hold %s", cards.Format(missing))
	}
	played := slices.Clone(a.Cards)
	climb.Sort(played)
	readings := s.v.cardTypes().read(played)
	if len(readings) == 0 {
		why := s.v.wild.why(played)
		return nil, table.ErrInvalidCombo.With("%s is no combination%s (shuangkou.md, Combinations)", cards.Format(played), why)
	}
	if a.As != "" {
		all := readings
		readings = slices.DeleteFunc(slices.Clone(readings), func(r Reading) bool { return !r.matches(a.As) })
		if len(readings) == 0 {
			return nil, table.ErrInvalidCombo.With("%s cannot be read as %s; it reads as %s", cards.Format(played), a.As, climb.Describe(all))
		}
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	reading, ok := climb.Pick(readings, lead)
	if !ok {
		return nil, table.ErrDoesNotBeat.With("%s (%s) does not beat seat %d's %s (%s) (shuangkou.md, Combinations)",
			cards.Format(played), climb.Describe(readings), s.last.seat, cards.Format(s.last.cards), s.last.reading)
	}
	evs := []table.Payload{CardsPlayed{Seat: seat, Cards: played, Reading: reading}}
	if hand.Len() > len(played) {
		return evs, nil
	}
	finish := append(slices.Clone(s.finish), seat)
	evs = append(evs, PlayerOut{Seat: seat, Place: len(finish)})
	if slices.Contains(finish, partner(seat)) {
		settled, err := s.settlePlayedOut(finish, seat, len(played), reading)
		if err != nil {
			return nil, err
		}
		evs = append(evs, settled)
		evs = append(evs, s.matchEnd(settled.Deltas)...)
	}
	return evs, nil
}

// settlePlayedOut settles the hand once both players of a side are out
// (shuangkou.md, Result): 1st and 2nd on one side is 双扣 (3 × base each),
// 1st and 3rd 单扣 (2 ×), and when the side out is not the 1st's, the 1st
// went out with the 4th and the 1st's side wins 1 × base each. last is the
// seat that has just gone out with its final n cards, read as final. The
// options bomb_bonus and cap change the stake units (units).
func (s *State) settlePlayedOut(finish []int, last, n int, final Reading) (table.HandSettled, error) {
	first := finish[0]
	res := Result{End: "played_out", Finish: finish}
	switch {
	case sideOf(last) != sideOf(first):
		res.Outcome, res.Multiplier = OutcomePingkou, winPingkou
	case len(finish) == 2:
		res.Outcome, res.Multiplier = OutcomeShuangkou, winShuangkou
	default:
		res.Outcome, res.Multiplier = OutcomeDankou, winDankou
	}
	res.CardsLeft = s.cardsLeft()
	res.CardsLeft[last] -= n
	win := sideOf(first)
	res.Winners = []int{win, win + 2}
	each, err := table.MulStake(s.Stake, s.units(&res, win, last, final))
	if err != nil {
		return table.HandSettled{}, err
	}
	deltas := make([]int, seats)
	for i := range deltas {
		deltas[i] = -each
		if sideOf(i) == win {
			deltas[i] = each
		}
	}
	return s.Settle(s.hand, deltas, 0, res)
}

// units is the stake units each seat of a hand played out wins or loses:
// the result's multiplier, × 2^(L−4) for the winning side's 相 L ≥ 5 under
// the option bomb_bonus, at most the option cap (shuangkou.md, Table
// options). It records Xiang, Bonus and Capped in res when they apply.
// last has just played final, which Evolve has not yet counted.
func (s *State) units(res *Result, win, last int, final Reading) int {
	u := res.Multiplier
	if s.v.bombBonus {
		l := s.sideXiang(win, last, final)
		res.Xiang, res.Bonus = &l, 1
		if l >= 5 {
			res.Bonus = 1 << (l - 4)
		}
		u *= res.Bonus
	}
	if s.v.cap > 0 && u > s.v.cap {
		u, res.Capped = s.v.cap, s.v.cap
	}
	return u
}

// sideXiang is side win's 相 (shuangkou.md, Table options, bomb_bonus): the
// largest 相 of its two players' bombs this deal, and at least k + 2 when
// they played k ≥ 3 bombs (三个炸当五相); 0 without a bomb. last's final
// play counts too.
func (s *State) sideXiang(win, last int, final Reading) int {
	l, k := 0, 0
	for _, seat := range [...]int{win, win + 2} {
		x, b := s.xiang[seat], s.bombs[seat]
		if seat == last && final.xiang() > 0 {
			x, b = max(x, final.xiang()), b+1
		}
		l, k = max(l, x), k+b
	}
	if k >= 3 {
		l = max(l, k+2)
	}
	return l
}

// matchEnd returns, after a hand that settles with deltas, the end of a
// match of the option "hands" (shuangkou.md, Table options, Decision): once
// the match has played its hands, escapes included, it ends when one
// side's total is higher; level sides play one more hand at a time.
// MatchEnded, then TableClosed with the seats' totals.
func (s *State) matchEnd(deltas []int) []table.Payload {
	if s.v.matchHands == 0 || s.settled+1 < s.v.matchHands {
		return nil
	}
	totals := make([]int, seats)
	for i := range totals {
		totals[i] = s.totals[i] + deltas[i]
	}
	sides := sideStandings(totals)
	if sides[0].Place == sides[1].Place {
		return nil // level: one more hand
	}
	return []table.Payload{
		MatchEnded{Hands: s.settled + 1, Sides: sides},
		table.TableClosed{Reason: "match_over", Totals: totals},
	}
}

// sideStandings is the two sides' totals from the seats', the higher first
// (level sides share place 1, seats 0 & 2 first).
func sideStandings(totals []int) []SideTotal {
	out := make([]SideTotal, 2)
	for side := range out {
		out[side] = SideTotal{Place: 1, Seats: []int{side, side + 2}, Total: totals[side] + totals[side+2]}
	}
	switch {
	case out[0].Total > out[1].Total:
		out[1].Place = 2
	case out[1].Total > out[0].Total:
		out[0].Place = 2
		out[0], out[1] = out[1], out[0]
	}
	return out
}

// escape settles the hand seat leaves (shuangkou.md, Escape Decision): the
// escaper's side loses as in 双扣, 3 × base to each opponent, and the escaper
// pays the partner's share too (6 × base; the partner 0).
func (s *State) escape(seat int) ([]table.Payload, error) {
	win := sideOf(seat + 1)
	res := Result{End: "escape", Finish: slices.Clone(s.finish), Winners: []int{win, win + 2},
		Multiplier: escapeEach, CardsLeft: s.cardsLeft(), Escaper: &seat}
	if res.Finish == nil {
		res.Finish = []int{}
	}
	each, err := table.MulStake(s.Stake, escapeEach)
	if err != nil {
		return nil, err
	}
	res.Penalty = 2 * each
	deltas := make([]int, seats)
	deltas[seat] = -res.Penalty
	deltas[win], deltas[win+2] = each, each
	settled, err := s.Settle(s.hand, deltas, 0, res)
	if err != nil {
		return nil, err
	}
	evs := []table.Payload{
		table.PlayerEscaped{Seat: seat, PlayerID: s.Players[seat], Hand: s.hand},
		settled,
	}
	return append(evs, s.matchEnd(settled.Deltas)...), nil
}
