package postgres_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"paiju/eventstore"
	"paiju/eventstore/postgres"
	"paiju/internal/pgtest"
)

// benchEvent is about the size of a play event.
var benchEvent = eventstore.NewEvent{Type: "CardsPlayed", Data: []byte(`{"hand":3,"seat":1,"cards":"S10 S10 HJ HJ","reading":"pair_sequence","remaining":13}`)}

func reportBatching(b *testing.B, stores ...*postgres.Store) {
	var commits, appends int64
	for _, s := range stores {
		st := s.Stats()
		commits += st.Commits
		appends += st.Appends
	}
	if commits > 0 {
		b.ReportMetric(float64(appends)/float64(commits), "appends/commit")
	}
}

// BenchmarkAppend appends one event per call. "sequential" is one caller:
// a lock, a few round trips and a WAL flush per append. "parallel/N-stores"
// runs 16 appenders per core, each on its own stream, spread over N Stores
// on one database as over the nodes of a cluster: group commit shares one
// hold of the chain lock among a node's waiting appends, and the nodes take
// turns on the lock.
func BenchmarkAppend(b *testing.B) {
	b.Run("sequential", func(b *testing.B) {
		s := open(b, pgtest.NewDatabase(b), postgres.Options{})
		b.Cleanup(func() { s.Close() })
		ctx := context.Background()
		events := []eventstore.NewEvent{benchEvent}
		v := 0
		for b.Loop() {
			if _, err := s.Append(ctx, "table-bench", v, events); err != nil {
				b.Fatal(err)
			}
			v++
		}
		reportBatching(b, s)
	})
	for _, n := range []int{1, 2} {
		b.Run(fmt.Sprintf("parallel/%d-stores", n), func(b *testing.B) {
			url := pgtest.NewDatabase(b)
			stores := make([]*postgres.Store, n)
			for i := range stores {
				stores[i] = open(b, url, postgres.Options{})
				b.Cleanup(func() { stores[i].Close() })
			}
			var streams atomic.Int64
			b.SetParallelism(16)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				id := streams.Add(1)
				s := stores[int(id)%n]
				stream := fmt.Sprintf("table-%d", id)
				events := []eventstore.NewEvent{benchEvent}
				for v := 0; pb.Next(); v++ {
					if _, err := s.Append(ctx, stream, v, events); err != nil {
						b.Error(err)
						return
					}
				}
			})
			reportBatching(b, stores...)
		})
	}
}

// BenchmarkLoad loads a 200-event stream, what handling a command on a long
// table costs before its rules run (on a node whose cache missed).
func BenchmarkLoad(b *testing.B) {
	s := open(b, pgtest.NewDatabase(b), postgres.Options{})
	b.Cleanup(func() { s.Close() })
	ctx := context.Background()
	for v := range 200 {
		if _, err := s.Append(ctx, "table-bench", v, []eventstore.NewEvent{benchEvent}); err != nil {
			b.Fatal(err)
		}
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

// BenchmarkTokenByHash is what authenticating one request costs the store
// (nothing caches it, so that a revocation holds at once on every node),
// among 1000 players with three tokens each.
func BenchmarkTokenByHash(b *testing.B) {
	s := open(b, pgtest.NewDatabase(b), postgres.Options{})
	b.Cleanup(func() { s.Close() })
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
