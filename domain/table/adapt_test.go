package table_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/doudizhu"
	"paiju/domain/niuniu"
	"paiju/domain/table"
)

type otherState struct{ table.GameState }

// mustPanic runs f and reports whether it panicked, with the panic's text.
func mustPanic(f func()) (msg string, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			msg, panicked = fmt.Sprint(r), true
		}
	}()
	f()
	return "", false
}

func TestAdaptChecksTheState(t *testing.T) {
	r, _ := doudizhu.New().Rules("classic", nil)
	good := r.NewState()
	if _, ok := good.(*doudizhu.State); !ok {
		t.Fatalf("NewState through the adapter is %T, want *doudizhu.State", good)
	}
	if v := r.View(good, 0); v.Phase == "" {
		t.Fatalf("View of the game's own state: %+v", v)
	}
	if _, err := r.Decide(good, 0, table.Action{Type: doudizhu.ActionPass}); err == nil || strings.Contains(err.Error(), "wiring") {
		t.Fatalf("Decide of the game's own state before a deal: %v, want the game's own refusal", err)
	}
	var nilState *doudizhu.State
	for _, gs := range []table.GameState{nil, nilState, &otherState{}} {
		if _, err := r.Decide(gs, 0, table.Action{Type: doudizhu.ActionPass}); err == nil || !strings.Contains(err.Error(), "wiring fault") {
			t.Errorf("Decide of a %T: %v, want a wiring fault", gs, err)
		}
		if _, err := r.Deal(gs, table.DealNumber{Hand: 1, Deal: 1}, cards.Seed{1}); err == nil || !strings.Contains(err.Error(), "wiring fault") {
			t.Errorf("Deal of a %T: %v, want a wiring fault", gs, err)
		}
		for name, f := range map[string]func(){
			"View":   func() { r.View(gs, 0) },
			"Legal":  func() { r.Legal(gs, 0) },
			"Evolve": func() { r.Evolve(gs, table.PlayerLeft{}) },
		} {
			if msg, ok := mustPanic(f); !ok || !strings.Contains(msg, "*doudizhu.State") {
				t.Errorf("%s of a %T: panic %v %q, want a panic naming *doudizhu.State", name, gs, ok, msg)
			}
		}
	}
}

// toyState and the toy deciders exercise Adapt's optional interfaces.
type toyState struct{ n int }

func (s *toyState) Clone() table.GameState { c := *s; return &c }
func (s *toyState) NeedsDeal() bool        { return false }

type toy struct{}

func (toy) Version() string                                     { return "toy/1" }
func (toy) Options() json.RawMessage                            { return json.RawMessage(`{}`) }
func (toy) Seats() int                                          { return 2 }
func (toy) NewState() *toyState                                 { return &toyState{n: 7} }
func (toy) Decode(string, []byte) (table.Payload, error)        { return nil, fmt.Errorf("no events") }
func (toy) Redact(p table.Payload, _ int, _ bool) table.Payload { return p }
func (toy) Command(table.Payload) (int, table.Action, bool)     { return 0, table.Action{}, false }
func (toy) Deal(*toyState, table.DealNumber, cards.Seed) ([]table.Payload, error) {
	return nil, nil
}
func (toy) Decide(*toyState, int, table.Action) ([]table.Payload, error) { return nil, nil }
func (toy) Evolve(s *toyState, _ table.Payload) *toyState                { s.n++; return s }
func (toy) View(s *toyState, _ int) table.View                           { return table.View{Phase: fmt.Sprint(s.n)} }
func (toy) Legal(*toyState, int) []table.Action                          { return nil }

type timedToy struct{ toy }

func (timedToy) LegalAt(s *toyState, _ int, _ time.Time) []table.Action {
	return []table.Action{{Type: fmt.Sprint("at", s.n)}}
}

type autoToy struct{ toy }

func (autoToy) Awaited(s *toyState) []int { return []int{s.n} }
func (autoToy) TimeoutAction(s *toyState, seat int) table.Action {
	return table.Action{Type: fmt.Sprintf("timeout%d/%d", s.n, seat)}
}
func (autoToy) BotAction(_ table.View, legal []table.Action) table.Action { return legal[0] }

type timedAutoToy struct {
	timedToy
	autoToy
}

func (timedAutoToy) Version() string          { return "toy/1" }
func (timedAutoToy) Options() json.RawMessage { return nil }
func (timedAutoToy) Seats() int               { return 2 }
func (timedAutoToy) NewState() *toyState      { return &toyState{n: 7} }
func (timedAutoToy) Decode(string, []byte) (table.Payload, error) {
	return nil, fmt.Errorf("no events")
}
func (timedAutoToy) Redact(p table.Payload, _ int, _ bool) table.Payload {
	return p
}
func (timedAutoToy) Command(table.Payload) (int, table.Action, bool) { return 0, table.Action{}, false }
func (timedAutoToy) Deal(*toyState, table.DealNumber, cards.Seed) ([]table.Payload, error) {
	return nil, nil
}
func (timedAutoToy) Decide(*toyState, int, table.Action) ([]table.Payload, error) { return nil, nil }
func (timedAutoToy) Evolve(s *toyState, _ table.Payload) *toyState                { return s }
func (timedAutoToy) View(s *toyState, _ int) table.View                           { return table.View{} }
func (timedAutoToy) Legal(*toyState, int) []table.Action                          { return nil }

// The adapter is Timed exactly when the game is a TimedDecider and Autoplay
// exactly when it is an AutoplayDecider, and it hands those methods the
// game's own state (live.go, Autoplay; table.go, Timed).
func TestAdaptOptionalInterfaces(t *testing.T) {
	niu, _ := niuniu.New().Rules("classic", nil)
	ddz, _ := doudizhu.New().Rules("classic", nil)
	for _, tc := range []struct {
		name           string
		r              table.Rules
		timed, autoply bool
	}{
		{"toy", table.Adapt[*toyState](toy{}), false, false},
		{"timed toy", table.Adapt[*toyState](timedToy{}), true, false},
		{"autoplay toy", table.Adapt[*toyState](autoToy{}), false, true},
		{"timed autoplay toy", table.Adapt[*toyState](timedAutoToy{}), true, true},
		{"niuniu", niu, true, true},
		{"doudizhu", ddz, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm, timed := tc.r.(table.Timed)
			ap, auto := tc.r.(table.Autoplay)
			if timed != tc.timed || auto != tc.autoply {
				t.Fatalf("Timed %v, Autoplay %v; want %v, %v", timed, auto, tc.timed, tc.autoply)
			}
			gs := tc.r.NewState()
			if timed {
				if got := tm.LegalAt(gs, 0, time.Unix(1, 0)); tc.name != "niuniu" && (len(got) != 1 || got[0].Type != "at7") {
					t.Errorf("LegalAt: %v, want [at7] from the typed LegalAt", got)
				}
			}
			if auto && tc.name != "niuniu" && tc.name != "doudizhu" {
				if got := ap.Awaited(gs); len(got) != 1 || got[0] != 7 {
					t.Errorf("Awaited: %v, want [7] from the typed Awaited", got)
				}
				if got := ap.TimeoutAction(gs, 1); got.Type != "timeout7/1" {
					t.Errorf("TimeoutAction: %v, want timeout7/1", got)
				}
				legal := []table.Action{{Type: "pass"}}
				if got := ap.BotAction(table.View{}, legal); got.Type != "pass" {
					t.Errorf("BotAction: %v, want pass", got)
				}
			}
			if auto {
				if _, ok := mustPanic(func() { ap.Awaited(&otherState{}) }); !ok {
					t.Error("Awaited of another game's state does not panic")
				}
			}
			if _, ok := table.Adapted(tc.r).(table.Rules); ok {
				t.Errorf("Adapted gives %T, which is untyped Rules, want the typed game", table.Adapted(tc.r))
			}
		})
	}
}

func TestAdaptEvolvesTheTypedState(t *testing.T) {
	r := table.Adapt[*toyState](toy{})
	gs := r.Evolve(r.NewState(), table.PlayerLeft{})
	if got := r.View(gs, 0).Phase; got != "8" {
		t.Fatalf("after one Evolve the view reads %q, want 8", got)
	}
}

func TestEventsDecode(t *testing.T) {
	evs := table.Events(table.PlayerSeated{}, table.PlayerLeft{})
	p, err := evs.Decode("PlayerSeated", []byte(`{"seat":2,"player_id":"p2","name":"Two"}`))
	if err != nil || p != (table.PlayerSeated{Seat: 2, PlayerID: "p2", Name: "Two"}) {
		t.Fatalf("decode PlayerSeated: %#v, %v", p, err)
	}
	if !evs.Has("PlayerLeft") || evs.Has("TableClosed") {
		t.Fatal("Has does not list exactly the given types")
	}
	if _, err := evs.Decode("TableClosed", []byte(`{}`)); err == nil {
		t.Fatal("an unknown event type decodes")
	}
	if _, err := evs.Decode("PlayerLeft", []byte(`{"seat":"x"}`)); err == nil {
		t.Fatal("malformed PlayerLeft data decodes")
	}
}

// dupSeated names itself as PlayerSeated does.
type dupSeated struct{}

func (dupSeated) EventType() string { return "PlayerSeated" }

type pointerEvent struct{}

func (*pointerEvent) EventType() string { return "PointerEvent" }

func TestEventsRejectsDuplicatesAndPointers(t *testing.T) {
	if msg, ok := mustPanic(func() { table.Events(table.PlayerSeated{}, table.PlayerLeft{}, dupSeated{}) }); !ok || !strings.Contains(msg, `"PlayerSeated"`) {
		t.Fatalf("two types named PlayerSeated: panic %v %q, want a panic naming the type", ok, msg)
	}
	if _, ok := mustPanic(func() { table.Events(&pointerEvent{}) }); !ok {
		t.Fatal("a pointer payload is accepted")
	}
}

// Every common event decodes through table.Decode whatever the game.
func TestDecodeCommonEvents(t *testing.T) {
	r, _ := doudizhu.New().Rules("classic", nil)
	for _, p := range []table.Payload{
		table.TableOpened{TableID: "t"}, table.PlayerSeated{Seat: 1}, table.HandDealt{Hand: 1},
		table.DealVoided{Hand: 1}, table.DealSecret{Hand: 1}, table.HandSettled{Hand: 1},
		table.PlayerEscaped{Seat: 1}, table.PlayerLeft{Seat: 1}, table.TableClosed{Reason: "x"},
		table.TurnTimedOut{Seat: 1}, table.SeatDelegated{Seat: 1}, table.SeatResumed{Seat: 1},
	} {
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := table.Decode(r, p.EventType(), data)
		if err != nil || got.EventType() != p.EventType() {
			t.Errorf("decode %s: %v, %v", p.EventType(), got, err)
		}
	}
	if _, err := table.Decode(r, "NoSuchEvent", []byte(`{}`)); err == nil {
		t.Error("an unknown event type decodes")
	}
}
