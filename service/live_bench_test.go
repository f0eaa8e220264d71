package service_test

import (
	"context"
	"testing"
	"time"

	"paiju/service"
)

// BenchmarkBotTablesSoak plays 200 tables of bots only (every variant in
// turn, two hands each, no think delay) to their end on one SQLite store,
// then verifies every stream with the auditor. It reports the server moves
// per second (each a durable, validated append); one op is the whole soak.
//
//	go test -run '^$' -bench BotTablesSoak -benchtime 1x ./service
func BenchmarkBotTablesSoak(b *testing.B) {
	const tables = 200
	variants := allVariants()
	for b.Loop() {
		b.StopTimer()
		e := newLiveEnv(b)
		svc := e.service(false)
		ctx := context.Background()
		ids := make([]string, tables)
		for i := range ids {
			v := variants[i%len(variants)]
			res, err := svc.Open(ctx, service.Player{ID: "host"}, service.OpenRequest{Game: v.game, Variant: v.variant, Stake: 1, Bots: v.seats, MaxHands: 2}, service.NoCond)
			if err != nil {
				b.Fatal(err)
			}
			ids[i] = res.Table.State.ID
		}
		b.StartTimer()
		start := time.Now()
		moves := svc.RunDue(ctx)
		elapsed := time.Since(start)
		b.StopTimer()
		for _, id := range ids {
			l, err := svc.Load(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			if !l.State.Closed {
				b.Fatalf("table %s (%s/%s) is not closed", id, l.State.Game, l.State.Variant)
			}
			e.verify(id)
		}
		b.ReportMetric(float64(moves)/elapsed.Seconds(), "moves/s")
		b.ReportMetric(float64(moves), "moves")
		b.StartTimer()
	}
}
