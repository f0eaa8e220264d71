package api_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/internal/app"
	"paiju/internal/cputime"
)

// BenchmarkStreamMove: n live streams of one 斗地主 table on one node
// receive a move. One op is one move: its notice reaches every stream (as
// NATS would bring it), each sends the move's events and the turn message
// to its client, and the op ends when every client has read the turn
// message of the move's version. The move itself (the POST, the commit)
// is played with the timer stopped; cpu-ns/op is the process's CPU time
// (user and system, the clients' reads included) in the timed part only.
// The streams are the three seats and spectators in turn (streams=3 is
// one client per seat, as `paiju loadtest --per-seat` plays).
func BenchmarkStreamMove(b *testing.B) {
	for _, n := range []int{3, 12, 48} {
		b.Run(fmt.Sprintf("streams=%d", n), func(b *testing.B) { benchStreamMove(b, n) })
	}
}

func benchStreamMove(b *testing.B, n int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // ends the streams before the server stops
	live := newFakeLive()
	// Watch and stop send to these; sized so that no stream waits.
	live.watched, live.stopped = make(chan string, n), make(chan struct{}, n)
	srv := benchServer(b, app.Config{Common: app.Common{Sync: "NORMAL"}}, func(d *api.Deps) {
		d.Live, d.Heartbeat, d.Quotas = live, time.Hour, api.Quotas{StreamsPerPlayer: n}
	})
	be := benchEnv{b: b, c: apitest.New(b, srv.URL).Unchecked(), rng: rand.New(rand.NewPCG(21, 1))}
	id, ps := be.openFull()
	tokens := []string{ps[0].Token, ps[1].Token, ps[2].Token}
	var spectator player
	be.do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "s"}}).Decode(b, &spectator)

	seen := make([]atomic.Int64, n) // the last turn version each client read
	progress := make(chan struct{}, 4*n)
	for i := range n {
		tok := spectator.Token
		if i%4 < 3 {
			tok = tokens[i%4]
		}
		resp, problem := be.c.Stream(ctx, apitest.Request{Path: "/v1/tables/" + id + "/stream", Token: tok})
		if problem != nil {
			b.Fatalf("stream: %d %s", problem.Status, problem.Body)
		}
		<-live.watched
		go func() {
			defer resp.Body.Close()
			rd := bufio.NewReader(resp.Body)
			turn := false
			for {
				line, err := rd.ReadSlice('\n')
				if err != nil {
					return
				}
				if turn {
					if v, ok := turnVersion(line); ok {
						seen[i].Store(v)
						select {
						case progress <- struct{}{}:
						default:
						}
					}
				}
				turn = bytes.Equal(line, []byte("event: turn\n"))
			}
		}()
	}
	waitAll := func(v int64) {
		for i := range seen {
			for seen[i].Load() < v {
				select {
				case <-progress:
				case <-time.After(10 * time.Second):
					b.Fatalf("stream %d did not read the turn of version %d in 10 s", i, v)
				}
			}
		}
	}
	waitAll(int64(be.view(id, ps[0].Token).Version))

	b.ReportAllocs()
	var cpu int64
	b.ResetTimer()
	b.StopTimer()
	for range b.N {
		be.move(id, ps)
		v := be.view(id, ps[0].Token).Version
		// The move's garbage is collected before the timed part, which
		// would otherwise pay for it.
		runtime.GC()
		start := cputime.Now()
		b.StartTimer()
		live.announce(id, v)
		waitAll(int64(v))
		b.StopTimer()
		cpu += cputime.Now() - start
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

// turnVersion reads the version of a turn message's data line.
func turnVersion(line []byte) (int64, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`data: {"version":`))
	if !ok {
		return 0, false
	}
	end := bytes.IndexByte(rest, ',')
	if end < 0 {
		return 0, false
	}
	v, err := strconv.ParseInt(string(rest[:end]), 10, 64)
	return v, err == nil
}

func (e benchEnv) view(id, token string) tableView {
	var v tableView
	e.do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token}).Decode(e.b, &v)
	return v
}
