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

func (m *memStore) Anchor(context.Context, string) (int64, string, error) { return m.cp, "", nil }

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

// hashedLog is a log whose event at position p has hash "h<p>" + salt.
type hashedLog struct {
	n    int64
	salt string
}

func (l hashedLog) ReadAll(_ context.Context, from int64, limit int) ([]eventstore.Event, error) {
	var evs []eventstore.Event
	for p := from + 1; p <= l.n && len(evs) < limit; p++ {
		evs = append(evs, eventstore.Event{Position: p, Hash: fmt.Sprintf("h%d%s", p, l.salt)})
	}
	return evs, nil
}

func (l hashedLog) Head(context.Context) (int64, string, error) {
	return l.n, fmt.Sprintf("h%d%s", l.n, l.salt), nil
}

// anchoredStore is memStore recording the hash at its checkpoint.
type anchoredStore struct {
	memStore
	hash string
}

func (m *anchoredStore) Anchor(context.Context, string) (int64, string, error) {
	return m.cp, m.hash, nil
}

func (m *anchoredStore) ApplyBatch(ctx context.Context, name string, evs []eventstore.Event) (int, error) {
	n, err := m.memStore.ApplyBatch(ctx, name, evs)
	for _, ev := range evs {
		if ev.Position == m.cp {
			m.hash = ev.Hash
		}
	}
	return n, err
}

// TestCatchUpRebuildsWhenTheLogLacksTheCheckpoint: a projection whose
// checkpoint the log does not hold (past its head: an older backup
// restored; or another event there: an older backup that then took new
// events) is rebuilt from position 0; one the log holds only catches up
// (DESIGN.md, Projections).
func TestCatchUpRebuildsWhenTheLogLacksTheCheckpoint(t *testing.T) {
	for _, tt := range []struct {
		name        string
		built, now  hashedLog
		wantRebuilt bool
	}{
		{"same log, grown", hashedLog{n: 10}, hashedLog{n: 15}, false},
		{"same log, unchanged", hashedLog{n: 10}, hashedLog{n: 10}, false},
		{"older log, checkpoint past its head", hashedLog{n: 10}, hashedLog{n: 6}, true},
		{"older log that grew past the checkpoint", hashedLog{n: 10}, hashedLog{n: 14, salt: "'"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := &anchoredStore{}
			if err := CatchUp(t.Context(), st, "p", tt.built); err != nil {
				t.Fatal(err)
			}
			var why string
			f := Feed{Store: st, Log: tt.now, Rebuilt: func(_, reason string) { why = reason }}
			if err := f.CatchUp(t.Context(), "p"); err != nil {
				t.Fatal(err)
			}
			if st.cp != tt.now.n {
				t.Fatalf("checkpoint %d after catching up, want the log's head %d", st.cp, tt.now.n)
			}
			if got := st.resets == 1; got != tt.wantRebuilt {
				t.Fatalf("rebuilt %v (%d resets, reason %q), want %v", got, st.resets, why, tt.wantRebuilt)
			}
			if tt.wantRebuilt && why == "" {
				t.Fatal("rebuilt without telling Rebuilt why")
			}
			if tt.wantRebuilt && (len(st.applied) != int(tt.now.n) || st.applied[0] != 1) {
				t.Fatalf("applied %v after a rebuild, want 1..%d", st.applied, tt.now.n)
			}
		})
	}
}
