package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/internal/cputime"
)

// benchEvent is about the size of a play event.
var benchEvent = eventstore.NewEvent{Type: "CardsPlayed", Data: []byte(`{"hand":3,"seat":1,"cards":"S10 S10 HJ HJ","reading":"pair_sequence","remaining":13}`)}

func openBench(b *testing.B, sync string) *sqlite.Store {
	b.Helper()
	dir := b.TempDir()
	s, err := sqlite.Open(context.Background(), filepath.Join(dir, "paiju.db"),
		sqlite.Options{Synchronous: sync, HeadFile: filepath.Join(dir, "head")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func reportBatching(b *testing.B, s *sqlite.Store) {
	if st := s.Stats(); st.Commits > 0 {
		b.ReportMetric(float64(st.Appends)/float64(st.Commits), "appends/commit")
	}
}

// reportRates reports cpu-ns/op (the whole process's CPU time an op, the
// database's included: modernc's SQLite runs in the process) and appends/s.
func reportRates(b *testing.B, cpuStart int64) {
	b.ReportMetric(float64(cputime.Now()-cpuStart)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
}

// BenchmarkAppend appends one event per call. "parallel" runs 16 appenders
// per core, each on its own stream, as concurrent commands on different
// tables do: group commit shares fsyncs among them.
func BenchmarkAppend(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run(sync+"/sequential", func(b *testing.B) {
			s := openBench(b, sync)
			ctx := context.Background()
			events := []eventstore.NewEvent{benchEvent}
			v := 0
			cpu := cputime.Now()
			for b.Loop() {
				if _, err := s.Append(ctx, "table-bench", v, events); err != nil {
					b.Fatal(err)
				}
				v++
			}
			reportRates(b, cpu)
			reportBatching(b, s)
		})
		b.Run(sync+"/parallel", func(b *testing.B) {
			s := openBench(b, sync)
			var streams atomic.Int64
			b.SetParallelism(16)
			b.ResetTimer()
			cpu := cputime.Now()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				stream := fmt.Sprintf("table-%d", streams.Add(1))
				events := []eventstore.NewEvent{benchEvent}
				for v := 0; pb.Next(); v++ {
					if _, err := s.Append(ctx, stream, v, events); err != nil {
						b.Error(err)
						return
					}
				}
			})
			reportRates(b, cpu)
			reportBatching(b, s)
		})
	}
}

// BenchmarkAppendMoves appends as the server does for moves: 16 appenders
// per core, each on its own table, each append carrying an idempotency key
// (every POST /actions has one) and one event, or two one time in eight (a
// play that ends the hand), under synchronous=FULL.
func BenchmarkAppendMoves(b *testing.B) {
	s := openBench(b, "FULL")
	var streams atomic.Int64
	settled := eventstore.NewEvent{Type: "HandSettled", Data: []byte(`{"hand":3,"deltas":[2,-1,-1],"spring":false}`)}
	b.SetParallelism(16)
	b.ResetTimer()
	cpu := cputime.Now()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		n := streams.Add(1)
		stream := fmt.Sprintf("table-%d", n)
		one := []eventstore.NewEvent{benchEvent}
		two := []eventstore.NewEvent{benchEvent, settled}
		v := 0
		for i := 0; pb.Next(); i++ {
			events := one
			if i%8 == 7 {
				events = two
			}
			key := eventstore.IdempotencyKey{Scope: fmt.Sprintf("p%d", n), Key: fmt.Sprintf("k%d", i), RequestHash: "h"}
			if _, err := s.AppendIdempotent(ctx, stream, v, events, key); err != nil {
				b.Error(err)
				return
			}
			v += len(events)
		}
	})
	reportRates(b, cpu)
	reportBatching(b, s)
}

// BenchmarkLoad loads a 200-event stream, what handling a command on a long
// table costs before its rules run.
func BenchmarkLoad(b *testing.B) {
	s := openBench(b, "NORMAL")
	ctx := context.Background()
	for v := range 200 {
		if _, err := s.Append(ctx, "table-bench", v, []eventstore.NewEvent{benchEvent}); err != nil {
			b.Fatal(err)
		}
		// Interleave another table so the stream is not contiguous in the log.
		if _, err := s.Append(ctx, "table-other", v, []eventstore.NewEvent{benchEvent}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		events, err := s.Load(ctx, "table-bench", 0)
		if err != nil || len(events) != 200 {
			b.Fatalf("Load: %d events, %v", len(events), err)
		}
	}
}

// BenchmarkStartupChecks is what serve adds to its start-up per log size:
// SQLite's quick_check of the file and the whole hash chain verified.
func BenchmarkStartupChecks(b *testing.B) {
	const events = 20000
	s := openBench(b, "NORMAL")
	ctx := context.Background()
	batch := make([]eventstore.NewEvent, 100)
	for i := range batch {
		batch[i] = benchEvent
	}
	for i := range events / len(batch) {
		if _, err := s.Append(ctx, fmt.Sprintf("table-%d", i), 0, batch); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if err := s.CheckIntegrity(ctx, true); err != nil {
			b.Fatal(err)
		}
		if err := eventstore.VerifyChain(ctx, s, 0, ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(events, "events")
}

// BenchmarkTokenByHash is what authenticating one request costs the store
// (nothing caches it, so that a revocation holds at once), among 1000
// players with three tokens each.
func BenchmarkTokenByHash(b *testing.B) {
	s := openBench(b, "")
	ctx := context.Background()
	for i := range 1000 {
		p := eventstore.Player{ID: fmt.Sprintf("p%d", i), Name: "x"}
		if err := s.CreatePlayer(ctx, p, eventstore.Token{ID: fmt.Sprintf("t%d-0", i), Hash: fmt.Sprintf("h%d-0", i)}); err != nil {
			b.Fatal(err)
		}
		for j := 1; j < 3; j++ {
			if err := s.CreateToken(ctx, eventstore.Token{ID: fmt.Sprintf("t%d-%d", i, j), PlayerID: p.ID, Hash: fmt.Sprintf("h%d-%d", i, j)}, -1); err != nil {
				b.Fatal(err)
			}
		}
	}
	for i := 0; b.Loop(); i++ {
		if _, _, err := s.TokenByHash(ctx, fmt.Sprintf("h%d-%d", i%1000, i%3)); err != nil {
			b.Fatal(err)
		}
	}
}
