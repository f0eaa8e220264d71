package table

import (
	"encoding/json"
	"fmt"
	"time"

	"paiju/domain/cards"
)

// Decider is a game's rules over its own state type S: Rules with S in place
// of GameState. A game implements Decider and hands Adapt(d) to the table, so
// that it never converts a GameState itself. The methods' contracts are those
// of the same methods of Rules.
type Decider[S interface {
	GameState
	comparable
}] interface {
	Version() string
	Options() json.RawMessage
	Seats() int
	NewState() S
	Decode(typ string, data []byte) (Payload, error)
	Deal(s S, d DealNumber, seed cards.Seed) ([]Payload, error)
	Decide(s S, seat int, a Action) ([]Payload, error)
	Evolve(s S, p Payload) S
	View(s S, seat int) View
	Legal(s S, seat int) []Action
	Redact(p Payload, seat int, handOver bool) Payload
	Command(p Payload) (seat int, a Action, ok bool)
}

// TimedDecider is Timed over the game's own state.
type TimedDecider[S GameState] interface {
	LegalAt(s S, seat int, now time.Time) []Action
}

// AutoplayDecider is Autoplay over the game's own state.
type AutoplayDecider[S GameState] interface {
	Awaited(s S) []int
	TimeoutAction(s S, seat int) Action
	BotAction(v View, legal []Action) Action
}

// Adapt returns d as the untyped Rules the table and the service use. The
// result implements Timed exactly when d implements TimedDecider[S], and
// Autoplay exactly when d implements AutoplayDecider[S], so that a type
// switch on the Rules sees what the game offers. Every result is a
// Streamer: over d's own stream when d implements StreamDecider[S] (pruned
// by d when it implements HoldingDecider[S]), over its Legal list
// otherwise, so that a caller never needs to ask.
//
// Every state reaching d goes through one checked conversion: a state of
// another type (or nil) is a wiring fault, reported as an error by Decide and
// Deal and as a panic by the methods that cannot return one.
func Adapt[S interface {
	GameState
	comparable
}](d Decider[S]) Rules {
	a := adapter[S]{d: d}
	var timed, auto bool
	a.t, timed = d.(TimedDecider[S])
	a.p, auto = d.(AutoplayDecider[S])
	a.q, _ = d.(StreamDecider[S])
	a.h, _ = d.(HoldingDecider[S])
	a.m, _ = d.(SummaryDecider[S])
	switch {
	case timed && auto:
		return timedAutoplayAdapter[S]{a}
	case timed:
		return timedAdapter[S]{a}
	case auto:
		return autoplayAdapter[S]{a}
	}
	return a
}

// Adapted returns the Decider that Adapt wrapped into r, or r itself when r
// did not come from Adapt: a test or tool may reach the game's own type.
func Adapted(r Rules) any {
	if a, ok := r.(interface{ decider() any }); ok {
		return a.decider()
	}
	return r
}

// adapter is Adapt's result for a game with neither optional interface.
type adapter[S interface {
	GameState
	comparable
}] struct {
	d Decider[S]
	t TimedDecider[S]    // nil unless d is one
	p AutoplayDecider[S] // nil unless d is one
	q StreamDecider[S]   // nil unless d is one
	h HoldingDecider[S]  // nil unless d is one
	m SummaryDecider[S]  // nil unless d is one
}

// state is the one checked conversion from GameState to the game's type.
func (a adapter[S]) state(gs GameState) (S, error) {
	s, ok := gs.(S)
	var zero S
	if !ok || s == zero {
		return zero, fmt.Errorf("rules %s were handed game state %T, not %T: a wiring fault", a.d.Version(), gs, zero)
	}
	return s, nil
}

// mustState is state for the methods with no error to return.
func (a adapter[S]) mustState(gs GameState) S {
	s, err := a.state(gs)
	if err != nil {
		panic(err)
	}
	return s
}

func (a adapter[S]) decider() any                     { return a.d }
func (a adapter[S]) Version() string                  { return a.d.Version() }
func (a adapter[S]) Options() json.RawMessage         { return a.d.Options() }
func (a adapter[S]) Seats() int                       { return a.d.Seats() }
func (a adapter[S]) NewState() GameState              { return a.d.NewState() }
func (a adapter[S]) View(gs GameState, seat int) View { return a.d.View(a.mustState(gs), seat) }
func (a adapter[S]) Decode(typ string, data []byte) (Payload, error) {
	return a.d.Decode(typ, data)
}

func (a adapter[S]) Deal(gs GameState, d DealNumber, seed cards.Seed) ([]Payload, error) {
	s, err := a.state(gs)
	if err != nil {
		return nil, err
	}
	return a.d.Deal(s, d, seed)
}

func (a adapter[S]) Decide(gs GameState, seat int, act Action) ([]Payload, error) {
	s, err := a.state(gs)
	if err != nil {
		return nil, err
	}
	return a.d.Decide(s, seat, act)
}

func (a adapter[S]) Evolve(gs GameState, p Payload) GameState {
	return a.d.Evolve(a.mustState(gs), p)
}

func (a adapter[S]) Legal(gs GameState, seat int) []Action {
	return a.d.Legal(a.mustState(gs), seat)
}

func (a adapter[S]) Redact(p Payload, seat int, handOver bool) Payload {
	return a.d.Redact(p, seat, handOver)
}

func (a adapter[S]) Command(p Payload) (seat int, act Action, ok bool) { return a.d.Command(p) }

// The optional interfaces: each wrapper exposes exactly what its game
// implements, over the adapter's checked conversion.

type timedAdapter[S interface {
	GameState
	comparable
}] struct{ adapter[S] }

type autoplayAdapter[S interface {
	GameState
	comparable
}] struct{ adapter[S] }

type timedAutoplayAdapter[S interface {
	GameState
	comparable
}] struct{ adapter[S] }

func (a adapter[S]) legalAt(gs GameState, seat int, now time.Time) []Action {
	return a.t.LegalAt(a.mustState(gs), seat, now)
}
func (a adapter[S]) awaited(gs GameState) []int { return a.p.Awaited(a.mustState(gs)) }
func (a adapter[S]) timeoutAction(gs GameState, seat int) Action {
	return a.p.TimeoutAction(a.mustState(gs), seat)
}
func (a adapter[S]) botAction(v View, legal []Action) Action { return a.p.BotAction(v, legal) }

func (a timedAdapter[S]) LegalAt(gs GameState, seat int, now time.Time) []Action {
	return a.legalAt(gs, seat, now)
}

func (a autoplayAdapter[S]) Awaited(gs GameState) []int { return a.awaited(gs) }
func (a autoplayAdapter[S]) TimeoutAction(gs GameState, seat int) Action {
	return a.timeoutAction(gs, seat)
}
func (a autoplayAdapter[S]) BotAction(v View, legal []Action) Action { return a.botAction(v, legal) }

func (a timedAutoplayAdapter[S]) LegalAt(gs GameState, seat int, now time.Time) []Action {
	return a.legalAt(gs, seat, now)
}
func (a timedAutoplayAdapter[S]) Awaited(gs GameState) []int { return a.awaited(gs) }
func (a timedAutoplayAdapter[S]) TimeoutAction(gs GameState, seat int) Action {
	return a.timeoutAction(gs, seat)
}
func (a timedAutoplayAdapter[S]) BotAction(v View, legal []Action) Action {
	return a.botAction(v, legal)
}
