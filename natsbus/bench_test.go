package natsbus_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"paiju/eventstore"
	"paiju/internal/cputime"
	"paiju/natsbus"
)

// BenchmarkRelay relays a store of 20,000 events to an empty stream per
// iteration and reports events/s and cpu-ns/event (the relay, the
// embedded nats-server and the store's reads). "tail" relays 4,000 events
// appended since the store was opened, fewer than it keeps in memory
// (sqlite.DefaultRecentEvents): what the relay of a running server reads,
// the events just committed. Run with:
//
//	go test -run '^$' -bench Relay -benchtime 3x ./natsbus
func BenchmarkRelay(b *testing.B) {
	for _, shape := range []struct {
		name              string
		events            int
		tables, perAppend int
	}{{"", 20000, 1, 10}, {"", 20000, 100, 1}, {"tail/", 4000, 100, 1}} {
		events := shape.events
		e := newEnv(b)
		for i := range shape.tables {
			e.openTable(fmt.Sprintf("T%03d", i), "doudizhu")
		}
		versions := make([]int, shape.tables)
		for i := range versions {
			versions[i] = 1
		}
		// Tables take turns, perAppend events at a time.
		for n := shape.tables; n < events; n += shape.perAppend {
			tb := (n / shape.perAppend) % shape.tables
			batch := make([]eventstore.NewEvent, shape.perAppend)
			for j := range batch {
				batch[j] = eventstore.NewEvent{Type: "CardsPlayed", Data: fmt.Appendf(nil, `{"seat":%d,"cards":"S10 S10 HJ HJ"}`, j%3)}
			}
			e.append(fmt.Sprintf("table-T%03d", tb), versions[tb], batch...)
			versions[tb] += len(batch)
		}
		head := e.head()

		for _, window := range []int{1, 256} {
			b.Run(fmt.Sprintf("%stables=%d/window=%d", shape.name, shape.tables, window), func(b *testing.B) {
				var cpu int64
				for b.Loop() {
					b.StopTimer()
					if err := e.js.DeleteStream(e.ctx, natsbus.StreamName); err != nil {
						b.Fatal(err)
					}
					if _, err := natsbus.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{}); err != nil {
						b.Fatal(err)
					}
					if err := e.st.SetCheckpoint(e.ctx, "nats-relay", 0); err != nil {
						b.Fatal(err)
					}
					r := natsbus.NewRelay(e.st, e.js, e.st, nil, natsbus.RelayOptions{Window: window})
					b.StartTimer()
					start := cputime.Now()
					ctx, cancel := context.WithCancel(e.ctx)
					done := make(chan error, 1)
					go func() { done <- r.Run(ctx) }()
					waitPosition(b, r, head)
					cancel()
					if err := <-done; err != nil {
						b.Fatal(err)
					}
					cpu += cputime.Now() - start
				}
				b.ReportMetric(float64(head)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
				b.ReportMetric(float64(cpu)/float64(head)/float64(b.N), "cpu-ns/event")
			})
		}
	}
}

// BenchmarkTicketPutTake is one stream ticket issued on a node and
// redeemed on another through the JetStream key-value bucket of a
// loopback nats-server: the price of tickets any node redeems.
func BenchmarkTicketPutTake(b *testing.B) {
	url := startNATSServer(b)
	ns, _ := natsbus.NewNamespace("bench")
	var nodes [2]*natsbus.Tickets
	for i := range nodes {
		_, js := dial(b, url)
		tk, err := natsbus.OpenTickets(b.Context(), js, ns, time.Minute, 1)
		if err != nil {
			b.Fatal(err)
		}
		nodes[i] = tk
	}
	ctx := b.Context()
	grant := []byte(`{"table_id":"01J","player_id":"01P","expires":"2026-12-01T12:00:30Z"}`)
	i := 0
	for b.Loop() {
		key := fmt.Sprintf("%064x", i)
		i++
		if err := nodes[0].Put(ctx, key, grant); err != nil {
			b.Fatal(err)
		}
		if _, ok, err := nodes[1].Take(ctx, key); err != nil || !ok {
			b.Fatalf("take: %v %v", ok, err)
		}
	}
}

// positions is a projector that only keeps each projection's checkpoint:
// what the feed costs without the projections' own work.
type positions struct {
	mu sync.Mutex
	cp map[string]int64
}

func (p *positions) CatchUp(context.Context, string) error { return nil }

func (p *positions) Apply(_ context.Context, name string, evs []eventstore.Event) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ev := range evs {
		if ev.Position == p.cp[name]+1 {
			p.cp[name] = ev.Position
		}
	}
	return nil
}

func (p *positions) lowest(names []string) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	low := p.cp[names[0]]
	for _, n := range names[1:] {
		low = min(low, p.cp[n])
	}
	return low
}

// BenchmarkProjectionFeed feeds a stream of 20,000 relayed events to the
// four projections of paiju serve, from fresh durable consumers, per
// iteration, with a projector that only keeps checkpoints: the feed's own
// price (the NATS client's and the embedded nats-server's work, deliveries
// and acknowledgements) in cpu-ns/event and allocations. Run with:
//
//	go test -run '^$' -bench ProjectionFeed -benchtime 3x -benchmem ./natsbus
func BenchmarkProjectionFeed(b *testing.B) {
	e := newEnv(b)
	e.openTable("T000", "doudizhu")
	const events = 20000
	for v := 1; v < events; v += 10 {
		batch := make([]eventstore.NewEvent, 10)
		for j := range batch {
			batch[j] = eventstore.NewEvent{Type: "CardsPlayed", Data: fmt.Appendf(nil, `{"seat":%d,"cards":"S10 S10 HJ HJ"}`, j%3)}
		}
		e.append("table-T000", v, batch...)
	}
	e.relayToHead(natsbus.RelayOptions{})
	head := e.head()
	names := []string{"hands", "leaderboards", "directory", "tournaments"}
	s, err := e.js.Stream(e.ctx, natsbus.StreamName)
	if err != nil {
		b.Fatal(err)
	}
	var cpu int64
	for b.Loop() {
		b.StopTimer()
		var consumers []string
		for n := range s.ConsumerNames(e.ctx).Name() {
			consumers = append(consumers, n)
		}
		for _, n := range consumers {
			if err := s.DeleteConsumer(e.ctx, n); err != nil {
				b.Fatal(err)
			}
		}
		p := &positions{cp: map[string]int64{}}
		f := &natsbus.ProjectionFeed{Projector: p, JS: e.js, Names: names, FetchWait: 50 * time.Millisecond}
		b.StartTimer()
		start := cputime.Now()
		ctx, cancel := context.WithCancel(e.ctx)
		done := make(chan error, 1)
		go func() { done <- f.Run(ctx) }()
		for p.lowest(names) < head {
			time.Sleep(time.Millisecond)
		}
		cancel()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Now() - start
	}
	b.ReportMetric(float64(head)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(cpu)/float64(head)/float64(b.N), "cpu-ns/event")
}
