package e2e

import (
	"bufio"
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
)

// TestServeStreamHearsMoves: with the embedded NATS (the default), a
// table's stream sends each move as it is made. The notices come from the
// node's relay (natsbus.LocalLive); were they lost, the stream would send
// the moves only at its next heartbeat, 15 s later, and the wait below,
// shorter than that, would fail.
func TestServeStreamHearsMoves(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir())
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	c := apitest.New(t, base)
	tv, ps := seatThree(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, problem := c.Stream(ctx, apitest.Request{Path: "/v1/tables/" + tv.ID + "/stream", Token: ps[1].Token})
	if problem != nil {
		t.Fatalf("stream: %d %s", problem.Status, problem.Body)
	}
	defer resp.Body.Close()
	ids := make(chan int, 256)
	go func() {
		defer close(ids)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64*1024), 1<<22)
		for sc.Scan() {
			if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
				if v, err := strconv.Atoi(id); err == nil {
					ids <- v
				}
			}
		}
	}()
	// waitFor reads the stream up to version v.
	waitFor := func(v int) {
		t.Helper()
		limit := time.After(60 * time.Second)
		for {
			select {
			case got, ok := <-ids:
				if !ok {
					t.Fatalf("the stream ended before version %d", v)
				}
				if got >= v {
					return
				}
			case <-limit:
				t.Fatalf("version %d was not streamed within 60 s of its move", v)
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 6 {
		r := randomMove(t, c, tv.ID, ps, rng)
		// The move's first event (a bid or a play) is public; a later one
		// may be another seat's secret, which this seat is never sent.
		var moved struct {
			Events []struct {
				Version int `json:"version"`
			} `json:"events"`
		}
		r.Decode(t, &moved)
		if len(moved.Events) == 0 {
			t.Fatalf("the move's answer names no event: %s", r.Body)
		}
		waitFor(moved.Events[0].Version)
	}
}
