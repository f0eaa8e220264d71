package table

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Live tables: the turn clock, 托管 (trusteeship) and bots. The table owns the
// clock and the delegation; a game says whom it waits for, what a seat does
// when its time runs out, and how its bot plays.

// Autoplay is implemented by rules that can run under the turn clock and be
// played by the server. Every method is pure, like the rest of Rules.
type Autoplay interface {
	// Awaited lists, in increasing seat order, the seats the game is waiting
	// for now; each of them has a running deadline. It is empty between deals
	// and when the game needs nobody (never nil-vs-empty significant). It must
	// be cheap: the table calls it after every event.
	Awaited(s GameState) []int
	// TimeoutAction is the documented default action of an awaited seat whose
	// deadline has passed (the game's doc.go states the policy per phase). It
	// must be legal for that seat: Decide accepts it as it is. The table stamps
	// At before deciding it.
	TimeoutAction(s GameState, seat int) Action
	// BotAction is the bot's choice for a seat, decided only from what that
	// seat may see: its view and its legal actions (escape excluded), never the
	// state. legal is never empty. The result must be one of legal.
	BotAction(v View, legal []Action) Action
}

// TurnTimedOut records that the turn clock ran out for Seat at At. The seat's
// default action (Autoplay.TimeoutAction) follows in the same batch.
type TurnTimedOut struct {
	Seat int       `json:"seat"`
	At   time.Time `json:"at"`
}

// SeatDelegated: from now on the server plays Seat (托管) with the game's bot.
// By is "clock" (DelegateAfter timeouts in a row) or "player" (the player
// asked for it).
type SeatDelegated struct {
	Seat int    `json:"seat"`
	By   string `json:"by"`
}

// SeatResumed: the player of Seat plays again themself.
type SeatResumed struct {
	Seat int `json:"seat"`
}

func (TurnTimedOut) EventType() string  { return "TurnTimedOut" }
func (SeatDelegated) EventType() string { return "SeatDelegated" }
func (SeatResumed) EventType() string   { return "SeatResumed" }

// Clock is a table's turn clock, recorded in TableOpened. A table opened
// without one (every table opened before clocks existed) has no deadlines.
type Clock struct {
	// TurnSeconds is how long an awaited seat has to act; 0 turns the clock off.
	TurnSeconds int `json:"turn_seconds"`
	// DelegateAfter is how many timeouts in a row hand a seat to the bot (托管);
	// 0 never delegates on the clock's account.
	DelegateAfter int `json:"delegate_after"`
}

// Turn clock defaults and bounds.
const (
	DefaultTurnSeconds   = 30
	DefaultDelegateAfter = 2
	MinTurnSeconds       = 5
	MaxTurnSeconds       = 3600
	MaxDelegateAfter     = 10
)

// DefaultClock is the clock of a table opened without saying otherwise.
func DefaultClock() Clock {
	return Clock{TurnSeconds: DefaultTurnSeconds, DelegateAfter: DefaultDelegateAfter}
}

// Validate checks the clock's bounds.
func (c Clock) Validate() error {
	if c.TurnSeconds != 0 && (c.TurnSeconds < MinTurnSeconds || c.TurnSeconds > MaxTurnSeconds) {
		return ErrBadOption.With("clock.turn_seconds must be 0 (no clock) or %d..%d, got %d", MinTurnSeconds, MaxTurnSeconds, c.TurnSeconds)
	}
	if c.DelegateAfter < 0 || c.DelegateAfter > MaxDelegateAfter {
		return ErrBadOption.With("clock.delegate_after must be 0 (never) or 1..%d, got %d", MaxDelegateAfter, c.DelegateAfter)
	}
	return nil
}

// Pace is how a table is paced, as quick play matches tables by it and
// the table directory records it (its clock column): the turn clock as
// JSON ("" without one), followed by " wait_between_hands" when the table
// waits for its seats between hands (TableOpened.WaitBetweenHands). A
// table opened before the flag existed keeps the pace it had.
func Pace(c *Clock, waitBetweenHands bool) string {
	pace := ""
	if c != nil {
		b, err := json.Marshal(c)
		if err != nil {
			panic(fmt.Sprintf("table: encode a clock: %v", err)) // two ints: cannot fail
		}
		pace = string(b)
	}
	if waitBetweenHands {
		pace += " wait_between_hands"
	}
	return pace
}

// Generic actions of the live table.
const (
	ActionDelegate = "delegate" // hand one's seat to the bot (托管)
	ActionResume   = "resume"   // take one's seat back from the bot
	// ActionTimeout is how Command-style tools name a TurnTimedOut: it is
	// never posted, the server decides it (Timeout).
	ActionTimeout = "timeout"
)

// Errors of the live table.
var (
	ErrNoDeadline         = &Error{Kind: KindConflict, Code: "no_deadline"}
	ErrDeadlineNotReached = &Error{Kind: KindConflict, Code: "deadline_not_reached"}
	ErrNotDelegated       = &Error{Kind: KindConflict, Code: "not_delegated"}
	ErrAlreadyDelegated   = &Error{Kind: KindConflict, Code: "already_delegated"}
	ErrSeatDelegated      = &Error{Kind: KindConflict, Code: "seat_delegated"}
)

// live is what the table keeps of the turn clock and the server's seats.
type live struct {
	Clock     *Clock
	Bots      []bool      // seat taken by a server bot
	Delegated []bool      // seat played by the bot (托管) until its player resumes
	Ready     []bool      // between hands, the seat is ready for the next deal (SeatReady)
	TimedOut  []int       // timeouts in a row per seat
	Waiting   []bool      // the game awaits the seat (Autoplay.Awaited)
	Since     []time.Time // when the seat's current wait began
	// watchers maps each watcher to the seat it watches (watch.go).
	watchers map[string]int
	// pending is 1 + the seat of a TurnTimedOut whose default action has not
	// started yet (0: none), so that the default action is not counted as the
	// player acting.
	pending int
	// absence counts the deals thrown in (DealVoided) in a row during which
	// no seat acted for itself (Abandoning); acted says a seat has in the
	// running deal.
	absence absence
}

// absence is what the table keeps for Abandoning rules.
type absence struct {
	acted  bool
	voided int
}

func (l *live) open(seats int, c *Clock) {
	l.Clock = c
	l.Bots = make([]bool, seats)
	l.Delegated = make([]bool, seats)
	l.Ready = make([]bool, seats)
	l.TimedOut = make([]int, seats)
	l.Waiting = make([]bool, seats)
	l.Since = make([]time.Time, seats)
}

func (l live) clone() live {
	c := l
	c.Bots = slices.Clone(l.Bots)
	c.Delegated = slices.Clone(l.Delegated)
	c.Ready = slices.Clone(l.Ready)
	c.TimedOut = slices.Clone(l.TimedOut)
	c.Waiting = slices.Clone(l.Waiting)
	c.Since = slices.Clone(l.Since)
	c.watchers = maps.Clone(l.watchers)
	return c
}

// GameDeadline is implemented by rules (the game's own type, Adapted) with
// a deadline of their own within a deal, such as 牛牛's arrange_seconds:
// every seat the game awaits has until then at the latest, and the turn
// clock's timeout (TurnTimedOut and the game's default action) applies at
// that time whether or not the table has a turn clock. ok is false when the
// running deal has no such deadline.
type GameDeadline interface {
	GameDeadline(s GameState) (due time.Time, ok bool)
}

// Deadline returns when seat's time to act runs out, if the game (or,
// between hands, the table) awaits the seat and either the table has a
// clock or the game a deadline of its own (GameDeadline): the earlier of
// the two.
func (s *State) Deadline(seat int) (time.Time, bool) {
	if seat < 0 || seat >= len(s.Waiting) || !s.Waiting[seat] {
		return time.Time{}, false
	}
	var (
		due time.Time
		ok  bool
	)
	if s.Clock != nil && s.Clock.TurnSeconds > 0 && !s.Since[seat].IsZero() {
		due, ok = s.Since[seat].Add(time.Duration(s.Clock.TurnSeconds)*time.Second), true
	}
	if g, yes := Adapted(s.Rules).(GameDeadline); yes && s.InDeal && s.G != nil {
		if d, has := g.GameDeadline(s.G); has && (!ok || d.Before(due)) {
			due, ok = d, true
		}
	}
	return due, ok
}

// Awaited reports whether the game waits for seat now.
func (s *State) Awaited(seat int) bool {
	return seat >= 0 && seat < len(s.Waiting) && s.Waiting[seat]
}

// ServerPlays reports whether the server plays seat: a bot's seat, or a
// delegated one.
func (s *State) ServerPlays(seat int) bool {
	return seat >= 0 && seat < len(s.Bots) && (s.Bots[seat] || s.Delegated[seat])
}

// applyLive records what p says of the clock and the server's seats, at the
// time at which p was recorded; it runs after the game has evolved.
func (s *State) applyLive(p Payload, at time.Time) {
	s.applyWatch(p)
	actor := -1
	switch e := p.(type) {
	case TableOpened:
		s.live.open(e.Seats, e.Clock)
		return
	case PlayerSeated:
		s.Bots[e.Seat], s.Delegated[e.Seat], s.TimedOut[e.Seat] = e.Bot, false, 0
		s.Ready[e.Seat] = true // whoever sits down between hands is ready
	case PlayerLeft:
		s.Bots[e.Seat], s.Delegated[e.Seat], s.TimedOut[e.Seat] = false, false, 0
		s.Ready[e.Seat] = false
	case PlayerEscaped:
		s.Bots[e.Seat], s.Delegated[e.Seat], s.TimedOut[e.Seat] = false, false, 0
		s.Ready[e.Seat] = false
	case SeatReady:
		s.Ready[e.Seat] = true
		actor = e.Seat
	case TurnTimedOut:
		s.TimedOut[e.Seat]++
		s.pending = e.Seat + 1
	case SeatDelegated:
		s.Delegated[e.Seat] = true
	case SeatResumed:
		s.Delegated[e.Seat], s.TimedOut[e.Seat] = false, 0
		s.absence.acted = true // a player came back
	case HandDealt:
		s.absence.acted = false
	case DealVoided:
		s.absence.voided++
		if s.absence.acted {
			s.absence.voided = 0
		}
	case HandSettled:
		s.absence.voided = 0
		clear(s.Ready)
	case DealSecret, TableClosed, WatcherAdded, WatcherRemoved:
	default:
		if seat, _, ok := s.Rules.Command(p); ok {
			actor = seat
		}
	}
	if actor >= 0 {
		if s.pending == actor+1 {
			s.pending = 0
		} else {
			s.TimedOut[actor] = 0
			// A server bot's seat counts as present (README of the rules,
			// Clocks); a delegated seat's bot does not.
			if !s.Delegated[actor] {
				s.absence.acted = true
			}
		}
	}
	ap, ok := s.Rules.(Autoplay)
	if !ok || s.Waiting == nil {
		return
	}
	var awaited []int
	if s.InDeal && !s.Closed && s.G != nil {
		awaited = ap.Awaited(s.G)
	} else if s.BetweenHands() {
		for seat := range s.Waiting {
			if s.WaitsFor(seat) {
				awaited = append(awaited, seat)
			}
		}
	}
	// A settlement starts every wait between hands afresh.
	_, settled := p.(HandSettled)
	k := 0
	for seat := range s.Waiting {
		w := k < len(awaited) && awaited[k] == seat
		if w {
			k++
			if !s.Waiting[seat] || seat == actor || settled {
				s.Since[seat] = at
			}
		} else {
			s.Since[seat] = time.Time{}
		}
		s.Waiting[seat] = w
	}
}

// Timeout decides what happens when seat's deadline has passed at now: a
// TurnTimedOut, the delegation of the seat when it has now timed out
// DelegateAfter times in a row, and the game's default action for the seat
// (Autoplay.TimeoutAction) with what follows it.
func Timeout(s *State, seat int, now time.Time, seeds SeedSource) ([]Payload, error) {
	if s.Closed {
		return nil, ErrTableClosed.With("table %s is closed", s.ID)
	}
	deadline, ok := s.Deadline(seat)
	if !ok {
		return nil, ErrNoDeadline.With("seat %d has no running deadline", seat)
	}
	if now.Before(deadline) {
		return nil, ErrDeadlineNotReached.With("seat %d has until %s", seat, deadline.Format(time.RFC3339Nano))
	}
	evs := []Payload{TurnTimedOut{Seat: seat, At: now}}
	if s.BetweenHands() {
		// The default between hands is continue. It never delegates the
		// seat: 托管 is about playing a hand, and none runs.
		return withDeal(s, append(evs, SeatReady{Seat: seat}), seeds)
	}
	ap, ok := s.Rules.(Autoplay)
	if !ok {
		return nil, fmt.Errorf("rules %s run under a clock but cannot play a seat", s.RulesVersion)
	}
	if d := s.clockDelegateAfter(); d > 0 && !s.Delegated[seat] && !s.Bots[seat] && s.TimedOut[seat]+1 >= d {
		evs = append(evs, SeatDelegated{Seat: seat, By: "clock"})
	}
	next := s.Clone()
	for _, e := range evs {
		ApplyAt(next, e, now)
	}
	a := ap.TimeoutAction(next.G, seat)
	a.At = now
	more, err := s.Rules.Decide(next.G, seat, a)
	if err != nil {
		// The game's documented default must always be legal.
		return nil, fmt.Errorf("default action %q of seat %d refused: %w", a.Type, seat, err)
	}
	return withDeal(s, append(evs, more...), seeds)
}

// clockDelegateAfter is the clock's delegate_after (0 without a clock: a
// game's own deadline never delegates).
func (s *State) clockDelegateAfter() int {
	if s.Clock == nil {
		return 0
	}
	return s.Clock.DelegateAfter
}

// BotMove is the action the game's bot takes for seat now, from the seat's
// view and legal actions only. ok is false when the game awaits nothing of
// the seat or cannot play it.
func BotMove(s *State, seat int, now time.Time) (Action, bool) {
	ap, ok := s.Rules.(Autoplay)
	if !ok || !s.Awaited(seat) {
		return Action{}, false
	}
	legal := gameLegal(s, seat, now)
	if len(legal) == 0 {
		return Action{}, false
	}
	a := ap.BotAction(s.Rules.View(s.G, seat), legal)
	a.At = now
	return a, true
}

func gameLegal(s *State, seat int, now time.Time) []Action {
	if t, ok := s.Rules.(Timed); ok && !now.IsZero() {
		return t.LegalAt(s.G, seat, now)
	}
	return s.Rules.Legal(s.G, seat)
}
