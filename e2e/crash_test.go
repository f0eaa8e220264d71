package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"paiju/internal/cli"
	"paiju/loadtest"
)

// crashKills is how many SIGKILLs TestCrashLosesNothing delivers: a few by
// default (CI; enough for some hands to settle), more with
// PAIJU_CRASH_KILLS=100.
func crashKills(t *testing.T) int {
	if v := os.Getenv("PAIJU_CRASH_KILLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("PAIJU_CRASH_KILLS=%q: want a positive integer", v)
		}
		return n
	}
	return 8
}

var serveAddrRE = regexp.MustCompile(`msg="paiju serving" addr=(\S+)`)

// startChild runs the built binary as `paiju serve` and returns its base URL.
func startChild(t *testing.T, bin, dir string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", dir, "--auditor-token", "crash-audit", "--log-level", "info", "--rate-limit", "0", "--drain", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if m := serveAddrRE.FindStringSubmatch(sc.Text()); m != nil && !sent {
				addr <- m[1]
				sent = true
			}
		}
	}()
	select {
	case a := <-addr:
		return cmd, "http://" + a
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the server did not start listening")
	}
	return nil, ""
}

// TestCrashLosesNothing runs the server as a child process under load, kills
// it with SIGKILL at random moments and restarts it. Every move the server
// acknowledged must be in the store afterwards, the hash chain must verify,
// no stream may have a gap, and every table must still replay by its rules.
func TestCrashLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a server process")
	}
	dir := t.TempDir()
	bin := paijuBin(t)
	data := filepath.Join(dir, "data")
	rng := rand.New(rand.NewPCG(2026, 11))
	kills := crashKills(t)
	ctx := context.Background()

	cmd, base := startChild(t, bin, data)
	c := loadtest.NewClient(base)
	c.HTTP.Timeout = 10 * time.Second
	cfg := loadtest.Config{Game: "doudizhu", Variant: "classic"}
	var tables []*loadtest.Table
	for i := range 6 {
		tb, err := c.OpenTable(ctx, cfg, i)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tb)
	}
	acked := make(map[string]int) // table id → highest version acknowledged
	moves := 0
	for kill := 0; kill < kills; kill++ {
		var (
			mu sync.Mutex
			wg sync.WaitGroup
		)
		stop := make(chan struct{})
		for i, tb := range tables {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(kill), uint64(i)))
				if err := c.Refresh(ctx, tb); err != nil {
					return
				}
				for {
					select {
					case <-stop:
						return
					default:
					}
					ack, err := c.Move(ctx, tb, r)
					if err != nil {
						return // the server is gone (or refused): this round is over
					}
					mu.Lock()
					acked[tb.ID()] = max(acked[tb.ID()], ack.Version)
					moves++
					mu.Unlock()
				}
			})
		}
		time.Sleep(time.Duration(20+rng.IntN(300)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		close(stop)
		wg.Wait()
		cmd, base = startChild(t, bin, data)
		c.Addrs = []string{base}
		for _, tb := range tables {
			var feed struct {
				Version int `json:"version"`
			}
			if _, err := c.Do(ctx, "GET", "/v1/tables/"+tb.ID()+"/events?after=0", "crash-audit", nil, &feed); err != nil {
				t.Fatal(err)
			}
			if feed.Version < acked[tb.ID()] {
				t.Fatalf("after kill %d table %s is at version %d, but version %d was acknowledged", kill+1, tb.ID(), feed.Version, acked[tb.ID()])
			}
		}
	}
	// The projections were built in the killed processes too: every hand
	// the log settled must be in the hand history, none twice.
	hands := 0
	for _, tb := range tables {
		hands += checkProjected(t, c, tb.ID())
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("graceful stop: %v", err)
	}
	var out bytes.Buffer
	if err := cli.Run(ctx, []string{"verify", "--data", data}, func(string) string { return "" }, &out, &out); err != nil {
		t.Fatalf("verify after %d kills: %v\n%s", kills, err, out.String())
	}
	t.Logf("%d SIGKILLs, %d acknowledged moves on %d tables, none lost; verify: ok; all %d settled hands in the hand history", kills, moves, len(tables), hands)
}

// checkProjected compares a table's hand history with the hands its log
// settled, waiting for the projections to reach the log's last position. It
// returns the number of settled hands.
func checkProjected(t *testing.T, c *loadtest.Client, tableID string) int {
	t.Helper()
	ctx := context.Background()
	type event struct {
		Version  int             `json:"version"`
		Position int64           `json:"position"`
		Type     string          `json:"type"`
		Data     json.RawMessage `json:"data"`
	}
	var events []event
	// The feed comes in pages (--quota-events-page).
	for {
		var feed struct {
			Version int     `json:"version"`
			Events  []event `json:"events"`
		}
		path := fmt.Sprintf("/v1/tables/%s/events?after=%d", tableID, len(events))
		if _, err := c.Do(ctx, "GET", path, "crash-audit", nil, &feed); err != nil {
			t.Fatal(err)
		}
		events = append(events, feed.Events...)
		if len(feed.Events) == 0 || len(events) >= feed.Version {
			break
		}
	}
	var settled []int
	var last int64
	for _, e := range events {
		last = e.Position
		if e.Type == "HandSettled" {
			var h struct {
				Hand int `json:"hand"`
			}
			if err := json.Unmarshal(e.Data, &h); err != nil {
				t.Fatal(err)
			}
			settled = append(settled, h.Hand)
		}
	}
	var projected []int
	for cursor := ""; ; {
		var page struct {
			Hands []struct {
				Hand int `json:"hand"`
			} `json:"hands"`
			Next string `json:"next_cursor"`
		}
		path := fmt.Sprintf("/v1/tables/%s/hands?limit=200&min_position=%d", tableID, last)
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		if _, err := c.Do(ctx, "GET", path, "crash-audit", nil, &page); err != nil {
			t.Fatalf("hand history of %s: %v", tableID, err)
		}
		for _, h := range page.Hands {
			projected = append(projected, h.Hand)
		}
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	if !slices.Equal(projected, settled) {
		t.Fatalf("table %s: the log settled hands %v, the hand history holds %v", tableID, settled, projected)
	}
	return len(settled)
}
