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
		return s.reveal([]table.Payload{RevealCalled{Seat: seat, At: a.At.UTC()}}, s.arr)
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
	for _, a := range done[:s.seats] {
		if !a.done {
			return evs, nil
		}
	}
	return s.reveal(evs, done)
}

// reveal appends to evs the reveal of every hand under the arrangements done
// and the settlement. A seat that has not arranged is 没牛 (niuniu.md,
// Arranging: "不拼牌,按无牛处理"), whatever bull its hand holds.
func (s *State) reveal(evs []table.Payload, done [maxSeats]arrangement) ([]table.Payload, error) {
	rev := HandsRevealed{Hand: s.hand}
	res := Result{End: "revealed", Banker: s.banker}
	if _, called := evs[0].(RevealCalled); called {
		res.End = "deadline"
	}
	for seat := range s.seats {
		rh := RevealedHand{
			Seat: seat, Cards: slices.Clone(s.hands[seat]), BullCards: slices.Clone(done[seat].cards),
			Reading: Reading{Bull: done[seat].bull, High: Highest(s.hands[seat])},
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
		player := rev.Hands[seat].Reading
		bankerWins, by := Compare(banker, player)
		b := Bout{Seat: seat, Winner: "player", By: by, Multiplier: player.Bull.Multiplier()}
		if bankerWins {
			b.Winner, b.Multiplier = "banker", banker.Bull.Multiplier()
		}
		b.Delta = s.Stake * b.Multiplier
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

// escape settles the hand seat leaves (niuniu.md, Escape Decision): a player
// who leaves is 没牛 and loses to the banker at the banker's multiplier, the
// other players' bouts are not played (delta 0); a banker who leaves loses
// to every player at that player's multiplier. The side that stays is valued
// at its arrangement, or at its best bull when it had not arranged yet (doc.go).
func (s *State) escape(seat int) ([]table.Payload, error) {
	res := Result{End: "escape", Banker: s.banker, Escaper: &seat}
	for i := range s.seats {
		b := s.arr[i].bull
		switch {
		case i == seat:
			b = NoBull
		case !s.arr[i].done:
			b = Best(s.hands[i])
		}
		res.Readings = append(res.Readings, b)
		res.High = append(res.High, Highest(s.hands[i]))
	}
	deltas := make([]int, s.seats)
	for p := range s.seats {
		if p == s.banker || (seat != s.banker && p != seat) {
			continue
		}
		b := Bout{Seat: p, Winner: "player", By: ByEscape, Multiplier: res.Readings[p].Multiplier()}
		if p == seat {
			b.Winner, b.Multiplier = "banker", res.Readings[s.banker].Multiplier()
		}
		b.Delta = s.Stake * b.Multiplier
		if p == seat {
			b.Delta = -b.Delta
		}
		deltas[p] = b.Delta
		deltas[s.banker] -= b.Delta
		res.Bouts = append(res.Bouts, b)
	}
	settled, err := s.Settle(s.hand, deltas, 0, res)
	if err != nil {
		return nil, err
	}
	return []table.Payload{
		table.PlayerEscaped{Seat: seat, PlayerID: s.Players[seat], Hand: s.hand},
		settled,
	}, nil
}
