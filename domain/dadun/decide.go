package dadun

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// Action types of the game, besides the table's escape.
const (
	ActionAlone = "alone" // go alone (打独), in the declaring round
	ActionCall  = "call"  // the banker holding both turned copies names the friend card
	ActionPass  = "pass"  // decline going alone, or 不出 in play
	ActionPlay  = "play"
)

// Decide validates an action of seat and returns the events it causes.
// Errors are *table.Error; their messages name only the caller's own cards
// and public plays, and never the friend.
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
	case ActionAlone:
		if !a.TypeOnly() {
			return nil, table.ErrBadAction.With(`"alone" takes no fields besides "type"`)
		}
		if err := s.onTurn(seat, phaseDeclaring); err != nil {
			return nil, err
		}
		return []table.Payload{AloneDeclared{Seat: seat}}, nil
	case ActionCall:
		if a.Bid != nil || len(a.Cards) != 1 || a.As != "" {
			return nil, table.ErrBadAction.With(`a call takes "cards" with exactly one card, nothing else`)
		}
		if !a.Cards[0].Valid() {
			return nil, table.ErrBadAction.With("the called card is not a card")
		}
		if err := s.onTurn(seat, phaseDeclaring); err != nil {
			return nil, err
		}
		return s.decideCall(seat, a.Cards[0])
	case ActionPass:
		if !a.TypeOnly() {
			return nil, table.ErrBadAction.With(`a pass takes no fields besides "type"`)
		}
		if s.phase == phaseDeclaring {
			if err := s.onTurn(seat, phaseDeclaring); err != nil {
				return nil, err
			}
			if s.mustCall(seat) {
				return nil, ErrFriendCard.With("you hold both copies of the turned card %s: go alone or call a card you hold one copy of (dadun.md, Deal, banker, friend)", s.turned)
			}
			return []table.Payload{AloneDeclined{Seat: seat}}, nil
		}
		if err := s.onTurn(seat, phasePlaying); err != nil {
			return nil, err
		}
		if s.last == nil {
			return nil, table.ErrCannotPass.With("you lead: play any combination (dadun.md, Play)")
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
			return nil, table.ErrBadAction.With(`"as" is "<combination>", "<combination>:<main rank>" or "trio_run:<main rank>:<length>" (e.g. "bomb:7", "trio_run:5:2"), got %q`, a.As)
		}
		if err := s.onTurn(seat, phasePlaying); err != nil {
			return nil, err
		}
		return s.decidePlay(seat, a)
	}
	return nil, table.ErrUnknownAction.With("dadun has no action %q (actions: alone, call, pass, play, escape)", a.Type)
}

func (s *State) onTurn(seat int, want phase) error {
	if s.phase != want {
		return table.ErrWrongPhase.With("the hand is %s, not %s", s.phase, want)
	}
	if s.turn != seat {
		return table.ErrNotYourTurn.With("it is seat %d's turn", s.turn)
	}
	return nil
}

// mustCall reports whether seat is the banker holding both copies of the
// turned card who has not called yet: it goes alone or calls, never passes.
func (s *State) mustCall(seat int) bool {
	return seat == s.banker && s.bothCopies && !s.called
}

// decideCall names the friend card (dadun.md, Deal, banker, friend): only the
// banker holding both copies of the turned card, naming a card it holds
// exactly one copy of.
func (s *State) decideCall(seat int, c cards.Card) ([]table.Payload, error) {
	if !s.mustCall(seat) {
		return nil, ErrNotBanker.With("only the banker holding both copies of the turned card calls a friend, once")
	}
	if n := s.hands[seat].Count(c); n != 1 {
		return nil, ErrFriendCard.With("call a card you hold exactly one copy of; you hold %d of %s (dadun.md, Deal, banker, friend)", n, c)
	}
	return []table.Payload{FriendCalled{Seat: seat, Card: c}}, nil
}

// decidePass records a pass and, when every other seat with cards has passed
// on the last play, the end of the trick (dadun.md, Play): the last player
// takes the trick's points and leads again; if that player is out, the next
// seat after it with cards leads (接风), or under lead_after_out "partner"
// its partner (State.jiefeng).
func (s *State) decidePass(seat int) []table.Payload {
	evs := []table.Payload{PlayPassed{Seat: seat}}
	w := s.last.seat
	if s.passes+1 < s.othersWithCards(w) {
		return evs
	}
	end := TrickEnded{Winner: w, Points: s.trick, Leader: w}
	if s.out(w) {
		end.Leader, end.Jiefeng = s.jiefeng(w), true
	}
	return append(evs, end)
}

// jiefeng is the seat that leads after out, who is out and won the trick
// (接风): the next seat with cards; under lead_after_out "partner"
// (dadun.md, Table options), once the sides are public, the first seat
// after out on its side with cards, else the next seat with cards. While
// the friend is hidden it stays the next seat, so the lead never tells who
// the friend is.
func (s *State) jiefeng(out int) int {
	if s.v.opts.partnerLead && s.sidesPublic() {
		for i := 1; i < seats; i++ {
			p := (out + i) % seats
			if s.side(p) == s.side(out) && !s.out(p) {
				return p
			}
		}
	}
	return s.nextWithCards(out)
}

func (s *State) decidePlay(seat int, a table.Action) ([]table.Payload, error) {
	hand := &s.hands[seat]
	if missing := hand.Missing(a.Cards); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you do not hold %s", cards.Format(missing))
	}
	played := slices.Clone(a.Cards)
	climb.Sort(played)
	last := len(played) == hand.Len()
	readings := s.v.classify(played, last)
	if len(readings) == 0 && twoSets510K(played) {
		return nil, ErrTwo510K.With("%s is two 510K sets: play one set alone, or at least three sets together (dadun.md, Combinations)", cards.Format(played))
	}
	if len(readings) == 0 {
		return nil, table.ErrInvalidCombo.With("%s is no combination%s (dadun.md, Combinations)", cards.Format(played), s.v.whyNot(played, last))
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
	// Beating is the variant's (its options order the specials), so the
	// readings that beat lead are kept first and Pick only chooses.
	reading, ok := climb.Pick(s.v.following(readings, played, lead), nil)
	if !ok {
		return nil, table.ErrDoesNotBeat.With("%s (%s) does not beat seat %d's %s (%s) (dadun.md, Combinations)",
			cards.Format(played), climb.Describe(readings), s.last.seat, cards.Format(s.last.cards), s.last.reading)
	}
	awards := s.v.awards(played, reading)
	evs := []table.Payload{CardsPlayed{Seat: seat, Cards: played, Reading: reading.recorded(), Awards: awards}}
	if seat == s.friend && !s.revealed && s.soloist < 0 && slices.Contains(played, s.friendCard) {
		evs = append(evs, FriendRevealed{Seat: seat, Card: s.friendCard})
	}
	if !last {
		return evs, nil
	}
	finish := append(slices.Clone(s.finish), seat)
	evs = append(evs, PlayerOut{Seat: seat, Place: len(finish)})
	if s.ended(finish) {
		settled, err := s.settlePlayedOut(finish, seat, played, awards)
		if err != nil {
			return nil, err
		}
		evs = append(evs, settled)
	}
	return evs, nil
}

// twoSets510K reports whether cs is exactly two 5s, two 10s and two Ks.
func twoSets510K(cs []cards.Card) bool {
	c := climb.CountsOf(cs)
	return len(cs) == 6 && c[climb.Rank5] == 2 && c[climb.Rank10] == 2 && c[climb.RankK] == 2
}

// whyNot explains the kicker rules when a trio without its kickers is
// refused (dadun.md, Combinations: fewer kickers only as the last cards).
func (v variant) whyNot(cs []cards.Card, last bool) string {
	if last {
		return ""
	}
	if c := climb.CountsOf(cs); len(v.classifyCounts(&c, true, nil)) > 0 {
		return "; a trio or trio run with fewer than two kickers per trio is only allowed as your last cards"
	}
	return ""
}

// ended reports whether the hand is over once finish are out (dadun.md,
// Play): both seats of a side; in 打独 as soon as anyone is out, since the
// soloist must be 头游 (dadun.md, Rulings: when an opponent of the soloist
// goes out first the soloist has lost and the hand settles at once).
//
// Under rules /1 (soloPlaysOn) 打独 went on until the soloist or all three
// opponents were out.
func (s *State) ended(finish []int) bool {
	if s.soloist >= 0 && !s.v.soloPlaysOn {
		return len(finish) > 0
	}
	var n [2]int
	for _, f := range finish {
		n[s.side(f)]++
	}
	if s.soloist >= 0 {
		return n[0] == 1 || n[1] == 3
	}
	return n[0] == 2 || n[1] == 2
}
