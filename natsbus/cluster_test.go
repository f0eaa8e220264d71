package natsbus_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/natsbus"
)

// leaseTTL is short so that a test waits little for an expired lease; the
// margins are fractions of it (a fifth between refreshes, a quarter between
// a holder giving up and the key expiring).
const leaseTTL = 2 * time.Second

// startNATSServer starts a nats-server with JetStream listening on
// loopback: the external NATS several nodes of a deployment share.
func startNATSServer(t testing.TB) string {
	t.Helper()
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.Start()
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	if !srv.ReadyForConnections(waitLimit) {
		t.Fatal("nats-server not ready")
	}
	return srv.ClientURL()
}

// dial connects one node to the server at url.
func dial(t testing.TB, url string) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, js, err := natsbus.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc, js
}

// newClusterEnv is a store and deployment cluster's stream on the external
// server at url. The store stands for the one every node shares.
func newClusterEnv(t testing.TB, url, cluster string) *env {
	t.Helper()
	ns, err := natsbus.NewNamespace(cluster)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, ctx: t.Context(), logs: newLogs(t), games: map[string]string{}, ns: ns}
	st, err := sqlite.Open(e.ctx, filepath.Join(t.TempDir(), "events.db"), sqlite.Options{Synchronous: "NORMAL", Logger: e.logs.logger()})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	e.st = st
	e.nc, e.js = dial(t, url)
	if _, err := ns.EnsureStream(e.ctx, e.js, natsbus.StreamLimits{}); err != nil {
		t.Fatal(err)
	}
	return e
}

// node is one process of a deployment: its own connection, its leases,
// and a relay that runs only while it holds the relay's lease.
type node struct {
	name   string
	nc     *nats.Conn
	leases *natsbus.Leases
	relay  *natsbus.Relay
	runs   atomic.Int32 // how many times the relay was started
	cancel context.CancelFunc
	done   chan struct{}
}

func (e *env) startNode(url, name string) *node {
	e.t.Helper()
	nc, js := dial(e.t, url)
	leases, err := natsbus.OpenLeases(e.ctx, js, e.ns, natsbus.LeaseOptions{TTL: leaseTTL, Owner: name}, e.logs.logger())
	if err != nil {
		e.t.Fatal(err)
	}
	opts := smallOpts
	opts.Namespace = e.ns
	n := &node{name: name, nc: nc, leases: leases, relay: natsbus.NewRelay(e.st, js, e.st, e.logs.logger(), opts), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(e.ctx)
	n.cancel = cancel
	go func() {
		defer close(n.done)
		_ = leases.Run(ctx, "relay", func(ctx context.Context) {
			n.runs.Add(1)
			_ = n.relay.Run(ctx)
		})
	}()
	e.t.Cleanup(n.stop)
	return n
}

// stop ends the node cleanly: its relay stops and the lease is released.
func (n *node) stop() {
	n.cancel()
	<-n.done
}

// crash cuts the node off NATS without releasing anything, as a killed
// process would: its lease stays until the TTL expires it.
func (n *node) crash() { n.nc.Close() }

// waitHeld waits until n holds the relay's lease.
func waitHeld(t testing.TB, n *node) {
	t.Helper()
	limit := time.Now().Add(waitLimit)
	for !n.leases.Held("relay") {
		if time.Now().After(limit) {
			t.Fatalf("node %s never took the relay's lease", n.name)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// writer appends to a table until stopped, as the API nodes would.
func (e *env) writer(tableID string) (stop func()) {
	e.openTable(tableID, "doudizhu")
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for v := 1; ctx.Err() == nil; v++ {
			if _, err := e.st.Append(ctx, "table-"+tableID, v, []eventstore.NewEvent{{Type: "PlayerSeated", Data: fmt.Appendf(nil, `{"seat":%d}`, v)}}); err != nil {
				if ctx.Err() == nil {
					e.t.Errorf("append: %v", err)
				}
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	return func() { cancel(); <-done }
}

// Two nodes on one JetStream: exactly one relays; when it stops cleanly,
// and when a holder is cut off without releasing its lease, another takes
// over; JetStream holds the store's exact prefix in the end, and since a
// stream only ever grows at its end, it held one all along.
func TestLeaseOneRelayAtATime(t *testing.T) {
	url := startNATSServer(t)
	e := newClusterEnv(t, url, "prod")
	e.seed()
	stopWriting := e.writer("01W")
	defer stopWriting()

	nodes := []*node{e.startNode(url, "a")}
	waitHeld(t, nodes[0])
	nodes = append(nodes, e.startNode(url, "b"))

	// Watch that no two relays ever run at once.
	var both atomic.Int32
	watch, cancelWatch := context.WithCancel(e.ctx)
	watched := make(chan struct{})
	var mu sync.Mutex
	go func() {
		defer close(watched)
		for watch.Err() == nil {
			mu.Lock()
			running := 0
			for _, n := range nodes {
				if n.relay.Stats().Running {
					running++
				}
			}
			mu.Unlock()
			if running > 1 {
				both.Add(1)
			}
			time.Sleep(time.Millisecond)
		}
	}()

	a, b := nodes[0], nodes[1]
	waitPosition(t, a.relay, e.head())
	if b.runs.Load() != 0 || b.leases.Held("relay") {
		t.Fatalf("node b ran its relay %d times while a held the lease, want 0", b.runs.Load())
	}
	if h, err := b.leases.Holder(e.ctx, "relay"); err != nil || h != "a" {
		t.Fatalf("holder seen from b: %q (%v), want a", h, err)
	}

	// a stops cleanly: it releases the lease and b takes over at once.
	stopped := time.Now()
	a.stop()
	waitHeld(t, b)
	t.Logf("takeover after a clean stop: %v (lease TTL %v)", time.Since(stopped).Round(time.Millisecond), leaseTTL)
	waitPosition(t, b.relay, e.head())

	// c stands by; b is cut off without releasing: c takes over once the
	// lease expired, and b stops relaying as soon as its refresh fails.
	c := e.startNode(url, "c")
	mu.Lock()
	nodes = append(nodes, c)
	mu.Unlock()
	crashed := time.Now()
	b.crash()
	waitHeld(t, c)
	t.Logf("takeover after a holder was cut off: %v (lease TTL %v)", time.Since(crashed).Round(time.Millisecond), leaseTTL)
	if b.leases.Held("relay") || b.relay.Stats().Running {
		t.Fatal("node b still relays after losing its NATS connection")
	}
	waitPosition(t, c.relay, e.head())

	stopWriting()
	c.relay.Notify()
	waitPosition(t, c.relay, e.head())
	cancelWatch()
	<-watched
	if n := both.Load(); n > 0 {
		t.Errorf("two relays ran at once in %d samples, want never (one relay per deployment)", n)
	}
	if got := c.runs.Load(); got != 1 {
		t.Errorf("node c started its relay %d times, want 1", got)
	}
	e.checkJetStream()
}

// TestLeaseLogSaysWhenTheRoleRan: the lines a lease's holder logs bound
// the time its role ran, for whoever reads the logs of several processes to
// check that a role never ran twice at once (e2e's checkLeases): "lease
// taken" comes before the role starts and "lease role stopped" after it has
// returned and before the key is freed, so the next holder's "lease taken"
// comes after it. Both holders log to one writer, whose order is the order
// of the calls; nothing here depends on timing.
func TestLeaseLogSaysWhenTheRoleRan(t *testing.T) {
	url := startNATSServer(t)
	ns, err := natsbus.NewNamespace("prod")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		lines []string // "owner message", in the order logged
	)
	w := writerFunc(func(p []byte) (int, error) {
		var r struct{ Msg, Owner string }
		if err := json.Unmarshal(p, &r); err != nil {
			return 0, err
		}
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, r.Owner+" "+r.Msg)
		return len(p), nil
	})
	run := func(owner string) (stop func()) {
		_, js := dial(t, url)
		log := slog.New(slog.NewJSONHandler(w, nil)).With("owner", owner)
		l, err := natsbus.OpenLeases(t.Context(), js, ns, natsbus.LeaseOptions{TTL: leaseTTL, Owner: owner}, log)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = l.Run(ctx, "relay", func(ctx context.Context) {
				log.Info("role started")
				<-ctx.Done()
				log.Info("role returned")
			})
		}()
		waitFor(t, func() bool { return l.Held("relay") }, owner+" takes the lease")
		return func() { cancel(); <-done }
	}
	stopA := run("a")
	stoppedA := make(chan struct{})
	go func() { defer close(stoppedA); stopA() }() // a frees the key while b waits for it
	stopB := run("b")
	stopB()
	<-stoppedA

	mu.Lock()
	defer mu.Unlock()
	at := func(line string) int {
		i := slices.Index(lines, line)
		if i < 0 {
			t.Fatalf("nothing logged %q; the holders logged\n  %s", line, strings.Join(lines, "\n  "))
		}
		return i
	}
	for _, o := range []string{"a", "b"} {
		seq := []string{"lease taken", "role started", "role returned", "lease role stopped", "lease released"}
		for i := 1; i < len(seq); i++ {
			if at(o+" "+seq[i-1]) > at(o+" "+seq[i]) {
				t.Errorf("%s logged %q after %q", o, seq[i-1], seq[i])
			}
		}
	}
	if at("a lease role stopped") > at("b lease taken") {
		t.Errorf("b logged %q before a logged %q: the logs show two holders at once; the holders logged\n  %s",
			"lease taken", "lease role stopped", strings.Join(lines, "\n  "))
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// A node that does not relay still hears every event of a table it
// watches: the notices come from JetStream's subjects, not from the relay's
// process.
func TestLiveOnNodeThatDoesNotRelay(t *testing.T) {
	url := startNATSServer(t)
	e := newClusterEnv(t, url, "prod")
	relayer := e.startNode(url, "a")
	waitHeld(t, relayer)

	other, _ := dial(t, url)
	seen := make(chan int, 256)
	stop, err := natsbus.Live{Conn: other, Namespace: e.ns}.Watch("01L", func(v int) { seen <- v })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// A deployment with another name on the same server is not heard.
	zero, err := natsbus.Live{Conn: other}.Watch("01L", func(v int) { t.Errorf("the unnamed deployment's watch heard version %d of deployment prod", v) })
	if err != nil {
		t.Fatal(err)
	}
	defer zero()

	e.openTable("01L", "shengji")
	e.play("table-01L", 1, 20)
	got := map[int]bool{}
	limit := time.After(waitLimit)
	for len(got) < 21 {
		select {
		case v := <-seen:
			got[v] = true
		case <-limit:
			t.Fatalf("heard versions %v, want 1 to 21", slices.Sorted(mapKeys(got)))
		}
	}
	for v := 1; v <= 21; v++ {
		if !got[v] {
			t.Errorf("version %d never heard", v)
		}
	}
}

func mapKeys(m map[int]bool) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Two deployments and an unnamed one on one server keep apart: each stream
// holds exactly its own store's events, under its own subjects.
func TestNamespacesKeepDeploymentsApart(t *testing.T) {
	url := startNATSServer(t)
	blue := newClusterEnv(t, url, "blue")
	green := newClusterEnv(t, url, "green")
	zero := newClusterEnv(t, url, "")
	for i, e := range []*env{blue, green, zero} {
		e.seed()
		e.openTable(fmt.Sprintf("only%d", i), "doudizhu")
		e.play(fmt.Sprintf("table-only%d", i), 1, 5+i)
		opts := smallOpts
		opts.Namespace = e.ns
		r := natsbus.NewRelay(e.st, e.js, e.st, e.logs.logger(), opts)
		stop := runRelay(e.ctx, r)
		waitPosition(t, r, e.head())
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range []*env{blue, green, zero} {
		e.checkJetStream()
	}
	if blue.ns.ProjectionConsumer("x") == green.ns.ProjectionConsumer("x") || blue.ns.Bucket("leases") == zero.ns.Bucket("leases") {
		t.Error("two deployments share a consumer or bucket name")
	}
}

func TestNamespaceNames(t *testing.T) {
	for _, bad := range []string{"events", "a.b", "a b", "*", ">", "x/y", "0123456789012345678901234567890123"} {
		if _, err := natsbus.NewNamespace(bad); err == nil {
			t.Errorf("NewNamespace(%q) accepted", bad)
		}
	}
	zero, _ := natsbus.NewNamespace("")
	prod, err := natsbus.NewNamespace("prod")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ got, want string }{
		{zero.Stream(), "PAIJU_EVENTS"},
		{zero.Subject("doudizhu", "01J"), "paiju.events.doudizhu.01J"},
		{zero.ProjectionConsumer("stats"), "paiju-projection-stats"},
		{zero.ProjectionsConsumer(), "paiju-projections"},
		{zero.Bucket("leases"), "paiju-leases"},
		{prod.Stream(), "PAIJU_EVENTS_prod"},
		{prod.Subject("doudizhu", "01J"), "paiju.prod.events.doudizhu.01J"},
		{prod.ProjectionConsumer("stats"), "paiju-prod-projection-stats"},
		{prod.ProjectionsConsumer(), "paiju-prod-projections"},
		{prod.Bucket("anchor"), "paiju-prod-anchor"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// A ticket issued on one node is redeemed on another, once: of two nodes
// redeeming it at the same time, exactly one gets it.
func TestTicketsTakenOnce(t *testing.T) {
	url := startNATSServer(t)
	ns, _ := natsbus.NewNamespace("prod")
	var nodes []*natsbus.Tickets
	for range 3 {
		_, js := dial(t, url)
		tk, err := natsbus.OpenTickets(t.Context(), js, ns, time.Minute, 1)
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, tk)
	}
	ctx := t.Context()
	if err := nodes[0].Put(ctx, "k1", []byte("grant-1")); err != nil {
		t.Fatal(err)
	}
	if err := nodes[0].Put(ctx, "k1", []byte("again")); err == nil {
		t.Error("a second Put of the same key was accepted")
	}
	got, ok, err := nodes[1].Take(ctx, "k1")
	if err != nil || !ok || string(got) != "grant-1" {
		t.Fatalf("Take on another node: %q %v %v, want grant-1", got, ok, err)
	}
	if _, ok, err := nodes[2].Take(ctx, "k1"); ok || err != nil {
		t.Fatalf("a spent ticket was taken again (%v, %v)", ok, err)
	}

	for i := range 20 {
		key := fmt.Sprintf("race%d", i)
		if err := nodes[0].Put(ctx, key, []byte("g")); err != nil {
			t.Fatal(err)
		}
		var wins atomic.Int32
		var wg sync.WaitGroup
		for _, n := range nodes[1:] {
			wg.Go(func() {
				if _, ok, err := n.Take(ctx, key); err != nil {
					t.Error(err)
				} else if ok {
					wins.Add(1)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("ticket %s redeemed %d times by two nodes at once, want exactly 1", key, wins.Load())
		}
	}
}

// The anchor moves forward only, and refuses a head behind it or one that
// differs at its position.
func TestAnchorAdvances(t *testing.T) {
	url := startNATSServer(t)
	_, js := dial(t, url)
	ns, _ := natsbus.NewNamespace("prod")
	a, err := natsbus.OpenAnchor(t.Context(), js, ns, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, ok, err := a.Load(ctx); ok || err != nil {
		t.Fatalf("a new bucket has an anchor (%v, %v)", ok, err)
	}
	now := time.Now().UTC()
	steps := []struct {
		p     natsbus.AnchorPoint
		ahead bool
	}{
		{natsbus.AnchorPoint{Position: 5, Hash: "h5", RecordedAt: now}, false},
		{natsbus.AnchorPoint{Position: 5, Hash: "h5", RecordedAt: now}, false},
		{natsbus.AnchorPoint{Position: 3, Hash: "h3", RecordedAt: now}, true},
		{natsbus.AnchorPoint{Position: 5, Hash: "other", RecordedAt: now}, true},
		{natsbus.AnchorPoint{Position: 9, Hash: "h9", RecordedAt: now}, false},
	}
	for _, s := range steps {
		err := a.Advance(ctx, s.p)
		if s.ahead != errors.Is(err, natsbus.ErrAnchorAhead) || (!s.ahead && err != nil) {
			t.Errorf("Advance(%+v) = %v, want ahead=%v", s.p, err, s.ahead)
		}
	}
	p, ok, err := a.Load(ctx)
	if err != nil || !ok || p.Position != 9 || p.Hash != "h9" {
		t.Fatalf("anchor %+v (%v, %v), want position 9 hash h9", p, ok, err)
	}
}

// countingProjector records which events it was given.
type countingProjector struct {
	mu  sync.Mutex
	pos map[int64]int
}

func (c *countingProjector) CatchUp(context.Context, string) error { return nil }

func (c *countingProjector) Apply(_ context.Context, _ string, evs []eventstore.Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range evs {
		c.pos[e.Position]++
	}
	return nil
}

func (c *countingProjector) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pos)
}

// With leases, one node per deployment consumes a projection; when it
// stops, another takes over where the durable consumer stood.
func TestProjectionLeaseOneWorker(t *testing.T) {
	url := startNATSServer(t)
	e := newClusterEnv(t, url, "prod")
	e.seed()
	r := e.startNode(url, "relay")
	waitHeld(t, r)
	waitPosition(t, r.relay, e.head())

	type worker struct {
		p      *countingProjector
		leases *natsbus.Leases
		cancel context.CancelFunc
		done   chan struct{}
	}
	start := func(name string) *worker {
		_, js := dial(t, url)
		l, err := natsbus.OpenLeases(e.ctx, js, e.ns, natsbus.LeaseOptions{TTL: leaseTTL, Owner: name}, e.logs.logger())
		if err != nil {
			t.Fatal(err)
		}
		w := &worker{p: &countingProjector{pos: map[int64]int{}}, leases: l, done: make(chan struct{})}
		ctx, cancel := context.WithCancel(e.ctx)
		w.cancel = cancel
		f := &natsbus.ProjectionFeed{Projector: w.p, JS: js, Names: []string{"stats"}, Namespace: e.ns, Leases: l, FetchWait: 100 * time.Millisecond}
		go func() { defer close(w.done); _ = f.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-w.done })
		return w
	}
	wa := start("wa")
	waitFor(t, func() bool { return wa.leases.Held(natsbus.LeaseKey("stats")) }, "worker a takes the lease")
	wb := start("wb")
	head := int(e.head())
	waitFor(t, func() bool { return wa.p.count() == head }, "worker a applies every event")
	if n := wb.p.count(); n != 0 {
		t.Fatalf("worker b applied %d events while a held the projection's lease, want 0", n)
	}

	wa.cancel()
	<-wa.done
	e.play("table-01A", 13, 6)
	r.relay.Notify()
	head2 := int(e.head())
	waitFor(t, func() bool { return wb.p.count() >= head2-head }, "worker b takes over")
	for p := head + 1; p <= head2; p++ {
		if wb.p.pos[int64(p)] == 0 {
			t.Errorf("event %d never applied by the worker that took over", p)
		}
	}
}

func waitFor(t testing.TB, cond func() bool, what string) {
	t.Helper()
	limit := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(limit) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
