package niuniu

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"paiju/audit"
	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
	"paiju/eventstore"
)

// datedPosition is position with the deal made at clockStart.
func datedPosition(t *testing.T, r *Rules, hands ...string) *table.State {
	t.Helper()
	st := position(t, r, 1, hands...)
	g := gametest.Game[State](st)
	g.dealtAt = clockStart
	return st
}

func revealAt(at time.Time) table.Action { return table.Action{Type: ActionReveal, At: at} }

func hasReveal(actions []table.Action) bool {
	return slices.ContainsFunc(actions, func(a table.Action) bool { return a.Type == ActionReveal })
}

// niuniu.md, Arranging: the reveal happens when every seat has arranged, "or
// when the table's clock runs out". A seat may call it from the deadline on,
// not a millisecond before; the seats that have not arranged are 没牛 even
// when their hands hold a bull ("不拼牌,按无牛处理").
func TestRevealAfterDeadline(t *testing.T) {
	r := rulesWith(t, `{"seats":3,"arrange_seconds":30}`)
	// Seat 0 (banker) holds 牛8, seat 1 牛牛, seat 2 牛9; only seat 0 arranges.
	st := datedPosition(t, r, "S3 H7 DK C4 S4", "SJ HQ DK C10 S10", "S2 H8 DQ C4 S5")
	gametest.MustAct(t, st, 0, arrangeA("S3 H7 DK"))
	due := clockStart.Add(30 * time.Second)

	early := due.Add(-time.Millisecond)
	before := st.Version
	if _, err := table.Act(st, 1, revealAt(early), &gametest.SeedSeq{ID: 1}); !errors.Is(err, ErrDeadlineNotReached) {
		t.Fatalf("reveal a millisecond early: got %v, want deadline_not_reached", err)
	}
	if st.Version != before {
		t.Fatal("a refused reveal changed the table")
	}
	if hasReveal(r.LegalAt(st.G.(*State), 1, early)) || hasReveal(r.Legal(st.G.(*State), 1)) {
		t.Error("reveal listed before the deadline")
	}
	if !hasReveal(r.LegalAt(st.G.(*State), 2, due)) || !hasReveal(table.LegalAt(st, 0, due)) {
		t.Error("reveal not listed at the deadline")
	}
	if v := r.View(st.G.(*State), 1).Game.(GameView); v.Deadline == nil || !v.Deadline.Equal(due) {
		t.Errorf("view deadline %v, want %s", v.Deadline, due)
	}

	evs := gametest.MustAct(t, st, 2, revealAt(due))
	if got := gametest.EventTypes(evs); !slices.Equal(got[:3], []string{"RevealCalled", "HandsRevealed", "HandSettled"}) {
		t.Fatalf("reveal emits %v", got)
	}
	if rc := evs[0].(RevealCalled); rc.Seat != 2 || !rc.At.Equal(due) {
		t.Errorf("RevealCalled %+v", rc)
	}
	rev := evs[1].(HandsRevealed)
	for seat, want := range []Bull{8, NoBull, NoBull} {
		if got := rev.Hands[seat].Bull; got != want {
			t.Errorf("seat %d revealed as %v, want %v (niuniu.md: not arranged = 没牛)", seat, got, want)
		}
	}
	hs, res := gametest.SettledOf[Result](t, evs)
	// The banker's 牛8 (×3) beats both unarranged players.
	if want := []int{6, -3, -3}; !slices.Equal(hs.Deltas, want) || res.End != "deadline" {
		t.Errorf("settled %v, end %q; want %v, end deadline", hs.Deltas, res.End, want)
	}
}

// doc.go, Reveal: no deadline, no reveal — at a table without the option,
// or for a deal the service did not date.
func TestRevealNeedsADeadline(t *testing.T) {
	far := clockStart.Add(time.Hour)
	hands := []string{"S3 H7 DK C4 S4", "SJ HQ DK C10 S10"}
	for name, st := range map[string]*table.State{
		"no option":     datedPosition(t, rulesWith(t, `{"seats":2}`), hands...),
		"undated deal":  position(t, rulesWith(t, `{"seats":2,"arrange_seconds":5}`), 1, hands...),
		"no clock read": datedPosition(t, rulesWith(t, `{"seats":2,"arrange_seconds":5}`), hands...),
	} {
		at := far
		if name == "no clock read" {
			at = time.Time{}
		}
		if _, err := st.Rules.Decide(st.G, 0, revealAt(at)); !errors.Is(err, ErrDeadlineNotReached) {
			t.Errorf("%s: got %v, want deadline_not_reached", name, err)
		}
		if hasReveal(table.LegalAt(st, 0, at)) {
			t.Errorf("%s: reveal listed", name)
		}
	}
	st := datedPosition(t, rulesWith(t, `{"seats":2,"arrange_seconds":5}`), hands...)
	for _, a := range []table.Action{{Type: ActionReveal, At: far, Cards: cards.MustParse("S3")}, {Type: ActionReveal, At: far, As: "x"}} {
		if _, err := st.Rules.Decide(st.G, 0, a); !errors.Is(err, table.ErrBadAction) {
			t.Errorf("reveal with fields: got %v, want invalid_action", err)
		}
	}
}

func TestArrangeSecondsOption(t *testing.T) {
	r := rulesWith(t, `{"arrange_seconds":45}`)
	if got, want := string(r.Options()), `{"seats":4,"banker":0,"arrange_seconds":45}`; got != want {
		t.Errorf("options %s, want %s", got, want)
	}
	for _, in := range []string{`{"arrange_seconds":-1}`, `{"arrange_seconds":3601}`, `{"arrange_seconds":"30"}`} {
		if _, err := New().Rules("classic", json.RawMessage(in)); !errors.Is(err, table.ErrBadOption) {
			t.Errorf("options %s: got %v, want invalid_option", in, err)
		}
	}
}

// The deal's time and the reveal's time are both in the record, so the
// auditor decides a called reveal as the table did: moving the deal later,
// so that the reveal came before the deadline, is found.
func TestRevealIsAudited(t *testing.T) {
	r := rulesWith(t, `{"seats":2,"arrange_seconds":20}`)
	now := clockStart
	seeds := &datedSeq{SeedSeq: gametest.SeedSeq{ID: 7}, now: &now}
	st := table.New(r.untyped())
	var stream []eventstore.Event
	record := func(evs []table.Payload, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			table.Apply(st, e)
			data, _ := json.Marshal(e)
			stream = append(stream, eventstore.Event{Stream: "table-t", Version: st.Version, Type: e.EventType(), Data: data})
		}
	}
	record(table.Open(r.untyped(), "t", "niuniu", "classic", 1, "p0"))
	record(table.Join(st, "p0", "", -1, seeds))
	now = now.Add(3 * time.Second)
	record(table.Join(st, "p1", "", -1, seeds))
	dealAt := len(stream) - 2
	now = now.Add(25 * time.Second)
	record(table.Act(st, 1, table.Action{Type: ActionReveal, At: now}, seeds))
	rulesOf := func(o table.TableOpened) (table.Rules, error) { return New().Rules(o.Variant, o.Options) }
	if _, err := audit.VerifyTable(rulesOf, stream); err != nil {
		t.Fatalf("the clean stream does not verify: %v", err)
	}
	var d table.HandDealt
	json.Unmarshal(stream[dealAt].Data, &d)
	if !d.At.Equal(clockStart.Add(3 * time.Second)) {
		t.Fatalf("deal dated %s, want the second join's time", d.At)
	}
	d.At = d.At.Add(10 * time.Second)
	tampered := slices.Clone(stream)
	tampered[dealAt].Data, _ = json.Marshal(d)
	_, err := audit.VerifyTable(rulesOf, tampered)
	var f *audit.Fault
	if !errors.As(err, &f) || f.Version != stream[dealAt+2].Version {
		t.Fatalf("deal moved past the reveal's deadline: got %v, want a fault at the RevealCalled (version %d)", err, stream[dealAt+2].Version)
	}
}
