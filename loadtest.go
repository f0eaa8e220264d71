package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// loadConfig configures paiju loadtest.
type loadConfig struct {
	Addr     string
	Duration time.Duration
	Tables   int
	Clients  int
	Game     string
	Variant  string
	Seed     uint64
}

func parseLoadtest(args []string, getenv func(string) string, stderr io.Writer) (loadConfig, error) {
	var c loadConfig
	fs := flagSet("loadtest", stderr)
	str(fs, getenv, &c.Addr, "addr", "http://127.0.0.1:8080", "base URL of a running paiju server")
	fs.DurationVar(&c.Duration, "duration", 10*time.Second, "how long to play")
	fs.IntVar(&c.Tables, "tables", 64, "tables to open and play on")
	fs.IntVar(&c.Clients, "clients", 16, "concurrent clients (each plays its share of the tables)")
	fs.StringVar(&c.Game, "game", "doudizhu", "game of the tables")
	fs.StringVar(&c.Variant, "variant", "classic", "variant of the tables")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the clients' random choices")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("loadtest: unexpected arguments %q", fs.Args())
	case c.Tables < 1 || c.Clients < 1 || c.Duration <= 0:
		return c, errors.New("loadtest: --tables, --clients and --duration must be positive")
	}
	if !strings.Contains(c.Addr, "://") {
		c.Addr = "http://" + c.Addr
	}
	return c, nil
}

// loadResult is what a load run measured.
type loadResult struct {
	Moves     int
	Errors    int
	Elapsed   time.Duration
	Latencies []time.Duration // of each POST /actions, sorted
	FirstErr  string
}

func (r loadResult) quantile(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	return r.Latencies[int(q*float64(len(r.Latencies)-1))]
}

func (r loadResult) String() string {
	s := fmt.Sprintf("%.0f moves/s (%d moves in %s), latency p50 %s p95 %s p99 %s, %d errors",
		float64(r.Moves)/r.Elapsed.Seconds(), r.Moves, r.Elapsed.Round(time.Millisecond),
		r.quantile(0.50).Round(10*time.Microsecond), r.quantile(0.95).Round(10*time.Microsecond), r.quantile(0.99).Round(10*time.Microsecond), r.Errors)
	if r.FirstErr != "" {
		s += "; first error: " + r.FirstErr
	}
	return s
}

// loadClient speaks to the API.
type loadClient struct {
	base string
	http *http.Client
}

func (c *loadClient) do(ctx context.Context, method, path, token string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, bytes.TrimSpace(data))
	}
	if out != nil {
		return resp.StatusCode, json.Unmarshal(data, out)
	}
	return resp.StatusCode, nil
}

// loadTable is one table a client plays: its players' tokens and the seat to
// act (-1 when several or none may act).
type loadTable struct {
	id     string
	tokens []string
	turn   int
}

type loadView struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
	Turn    *int   `json:"turn"`
	Seats   []any  `json:"seats"`
}

// setUp opens a table and seats fresh players in every seat.
func (c *loadClient) setUp(ctx context.Context, cfg loadConfig, n int) (*loadTable, error) {
	var first struct {
		Token string `json:"token"`
	}
	if _, err := c.do(ctx, "POST", "/v1/players", "", map[string]string{"name": fmt.Sprintf("load-%d-0", n)}, &first); err != nil {
		return nil, err
	}
	var v loadView
	if _, err := c.do(ctx, "POST", "/v1/tables", first.Token, map[string]any{"game": cfg.Game, "variant": cfg.Variant}, &v); err != nil {
		return nil, err
	}
	t := &loadTable{id: v.ID, tokens: []string{first.Token}, turn: -1}
	for i := 1; i < len(v.Seats); i++ {
		var p struct {
			Token string `json:"token"`
		}
		if _, err := c.do(ctx, "POST", "/v1/players", "", map[string]string{"name": fmt.Sprintf("load-%d-%d", n, i)}, &p); err != nil {
			return nil, err
		}
		t.tokens = append(t.tokens, p.Token)
	}
	for _, tok := range t.tokens {
		var r struct {
			Table loadView `json:"table"`
		}
		if _, err := c.do(ctx, "POST", "/v1/tables/"+t.id+"/join", tok, nil, &r); err != nil {
			return nil, err
		}
		t.setTurn(r.Table.Turn)
	}
	return t, nil
}

func (t *loadTable) setTurn(turn *int) {
	t.turn = -1
	if turn != nil {
		t.turn = *turn
	}
}

// move makes one random legal move (never escape or leave) at t and returns
// the latency of its POST and the table's version it acknowledged.
func (c *loadClient) move(ctx context.Context, t *loadTable, rng *rand.Rand) (time.Duration, int, error) {
	seats := []int{t.turn}
	if t.turn < 0 {
		seats = rng.Perm(len(t.tokens))
	}
	for _, seat := range seats {
		actions, err := c.legal(ctx, t, seat, rng)
		if err != nil {
			return 0, 0, err
		}
		actions = slices.DeleteFunc(actions, func(a map[string]any) bool {
			return a["type"] == "escape" || a["type"] == "leave" || a["type"] == "delegate"
		})
		if len(actions) == 0 {
			continue
		}
		a := actions[rng.IntN(len(actions))]
		var r struct {
			Table loadView `json:"table"`
		}
		start := time.Now()
		_, err = c.do(ctx, "POST", "/v1/tables/"+t.id+"/actions", t.tokens[seat], a, &r)
		took := time.Since(start)
		if err != nil {
			return 0, 0, err
		}
		t.setTurn(r.Table.Turn)
		return took, r.Table.Version, nil
	}
	return 0, 0, fmt.Errorf("table %s: no seat has a legal move", t.id)
}

// legal lists actions of seat at t to choose a move from. /legal is bounded:
// when it cannot list every action it lists the card-less ones and names
// the cards that extend the selection, so legal adds random cards of extend
// to the selection until the answer is complete or lists plays of the
// selected cards (then it stops there or goes on, at random).
func (c *loadClient) legal(ctx context.Context, t *loadTable, seat int, rng *rand.Rand) ([]map[string]any, error) {
	var sel []string
	for {
		var l struct {
			Actions  []map[string]any `json:"actions"`
			Complete bool             `json:"complete"`
			Extend   []string         `json:"extend"`
		}
		path := "/v1/tables/" + t.id + "/legal?selected=" + strings.Join(sel, ",")
		if _, err := c.do(ctx, "GET", path, t.tokens[seat], nil, &l); err != nil {
			return nil, err
		}
		if l.Complete || len(l.Extend) == 0 {
			return l.Actions, nil
		}
		if slices.ContainsFunc(l.Actions, func(a map[string]any) bool { return a["cards"] != nil }) && rng.IntN(2) == 0 {
			return l.Actions, nil
		}
		sel = append(sel, l.Extend[rng.IntN(len(l.Extend))])
	}
}

// loadtest opens the tables, then plays random legal moves with the clients
// until the duration is over, and prints what it measured.
func loadtest(ctx context.Context, cfg loadConfig, stdout io.Writer) (loadResult, error) {
	c := &loadClient{base: strings.TrimRight(cfg.Addr, "/"), http: &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Clients * 2, MaxConnsPerHost: cfg.Clients * 2},
	}}
	var res loadResult
	if _, err := c.do(ctx, "GET", "/readyz", "", nil, nil); err != nil {
		return res, fmt.Errorf("server at %s is not ready: %w", cfg.Addr, err)
	}
	tables := make([]*loadTable, cfg.Tables)
	for i := range tables {
		t, err := c.setUp(ctx, cfg, i)
		if err != nil {
			return res, fmt.Errorf("set up table %d: %w", i, err)
		}
		tables[i] = t
	}
	fmt.Fprintf(stdout, "opened %d %s/%s tables; playing with %d clients for %s\n", cfg.Tables, cfg.Game, cfg.Variant, cfg.Clients, cfg.Duration)

	runCtx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	start := time.Now()
	for i := range cfg.Clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
			var mine []*loadTable
			for j := i; j < len(tables); j += cfg.Clients {
				mine = append(mine, tables[j])
			}
			var lat []time.Duration
			errs, firstErr := 0, ""
			for k := 0; len(mine) > 0 && runCtx.Err() == nil; k++ {
				took, _, err := c.move(runCtx, mine[k%len(mine)], rng)
				if err != nil {
					if runCtx.Err() != nil {
						break
					}
					errs++
					if firstErr == "" {
						firstErr = err.Error()
					}
					continue
				}
				lat = append(lat, took)
			}
			mu.Lock()
			res.Latencies = append(res.Latencies, lat...)
			res.Errors += errs
			if res.FirstErr == "" {
				res.FirstErr = firstErr
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.Moves = len(res.Latencies)
	slices.Sort(res.Latencies)
	fmt.Fprintln(stdout, res)
	return res, nil
}

// refresh rereads whose turn it is at t (after a restart of the server).
func (c *loadClient) refresh(ctx context.Context, t *loadTable) error {
	var v loadView
	if _, err := c.do(ctx, "GET", "/v1/tables/"+t.id, t.tokens[0], nil, &v); err != nil {
		return err
	}
	t.setTurn(v.Turn)
	return nil
}
