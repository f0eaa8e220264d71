package cli

import (
	"bufio"
	"bytes"
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

// loadConfig configures paiju loadtest.
type loadConfig struct {
	// Addrs are the base URLs of the servers: one, or every node of a
	// cluster, which then get the tables and the moves in turn.
	Addrs    []string
	Duration time.Duration
	Tables   int
	Clients  int
	Game     string
	Variant  string
	Seed     uint64
	// Record names a file that receives every acknowledged move as one
	// JSON line (loadAck), for checking afterwards that the store holds it.
	Record string
	// OnAck, if set, is called with every acknowledged move (tests).
	OnAck func(loadAck)
	// OnPlaying, if set, is called once the tables are set up and the
	// clients start playing (tests start their faults there).
	OnPlaying func()
	// Full makes every move ask for the whole view in the answer, as the
	// first version of the tool did; by default a move prefers
	// return=minimal, as a client following the table would.
	Full bool
	// MetricsURL is where the server's process CPU is read before and
	// after the run; "" reads addr/metrics of each server, "-" reads none.
	MetricsURL string
	// PerSeat plays every seat as a client of its own, as a phone holding
	// one seat would (loadtest_seat.go): Clients is then unused.
	PerSeat bool
	// AskLegal makes a PerSeat client ask /legal when its turn comes
	// instead of taking the legal actions its stream pushes (?legal=true).
	AskLegal bool
}

func parseLoadtest(args []string, getenv func(string) string, stderr io.Writer) (loadConfig, error) {
	var c loadConfig
	var addrs string
	fs := flagSet("loadtest", stderr)
	str(fs, getenv, &addrs, "addr", "http://127.0.0.1:8080", "base URL of a running paiju server, or comma-separated URLs of a cluster's nodes (tables and moves go to them in turn; a node that is down is skipped)")
	str(fs, getenv, &c.Record, "record", "", "file to write every acknowledged move to, one JSON line each (table, player, idempotency key, versions, positions)")
	fs.DurationVar(&c.Duration, "duration", 10*time.Second, "how long to play")
	fs.IntVar(&c.Tables, "tables", 64, "tables to open and play on")
	fs.IntVar(&c.Clients, "clients", 16, "concurrent clients (each plays its share of the tables)")
	fs.StringVar(&c.Game, "game", "doudizhu", "game of the tables")
	fs.StringVar(&c.Variant, "variant", "classic", "variant of the tables")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the clients' random choices")
	fs.BoolVar(&c.Full, "full", false, "ask for the whole table view in every move's answer (the tool's first behaviour) instead of Prefer: return=minimal")
	fs.BoolVar(&c.PerSeat, "per-seat", false, "play every seat as a client of its own: it follows its table's live stream (?legal=true), and on the legal actions the stream pushes to its seat posts a move (--clients is unused)")
	fs.BoolVar(&c.AskLegal, "ask-legal", false, "with --per-seat: open the stream without ?legal=true and ask /legal on each turn message naming the seat")
	str(fs, getenv, &c.MetricsURL, "metrics", "", "URL of the server's /metrics, read before and after for its CPU per move (default: /metrics of each --addr; - reads none)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("loadtest: unexpected arguments %q", fs.Args())
	case c.Tables < 1 || c.Clients < 1 || c.Duration <= 0:
		return c, errors.New("loadtest: --tables, --clients and --duration must be positive")
	case c.PerSeat && c.Full:
		return c, errors.New("loadtest: --per-seat learns the turn from the stream; it cannot take --full")
	case c.AskLegal && !c.PerSeat:
		return c, errors.New("loadtest: --ask-legal is a --per-seat client's choice")
	}
	for _, a := range strings.Split(addrs, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		if !strings.Contains(a, "://") {
			a = "http://" + a
		}
		c.Addrs = append(c.Addrs, strings.TrimRight(a, "/"))
	}
	if len(c.Addrs) == 0 {
		return c, errors.New("loadtest: --addr names no server")
	}
	return c, nil
}

// loadResult is what a load run measured.
type loadResult struct {
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
	// CPU is the servers' process CPU over the run, read from /metrics
	// (process_cpu_seconds_total); 0 when it could not be read.
	CPU time.Duration
	// Streams is the live streams the seats of --per-seat opened.
	Streams int
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
	if r.Moves > 0 {
		s += fmt.Sprintf(", %.2f requests per move (%d /legal answered 304, %d asked of a seat not to act)", float64(r.Requests)/float64(r.Moves), r.NotModified, r.Misses)
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

// loadAck is one move a server acknowledged (200): what the client sent and
// the versions and global positions of the events the answer says it
// appended. Retrying the same request (token, key, body) must get the same
// answer back as a replay, from any node.
type loadAck struct {
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
	Versions  []int         `json:"versions"`
	Positions []int64       `json:"positions"`
	Replayed  bool          `json:"replayed,omitempty"` // a retry found the first attempt committed
	Token     string        `json:"-"`
	Took      time.Duration `json:"-"`
}

// loadClient speaks to the API: to base, or to the nodes of a cluster.
type loadClient struct {
	base string
	// nodes, when set, are the servers' base URLs (a cluster's nodes, or
	// one server): a request goes to the node it is given and, when that
	// node is down (no connection, 502, 503, 504, 500) or the same
	// idempotent request is still in progress there, again to the next
	// node until retryFor has passed.
	nodes    []string
	retryFor time.Duration
	http     *http.Client
	retries  atomic.Int64
	// full asks for the whole view in every move's answer.
	full bool
	// askLegal: a --per-seat client asks /legal rather than take its
	// stream's legal messages.
	askLegal bool
	// requests, notModified and misses count the moves' requests (see
	// loadResult).
	requests, notModified, misses atomic.Int64
}

func (c *loadClient) server(node int) string {
	if len(c.nodes) == 0 {
		return c.base
	}
	return c.nodes[node%len(c.nodes)]
}

func (c *loadClient) do(ctx context.Context, method, path, token string, body, out any) (int, error) {
	_, status, err := c.doOn(ctx, 0, method, path, token, "", body, out)
	return status, err
}

// doOn sends a request to node (with key as its Idempotency-Key if not
// empty) and returns the node that answered and whether its answer was a
// replay of an earlier attempt.
func (c *loadClient) doOn(ctx context.Context, node int, method, path, token, key string, body, out any) (answered reply, status int, err error) {
	return c.doWith(ctx, node, method, path, token, key, nil, body, out)
}

// doWith is doOn with more request headers. A 304 answer leaves out alone.
func (c *loadClient) doWith(ctx context.Context, node int, method, path, token, key string, hdr http.Header, body, out any) (answered reply, status int, err error) {
	var b []byte
	switch body := body.(type) {
	case nil:
	case json.RawMessage: // a legal action, sent as the server wrote it
		b = body
	default:
		if b, err = json.Marshal(body); err != nil {
			return reply{}, 0, err
		}
	}
	var deadline time.Time
	for attempt := 0; ; attempt++ {
		base := c.server(node)
		resp, status, data, err := c.once(ctx, base, method, path, token, key, hdr, b)
		retry := len(c.nodes) > 0 && ctx.Err() == nil && retryable(status, data, err)
		if retry && deadline.IsZero() {
			deadline = time.Now().Add(c.retryFor)
		}
		if !retry || time.Now().After(deadline) {
			if err != nil {
				return reply{node: base}, status, err
			}
			r := reply{node: base, replayed: resp.Header.Get("Idempotent-Replayed") == "true", awaited: resp.Header.Values("Awaited-Seats"), etag: resp.Header.Get("ETag")}
			if status >= 300 {
				return r, status, fmt.Errorf("%s %s%s: %d %s", method, base, path, status, bytes.TrimSpace(data))
			}
			if out != nil && status != http.StatusNotModified {
				return r, status, json.Unmarshal(data, out)
			}
			return r, status, nil
		}
		c.retries.Add(1)
		node++
		if !sleepCtx(ctx, time.Duration(min(attempt+1, 20))*50*time.Millisecond) {
			return reply{node: base}, 0, ctx.Err()
		}
	}
}

// reply is which node answered a request and whether it answered from the
// idempotency record of an earlier attempt.
type reply struct {
	node     string
	replayed bool
	// awaited is the answer's Awaited-Seats (nil when absent).
	awaited []string
	// etag is the answer's ETag.
	etag string
}

// retryable says whether another node may well answer where this one did
// not: the node is down or restarting, or the request is in progress there.
func retryable(status int, body []byte, err error) bool {
	if err != nil {
		return true
	}
	switch status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	case http.StatusConflict:
		return bytes.Contains(body, []byte(`"request_in_progress"`))
	}
	return false
}

func (c *loadClient) once(ctx context.Context, base, method, path, token, key string, hdr http.Header, body []byte) (*http.Response, int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return nil, 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp, resp.StatusCode, nil, err
	}
	return resp, resp.StatusCode, data, nil
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// loadTable is one table a client plays: its players' ids and tokens, the
// seat to act (-1 when several or none may act), and the node its next
// request goes to.
type loadTable struct {
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
	legal []loadLegal
}

// loadLegal is an answer of /legal.
type loadLegal struct {
	Version int `json:"version"`
	// Actions are kept as the server wrote them: the client reads the
	// type and cards of the one it picks and sends it back as it is.
	Actions  []json.RawMessage `json:"actions"`
	Complete bool              `json:"complete"`
	Extend   []string          `json:"extend"`
	// ETag is the answer's, sent back as If-None-Match.
	ETag string `json:"-"`
}

type loadView struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
	Turn    *int   `json:"turn"`
	Seats   []any  `json:"seats"`
}

// setUp opens a table and seats fresh players in every seat. In a cluster
// table n is opened on node n and each of its players joins through the
// next node, so that tokens and tables are used on nodes that did not
// create them.
func (c *loadClient) setUp(ctx context.Context, cfg loadConfig, n int) (*loadTable, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(n)|1<<62))
	key := func() string { return fmt.Sprintf("lt-%016x", rng.Uint64()) }
	var first struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	if _, _, err := c.doOn(ctx, n, "POST", "/v1/players", "", "", map[string]string{"name": fmt.Sprintf("load-%d-0", n)}, &first); err != nil {
		return nil, err
	}
	var v loadView
	if _, _, err := c.doOn(ctx, n, "POST", "/v1/tables", first.Token, key(), map[string]any{"game": cfg.Game, "variant": cfg.Variant}, &v); err != nil {
		return nil, err
	}
	t := &loadTable{id: v.ID, players: []string{first.ID}, tokens: []string{first.Token}, turn: -1, node: n, last: -1}
	for i := 1; i < len(v.Seats); i++ {
		var p struct {
			ID    string `json:"id"`
			Token string `json:"token"`
		}
		if _, _, err := c.doOn(ctx, n+i, "POST", "/v1/players", "", "", map[string]string{"name": fmt.Sprintf("load-%d-%d", n, i)}, &p); err != nil {
			return nil, err
		}
		t.players = append(t.players, p.ID)
		t.tokens = append(t.tokens, p.Token)
	}
	for i, tok := range t.tokens {
		var r struct {
			Table loadView `json:"table"`
		}
		if _, _, err := c.doOn(ctx, n+i+1, "POST", "/v1/tables/"+t.id+"/join", tok, key(), nil, &r); err != nil {
			return nil, err
		}
		t.setTurn(r.Table.Turn)
		t.version = r.Table.Version
	}
	t.legal = make([]loadLegal, len(t.tokens))
	for i := range t.legal {
		t.legal[i].Version = -1
	}
	return t, nil
}

func (t *loadTable) setTurn(turn *int) {
	t.turn, t.awaited = -1, nil
	if turn != nil {
		t.turn = *turn
	}
}

// setAwaited reads whose turn it is from a minimal answer's Awaited-Seats:
// one seat is the turn; several are asked in order; none (a hand between
// deals) or a server that does not say leaves the client to guess.
func (t *loadTable) setAwaited(h []string) {
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

// move makes one random legal move (never escape or leave) at t and returns
// what the server acknowledged. Every move carries an Idempotency-Key, so a
// retry on another node cannot play it twice. In a cluster each move goes
// to the next node.
func (c *loadClient) move(ctx context.Context, t *loadTable, rng *rand.Rand) (loadAck, error) {
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
		actions, err := c.legal(ctx, node, t, seat, rng)
		if err != nil {
			return loadAck{}, err
		}
		a, ok, err := pickMove(actions, rng)
		if err != nil {
			return loadAck{}, fmt.Errorf("table %s, seat %d: %w", t.id, seat, err)
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
			Table loadView `json:"table"`
		}
		var hdr http.Header
		if !c.full {
			hdr = http.Header{"Prefer": {"return=minimal"}}
		}
		start := time.Now()
		c.requests.Add(1)
		rep, _, err := c.doWith(ctx, node, "POST", "/v1/tables/"+t.id+"/actions", t.tokens[seat], key, hdr, a, &r)
		took := time.Since(start)
		if err != nil {
			return loadAck{}, err
		}
		t.setTurn(r.Table.Turn)
		if r.Table.Turn == nil {
			t.setAwaited(rep.awaited)
		}
		t.version, t.last = r.Version, seat
		ack := loadAck{Table: t.id, Player: t.players[seat], Seat: seat, Key: key, Node: rep.node, Action: a,
			Version: r.Version, Replayed: rep.replayed, Token: t.tokens[seat], Took: took}
		for i, e := range r.Events {
			if i == 0 {
				ack.First = e.Version
			}
			ack.Versions = append(ack.Versions, e.Version)
			ack.Positions = append(ack.Positions, e.Position)
		}
		return ack, nil
	}
	return loadAck{}, fmt.Errorf("table %s: no seat has a legal move", t.id)
}

// legal lists actions of seat at t to choose a move from. /legal is bounded:
// when it cannot list every action it lists the card-less ones and names
// the cards that extend the selection, so legal adds random cards of extend
// to the selection until the answer is complete or lists plays of the
// selected cards (then it stops there or goes on, at random).
func (c *loadClient) legal(ctx context.Context, node int, t *loadTable, seat int, rng *rand.Rand) ([]json.RawMessage, error) {
	return c.legalFrom(ctx, node, t, seat, rng, nil)
}

// legalFrom is legal starting from first, the seat's unnarrowed answer
// when the client has it already (a stream's legal message), else asking.
func (c *loadClient) legalFrom(ctx context.Context, node int, t *loadTable, seat int, rng *rand.Rand, first *loadLegal) ([]json.RawMessage, error) {
	var sel []string
	for {
		var l loadLegal
		if first != nil {
			l, first = *first, nil
			if l.Complete || len(l.Extend) == 0 {
				return l.Actions, nil
			}
			if slices.ContainsFunc(l.Actions, namesCards) && rng.IntN(2) == 0 {
				return l.Actions, nil
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
			return nil, err
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
			return l.Actions, nil
		}
		if slices.ContainsFunc(l.Actions, namesCards) && rng.IntN(2) == 0 {
			return l.Actions, nil
		}
		sel = append(sel, l.Extend[rng.IntN(len(l.Extend))])
	}
}

// loadtest opens the tables, then plays random legal moves with the clients
// until the duration is over, and prints what it measured.
func loadtest(ctx context.Context, cfg loadConfig, stdout io.Writer) (loadResult, error) {
	conns := cfg.Clients * 2
	if cfg.PerSeat {
		conns = cfg.Tables * 4 // about a request connection for each seat
	}
	c := &loadClient{base: cfg.Addrs[0], http: &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns},
	}}
	// A server that is down or restarting is waited for, and a cluster's
	// other nodes are tried meanwhile.
	c.nodes, c.retryFor = cfg.Addrs, 30*time.Second
	c.full = cfg.Full
	c.askLegal = cfg.AskLegal
	var res loadResult
	for i, a := range cfg.Addrs {
		if _, _, err := c.doOn(ctx, i, "GET", "/readyz", "", "", nil, nil); err != nil {
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
		record = func(a loadAck) {
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
	tables := make([]*loadTable, cfg.Tables)
	for i := range tables {
		t, err := c.setUp(ctx, cfg, i)
		if err != nil {
			return res, fmt.Errorf("set up table %d: %w", i, err)
		}
		tables[i] = t
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
		res.Latencies, res.Errors, res.FirstErr, res.Streams = o.lat, o.errs, o.firstErr, o.streams
		clients = 0
	}
	for i := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
			var mine []*loadTable
			for j := i; j < len(tables); j += cfg.Clients {
				mine = append(mine, tables[j])
			}
			var lat []time.Duration
			errs, firstErr := 0, ""
			for k := 0; len(mine) > 0 && runCtx.Err() == nil; k++ {
				t := mine[k%len(mine)]
				ack, err := c.move(runCtx, t, rng)
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
					_ = c.refresh(runCtx, t)
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

// refresh rereads whose turn it is at t (after a restart of the server).
func (c *loadClient) refresh(ctx context.Context, t *loadTable) error {
	var v loadView
	if _, _, err := c.doOn(ctx, t.node, "GET", "/v1/tables/"+t.id, t.tokens[0], "", nil, &v); err != nil {
		return err
	}
	t.setTurn(v.Turn)
	return nil
}

// serverCPU reads process_cpu_seconds_total from the servers' /metrics
// (or cfg.MetricsURL) and sums it: the CPU time the server processes have
// used so far. Read before and after a run (at the same place, the
// client's own CPU excluded) the difference is what the run cost them.
func (c *loadClient) serverCPU(ctx context.Context, cfg loadConfig) (time.Duration, error) {
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

func (c *loadClient) processCPU(ctx context.Context, url string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.http.Do(req)
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

// runLoadtest plays random legal moves against a running server.
func runLoadtest(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseLoadtest(args, getenv, stderr)
	if err != nil {
		return err
	}
	_, err = loadtest(ctx, cfg, stdout)
	return err
}
