package doudizhu

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/table"
)

// Action types of the game, besides the table's escape.
const (
	ActionBid  = "bid"
	ActionPass = "pass"
	ActionPlay = "play"
	ActionGrab = "grab" // hubei, fourplayer: 抢地主
	ActionOpen = "open" // hubei, fourplayer: 明牌
	// ActionDouble is 加倍 (option double), a farmer's or the landlord's
	// double-back; pass declines.
	ActionDouble = "double"
)

// ErrCannotOpen: open play (明牌) is only for the landlord, before their
// first play.
var ErrCannotOpen = &table.Error{Kind: table.KindRule, Code: "cannot_open"}

// Decide validates an action of seat and returns the events it causes.
// Errors are *table.Error; their messages name only the caller's own cards.
func (r *Rules) Decide(s *State, seat int, a table.Action) ([]table.Payload, error) {
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
		if !a.TypeOnly() {
			return nil, table.ErrBadAction.With(`a pass takes no fields besides "type"`)
		}
		switch s.phase {
		case phaseBidding:
			if err := s.onTurn(seat, phaseBidding); err != nil {
				return nil, err
			}
			return s.decideBid(seat, 0)
		case phaseGrabbing:
			if err := s.onTurn(seat, phaseGrabbing); err != nil {
				return nil, err
			}
			return s.decideGrab(seat, false), nil
		case phaseDoubling:
			if err := s.onTurn(seat, phaseDoubling); err != nil {
				return nil, err
			}
			return s.decideDouble(seat, false), nil
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
	case ActionDouble:
		if !r.v.opt.double {
			break
		}
		if !a.TypeOnly() {
			return nil, table.ErrBadAction.With(`double takes no fields besides "type"`)
		}
		if err := s.onTurn(seat, phaseDoubling); err != nil {
			return nil, err
		}
		return s.decideDouble(seat, true), nil
	case ActionGrab, ActionOpen:
		if !r.v.grab {
			break
		}
		if !a.TypeOnly() {
			return nil, table.ErrBadAction.With(`%s takes no fields besides "type"`, a.Type)
		}
		if a.Type == ActionGrab {
			if err := s.onTurn(seat, phaseGrabbing); err != nil {
				return nil, err
			}
			return s.decideGrab(seat, true), nil
		}
		if err := s.onTurn(seat, phasePlaying); err != nil {
			return nil, err
		}
		return s.decideOpen(seat)
	}
	double := ""
	if r.v.opt.double {
		double = "double, "
	}
	if r.v.grab {
		return nil, table.ErrUnknownAction.With("doudizhu/%s has no action %q (actions: bid, grab, %spass, open, play, escape)", r.v.name, a.Type, double)
	}
	return nil, table.ErrUnknownAction.With("doudizhu has no action %q (actions: bid, %spass, play, escape)", a.Type, double)
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
// in when all passed. In hubei and fourplayer this is the call phase: its
// winner is announced by CallWon and the grab phase follows.
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
	case (high == s.v.maxBid || (lastToSpeak && high > 0)) && s.v.grab:
		evs = append(evs, CallWon{Seat: highSeat, Bid: high})
		if len(s.grabbers(highSeat, seat, bid == 0)) == 0 {
			// Everyone else passed the call: nobody may grab, so the caller
			// is landlord at once (doudizhu.md, Bidding, hubei, revised).
			evs = append(evs, LandlordChosen{Seat: highSeat, Bid: high, Kitty: slices.Clone(s.kitty), Multiplier: high})
		}
	case high == s.v.maxBid || (lastToSpeak && high > 0):
		evs = append(evs, LandlordChosen{Seat: highSeat, Bid: high, Kitty: slices.Clone(s.kitty)})
	case lastToSpeak:
		evs = append(evs, table.DealVoided{Hand: s.hand, Deal: s.deal, Reason: "all_passed", Seed: s.Seed})
	}
	return evs, nil
}

// decideGrab records a word of the grab phase (doudizhu.md, Bidding, hubei):
// each seat after the caller that did not pass the call grabs or declines once, every grab doubling the
// multiplier (at most the ceiling) and making the grabber the provisional
// landlord; then, if anyone grabbed, the caller may grab back. When the last
// word is spoken the provisional landlord becomes the landlord.
func (s *State) decideGrab(seat int, grab bool) []table.Payload {
	spoken := len(s.grabRecords) + 1
	grabs, landlord := s.grabs, s.provisional
	var evs []table.Payload
	if grab {
		grabs++
		landlord = seat
		evs = append(evs, GrabMade{Seat: seat, Back: seat == s.caller, Multiplier: s.grabMultiplier(grabs)})
	} else {
		evs = append(evs, GrabDeclined{Seat: seat})
	}
	othersDone := spoken >= len(s.grabbers(s.caller, -1, false))
	if seat == s.caller || (othersDone && grabs == 0) {
		evs = append(evs, LandlordChosen{Seat: landlord, Bid: s.highBid, Kitty: slices.Clone(s.kitty), Multiplier: s.grabMultiplier(grabs)})
	}
	return evs
}

// decideDouble records a word of the doubling phase (doudizhu.md, Table
// options, double): a farmer's double or pass, then the landlord's
// double-back (recorded with Back) or pass. Evolve moves the turn on, and to
// the play after the last word.
func (s *State) decideDouble(seat int, double bool) []table.Payload {
	if !double {
		return []table.Payload{DoublePassed{Seat: seat}}
	}
	return []table.Payload{DoubleMade{Seat: seat, Back: seat == s.landlord}}
}

// decideOpen lets the landlord play open (明牌): the whole hand is shown to
// everyone from now on, ×2 (doudizhu.md, Bidding, hubei; 004 翻倍 4).
func (s *State) decideOpen(seat int) ([]table.Payload, error) {
	if !s.mayOpen(seat) {
		if seat != s.landlord {
			return nil, ErrCannotOpen.With("only the landlord may play open (doudizhu.md, hubei 明牌)")
		}
		return nil, ErrCannotOpen.With("the landlord may play open once, before their first play (doudizhu.md, hubei 明牌)")
	}
	return []table.Payload{HandOpened{Seat: seat, Cards: s.handCards(seat), Multiplier: s.multiplier() * 2}}, nil
}

func (s *State) decidePlay(seat int, a table.Action) ([]table.Payload, error) {
	hand := &s.hands[seat]
	if missing := hand.Missing(a.Cards); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you do not hold %s", cards.Format(missing))
	}
	played := slices.Clone(a.Cards)
	climb.Sort(played)
	var buf [8]Reading // more than any play has: no allocation
	readings := s.v.cardTypes().classifyCards(played, buf[:0])
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
			return nil, table.ErrInvalidCombo.With("%s cannot be played as %s; it reads as %s", cards.Format(played), t, climb.Describe(all))
		}
	}
	var lead *Reading
	if s.last != nil {
		lead = &s.last.reading
	}
	reading, ok := climb.Pick(readings, lead)
	if !ok {
		return nil, table.ErrDoesNotBeat.With("%s (%s) does not beat seat %d's %s (%s) (doudizhu.md, Beating)",
			cards.Format(played), climb.Describe(readings), s.last.seat, cards.Format(s.last.cards), s.last.reading)
	}
	evs := []table.Payload{CardsPlayed{Seat: seat, Cards: played, Reading: reading}}
	if hand.Len() == len(played) {
		settled, err := s.settlePlayedOut(seat, reading)
		if err != nil {
			return nil, err
		}
		evs = append(evs, settled)
		evs = append(evs, s.matchEnd(settled.Deltas)...)
	}
	return evs, nil
}

// settlePlayedOut settles the hand that winner has just played out of with a
// play read as last (doudizhu.md, Scoring and Table options): each farmer
// pays or receives stake × the multiplier (settleFarmers: × its double
// factor, at most the cap); the landlord's delta balances. classic: the bid
// (× 2 per bomb and rocket with bomb_double, last counted), × the spring
// factor for a spring or an anti-spring. hubei, fourplayer: the current
// multiplier (last counted if a bomb or the rocket), × the spring factor for
// a spring, ×2 for an anti-spring (the landlord played once and a farmer
// went out).
func (s *State) settlePlayedOut(winner int, last Reading) (table.HandSettled, error) {
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
	after := *s
	switch last.Type {
	case Bomb:
		after.bombs++
	case Rocket:
		after.rockets++
	}
	switch {
	case s.v.grab:
		after.fillGrabResult(&res)
	case s.v.opt.bombDouble:
		res.Bombs, res.Rockets = after.bombs, after.rockets
	}
	res.Multiplier = after.multiplier()
	switch {
	case res.Spring:
		res.Multiplier *= s.v.opt.spring
	case res.AntiSpring && s.v.grab:
		res.Multiplier *= 2 // 004 keeps 反春 at ×2 whatever the spring option
	case res.AntiSpring:
		res.Multiplier *= s.v.opt.spring // 002 treats both alike
	}
	res.CardsLeft = s.cardsLeft()
	res.CardsLeft[winner] = 0

	deltas, err := s.settleFarmers(&res, landlordWins)
	if err != nil {
		return table.HandSettled{}, err
	}
	return s.Settle(s.hand, deltas, 0, res)
}

// settleFarmers is the deltas of a played-out hand at res.Multiplier = M
// (doudizhu.md, Table options): farmer f receives (farmers won) or pays
// stake × S_f, S_f = min(M × its double factor, cap); the landlord gets
// minus their sum. It marks res with the factors, each seat's settled
// multiplier and the cap when the options changed anything.
func (s *State) settleFarmers(res *Result, landlordWins bool) ([]int, error) {
	deltas := make([]int, s.v.seats)
	settled := make([]int, s.v.seats)
	factors := make([]int, s.v.seats)
	changed, doubled := false, false
	for seat := range deltas {
		if seat == s.landlord {
			continue
		}
		factors[seat] = s.factor(seat)
		doubled = doubled || factors[seat] > 1
		sf, err := table.MulStake(res.Multiplier, factors[seat])
		if err != nil {
			return nil, err
		}
		if c := s.v.opt.cap; c > 0 && sf > c {
			sf, res.Cap = c, c
		}
		changed = changed || sf != res.Multiplier
		settled[seat] = sf
		settled[s.landlord] += sf
		each, err := table.MulStake(s.Stake, sf)
		if err != nil {
			return nil, err
		}
		if landlordWins {
			each = -each
		}
		deltas[seat] = each
		deltas[s.landlord] -= each
	}
	if doubled {
		res.Factors = factors
	}
	if changed {
		res.Settled = settled
	}
	return deltas, nil
}

// escape settles the hand seat leaves (doudizhu.md, Escape): the escaper pays
// stake × current multiplier (at most the cap) × 16 as landlord or × 8 as
// farmer; before the
// landlord is known every escaper counts as a farmer. The penalty is shared
// equally by the seats that stayed, the remainder going to the lowest of them.
//
// In hubei and fourplayer the current multiplier is State.multiplier, and
// during the grab phase the provisional landlord counts as the landlord
// (and Result.Landlord names them).
func (s *State) escape(seat int) ([]table.Payload, error) {
	res := Result{End: "escape", Bid: s.bid, Multiplier: s.multiplier(), CardsLeft: s.cardsLeft(), Escaper: &seat}
	units := s.v.escapeFarmer
	if l := s.landlordNow(); l >= 0 {
		res.Landlord = &l
		if seat == l {
			units = s.v.escapeLandlord
		}
	}
	if s.v.grab {
		if s.phase == phaseGrabbing {
			res.Bid = s.highBid
		}
		s.fillGrabResult(&res)
	} else if s.v.opt.bombDouble {
		res.Bombs, res.Rockets = s.bombs, s.rockets
	}
	// doudizhu.md, Table options, cap: charged at min(current, cap) × 16
	// or × 8; the 16/8 is a penalty, never capped, and the double factors
	// are ignored.
	mult := res.Multiplier
	if c := s.v.opt.cap; c > 0 && mult > c {
		mult, res.Cap = c, c
	}
	units, err := table.MulStake(mult, units)
	if err != nil {
		return nil, err
	}
	if res.Penalty, err = table.MulStake(s.Stake, units); err != nil {
		return nil, err
	}
	settled, err := s.Settle(s.hand, splitPenalty(res.Penalty, seat, s.v.seats), 0, res)
	if err != nil {
		return nil, err
	}
	evs := []table.Payload{
		table.PlayerEscaped{Seat: seat, PlayerID: s.Players[seat], Hand: s.hand},
		settled,
	}
	return append(evs, s.matchEnd(settled.Deltas)...), nil
}

// fillGrabResult records the hubei multipliers in res: the bidding's
// multiplier and grabs, open play, bombs and rockets.
func (s *State) fillGrabResult(res *Result) {
	switch {
	case s.phase == phaseGrabbing:
		res.BidMultiplier = s.grabMultiplier(s.grabs)
	case s.landlord >= 0:
		res.BidMultiplier = s.bidMult
	}
	res.Grabs, res.GrabBack, res.Open = s.grabs, s.grabBack, s.open
	res.Bombs, res.Rockets = s.bombs, s.rockets
}

// matchEnd returns, after a hand that settles with deltas, the end of a match
// of the option "hands" when it is over (doudizhu.md, Tournament): the
// match has played its hands and exactly one seat leads; a tie for first
// plays another hand. MatchEnded, then TableClosed with the totals.
func (s *State) matchEnd(deltas []int) []table.Payload {
	if s.v.matchHands == 0 || s.handsDone+1 < s.v.matchHands {
		return nil
	}
	totals := make([]int, s.v.seats)
	for i := range totals {
		totals[i] = s.match.totals[i] + deltas[i]
	}
	st := standings(totals, &s.match.seatPlayers)
	if len(st) > 1 && st[1].Place == 1 {
		return nil // a tie for first: extra hands
	}
	return []table.Payload{
		MatchEnded{Hands: s.handsDone + 1, Standings: st},
		table.TableClosed{Reason: "match_over", Totals: totals},
	}
}

// standings ranks the seats by total, highest first (equal totals share a
// place, in seat order).
func standings(totals []int, players *[maxSeats][]string) []Standing {
	out := make([]Standing, len(totals))
	for seat, t := range totals {
		ps := slices.Clone(players[seat])
		if ps == nil {
			ps = []string{}
		}
		id := ""
		if len(ps) > 0 {
			id = ps[len(ps)-1]
		}
		out[seat] = Standing{Seat: seat, PlayerID: id, Players: ps, Total: t, Place: 1}
		for _, o := range totals {
			if o > t {
				out[seat].Place++
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Standing) int { return a.Place - b.Place })
	return out
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
