package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"paiju/api/apitest"
	"paiju/internal/cli"
	"paiju/natsbus"
)

// syncBuffer is a bytes.Buffer safe for the server's logger and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var addrRE = regexp.MustCompile(`msg="paiju serving" addr=(\S+) data=\S+ nats=(\S+)`)

// startServer runs `paiju serve` through run on a random port and returns its
// base URL and a function that stops it and returns run's error.
func startServer(t *testing.T, dir string, extra ...string) (base, natsURL string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	done := make(chan error, 1)
	// No drain: these tests stop the server as soon as they are done.
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--auditor-token", "audit-me", "--rate-limit", "0", "--drain", "0"}, extra...)
	go func() { done <- cli.Run(ctx, args, func(string) string { return "" }, &bytes.Buffer{}, logs) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := addrRE.FindStringSubmatch(logs.String()); m != nil {
			stop := func() error { cancel(); return <-done }
			return "http://" + m[1], m[2], stop
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("serve exited before listening: %v\n%s", err, logs.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve did not start listening:\n%s", logs.String())
		}
	}
}

// TestServePlayVerify is the newcomer's path: start the server, play a whole
// hand of 斗地主 classic over HTTP, stop it, and verify the data directory.
// The relay must have handed every event on, and the embedded NATS kept no
// copy of them: nothing could read it.
func TestServePlayVerify(t *testing.T) {
	dir := t.TempDir()
	base, natsURL, stop := startServer(t, dir)
	c := apitest.New(t, base)

	waitReady(t, c)
	type player struct{ ID, Token string }
	var ps []player
	for _, name := range []string{"ann", "ben", "cat"} {
		var p player
		c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": name}}).Decode(t, &p)
		ps = append(ps, p)
	}
	var tv struct {
		ID string `json:"id"`
	}
	r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[0].Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	r.Decode(t, &tv)
	for _, p := range ps {
		if r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: p.Token}); r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	settled := false
	for step := 0; !settled && step < 500; step++ {
		var v struct {
			Turn *int `json:"turn"`
		}
		c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID, Token: ps[0].Token}).Decode(t, &v)
		p := ps[*v.Turn]
		r := playRandomChoice(t, c, tv.ID, p.Token, rng)
		settled = strings.Contains(string(r.Body), `"HandSettled"`)
	}
	if !settled {
		t.Fatal("the hand did not settle")
	}
	var feed struct {
		Version int `json:"version"`
	}
	c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/events", Token: "audit-me"}).Decode(t, &feed)
	if natsURL != natsbus.InProcessURL {
		t.Fatalf("serve logged NATS at %s, want %s: the embedded server has no address (DESIGN.md, NATS)", natsURL, natsbus.InProcessURL)
	}
	// The projections take the events from the relay: wait for both.
	waitProjected(t, c, ps[0].Token)
	waitRelayed(t, c)
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nats")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the data directory has a nats/ (%v): the embedded NATS stored a copy of the log that nothing reads", err)
	}

	var out bytes.Buffer
	if err := cli.Run(context.Background(), []string{"verify", "--data", dir}, func(string) string { return "" }, &out, &out); err != nil {
		t.Fatalf("paiju verify on the data directory: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "verified 1 tables") {
		t.Fatalf("verify output:\n%s", out.String())
	}
}

// waitRelayed polls /readyz until the relay has handed on every event.
func waitRelayed(t *testing.T, c *apitest.Client) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var ready struct {
			Checks []struct {
				Name   string `json:"name"`
				Detail string `json:"detail"`
			} `json:"checks"`
		}
		c.Do(apitest.Request{Method: "GET", Path: "/readyz"}).Decode(t, &ready)
		for _, ch := range ready.Checks {
			if ch.Name == "relay" && ch.Detail == "0 events behind" {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the relay did not catch up: %+v", ready)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// withEmbeddedStream starts the embedded NATS server of the data directory
// dir (no server may be running on it), calls f with its events stream,
// created if missing, and stops the server.
func withEmbeddedStream(t *testing.T, dir string, f func(jetstream.Stream)) {
	t.Helper()
	ctx := t.Context()
	emb, err := natsbus.StartEmbedded(ctx, filepath.Join(dir, "nats"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	nc, js, err := emb.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	st, err := natsbus.Namespace{}.EnsureStream(ctx, js, natsbus.StreamLimits{})
	if err != nil {
		t.Fatal(err)
	}
	f(st)
}

// rootPlayer is a registered player as the end-to-end tests use it.
type rootPlayer struct{ ID, Token string }

// registerFree registers a player named name, or name with a number after
// it when the name is taken.
func registerFree(t *testing.T, c *apitest.Client, name string) rootPlayer {
	t.Helper()
	r := c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": name}})
	for n := 2; r.Status == http.StatusConflict && r.Problem(t) == "name_taken"; n++ {
		r = c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": fmt.Sprintf("%s %d", name, n)}})
	}
	var p rootPlayer
	r.Decode(t, &p)
	return p
}

// seatedTable is a table the end-to-end tests opened.
type seatedTable struct{ ID string }

// seatThree registers ann, ben and cat (with a number after each when the
// server has them already: names are unique), opens a 斗地主 classic table
// at stake 1 and seats them in that order; the last join deals the first
// hand.
func seatThree(t *testing.T, c *apitest.Client) (seatedTable, []rootPlayer) {
	t.Helper()
	var ps []rootPlayer
	for _, name := range []string{"ann", "ben", "cat"} {
		ps = append(ps, registerFree(t, c, name))
	}
	var tv seatedTable
	c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[0].Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1}}).Decode(t, &tv)
	for _, p := range ps {
		if r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: p.Token}); r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
	}
	return tv, ps
}

// TestServeLeavesAnEarlierEmbeddedStream: a data directory where an
// earlier version kept the log in the embedded JetStream stream, and fed
// the projections through a durable consumer of it, serves with that
// stream left as it was (the server starts no JetStream, so publishes
// nothing there), and the projections catch up from the relay.
func TestServeLeavesAnEarlierEmbeddedStream(t *testing.T) {
	dir := t.TempDir()
	ctx := t.Context()
	withEmbeddedStream(t, dir, func(st jetstream.Stream) {
		_, err := st.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: natsbus.ProjectionsConsumer(), AckPolicy: jetstream.AckAllPolicy})
		if err != nil {
			t.Fatal(err)
		}
	})
	base, _, stop := startServer(t, dir)
	c := apitest.New(t, base)
	_, ps := seatThree(t, c)
	waitProjected(t, c, ps[0].Token)
	waitRelayed(t, c)
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	withEmbeddedStream(t, dir, func(st jetstream.Stream) {
		info, err := st.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs != 0 || info.State.Consumers != 1 {
			t.Fatalf("the earlier stream holds %d messages and %d consumers after serve, want 0 and 1 as before", info.State.Msgs, info.State.Consumers)
		}
	})
}
