package doudizhu

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
	"paiju/internal/cputime"
)

// storedEvent is an event as the store keeps it: its type and JSON data.
type storedEvent struct {
	typ  string
	data []byte
}

// replayStream plays a classic table of random legal actions (as
// BenchmarkRandomHand does) from its opening until its stream holds at
// least n events, and returns the stream as stored.
func replayStream(t testing.TB, n int) []storedEvent {
	r := rulesOf(t, "classic", "")
	seeds := &gametest.SeedSeq{ID: 7}
	rng := rand.New(rand.NewPCG(7, 7))
	var out []storedEvent
	record := func(evs []table.Payload) {
		for _, e := range evs {
			data, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, storedEvent{e.EventType(), data})
		}
	}
	st := table.New(r.untyped())
	evs, err := table.Open(r.untyped(), "t", "doudizhu", "classic", 1, "p0")
	if err != nil {
		t.Fatal(err)
	}
	gametest.ApplyAll(st, evs)
	record(evs)
	for i := range r.v.seats {
		evs, err := table.Join(st, fmt.Sprintf("p%d", i), fmt.Sprintf("Player %d", i), -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		gametest.ApplyAll(st, evs)
		record(evs)
	}
	var pl plan
	for len(out) < n {
		g := gametest.Game[State](st)
		evs, err := table.Act(st, g.turn, benchAction(r, g, rng, &pl), seeds)
		if err != nil {
			t.Fatal(err)
		}
		gametest.ApplyAll(st, evs)
		record(evs)
	}
	return out[:n]
}

// BenchmarkColdReplay rebuilds a table from its 150 stored events, as the
// service folds a table it has no cached state for: each event's JSON
// decoded (table.Decode) and applied (table.ApplyAt) to a new state. One op
// is the whole table; decode-allocs/event is the allocations of decoding
// alone, an event.
func BenchmarkColdReplay(b *testing.B) {
	const n = 150
	stream := replayStream(b, n)
	rules := rulesOf(b, "classic", "").untyped()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b.Run("fold", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cputime.Now()
		for b.Loop() {
			st := table.New(rules)
			for _, e := range stream {
				p, err := table.Decode(rules, e.typ, e.data)
				if err != nil {
					b.Fatal(err)
				}
				table.ApplyAt(st, p, at)
			}
		}
		gametest.ReportCPU(b, cpu)
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cputime.Now()
		for b.Loop() {
			for _, e := range stream {
				if _, err := table.Decode(rules, e.typ, e.data); err != nil {
					b.Fatal(err)
				}
			}
		}
		gametest.ReportCPU(b, cpu)
		allocs := testing.AllocsPerRun(10, func() {
			for _, e := range stream {
				table.Decode(rules, e.typ, e.data)
			}
		})
		b.ReportMetric(allocs/n, "decode-allocs/event")
	})
}

// TestReplayStream checks that the benchmark's stream folds back to the
// state it was made from: every event decodes and applies.
func TestReplayStream(t *testing.T) {
	stream := replayStream(t, 150)
	rules := rulesOf(t, "classic", "").untyped()
	st := table.New(rules)
	for _, e := range stream {
		p, err := table.Decode(rules, e.typ, e.data)
		if err != nil {
			t.Fatal(err)
		}
		table.ApplyAt(st, p, time.Time{})
	}
	if st.Hand < 2 {
		t.Fatalf("150 events play %d hands, want several", st.Hand)
	}
}
