package doudizhu

import (
	"encoding/json"
	"fmt"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Action types of the game, besides the table's escape.
const (
	ActionBid  = "bid"
	ActionPass = "pass"
	ActionPlay = "play"
)

// Decide validates an action of seat and returns the events it causes.
// Errors are *table.Error; their messages name only the caller's own cards.
func (r *Rules) Decide(gs table.GameState, seat int, a table.Action) ([]table.Payload, error) {
	s, err := r.state(gs)
	if err != nil {
		return nil, err
	}
	if seat < 0 || seat >= r.v.seats {
		return nil, table.ErrNoSuchSeat.With("seat %d does not exist: this table has seats 0..%d", seat, r.v.seats-1)
	}
	switch a.Type {
	case table.ActionEscape:
		if s.phase == phaseWaiting {
			return nil, table.ErrWrongPhase.With("no hand is running: there is nothing to escape")
		}
		return s.escape(seat)
	case ActionBid:
		if a.Bid == nil || len(a.Cards) > 0 || a.As != "" {
			return nil, table.ErrBadAction.With(`a bid takes exactly "bid": 1..%d (and no cards or "as")`, r.v.maxBid)
		}
		if *a.Bid < 1 || *a.Bid > r.v.maxBid {
			return nil, table.ErrBadAction.With(`a bid is 1..%d, got %d; to decline post {"type":"pass"}`, r.v.maxBid, *a.Bid)
		}
		if err := s.onTurn(seat, phaseBidding); err != nil {
			return nil, err
		}
		return s.decideBid(seat, *a.Bid)
	case ActionPass:
		if a.Bid != nil || len(a.Cards) > 0 || a.As != "" {
			return nil, table.ErrBadAction.With(`a pass takes no fields besides "type"`)
		}
		if s.phase == phaseBidding {
			if err := s.onTurn(seat, phaseBidding); err != nil {
				return nil, err
			}
			return s.decideBid(seat, 0)
		}
		if err := s.onTurn(seat, phasePlaying); err != nil {
			return nil, err
		}
		if s.last == nil {
			return nil, table.ErrCannotPass.With("you lead: play any combination (doudizhu.md, Beating)")
		}
		return []table.Payload{PlayPassed{Seat: seat}}, nil
	case ActionPlay:
		if a.Bid != nil || len(a.Cards) == 0 {
			return nil, table.ErrBadAction.With(`a play takes "cards" (at least one) and optionally "as", never "bid"`)
		}
		for i, c := range a.Cards {
			if !c.Valid() {
				return nil, table.ErrBadAction.With("card %d of the play is not a card", i+1)
			}
		}
		if err := s.onTurn(seat, phasePlaying); err != nil {
			return nil, err
		}
		return s.decidePlay(seat, a)
	}
	return nil, table.ErrUnknownAction.With("doudizhu has no action %q (actions: bid, pass, play, escape)", a.Type)
}

func (s *State) onTurn(seat int, want phase) error {
	switch {
	case s.phase == phaseWaiting:
		return table.ErrWrongPhase.With("no hand is running")
	case s.phase != want:
		return table.ErrWrongPhase.With("the hand is in its %s phase, not %s", s.phase, want)
	}
	if s.turn != seat {
		return table.ErrNotYourTurn.With("it is seat %d's turn", s.turn)
	}
	return nil
}

// decideBid records a bid (0 = pass) and, when the bidding is over, its
// outcome (doudizhu.md, Bidding, classic): a top bid ends it at once; after
// every seat has spoken the highest bidder is landlord, or the deal is thrown
// in when all passed.
func (s *State) decideBid(seat, bid int) ([]table.Payload, error) {
	var evs []table.Payload
	high, highSeat := s.highBid, s.highSeat
	if bid > 0 {
		if bid <= s.highBid {
			return nil, table.ErrBidTooLow.With("a bid must be higher than every earlier bid: %d is not above %d", bid, s.highBid)
		}
		evs = append(evs, BidMade{Seat: seat, Bid: bid})
		high, highSeat = bid, seat
	} else {
		evs = append(evs, BidPassed{Seat: seat})
	}
	lastToSpeak := len(s.bids)+1 == s.v.seats
	switch {
	case high == s.v.maxBid || (lastToSpeak && high > 0):
		evs = append(evs, LandlordChosen{Seat: highSeat, Bid: high, Kitty: slices.Clone(s.kitty)})
	case lastToSpeak:
		evs = append(evs, table.DealVoided{Hand: s.hand, Deal: s.deal, Reason: "all_passed", Seed: s.seed})
	}
	return evs, nil
}

func (s *State) decidePlay(seat int, a table.Action) ([]table.Payload, error) {
	hand := &s.hands[seat]
	if missing := hand.Missing(a.Cards); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you do not hold %s", cards.Format(missing))
	}
	played := slices.Clone(a.Cards)
	Sort(played)
	readings := Classify(played)
	if len(readings) == 0 {
		return nil, table.ErrInvalidCombo.With("%s is not a play of any card type (doudizhu.md, Card types)", cards.Format(played))
	}
	if a.As != "" {
		t, ok := ParseType(a.As)
		if !ok {
			return nil, table.ErrBadAction.With(`"as" names no card type: %q`, a.As)
		}
		all := readings
		readings = slices.DeleteFunc(slices.Clone(readings), func(r Reading) bool { return r.Type != t })
		if len(readings) == 0 {
			return nil, table.ErrInvalidCombo.With("%s cannot be played as %s; it reads as %s", cards.Format(played), t, describe(all))
		}
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	reading, ok := pick(readings, lead)
	if !ok {
		return nil, table.ErrDoesNotBeat.With("%s (%s) does not beat seat %d's %s (%s) (doudizhu.md, Beating)",
			cards.Format(played), describe(readings), s.last.seat, cards.Format(s.last.cards), s.last.reading)
	}
	evs := []table.Payload{CardsPlayed{Seat: seat, Cards: played, Reading: reading}}
	if hand.Len() == len(played) {
		settled, err := s.settlePlayedOut(seat)
		if err != nil {
			return nil, err
		}
		evs = append(evs, settled)
	}
	return evs, nil
}

// pick chooses the reading of a play: among those that beat lead (any, when
// leading), the one that outranks the others.
func pick(readings []Reading, lead *Reading) (Reading, bool) {
	var best Reading
	found := false
	for _, r := range readings {
		if lead != nil && !r.Beats(*lead) {
			continue
		}
		if !found || r.Outranks(best) {
			best, found = r, true
		}
	}
	return best, found
}

func describe(rs []Reading) string {
	out := ""
	for i, r := range rs {
		if i > 0 {
			out += " or "
		}
		out += r.String()
	}
	return out
}

// settlePlayedOut settles the hand that winner has just played out of
// (doudizhu.md, Scoring, classic): each farmer pays or receives stake × bid,
// doubled for a spring or an anti-spring; the landlord's delta balances.
func (s *State) settlePlayedOut(winner int) (table.HandSettled, error) {
	plays := s.plays
	plays[winner]++
	landlordWins := winner == s.landlord
	farmersPlayed := 0
	for seat, n := range plays[:s.v.seats] {
		if seat != s.landlord {
			farmersPlayed += n
		}
	}
	res := Result{End: "played_out", Landlord: &s.landlord, Bid: s.bid, Winner: "farmers"}
	if landlordWins {
		res.Winner = "landlord"
	}
	res.Spring = landlordWins && farmersPlayed == 0
	res.AntiSpring = !landlordWins && plays[s.landlord] == 1
	res.Multiplier = s.bid
	if res.Spring || res.AntiSpring {
		res.Multiplier *= 2
	}
	res.CardsLeft = s.cardsLeft()
	res.CardsLeft[winner] = 0

	each := s.stake * res.Multiplier
	if landlordWins {
		each = -each
	}
	deltas := make([]int, s.v.seats)
	for seat := range deltas {
		if seat != s.landlord {
			deltas[seat] = each
			deltas[s.landlord] -= each
		}
	}
	return s.settled(deltas, res)
}

// escape settles the hand seat leaves (doudizhu.md, Escape): the escaper pays
// stake × current multiplier × 16 as landlord or × 8 as farmer; before the
// landlord is known every escaper counts as a farmer. The penalty is shared
// equally by the seats that stayed, the remainder going to the lowest of them.
func (s *State) escape(seat int) ([]table.Payload, error) {
	res := Result{End: "escape", Bid: s.bid, Multiplier: s.multiplier(), CardsLeft: s.cardsLeft(), Escaper: &seat}
	units := s.v.escapeFarmer
	if s.landlord >= 0 {
		res.Landlord = &s.landlord
		if seat == s.landlord {
			units = s.v.escapeLandlord
		}
	}
	res.Penalty = s.stake * res.Multiplier * units
	settled, err := s.settled(splitPenalty(res.Penalty, seat, s.v.seats), res)
	if err != nil {
		return nil, err
	}
	return []table.Payload{
		table.PlayerEscaped{Seat: seat, PlayerID: s.players[seat], Hand: s.hand},
		settled,
	}, nil
}

func (s *State) settled(deltas []int, res Result) (table.HandSettled, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return table.HandSettled{}, fmt.Errorf("encode doudizhu result: %w", err)
	}
	return table.HandSettled{Hand: s.hand, Deltas: deltas, Result: b, Seed: s.seed}, nil
}

// splitPenalty is the deltas of an escape: the escaper pays penalty, shared
// equally by the other seats with the remainder to the lowest of them
// (doudizhu.md, Escape Decision), so that they sum to zero.
func splitPenalty(penalty, escaper, seats int) []int {
	deltas := make([]int, seats)
	deltas[escaper] = -penalty
	share, rem := penalty/(seats-1), penalty%(seats-1)
	for i := range deltas {
		if i != escaper {
			deltas[i] = share + rem
			rem = 0
		}
	}
	return deltas
}
