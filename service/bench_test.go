package service_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"paiju/domain/table"
	"paiju/service"
)

// BenchmarkServiceMove measures one validated, durable move through the
// table service (load from the cache, decide, append with synchronous=FULL),
// with many tables played at once; no HTTP. One op is one move.
func BenchmarkServiceMove(b *testing.B) {
	svc, _ := newServiceB(b)
	ctx := context.Background()
	var n atomic.Uint64
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := n.Add(1)
		rng := rand.New(rand.NewPCG(i, 3))
		res, err := svc.Open(ctx, service.Player{ID: fmt.Sprintf("h%d", i)}, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, service.NoCond)
		if err != nil {
			b.Fatal(err)
		}
		id := res.Table.State.ID
		players := make([]service.Player, 3)
		for s := range players {
			players[s] = service.Player{ID: fmt.Sprintf("p%d-%d", i, s)}
			if _, err := svc.Join(ctx, players[s], id, s, service.NoCond); err != nil {
				b.Fatal(err)
			}
		}
		for pb.Next() {
			l, err := svc.Load(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			seat := *l.State.Rules.View(l.State.G, table.Auditor).Turn
			legal := table.Legal(l.State, seat)
			a := legal[rng.IntN(len(legal)-1)] // the last is escape
			if _, err := svc.Act(ctx, players[seat], id, a, service.NoCond); err != nil {
				b.Fatal(err)
			}
		}
	})
}
