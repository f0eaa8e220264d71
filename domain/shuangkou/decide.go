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
		why := ""
		if !s.v.wild && slices.ContainsFunc(played, cards.Card.IsJoker) && len(played) > 1 {
			why = "; in classic jokers are not wild"
		}
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
		settled, err := s.settlePlayedOut(finish, seat, len(played))
		if err != nil {
			return nil, err
		}
		evs = append(evs, settled)
	}
	return evs, nil
}

// settlePlayedOut settles the hand once both players of a side are out
// (shuangkou.md, Result): 1st and 2nd on one side is 双扣 (3 × base each),
// 1st and 3rd 单扣 (2 ×), and when the side out is not the 1st's, the 1st
// went out with the 4th and the 1st's side wins 1 × base each. last is the
// seat that has just gone out with its final n cards.
func (s *State) settlePlayedOut(finish []int, last, n int) (table.HandSettled, error) {
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
	each, err := table.MulStake(s.Stake, res.Multiplier)
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
	return []table.Payload{
		table.PlayerEscaped{Seat: seat, PlayerID: s.Players[seat], Hand: s.hand},
		settled,
	}, nil
}
