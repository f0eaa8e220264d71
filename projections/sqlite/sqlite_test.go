package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/projections"
)

// log builds events of one table stream.
type log struct {
	stream string
	pos    int64
	evs    []eventstore.Event
	at     time.Time
}

func (l *log) add(p table.Payload) {
	data, err := json.Marshal(p)
	if err != nil {
		panic(err)
	}
	l.pos++
	l.at = l.at.Add(time.Second)
	l.evs = append(l.evs, eventstore.Event{Position: l.pos, Stream: l.stream, Version: int(l.pos), Type: p.EventType(), Data: data, RecordedAt: l.at})
}

func (l *log) ReadAll(_ context.Context, from int64, limit int) ([]eventstore.Event, error) {
	if from >= int64(len(l.evs)) {
		return nil, nil
	}
	return l.evs[from:min(int64(len(l.evs)), from+int64(limit))], nil
}

func (l *log) Head(context.Context) (int64, string, error) { return l.pos, "", nil }

// escapeTable: three seats; hand 1 settles normally, in hand 2 seat 1
// escapes and player D takes the seat for hand 3.
func escapeTable(hands int) *log {
	l := &log{stream: "table-T1", at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l.add(table.TableOpened{TableID: "T1", Game: "g", Variant: "v", Seats: 3, Stake: 1})
	for s, id := range []string{"A", "B", "C"} {
		l.add(table.PlayerSeated{Seat: s, PlayerID: id, Name: "name" + id})
	}
	for h := 1; h <= hands; h++ {
		l.add(table.HandDealt{Hand: h, Deal: 1, Commitment: "c", Hands: nil})
		l.add(table.DealSecret{Hand: h, Deal: 1, Seed: "s"})
		if h%3 == 2 {
			l.add(table.PlayerEscaped{Seat: 1, PlayerID: "B", Hand: h})
			l.add(table.HandSettled{Hand: h, Deltas: []int{2, -4, 2}, Seed: "s"})
			l.add(table.PlayerSeated{Seat: 1, PlayerID: "B", Name: "nameB"})
			continue
		}
		l.add(table.HandSettled{Hand: h, Deltas: []int{-2, 1, 1}, Seed: "s"})
	}
	return l
}

func open(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestApplyIdempotentAndGaps(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	l := escapeTable(2)
	for _, ev := range l.evs {
		if ok, err := db.Apply(ctx, projections.Leaderboards, ev); err != nil || !ok {
			t.Fatalf("apply %d: %v %v", ev.Position, ok, err)
		}
	}
	want, err := db.Leaderboard(ctx, projections.LeaderboardQuery{Game: "g"})
	if err != nil {
		t.Fatal(err)
	}
	// Every event again: nothing is applied and nothing changes.
	for _, ev := range l.evs {
		if ok, err := db.Apply(ctx, projections.Leaderboards, ev); err != nil || ok {
			t.Fatalf("apply %d again: %v %v", ev.Position, ok, err)
		}
	}
	got, err := db.Leaderboard(ctx, projections.LeaderboardQuery{Game: "g"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after duplicates %+v, was %+v", got, want)
	}
	// The escaper answers for the hand they left (shengji.md escape
	// settlement is per seat): B is -4 + 1.
	byID := map[string]projections.Row{}
	for _, r := range got.Rows {
		byID[r.PlayerID] = r
	}
	if byID["B"].Score != -3 || byID["A"].Score != 0 || byID["C"].Score != 3 || byID["B"].Hands != 2 {
		t.Fatalf("rows %+v", got.Rows)
	}
	l.add(table.HandDealt{Hand: 3, Deal: 1})
	l.add(table.HandSettled{Hand: 3, Deltas: []int{1, 1, -2}})
	var gap *projections.GapError
	if _, err := db.Apply(ctx, projections.Leaderboards, l.evs[len(l.evs)-1]); !errors.As(err, &gap) {
		t.Fatalf("event after a gap: %v", err)
	}
}

func TestReplaySameAsIncremental(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	l := escapeTable(7)
	for _, n := range projections.Names {
		for _, ev := range l.evs {
			if _, err := db.Apply(ctx, n, ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	read := func() string {
		lb, err := db.Leaderboard(ctx, projections.LeaderboardQuery{Game: "g", Limit: 2, Around: "B"})
		if err != nil {
			t.Fatal(err)
		}
		hp, err := db.PlayerHands(ctx, "B", "", 3)
		if err != nil {
			t.Fatal(err)
		}
		h, err := db.Hand(ctx, "T1-5")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal([]any{lb, hp, h})
		return string(b)
	}
	want := read()
	for _, n := range projections.Names {
		if err := db.Replay(ctx, n, l); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(); got != want {
		t.Fatalf("after replay:\n%s\nwas\n%s", got, want)
	}
	if _, err := db.Hand(ctx, "T1-8"); !errors.Is(err, projections.ErrNotFound) {
		t.Fatalf("unknown hand: %v", err)
	}
}

// BenchmarkApply measures events projected per second by both projections
// (one transaction per event and projection, as the runner applies them).
func BenchmarkApply(b *testing.B) {
	ctx := context.Background()
	db := open(b)
	l := &log{stream: "table-T1"}
	src := escapeTable(b.N/6 + 1)
	l.evs = src.evs
	b.ResetTimer()
	for i := range b.N {
		ev := l.evs[i%len(l.evs)]
		ev.Position = int64(i + 1)
		for _, n := range projections.Names {
			if _, err := db.Apply(ctx, n, ev); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkApplyBatch measures events projected per second when applied as
// the runner applies a fetched batch: up to 256 events per transaction.
func BenchmarkApplyBatch(b *testing.B) {
	ctx := context.Background()
	db := open(b)
	src := escapeTable(b.N/3 + 1) // at least 3 events a hand
	evs := src.evs[:b.N]
	b.ResetTimer()
	for i := 0; i < len(evs); i += 256 {
		page := evs[i:min(i+256, len(evs))]
		for _, n := range projections.Names {
			if _, err := db.ApplyBatch(ctx, n, page); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
