package niuniu

import (
	"slices"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Action types of the game, besides the table's escape.
const (
	ActionArrange = "arrange" // {"type":"arrange","cards":[three cards]}: name the bull
	ActionNoBull  = "no_bull" // {"type":"no_bull"}: declare 没牛
	ActionReveal  = "reveal"  // {"type":"reveal"}: call the reveal once the deadline has passed
)

// Errors of the game.
var (
	// ErrNotABull: the three cards named do not sum to a multiple of 10.
	ErrNotABull = &table.Error{Kind: table.KindRule, Code: "not_a_bull"}
	// ErrDeadlineNotReached: a reveal called before the table's deadline,
	// or at a table (or deal) that has none.
	ErrDeadlineNotReached = &table.Error{Kind: table.KindConflict, Code: "deadline_not_reached"}
)

// Decide validates an action of seat and returns the events it causes.
// Errors are *table.Error; their messages name only the caller's own cards.
func (r *Rules) Decide(s *State, seat int, a table.Action) ([]table.Payload, error) {
	if seat < 0 || seat >= s.seats {
		return nil, table.ErrNoSuchSeat.With("seat %d does not exist: this table has seats 0..%d", seat, s.seats-1)
	}
	switch a.Type {
	case table.ActionEscape:
		if s.phase != phaseArranging {
			return nil, table.ErrWrongPhase.With("no hand is running: there is nothing to escape")
		}
		return s.escape(seat)
	}
	if s.phase == phaseArranging && s.forfeit[seat] != nil {
		return nil, table.ErrWrongPhase.With("seat %d's player escaped from this hand and its bout is settled: the seat plays again from the next hand (niuniu.md, Escape)", seat)
	}
	switch a.Type {
	case ActionArrange:
		if a.Bid != nil || a.As != "" || len(a.Cards) != 3 {
			return nil, table.ErrBadAction.With(`arrange takes exactly three "cards", the bull (no "bid" or "as"); to declare no bull post {"type":"no_bull"}`)
		}
		for i, c := range a.Cards {
			if !c.Valid() {
				return nil, table.ErrBadAction.With("card %d of the arrangement is not a card", i+1)
			}
			if slices.Contains(a.Cards[:i], c) {
				return nil, table.ErrBadAction.With("the arrangement names %s twice", c)
			}
		}
		if err := s.arranging(); err != nil {
			return nil, err
		}
		held := cards.Of(s.hands[seat])
		if missing := held.Missing(a.Cards); len(missing) > 0 {
			return nil, table.ErrCardNotInHand.With("you do not hold %s", cards.Format(missing))
		}
		bull, ok := Arrange(s.hands[seat], a.Cards)
		if !ok {
			sum := 0
			for _, c := range a.Cards {
				sum += Value(c)
			}
			return nil, ErrNotABull.With("%s sum to %d, not a multiple of 10 (niuniu.md, Arranging)", cards.Format(a.Cards), sum)
		}
		named := slices.Clone(a.Cards)
		Sort(named)
		return s.arranged(HandArranged{Seat: seat, Cards: named, Reading: &bull})
	case ActionNoBull:
		if !a.TypeOnly() {
			return nil, table.ErrBadAction.With(`no_bull takes no fields besides "type"`)
		}
		if err := s.arranging(); err != nil {
			return nil, err
		}
		none := NoBull
		return s.arranged(HandArranged{Seat: seat, Reading: &none})
	case ActionReveal:
		if !a.TypeOnly() {
			return nil, table.ErrBadAction.With(`reveal takes no fields besides "type"`)
		}
		if err := s.arranging(); err != nil {
			return nil, err
		}
		if err := s.mayReveal(a.At); err != nil {
			return nil, err
		}
		return s.reveal([]table.Payload{RevealCalled{Seat: seat, At: a.At.UTC()}}, s.arr, s.forfeit)
	}
	return nil, table.ErrUnknownAction.With("niuniu has no action %q (actions: arrange, no_bull, reveal, escape)", a.Type)
}

// mayReveal checks that the table's deadline has passed at now (niuniu.md,
// Arranging: the reveal happens "when the table's clock runs out"). The
// deadline counts from the deal's recorded time, so a replay decides the
// same way.
func (s *State) mayReveal(now time.Time) error {
	if s.arrangeFor == 0 {
		return ErrDeadlineNotReached.With("this table has no deadline (option arrange_seconds): the reveal comes when every seat has arranged or declared no bull")
	}
	due, ok := s.deadline()
	if !ok {
		return ErrDeadlineNotReached.With("this deal was not dated, so its deadline cannot pass: the reveal comes when every seat has arranged or declared no bull")
	}
	if now.IsZero() || now.Before(due) {
		return ErrDeadlineNotReached.With("the seats may arrange until %s; call the reveal after that", due.Format(time.RFC3339Nano))
	}
	return nil
}

func (s *State) arranging() error {
	if s.phase != phaseArranging {
		return table.ErrWrongPhase.With("no hand is running")
	}
	return nil
}

// arranged records an arrangement and, when it is the last seat's first,
// the reveal and the settlement (niuniu.md, Arranging: the reveal happens
// when every seat has arranged or declared no bull).
func (s *State) arranged(e HandArranged) ([]table.Payload, error) {
	evs := []table.Payload{e}
	done := s.arr
	done[e.Seat] = arrangement{done: true, bull: *e.Reading, cards: e.Cards}
	if !allDone(done[:s.seats]) {
		return evs, nil
	}
	return s.reveal(evs, done, s.forfeit)
}

func allDone(arr []arrangement) bool {
	for _, a := range arr {
		if !a.done {
			return false
		}
	}
	return true
}

// escapedSeats lists the seats with a forfeited bout, in order.
func escapedSeats(forfeit []*Bout) []int {
	var out []int
	for i, f := range forfeit {
		if f != nil {
			out = append(out, i)
		}
	}
	return out
}

// reveal appends to evs the reveal of every hand under the arrangements done
// and the settlement. A seat that has not arranged is 没牛 (niuniu.md,
// Arranging: "不拼牌,按无牛处理"), whatever bull its hand holds.
//
// A player who escaped is revealed as no bull and its forfeited bout stands
// as decided (niuniu.md, Escape, revised Decision).
func (s *State) reveal(evs []table.Payload, done [maxSeats]arrangement, forfeit [maxSeats]*Bout) ([]table.Payload, error) {
	rev := HandsRevealed{Hand: s.hand}
	res := Result{End: "revealed", Banker: s.banker, Escaped: escapedSeats(forfeit[:s.seats])}
	if _, called := evs[0].(RevealCalled); called {
		res.End = "deadline"
	}
	for seat := range s.seats {
		rd := Reading{Bull: done[seat].bull, High: Highest(s.hands[seat])}
		if forfeit[seat] == nil {
			rd = s.special(seat, rd)
		}
		rh := RevealedHand{
			Seat: seat, Cards: slices.Clone(s.hands[seat]), BullCards: slices.Clone(done[seat].cards),
			Reading: rd,
		}
		rev.Hands = append(rev.Hands, rh)
		res.Readings = append(res.Readings, rh.Reading.Bull)
		res.High = append(res.High, rh.High)
	}
	deltas := make([]int, s.seats)
	banker := rev.Hands[s.banker].Reading
	for seat := range s.seats {
		if seat == s.banker {
			continue
		}
		if f := forfeit[seat]; f != nil {
			deltas[seat] = f.Delta
			deltas[s.banker] -= f.Delta
			res.Bouts = append(res.Bouts, *f)
			continue
		}
		player := rev.Hands[seat].Reading
		bankerWins, by := Compare(banker, player)
		b := Bout{Seat: seat, Winner: "player", By: by, Multiplier: s.pay[player.Bull]}
		if bankerWins {
			b.Winner, b.Multiplier = "banker", s.pay[banker.Bull]
		}
		delta, err := table.MulStake(s.Stake, b.Multiplier)
		if err != nil {
			return nil, err
		}
		b.Delta = delta
		if bankerWins {
			b.Delta = -b.Delta
		}
		deltas[seat] = b.Delta
		deltas[s.banker] -= b.Delta
		res.Bouts = append(res.Bouts, b)
	}
	settled, err := s.Settle(s.hand, deltas, 0, res)
	if err != nil {
		return nil, err
	}
	return append(evs, rev, settled), nil
}

// escape decides seat's escape (niuniu.md, Escape, revised Decision).
//
// A player who escapes is 没牛 and loses its bout to the banker at once, at
// the banker's multiplier (BoutForfeited); it leaves, and the others play on
// to the reveal. One seat's escape never cancels another's bout. When the
// escape leaves no seat to wait for, the hand ends in the same batch: with
// the reveal when some player still holds its bout, else (every player has
// escaped) with the settlement alone.
//
// A banker who escapes ends the hand: it loses to every player still in it
// at that player's multiplier; the forfeited bouts stand.
//
// The side that stays is valued at its arrangement, or at its best bull
// when it had not arranged yet: the escape took away its time to arrange,
// and an escape must not cost less because the other side was slow.
//
// A special class (option special_hands) values a seat whatever it
// arranged, as at the reveal; the escaper stays 没牛.
//
// A seat whose player escaped earlier in the deal and that another player
// has taken since holds no hand in it: that player's escape only empties the
// seat again.
//
// Under rules /1 (niuniu/classic/1, escapeCancelsBouts) a player's escape
// ended the hand at once instead: the escaper lost its bout as above, and
// the other players' bouts were not played.
func (s *State) escape(seat int) ([]table.Payload, error) {
	evs := []table.Payload{table.PlayerEscaped{Seat: seat, PlayerID: s.Players[seat], Hand: s.hand}}
	if s.forfeit[seat] != nil {
		return evs, nil
	}
	value := func(i int) Bull {
		b := Best(s.hands[i])
		if s.arr[i].done {
			b = s.arr[i].bull
		}
		return s.special(i, Reading{Bull: b}).Bull
	}
	forfeit, done := s.forfeit, s.arr
	// lost is the escaper's bout under rules /1 (escapeCancelsBouts), where
	// a player's escape ends the hand: it loses its bout to the banker, and
	// the other players' bouts are not played (delta 0).
	var lost *Bout
	if seat != s.banker {
		m := s.pay[value(s.banker)]
		delta, err := table.MulStake(s.Stake, m)
		if err != nil {
			return nil, err
		}
		f := BoutForfeited{Seat: seat, Multiplier: m, Delta: -delta}
		if s.bankerMoves {
			// Redact shows the bout whole to this hand's banker only.
			banker := s.banker
			f.Banker = &banker
		}
		b := f.bout()
		if s.escapeCancelsBouts {
			lost = &b
		} else {
			evs = append(evs, f)
			forfeit[seat] = &b
			done[seat] = arrangement{done: true, bull: NoBull}
			if s.countPlayers(forfeit) > 0 {
				if !allDone(done[:s.seats]) {
					return evs, nil
				}
				return s.reveal(evs, done, forfeit)
			}
		}
	}
	// The hand ends on the escape: the banker's, or the last player's.
	res := Result{End: "escape", Banker: s.banker, Escaper: &seat, Escaped: escapedSeats(forfeit[:s.seats])}
	for i := range s.seats {
		b := value(i)
		if i == seat || forfeit[i] != nil {
			b = NoBull
		}
		res.Readings = append(res.Readings, b)
		res.High = append(res.High, Highest(s.hands[i]))
	}
	deltas := make([]int, s.seats)
	for p := range s.seats {
		if p == s.banker || (lost != nil && p != seat) {
			continue
		}
		b := Bout{Seat: p, Winner: "player", By: ByEscape, Multiplier: s.pay[res.Readings[p]]}
		delta, err := table.MulStake(s.Stake, b.Multiplier)
		if err != nil {
			return nil, err
		}
		b.Delta = delta
		if f := forfeit[p]; f != nil {
			b = *f
		}
		if lost != nil {
			b = *lost
		}
		deltas[p] = b.Delta
		deltas[s.banker] -= b.Delta
		res.Bouts = append(res.Bouts, b)
	}
	settled, err := s.Settle(s.hand, deltas, 0, res)
	if err != nil {
		return nil, err
	}
	return append(evs, settled), nil
}

// countPlayers is the number of players (not the banker) that still hold
// their bouts under forfeit.
func (s *State) countPlayers(forfeit [maxSeats]*Bout) int {
	n := 0
	for i := range s.seats {
		if i != s.banker && forfeit[i] == nil {
			n++
		}
	}
	return n
}

// special is seat's reading rd at the reveal under the option
// special_hands (niuniu.md, Table options, Decisions): the highest special
// class the table plays that the five cards make, whatever the seat
// arranged; else rd. A bomb's reading keeps the four's rank for ties.
func (s *State) special(seat int, rd Reading) Reading {
	if b := Special(s.hands[seat], s.pay); b != NoBull {
		rd.Bull = b
		if b == Bomb {
			rd.Four = fourOf(s.hands[seat])
		}
	}
	return rd
}
