package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Result is what a load run measured.
type Result struct {
	Moves     int
	Errors    int
	Retries   int // requests sent again (to the next node of a cluster)
	Elapsed   time.Duration
	Latencies []time.Duration // of each acknowledged POST /actions, retries included, sorted
	FirstErr  string
	// Requests counts the requests of the moves: GET /legal (304 included)
	// and POST /actions; Misses the /legal asked of a seat that turned out
	// not to be the one to act.
	Requests, NotModified, Misses int
	// Stale counts the moves of --per-seat the server refused once the
	// table had moved on from the version their legal actions were listed
	// at: another seat acted first in a window open to several (升级's
	// declarations) and made them illegal. A refused move changes nothing,
	// and the seat acts again on its next legal actions: these are lost
	// races, not errors.
	Stale int
	// CPU is the servers' process CPU over the run, read from /metrics
	// (process_cpu_seconds_total); 0 when it could not be read.
	CPU time.Duration
	// Streams is the live streams the seats of --per-seat opened.
	Streams int
}

// Quantile is the latency below which the fraction q (0 to 1) of the
// acknowledged moves were answered; 0 when none was.
func (r Result) Quantile(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	return r.Latencies[int(q*float64(len(r.Latencies)-1))]
}

// String is the line paiju loadtest prints at the end of a run.
func (r Result) String() string {
	s := fmt.Sprintf("%.0f moves/s (%d moves in %s), latency p50 %s p95 %s p99 %s, %d errors",
		float64(r.Moves)/r.Elapsed.Seconds(), r.Moves, r.Elapsed.Round(time.Millisecond),
		r.Quantile(0.50).Round(10*time.Microsecond), r.Quantile(0.95).Round(10*time.Microsecond), r.Quantile(0.99).Round(10*time.Microsecond), r.Errors)
	if r.Moves > 0 {
		s += fmt.Sprintf(", %.2f requests per move (%d /legal answered 304, %d asked of a seat not to act)", float64(r.Requests)/float64(r.Moves), r.NotModified, r.Misses)
	}
	if r.Stale > 0 {
		s += fmt.Sprintf(", %d moves refused as another seat acted first", r.Stale)
	}
	if r.CPU > 0 && r.Moves > 0 {
		s += fmt.Sprintf(", server CPU %s = %.0f µs per move", r.CPU.Round(10*time.Millisecond), float64(r.CPU.Microseconds())/float64(r.Moves))
	}
	if r.Streams > 0 {
		s += fmt.Sprintf(", %d streams opened", r.Streams)
	}
	if r.Retries > 0 {
		s += fmt.Sprintf(", %d requests retried", r.Retries)
	}
	if r.FirstErr != "" {
		s += "; first error: " + r.FirstErr
	}
	return s
}

// Ack is one move a server acknowledged (200): what the client sent and
// the versions and global positions of the events the answer says it
// appended. Retrying the same request (token, key, body) must get the same
// answer back as a replay, from any node.
type Ack struct {
	Table   string          `json:"table"`
	Player  string          `json:"player"`
	Seat    int             `json:"seat"`
	Key     string          `json:"key"`
	Node    string          `json:"node"`
	Action  json.RawMessage `json:"action"`
	First   int             `json:"first_version"`
	Version int             `json:"version"`
	// Versions and Positions are those of the appended events the player
	// may see (a secret of the deal is not shown to a seat).
	Versions  []int   `json:"versions"`
	Positions []int64 `json:"positions"`
	Replayed  bool    `json:"replayed,omitempty"` // a retry found the first attempt committed
	// Token is the bearer token of the seat that moved and Took how long
	// the answer took, retries included; neither is recorded.
	Token string        `json:"-"`
	Took  time.Duration `json:"-"`
}

// Table is one table a client plays (Client.OpenTable): its players' ids
// and tokens, the seat to act (-1 when several or none may act), and the
// node its next request goes to. One goroutine plays a table at a time.
type Table struct {
	id      string
	players []string
	tokens  []string
	turn    int
	// awaited are the seats the last answer's Awaited-Seats named when it
	// named several (nil: it named one, none, or did not say).
	awaited []int
	node    int
	// version is the table's version as the last answer gave it, last
	// the seat that moved then (-1 before any move).
	version, last int
	// legal is each seat's last unnarrowed /legal answer and the version
	// it was for, sent back as If-None-Match.
	legal []legalAnswer
	// client is the load client that plays the table (for the history).
	client int
}

// legalAnswer is an answer of /legal.
type legalAnswer struct {
	Version int `json:"version"`
	// Actions are kept as the server wrote them: the client reads the
	// type and cards of the one it picks and sends it back as it is.
	Actions  []json.RawMessage `json:"actions"`
	Complete bool              `json:"complete"`
	Extend   []string          `json:"extend"`
	// ETag is the answer's, sent back as If-None-Match.
	ETag string `json:"-"`
}

// tableView is what the client reads of a table's view.
type tableView struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
	Turn    *int   `json:"turn"`
	Seats   []any  `json:"seats"`
}

// OpenTable opens table n of a run, of cfg.Game and cfg.Variant, and seats
// fresh players in every seat (their random choices drawn from cfg.Seed).
// In a cluster table n is opened on node n and each of its players joins
// through the next node, so that tokens and tables are used on nodes that
// did not create them.
func (c *Client) OpenTable(ctx context.Context, cfg Config, n int) (*Table, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(n)|1<<62))
	key := func() string { return fmt.Sprintf("lt-%016x", rng.Uint64()) }
	// Names are unique on a server and a server may see several runs (or a
	// registration retried after a failover): a random part keeps them apart
	// without drawing on rng, whose draws the seed fixes.
	run := rand.Uint32()
	var first struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	if _, _, err := c.DoOn(ctx, n, "POST", "/v1/players", "", "", map[string]string{"name": fmt.Sprintf("load-%d-0 %08x", n, run)}, &first); err != nil {
		return nil, err
	}
	open := map[string]any{"game": cfg.Game, "variant": cfg.Variant}
	if cfg.Idle {
		// The longest turn clock, so that no timeout plays an idle table
		// (nor hands it to the bot) while it is measured.
		open["clock"] = map[string]int{"turn_seconds": 3600}
	}
	if cfg.OnOp != nil {
		// A history names every write to its tables: no turn clock
		// plays for a seat whose client is slow to retry.
		open["clock"] = map[string]int{"turn_seconds": 0}
	}
	var v tableView
	if _, _, err := c.DoOn(ctx, n, "POST", "/v1/tables", first.Token, key(), open, &v); err != nil {
		return nil, err
	}
	t := &Table{id: v.ID, players: []string{first.ID}, tokens: []string{first.Token}, turn: -1, node: n, last: -1}
	for i := 1; i < len(v.Seats); i++ {
		var p struct {
			ID    string `json:"id"`
			Token string `json:"token"`
		}
		if _, _, err := c.DoOn(ctx, n+i, "POST", "/v1/players", "", "", map[string]string{"name": fmt.Sprintf("load-%d-%d %08x", n, i, run)}, &p); err != nil {
			return nil, err
		}
		t.players = append(t.players, p.ID)
		t.tokens = append(t.tokens, p.Token)
	}
	for i, tok := range t.tokens {
		var r struct {
			Table tableView `json:"table"`
		}
		if _, _, err := c.DoOn(ctx, n+i+1, "POST", "/v1/tables/"+t.id+"/join", tok, key(), nil, &r); err != nil {
			return nil, err
		}
		t.setTurn(r.Table.Turn)
		t.version = r.Table.Version
	}
	t.legal = make([]legalAnswer, len(t.tokens))
	for i := range t.legal {
		t.legal[i].Version = -1
	}
	return t, nil
}

// ID is the table's id.
func (t *Table) ID() string { return t.id }

func (t *Table) setTurn(turn *int) {
	t.turn, t.awaited = -1, nil
	if turn != nil {
		t.turn = *turn
	}
}

// setAwaited reads whose turn it is from a minimal answer's Awaited-Seats:
// one seat is the turn; several are asked in order; none (a hand between
// deals) or a server that does not say leaves the client to guess.
func (t *Table) setAwaited(h []string) {
	t.turn, t.awaited = -1, nil
	if len(h) != 1 || h[0] == "" {
		return
	}
	for f := range strings.SplitSeq(h[0], ",") {
		seat, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || seat < 0 || seat >= len(t.tokens) {
			t.awaited = nil
			return
		}
		t.awaited = append(t.awaited, seat)
	}
	if len(t.awaited) == 1 {
		t.turn, t.awaited = t.awaited[0], nil
	}
}

// Move makes one random legal move (never escape or leave) at t and returns
// what the server acknowledged. Every move carries an Idempotency-Key, so a
// retry on another node cannot play it twice. In a cluster each move goes
// to the next node.
func (c *Client) Move(ctx context.Context, t *Table, rng *rand.Rand) (Ack, error) {
	node := t.node
	t.node++
	var seats []int
	switch n := len(t.tokens); {
	case t.turn >= 0:
		seats = []int{t.turn}
	case len(t.awaited) > 0:
		seats = t.awaited
	case t.last >= 0:
		// The last answer named no seat to act (a server that does not
		// send Awaited-Seats): a client that knows the seating asks the
		// next seat first, then the others.
		for i := 1; i <= n; i++ {
			seats = append(seats, (t.last+i)%n)
		}
	default:
		seats = rng.Perm(n)
	}
	for i, seat := range seats {
		actions, at, err := c.legalFrom(ctx, node, t, seat, rng, nil)
		if err != nil {
			return Ack{}, err
		}
		a, ok, err := pickMove(actions, rng)
		if err != nil {
			return Ack{}, fmt.Errorf("table %s, seat %d: %w", t.id, seat, err)
		}
		if !ok {
			if i < len(seats)-1 {
				c.misses.Add(1)
			}
			continue
		}
		key := fmt.Sprintf("lt-%016x", rng.Uint64())
		var r struct {
			Version int `json:"version"`
			Events  []struct {
				Version  int   `json:"version"`
				Position int64 `json:"position"`
			} `json:"events"`
			Table tableView `json:"table"`
		}
		hdr := http.Header{}
		if !c.full {
			hdr.Set("Prefer", "return=minimal")
		}
		if c.onOp != nil {
			// The history constrains the table's version: the move is
			// accepted only at the version its actions were listed at.
			hdr.Set("If-Match", strconv.Quote(strconv.Itoa(at)))
		}
		start := time.Now()
		c.requests.Add(1)
		rep, status, err := c.doWith(ctx, node, "POST", "/v1/tables/"+t.id+"/actions", t.tokens[seat], key, hdr, a, &r)
		took := time.Since(start)
		if c.onOp != nil {
			op := Op{Table: t.id, Client: t.client, Key: key, Expected: at, Invoke: start, Outcome: outcomeOf(status, err), Status: status}
			if op.Outcome != OutcomeUnknown {
				op.Complete = start.Add(took)
			}
			if op.Outcome == OutcomeOK {
				op.Version = r.Version
			}
			c.onOp(op)
		}
		if err != nil {
			return Ack{}, err
		}
		t.setTurn(r.Table.Turn)
		if r.Table.Turn == nil {
			t.setAwaited(rep.awaited)
		}
		t.version, t.last = r.Version, seat
		ack := Ack{Table: t.id, Player: t.players[seat], Seat: seat, Key: key, Node: rep.Node, Action: a,
			Version: r.Version, Replayed: rep.Replayed, Token: t.tokens[seat], Took: took}
		for i, e := range r.Events {
			if i == 0 {
				ack.First = e.Version
			}
			ack.Versions = append(ack.Versions, e.Version)
			ack.Positions = append(ack.Positions, e.Position)
		}
		return ack, nil
	}
	return Ack{}, fmt.Errorf("table %s: no seat has a legal move", t.id)
}

// legalFrom lists actions of seat at t to choose a move from, starting
// from first, the seat's unnarrowed answer when the client has it already
// (a stream's legal message), else asking; it returns the table version
// the actions are legal at too. /legal is bounded: when it cannot list
// every action it lists the card-less ones and names the cards that extend
// the selection, so legalFrom adds random cards of extend to the selection
// until the answer is complete or lists plays of the selected cards (then
// it stops there or goes on, at random).
func (c *Client) legalFrom(ctx context.Context, node int, t *Table, seat int, rng *rand.Rand, first *legalAnswer) ([]json.RawMessage, int, error) {
	var sel []string
	for {
		var l legalAnswer
		if first != nil {
			l, first = *first, nil
			if l.Complete || len(l.Extend) == 0 {
				return l.Actions, l.Version, nil
			}
			if slices.ContainsFunc(l.Actions, namesCards) && rng.IntN(2) == 0 {
				return l.Actions, l.Version, nil
			}
			sel = append(sel, l.Extend[rng.IntN(len(l.Extend))])
			continue
		}
		path := "/v1/tables/" + t.id + "/legal?selected=" + strings.Join(sel, ",")
		// The unnarrowed answer is kept per seat: asked again at the
		// same version (a move that failed, a seat asked before it was
		// its turn) the server answers 304 and the client reuses it.
		cached := &t.legal[seat]
		var hdr http.Header
		if sel == nil && cached.ETag != "" {
			hdr = http.Header{"If-None-Match": {cached.ETag}}
		}
		c.requests.Add(1)
		rep, status, err := c.doWith(ctx, node, "GET", path, t.tokens[seat], "", hdr, nil, &l)
		if err != nil {
			return nil, 0, err
		}
		switch {
		case status == http.StatusNotModified:
			c.notModified.Add(1)
			l = *cached
		case sel == nil:
			l.ETag = rep.etag
			*cached = l
		}
		if l.Complete || len(l.Extend) == 0 {
			return l.Actions, l.Version, nil
		}
		if slices.ContainsFunc(l.Actions, namesCards) && rng.IntN(2) == 0 {
			return l.Actions, l.Version, nil
		}
		sel = append(sel, l.Extend[rng.IntN(len(l.Extend))])
	}
}

// Run opens the tables, then plays random legal moves with the clients
// until the duration is over, and prints what it measured to stdout.
func Run(ctx context.Context, cfg Config, stdout io.Writer) (Result, error) {
	conns := cfg.Clients * 2
	if cfg.PerSeat {
		conns = cfg.Tables * 4 // about a request connection for each seat
	}
	var res Result
	if len(cfg.Addrs) == 0 {
		return res, errors.New("loadtest: no server to load")
	}
	timeout := cfg.RequestTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	c := &Client{Addrs: cfg.Addrs, HTTP: &http.Client{
		Timeout:   timeout,
		Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns},
	}}
	// A server that is down or restarting is waited for, and a cluster's
	// other nodes are tried meanwhile.
	c.RetryFor = 30 * time.Second
	c.full = cfg.Full
	c.askLegal = cfg.AskLegal
	if !cfg.PerSeat {
		c.onOp = cfg.OnOp
	}
	for i, a := range cfg.Addrs {
		if _, _, err := c.DoOn(ctx, i, "GET", "/readyz", "", "", nil, nil); err != nil {
			return res, fmt.Errorf("server at %s is not ready: %w", a, err)
		}
	}
	record := cfg.OnAck
	if cfg.Record != "" {
		f, err := os.Create(cfg.Record)
		if err != nil {
			return res, fmt.Errorf("loadtest: --record: %w", err)
		}
		w := bufio.NewWriter(f)
		enc := json.NewEncoder(w)
		var mu sync.Mutex
		var werr error
		next := record
		record = func(a Ack) {
			mu.Lock()
			if werr == nil {
				werr = enc.Encode(a)
			}
			mu.Unlock()
			if next != nil {
				next(a)
			}
		}
		defer func() {
			if err := w.Flush(); err != nil && werr == nil {
				werr = err
			}
			if err := f.Close(); err != nil && werr == nil {
				werr = err
			}
			if werr != nil {
				fmt.Fprintf(stdout, "loadtest: --record %s: %v\n", cfg.Record, werr)
			}
		}()
	}
	tables, err := c.openTables(ctx, cfg)
	if err != nil {
		return res, err
	}
	if cfg.Idle {
		fmt.Fprintf(stdout, "opened and dealt %d %s/%s tables on %d servers; playing none\n", cfg.Tables, cfg.Game, cfg.Variant, len(cfg.Addrs))
		return res, nil
	}
	if cfg.PerSeat {
		seats := 0
		for _, t := range tables {
			seats += len(t.tokens)
		}
		fmt.Fprintf(stdout, "opened %d %s/%s tables on %d servers; playing with a client per seat (%d, each following its stream) for %s\n", cfg.Tables, cfg.Game, cfg.Variant, len(cfg.Addrs), seats, cfg.Duration)
	} else {
		fmt.Fprintf(stdout, "opened %d %s/%s tables on %d servers; playing with %d clients for %s\n", cfg.Tables, cfg.Game, cfg.Variant, len(cfg.Addrs), cfg.Clients, cfg.Duration)
	}
	if cfg.OnPlaying != nil {
		cfg.OnPlaying()
	}

	cpuStart, cpuErr := c.serverCPU(ctx, cfg)
	runCtx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	start := time.Now()
	clients := cfg.Clients
	if cfg.PerSeat {
		o := c.playSeats(runCtx, cfg, tables, record)
		res.Latencies, res.Errors, res.FirstErr, res.Streams, res.Stale = o.lat, o.errs, o.firstErr, o.streams, o.stale
		clients = 0
	}
	for i := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
			var mine []*Table
			for j := i; j < len(tables); j += cfg.Clients {
				tables[j].client = i
				mine = append(mine, tables[j])
			}
			var lat []time.Duration
			errs, firstErr := 0, ""
			for k := 0; len(mine) > 0 && runCtx.Err() == nil; k++ {
				t := mine[k%len(mine)]
				ack, err := c.Move(runCtx, t, rng)
				if err != nil {
					if runCtx.Err() != nil {
						break
					}
					errs++
					if firstErr == "" {
						firstErr = err.Error()
					}
					// The table moved on without this client (a turn
					// timed out, another node's bot played): look again.
					_ = c.Refresh(runCtx, t)
					continue
				}
				lat = append(lat, ack.Took)
				if record != nil {
					record(ack)
				}
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
	if cpuErr == nil {
		var cpuEnd time.Duration
		if cpuEnd, cpuErr = c.serverCPU(ctx, cfg); cpuErr == nil {
			res.CPU = cpuEnd - cpuStart
		}
	}
	if cpuErr != nil && cfg.MetricsURL != "-" {
		fmt.Fprintf(stdout, "loadtest: no server CPU: %v\n", cpuErr)
	}
	res.Moves = len(res.Latencies)
	res.Retries = int(c.retries.Load())
	res.Requests, res.NotModified, res.Misses = int(c.requests.Load()), int(c.notModified.Load()), int(c.misses.Load())
	slices.Sort(res.Latencies)
	fmt.Fprintln(stdout, res)
	return res, nil
}

// openTables opens cfg.Tables tables, cfg.Clients at a time: each table's
// players and seats are its own (OpenTable), so the order they are opened
// in changes nothing but the time it takes.
func (c *Client) openTables(ctx context.Context, cfg Config) ([]*Table, error) {
	tables := make([]*Table, cfg.Tables)
	errs := make([]error, cfg.Tables)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(cfg.Clients, cfg.Tables) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(tables); i = int(next.Add(1) - 1) {
				if tables[i], errs[i] = c.OpenTable(ctx, cfg, i); errs[i] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("set up table %d: %w", i, err)
		}
	}
	return tables, nil
}

// Refresh rereads whose turn it is at t (after a restart of the server).
func (c *Client) Refresh(ctx context.Context, t *Table) error {
	var v tableView
	if _, _, err := c.DoOn(ctx, t.node, "GET", "/v1/tables/"+t.id, t.tokens[0], "", nil, &v); err != nil {
		return err
	}
	t.setTurn(v.Turn)
	return nil
}

// serverCPU reads process_cpu_seconds_total from the servers' /metrics
// (or cfg.MetricsURL) and sums it: the CPU time the server processes have
// used so far. Read before and after a run (at the same place, the
// client's own CPU excluded) the difference is what the run cost them.
func (c *Client) serverCPU(ctx context.Context, cfg Config) (time.Duration, error) {
	urls := []string{cfg.MetricsURL}
	switch cfg.MetricsURL {
	case "-":
		return 0, errors.New("--metrics -")
	case "":
		urls = urls[:0]
		for _, a := range cfg.Addrs {
			urls = append(urls, a+"/metrics")
		}
	}
	var total float64
	for _, u := range urls {
		secs, err := c.processCPU(ctx, u)
		if err != nil {
			return 0, err
		}
		total += secs
	}
	return time.Duration(total * float64(time.Second)), nil
}

func (c *Client) processCPU(ctx context.Context, url string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("read %s: %s", url, resp.Status)
	}
	return parseProcessCPU(resp.Body)
}

// parseProcessCPU finds process_cpu_seconds_total in Prometheus' text
// format.
func parseProcessCPU(r io.Reader) (float64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if ok && name == "process_cpu_seconds_total" {
			v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			if err != nil {
				return 0, fmt.Errorf("process_cpu_seconds_total %q: %w", value, err)
			}
			return v, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, errors.New("no process_cpu_seconds_total in the metrics")
}

// actionHead is what the client reads of a legal action to choose it.
type actionHead struct {
	Type  string          `json:"type"`
	Cards json.RawMessage `json:"cards"`
}

func headOf(a json.RawMessage) (actionHead, error) {
	var h actionHead
	if err := json.Unmarshal(a, &h); err != nil {
		return h, fmt.Errorf("legal action %s: %w", a, err)
	}
	return h, nil
}

// namesCards reports whether a plays cards (false for one it cannot read).
func namesCards(a json.RawMessage) bool {
	h, err := headOf(a)
	return err == nil && len(h.Cards) > 0 && string(h.Cards) != "null"
}

// pickMove picks one of actions at random, every action but escape, leave
// and delegate alike likely; false when there is none of those. It reads
// the type of the actions it draws only: a lead of 斗地主 lists hundreds,
// and a client that decoded every one of them would load the machine the
// server shares with it more than the server's work does.
func pickMove(actions []json.RawMessage, rng *rand.Rand) (json.RawMessage, bool, error) {
	left := slices.Clone(actions)
	for len(left) > 0 {
		i := rng.IntN(len(left))
		h, err := headOf(left[i])
		if err != nil {
			return nil, false, err
		}
		switch h.Type {
		case "escape", "leave", "delegate":
			left[i] = left[len(left)-1]
			left = left[:len(left)-1]
		default:
			return left[i], true, nil
		}
	}
	return nil, false, nil
}
