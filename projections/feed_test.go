package projections

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"paiju/eventstore"
)

// memStore is an in-memory Store with one projection: it keeps the
// positions applied, in order, and keeps ApplyBatch's contract.
type memStore struct {
	cp      int64
	applied []int64
	resets  int
}

func (m *memStore) Checkpoint(context.Context, string) (int64, error) { return m.cp, nil }

func (m *memStore) ApplyBatch(_ context.Context, name string, evs []eventstore.Event) (int, error) {
	n := 0
	for _, ev := range evs {
		if ev.Position <= m.cp {
			continue
		}
		if ev.Position != m.cp+1 {
			return n, &GapError{Name: name, Checkpoint: m.cp, Position: ev.Position}
		}
		m.cp = ev.Position
		m.applied = append(m.applied, ev.Position)
		n++
	}
	return n, nil
}

func (m *memStore) Reset(context.Context, string) error {
	m.cp, m.applied = 0, nil
	m.resets++
	return nil
}

// memLog is a log of n events at positions 1..n.
type memLog int

func (l memLog) ReadAll(_ context.Context, from int64, limit int) ([]eventstore.Event, error) {
	var evs []eventstore.Event
	for p := from + 1; p <= int64(l) && len(evs) < limit; p++ {
		evs = append(evs, eventstore.Event{Position: p})
	}
	return evs, nil
}

func (l memLog) Head(context.Context) (int64, string, error) { return int64(l), "", nil }

func at(positions ...int64) []eventstore.Event {
	evs := make([]eventstore.Event, len(positions))
	for i, p := range positions {
		evs[i] = eventstore.Event{Position: p}
	}
	return evs
}

// TestFeedFillsGapsFromTheLog: a delivered batch past a gap is applied after
// the missing events, read from the log; without a log the gap is an error
// and nothing past it is applied (DESIGN.md, Projections: fill gaps from the
// store).
func TestFeedFillsGapsFromTheLog(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		log     Source
		start   int64
		batch   []eventstore.Event
		want    string // positions applied
		wantGap bool
	}{
		{"in order", nil, 0, at(1, 2, 3), "[1 2 3]", false},
		{"redelivered", nil, 3, at(2, 3, 4), "[4]", false},
		{"a gap without a log", nil, 2, at(5, 6), "[]", true},
		{"a gap filled from the log", memLog(6), 2, at(5, 6), "[3 4 5 6]", false},
		{"a gap after some applied", nil, 1, at(2, 4), "[2]", true},
	}
	for _, c := range cases {
		st := &memStore{cp: c.start}
		err := Feed{Store: st, Log: c.log}.Apply(ctx, "p", c.batch)
		var gap *GapError
		if errors.As(err, &gap) != c.wantGap || (!c.wantGap && err != nil) {
			t.Errorf("%s: Apply error %v, want a gap: %v", c.name, err, c.wantGap)
		}
		if got := fmt.Sprint(append([]int64{}, st.applied...)); got != c.want {
			t.Errorf("%s: applied %s, want %s", c.name, got, c.want)
		}
	}
}

// TestFeedCatchUpAndReplay: CatchUp reads the log past the checkpoint (and
// does nothing without a log); Replay starts over from position 0.
func TestFeedCatchUpAndReplay(t *testing.T) {
	ctx := context.Background()
	st := &memStore{cp: 0}
	if err := (Feed{Store: st}).CatchUp(ctx, "p"); err != nil || st.cp != 0 {
		t.Fatalf("CatchUp without a log: checkpoint %d, err %v; want 0, nil", st.cp, err)
	}
	log := memLog(readPage*2 + 3) // more than one page
	if err := (Feed{Store: st, Log: log}).CatchUp(ctx, "p"); err != nil || st.cp != int64(log) {
		t.Fatalf("CatchUp: checkpoint %d, err %v; want %d", st.cp, err, log)
	}
	if err := Replay(ctx, st, "p", memLog(5)); err != nil || st.resets != 1 || fmt.Sprint(st.applied) != "[1 2 3 4 5]" {
		t.Fatalf("Replay: resets %d, applied %v, err %v; want one reset and 1..5", st.resets, st.applied, err)
	}
}
