package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/jackc/pgx/v5"
	"github.com/rs/zerolog"

	"paiju/eventstore"
	"paiju/internal/pgtest"
	"paiju/loadtest"
	"paiju/loadtest/linearcheck"
)

// The fault test (issue #40): the cluster of TestCluster, every connection
// between its processes through toxiproxy (each node's to PostgreSQL, each
// node's to each NATS server, each NATS server's routes to the others), and
// the faults a deployment meets, at moments drawn from a fixed seed:
// partitions (a node from PostgreSQL, a node from NATS, a NATS server from
// its peers), 200 ms of latency on one link, connections to PostgreSQL
// reset mid-transaction, SIGKILL of a node or of a NATS server, a node
// paused (SIGSTOP) for longer than the lease TTL. The load records every
// command's history; each table's history must be linearizable
// (porcupine), and afterwards the store, every JetStream replica, the
// leases and the projections must hold what TestCluster requires.
//
// It runs with PAIJU_CLUSTER_TEST=1 (make cluster-test): 60 s of load with
// at least 20 faults, every kind at least twice. PAIJU_FAULTS=N runs N
// faults instead, about 2.5 s apart, partitions from PostgreSQL of up to
// 20 s among them; PAIJU_FAULT_SEED picks another seed.

// faultKind is a kind of fault the test injects.
type faultKind string

const (
	faultPGPartition   faultKind = "partition node from PostgreSQL"
	faultNATSPartition faultKind = "partition node from NATS"
	faultNATSIsolated  faultKind = "partition NATS server from its peers"
	faultLatency       faultKind = "200ms latency on one link"
	faultResetTx       faultKind = "reset PostgreSQL connections mid-transaction"
	faultKillNode      faultKind = "SIGKILL node"
	faultKillNATS      faultKind = "SIGKILL NATS server"
	faultPause         faultKind = "pause node longer than the lease TTL"
)

var faultKinds = []faultKind{faultPGPartition, faultNATSPartition, faultNATSIsolated, faultLatency, faultResetTx, faultKillNode, faultKillNATS, faultPause}

// faultLeaseTTL is the nodes' --lease-ttl: short, so that a pause outlives
// it without stalling the load for long.
const faultLeaseTTL = 2 * time.Second

// fault is one planned fault: kind on target (a node or NATS server index;
// for latency, a link's proxy) at a moment of the load, for a while.
type fault struct {
	at, dur time.Duration
	kind    faultKind
	target  int
	link    string
}

func (f fault) String() string {
	s := fmt.Sprintf("%6.1fs %s", f.at.Seconds(), f.kind)
	switch f.kind {
	case faultLatency:
		s += " " + f.link
	case faultNATSIsolated, faultKillNATS:
		s += fmt.Sprintf(" nats-%d", f.target+1)
	default:
		s += fmt.Sprintf(" paiju-%d", f.target+1)
	}
	if f.dur > 0 {
		s += fmt.Sprintf(" for %s", f.dur.Round(10*time.Millisecond))
	}
	return s
}

// planFaultRun draws n faults about every gap, every kind in turn in an
// order shuffled for each round, so that any n ≥ 2·kinds covers every kind
// at least twice. Faults on the NATS servers never overlap (a JetStream of
// three replicas survives one server's loss, not two), nor do two faults
// on one node; the last ends well before the load does.
func planFaultRun(rng *rand.Rand, n, nodes, servers int, links []string, gap time.Duration, long bool) []fault {
	var (
		plan     []fault
		kinds    []faultKind
		busyNode = make([]time.Duration, nodes)
		busyNATS time.Duration
	)
	at := 3 * time.Second
	for len(plan) < n {
		if len(kinds) == 0 {
			kinds = slices.Clone(faultKinds)
			rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
		}
		k := kinds[0]
		kinds = kinds[1:]
		f := fault{kind: k}
		switch k {
		case faultPGPartition:
			f.dur = time.Duration(3000+rng.IntN(5000)) * time.Millisecond
			if long {
				// As long as a database fail-over takes.
				f.dur = time.Duration(5000+rng.IntN(15000)) * time.Millisecond
			}
		case faultNATSPartition:
			f.dur = time.Duration(2000+rng.IntN(4000)) * time.Millisecond
		case faultNATSIsolated:
			f.dur = time.Duration(3000+rng.IntN(4000)) * time.Millisecond
		case faultLatency:
			f.dur = time.Duration(2000+rng.IntN(4000)) * time.Millisecond
			f.link = links[rng.IntN(len(links))]
		case faultResetTx:
			f.dur = 300 * time.Millisecond
		case faultKillNode:
			f.dur = time.Duration(300+rng.IntN(1500)) * time.Millisecond
		case faultKillNATS:
			f.dur = time.Duration(1000+rng.IntN(3000)) * time.Millisecond
		case faultPause:
			f.dur = faultLeaseTTL + time.Duration(500+rng.IntN(2000))*time.Millisecond
		}
		natsSide := k == faultNATSIsolated || k == faultKillNATS
		if natsSide {
			f.target = rng.IntN(servers)
			f.at = max(at, busyNATS)
			busyNATS = f.at + f.dur + 2*time.Second // the replica catches up
		} else if k != faultLatency {
			f.target = rng.IntN(nodes)
			f.at = max(at, busyNode[f.target])
			busyNode[f.target] = f.at + f.dur + time.Second
		} else {
			f.at = at
		}
		plan = append(plan, f)
		at += gap/2 + time.Duration(rng.Int64N(int64(gap)))
	}
	slices.SortFunc(plan, func(a, b fault) int { return int(a.at - b.at) })
	return plan
}

// toxics is the toxiproxy server, run in the test process: one proxy per
// link between the cluster's processes.
type toxics struct {
	srv     *toxiproxy.ApiServer
	mu      sync.Mutex
	proxies map[string]*toxiproxy.Proxy
}

func newToxics() *toxics {
	return &toxics{srv: toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop()), proxies: map[string]*toxiproxy.Proxy{}}
}

// add starts a proxy named name to upstream on a loopback port and returns
// its address. The port is below the kernel's range of ephemeral ports:
// healing a partition closes the proxy's listener and opens it again on
// the same port, and a port of that range, once closed, can be taken in
// between as the local port of any outgoing connection (a long run lost
// a node's every NATS proxy so, for good).
func (x *toxics) add(t *testing.T, name, upstream string) string {
	t.Helper()
	lo := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 12000 {
				lo = n
			}
		}
	}
	var (
		p   *toxiproxy.Proxy
		err error
	)
	for range 100 {
		p = toxiproxy.NewProxy(x.srv, name, fmt.Sprintf("127.0.0.1:%d", 10000+rand.IntN(lo-10000)), upstream)
		if err = x.srv.Collection.Add(p, true); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("toxiproxy %s: %v", name, err)
	}
	t.Cleanup(p.Stop)
	x.mu.Lock()
	x.proxies[name] = p
	x.mu.Unlock()
	return p.Listen
}

func (x *toxics) get(name string) *toxiproxy.Proxy {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.proxies[name]
}

// toxic adds a toxic of kind with attrs to both directions of each proxy,
// named name-up and name-down.
func (x *toxics) toxic(name, kind string, attrs map[string]any, proxies ...string) error {
	for _, p := range proxies {
		for _, dir := range []string{"upstream", "downstream"} {
			b, _ := json.Marshal(map[string]any{"name": name + "-" + dir, "type": kind, "stream": dir, "toxicity": 1, "attributes": attrs})
			if _, err := x.get(p).Toxics.AddToxicJson(strings.NewReader(string(b))); err != nil {
				return fmt.Errorf("toxic %s on %s: %w", name, p, err)
			}
		}
	}
	return nil
}

// untoxic removes the toxic name from each proxy; with reset it then
// closes every connection through them (stop and start on the same
// port), as TCP would end connections whose bytes a partition dropped.
func (x *toxics) untoxic(name string, reset bool, proxies ...string) error {
	for _, p := range proxies {
		px := x.get(p)
		for _, dir := range []string{"upstream", "downstream"} {
			_ = px.Toxics.RemoveToxic(context.Background(), name+"-"+dir)
		}
		if reset {
			px.Stop()
			if err := px.Start(); err != nil {
				return fmt.Errorf("toxiproxy %s on %s again: %w", p, px.Listen, err)
			}
		}
	}
	return nil
}

// faultNet is the cluster's links through toxiproxy.
type faultNet struct {
	x *toxics
	// nodeNATS[i] are node i's proxies to each NATS server, nodePG[i]
	// its proxy to PostgreSQL; routes[s] the proxies of NATS server s's
	// routes to and from its peers.
	nodeNATS [][]string
	nodePG   []string
	routes   [][]string
}

func (n *faultNet) links() []string {
	var l []string
	for i := range n.nodePG {
		l = append(l, n.nodePG[i])
		l = append(l, n.nodeNATS[i]...)
	}
	for s := range n.routes {
		for _, r := range n.routes[s] {
			if strings.HasPrefix(r, fmt.Sprintf("route-%d-", s+1)) {
				l = append(l, r)
			}
		}
	}
	return l
}

// startRoutedNATSCluster is startNATSCluster with each server's routes
// through a proxy per ordered pair of servers (route-s-p: s dials p), and
// the servers told neither to advertise their client URLs to clients nor
// a reachable route address to each other, so that every connection
// between them and from the nodes goes through a proxy. It returns the
// cluster (urls: the servers' own, for the test's checks) and the
// proxies.
func startRoutedNATSCluster(t *testing.T, bin, logDir string, n int, x *toxics, net *faultNet) natsCluster {
	t.Helper()
	ports := freePorts(t, 3*n)
	// A port nobody listens on: what a server advertises as its route
	// address, so that a server that hears of a peer from another does
	// not dial it directly, around the proxy.
	nowhere := freePorts(t, 1)[0]
	routeProxy := make([][]string, n) // [s][p]: s dials p
	net.routes = make([][]string, n)
	for s := range n {
		routeProxy[s] = make([]string, n)
		for p := range n {
			if p == s {
				continue
			}
			name := fmt.Sprintf("route-%d-%d", s+1, p+1)
			routeProxy[s][p] = x.add(t, name, fmt.Sprintf("127.0.0.1:%d", ports[n+p]))
			net.routes[s] = append(net.routes[s], name)
			net.routes[p] = append(net.routes[p], name)
		}
	}
	var c natsCluster
	var urls []string
	for i := range n {
		var routes []string
		for p := range n {
			if p != i {
				routes = append(routes, "nats-route://"+routeProxy[i][p])
			}
		}
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
		c.monitors = append(c.monitors, fmt.Sprintf("http://127.0.0.1:%d", ports[2*n+i]))
		dir := t.TempDir()
		conf := filepath.Join(dir, "nats.conf")
		body := fmt.Sprintf(`server_name: nats-%d
listen: 127.0.0.1:%d
http: 127.0.0.1:%d
jetstream {
  store_dir: %q
  max_memory_store: 64MB
  max_file_store: 1GB
}
cluster {
  name: paiju-test
  listen: 127.0.0.1:%d
  advertise: 127.0.0.1:%d
  no_advertise: true
  routes: [%s]
}
`, i+1, ports[i], ports[2*n+i], filepath.Join(dir, "js"), ports[n+i], nowhere, strings.Join(routes, ", "))
		if err := os.WriteFile(conf, []byte(body), 0o640); err != nil {
			t.Fatal(err)
		}
		p := newClusterProc(t, fmt.Sprintf("nats-%d", i+1), bin, logDir, "-c", conf)
		if err := p.start(); err != nil {
			t.Fatal(err)
		}
		c.procs = append(c.procs, p)
	}
	c.urls = strings.Join(urls, ",")
	awaitJetStream(t, c.urls)
	return c
}

// readyWatch is what a node's /readyz said during and after a partition.
type readyWatch struct {
	notReady int // during the fault: answers of 503, and refused connections (a node that is not serving)
	timedOut int // probes without an answer within 5s
	firstErr string
	healed   bool // 200 again after the fault ended
	healedIn time.Duration
}

// watchReady probes base/readyz every 200ms until stop closes, then until
// it answers 200 (at most 60s).
func watchReady(base string, stop <-chan struct{}) readyWatch {
	// Longer than a prober waits (2s): the node must say it is not ready,
	// not leave the prober to guess from its silence.
	hc := &http.Client{Timeout: 5 * time.Second}
	var w readyWatch
	probe := func() int {
		resp, err := hc.Get(base + "/readyz")
		if errors.Is(err, syscall.ECONNREFUSED) {
			return http.StatusServiceUnavailable
		}
		if err != nil {
			if w.firstErr == "" {
				w.firstErr = err.Error()
			}
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for {
		select {
		case <-stop:
			healed := time.Now()
			for time.Since(healed) < 60*time.Second {
				if probe() == http.StatusOK {
					w.healed, w.healedIn = true, time.Since(healed)
					return w
				}
				time.Sleep(200 * time.Millisecond)
			}
			return w
		case <-time.After(200 * time.Millisecond):
		}
		switch probe() {
		case http.StatusOK:
		case 0:
			w.timedOut++
		default:
			w.notReady++
		}
	}
}

// faultLog is what the faults did, for the checks and the report.
type faultLog struct {
	mu     sync.Mutex
	done   map[faultKind]int
	pauses map[string][][2]time.Time // node name: paused from, to
	ready  map[faultKind][]readyWatch
}

func TestClusterFaults(t *testing.T) {
	if os.Getenv("PAIJU_CLUSTER_TEST") != "1" {
		t.Skip("the fault test runs with PAIJU_CLUSTER_TEST=1 (make cluster-test): it builds nats-server and runs 6 processes for minutes")
	}
	nFaults := clusterEnv(t, "PAIJU_FAULTS", 0)
	long := nFaults > 0
	duration, gap := 60*time.Second, 2500*time.Millisecond
	if !long {
		nFaults = 20
		gap = 2200 * time.Millisecond
	} else {
		duration = time.Duration(nFaults)*gap + 15*time.Second
	}
	seed := uint64(clusterEnv(t, "PAIJU_FAULT_SEED", 40))
	t.Logf("fault seed %d (PAIJU_FAULT_SEED), %d faults over %s of load", seed, nFaults, duration)
	ctx := t.Context()
	logDir := t.TempDir()
	if d := os.Getenv("PAIJU_CLUSTER_KEEP_LOGS"); d != "" {
		logDir = d
		if err := os.MkdirAll(d, 0o750); err != nil {
			t.Fatal(err)
		}
	}
	bin, natsBin := paijuBin(t), filepath.Join(t.TempDir(), "nats-server")
	if out, err := exec.Command("go", "build", "-o", natsBin, "github.com/nats-io/nats-server/v2").CombinedOutput(); err != nil {
		t.Fatalf("go build nats-server: %v\n%s", err, out)
	}

	const nNodes, nServers = 3, 3
	x := newToxics()
	fnet := &faultNet{x: x}
	nc := startRoutedNATSCluster(t, natsBin, logDir, nServers, x, fnet)
	store := &clusterStore{url: pgtest.NewDatabase(t)}
	pgURL, err := url.Parse(store.url)
	if err != nil {
		t.Fatal(err)
	}
	nodes := make([]*clusterProc, nNodes)
	serverURLs := strings.Split(nc.urls, ",")
	fnet.nodeNATS = make([][]string, nNodes)
	for i := range nodes {
		var natsURLs []string
		for s, u := range serverURLs {
			name := fmt.Sprintf("nats-%d-%d", i+1, s+1)
			natsURLs = append(natsURLs, "nats://"+x.add(t, name, strings.TrimPrefix(u, "nats://")))
			fnet.nodeNATS[i] = append(fnet.nodeNATS[i], name)
		}
		pgName := fmt.Sprintf("pg-%d", i+1)
		via := *pgURL
		via.Host = x.add(t, pgName, pgURL.Host)
		fnet.nodePG = append(fnet.nodePG, pgName)
		nodes[i] = startPaijuNode(t, bin, logDir, i, strings.Join(natsURLs, ","), &clusterStore{url: via.String()},
			"--lease-ttl", faultLeaseTTL.String(), "--log-format", "json")
	}
	for _, n := range nodes {
		n.waitReady(t, 90*time.Second)
	}

	plan := planFaultRun(rand.New(rand.NewPCG(seed, 40)), nFaults, nNodes, nServers, fnet.links(), gap, long)
	for _, f := range plan {
		t.Logf("planned: %s", f)
	}
	flog := &faultLog{done: map[faultKind]int{}, pauses: map[string][][2]time.Time{}, ready: map[faultKind][]readyWatch{}}
	var (
		faultsDone = make(chan struct{})
		playing    = make(chan struct{})
		stopFaults = make(chan struct{})
		mu         sync.Mutex
		acks       []loadtest.Ack
		ops        []loadtest.Op
	)
	go func() {
		defer close(faultsDone)
		select {
		case <-playing:
		case <-stopFaults:
			return
		}
		runFaultPlan(t, plan, nodes, nc.procs, fnet, flog, stopFaults)
	}()
	supervised := make(chan int, 1)
	go func() { supervised <- supervise(t, nodes, stopFaults) }()
	urls := make([]string, nNodes)
	for i, n := range nodes {
		urls[i] = n.url
	}
	var out strings.Builder
	cfg := loadtest.Config{
		Addrs: urls, Duration: duration, Game: "doudizhu", Variant: "classic", Seed: seed,
		Tables: 24, Clients: 12, MetricsURL: "-",
		// A request stuck on a paused or partitioned node is sent again
		// to the next one (with its Idempotency-Key) after 5s.
		RequestTimeout: 5 * time.Second,
		OnAck:          func(a loadtest.Ack) { mu.Lock(); acks = append(acks, a); mu.Unlock() },
		OnOp:           func(o loadtest.Op) { mu.Lock(); ops = append(ops, o); mu.Unlock() },
		OnPlaying:      func() { close(playing) },
	}
	res, err := loadtest.Run(ctx, cfg, &out)
	close(stopFaults)
	<-faultsDone
	restarts := <-supervised
	if err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	writeHistory(filepath.Join(logDir, "history.jsonl"), ops)
	t.Logf("load on %d nodes under faults: %s", nNodes, res)
	for _, k := range faultKinds {
		if flog.done[k] == 0 {
			t.Errorf("no fault of kind %q was injected", k)
		}
	}
	if res.Moves < 50 {
		t.Fatalf("only %d moves acknowledged in %s: the cluster did not serve (first error: %s)", res.Moves, duration, res.FirstErr)
	}

	// Each table's history, linearizable.
	lin := linearcheck.Check(ops, 2*time.Minute)
	outcomes := map[loadtest.Outcome]int{}
	for _, o := range ops {
		outcomes[o.Outcome]++
	}
	if lin.Linearizable != "Ok" {
		// CI keeps CI_LOGS; by hand, go test keeps the artifact
		// directory with -artifacts (else it is removed with the test).
		dir, keep := os.Getenv("CI_LOGS"), ""
		if dir == "" {
			dir, keep = t.ArtifactDir(), " (kept with go test -artifacts)"
		}
		path := filepath.Join(dir, "faults-linearizability.html")
		err := os.MkdirAll(dir, 0o750)
		var f *os.File
		if err == nil {
			f, err = os.Create(path)
		}
		if err == nil {
			err = lin.Visualize(f)
			f.Close()
		}
		writeHistory(filepath.Join(dir, "faults-history.jsonl"), ops)
		t.Errorf("the tables' histories are not linearizable (%s): %d commands on %d tables; porcupine's view in %s, the history beside it%s (%v)", lin.Linearizable, lin.Ops, lin.Tables, path, keep, err)
	}

	// Every process up again, every link whole.
	bringUp(t, nc, nodes)
	c := loadtest.NewClient(urls...)
	c.RetryFor = 60 * time.Second
	log, err := store.readAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	replayed := checkAcks(t, c, acks, log)
	checkOpsInStore(t, ops, log, store)
	relayed := checkJetStream(t, nc, len(log), func() []eventstore.Event {
		l, err := store.readAll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return l
	})
	replicas := checkReplicas(t, nc, relayed, func() []eventstore.Event {
		l, err := store.readAll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return l
	})
	tables := map[string]bool{}
	for _, a := range acks {
		tables[a.Table] = true
	}
	hands := 0
	for id := range tables {
		hands += checkProjected(t, c, id)
	}
	for _, n := range nodes {
		n.stop(t)
	}
	overlaps := checkLeases(t, nodes, flog)
	verifyOut := store.verify(t, bin, nc.urls)

	var kinds []string
	for _, k := range faultKinds {
		kinds = append(kinds, fmt.Sprintf("%s ×%d", k, flog.done[k]))
	}
	var ready []string
	for _, k := range []faultKind{faultPGPartition, faultNATSPartition} {
		for _, w := range flog.ready[k] {
			ready = append(ready, fmt.Sprintf("%s: %d×503 %d×no answer, ready %s after", k, w.notReady, w.timedOut, w.healedIn.Round(100*time.Millisecond)))
		}
	}
	t.Logf("faults survived (seed %d): %s; %d nodes restarted by the supervisor after exiting on their own", seed, strings.Join(kinds, ", "), restarts)
	t.Logf("readyz of the partitioned nodes: %s", strings.Join(ready, "; "))
	t.Logf("%d commands on %d tables, histories linearizable (%s): %d ok, %d stale, %d refused, %d unknown; %d moves acknowledged (%d only by a retry's replay, %d requests retried), all in the store once; JetStream's %d events match the store on %d replicas; %d settled hands projected once; leases: %s; %s",
		lin.Ops, lin.Tables, lin.Linearizable, outcomes[loadtest.OutcomeOK], outcomes[loadtest.OutcomeStale], outcomes[loadtest.OutcomeRefused], outcomes[loadtest.OutcomeUnknown],
		len(acks), replayed, res.Retries, relayed, replicas, hands, overlaps, verifyOut)
}

// supervise restarts a node that exits on its own (one that cannot reach
// PostgreSQL or NATS while it starts gives up after a while, by design),
// as a deployment's supervisor does (deploy/compose.yaml: restart
// unless-stopped), until stop closes; it returns the restarts.
func supervise(t *testing.T, nodes []*clusterProc, stop <-chan struct{}) int {
	restarts := 0
	for {
		select {
		case <-stop:
			return restarts
		case <-time.After(time.Second):
		}
		for _, n := range nodes {
			if n.running() || n.keepDown.Load() {
				continue
			}
			last := strings.TrimSpace(tail(n.logPath, 1))
			if err := n.start(); err != nil {
				continue // started meanwhile by the fault that held it down
			}
			restarts++
			t.Logf("%s exited on its own (%s); restarted as its supervisor would", n.name, last)
		}
	}
}

// runFaultPlan carries plan out from now until stop; each fault undoes
// itself after its time.
func runFaultPlan(t *testing.T, plan []fault, nodes, natsProcs []*clusterProc, fnet *faultNet, flog *faultLog, stop <-chan struct{}) {
	start := time.Now()
	var wg sync.WaitGroup
	defer wg.Wait()
	for i, f := range plan {
		select {
		case <-stop:
			return
		case <-time.After(time.Until(start.Add(f.at))):
		}
		name := fmt.Sprintf("f%d", i)
		var undo func()
		var watch chan readyWatch
		switch f.kind {
		case faultPGPartition, faultNATSPartition:
			links := []string{fnet.nodePG[f.target]}
			if f.kind == faultNATSPartition {
				links = fnet.nodeNATS[f.target]
			}
			if err := fnet.x.toxic(name, "timeout", map[string]any{"timeout": 0}, links...); err != nil {
				t.Error(err)
				continue
			}
			healed := make(chan struct{})
			watch = make(chan readyWatch, 1)
			base := nodes[f.target].url
			go func() { watch <- watchReady(base, healed) }()
			undo = func() {
				if err := fnet.x.untoxic(name, true, links...); err != nil {
					t.Error(err)
				}
				close(healed)
			}
		case faultNATSIsolated:
			links := fnet.routes[f.target]
			if err := fnet.x.toxic(name, "timeout", map[string]any{"timeout": 0}, links...); err != nil {
				t.Error(err)
				continue
			}
			undo = func() {
				if err := fnet.x.untoxic(name, true, links...); err != nil {
					t.Error(err)
				}
			}
		case faultLatency:
			if err := fnet.x.toxic(name, "latency", map[string]any{"latency": 200}, f.link); err != nil {
				t.Error(err)
				continue
			}
			undo = func() { _ = fnet.x.untoxic(name, false, f.link) }
		case faultResetTx:
			// The next bytes each connection carries, a statement of a
			// transaction under way or its COMMIT, end it with a RST.
			link := fnet.nodePG[f.target]
			if err := fnet.x.toxic(name, "reset_peer", map[string]any{"timeout": 0}, link); err != nil {
				t.Error(err)
				continue
			}
			undo = func() { _ = fnet.x.untoxic(name, false, link) }
		case faultKillNode, faultKillNATS:
			p := nodes[f.target]
			if f.kind == faultKillNATS {
				p = natsProcs[f.target]
			}
			p.keepDown.Store(true)
			if !p.kill() {
				p.keepDown.Store(false)
				t.Logf("%5.1fs: %s is down already", time.Since(start).Seconds(), p.name)
				continue
			}
			undo = func() {
				if err := p.start(); err != nil && !strings.Contains(err.Error(), "is running") {
					t.Errorf("restart %s: %v", p.name, err)
				}
				p.keepDown.Store(false)
			}
		case faultPause:
			p := nodes[f.target]
			if !p.send(syscall.SIGSTOP) {
				continue
			}
			from := time.Now()
			undo = func() {
				p.send(syscall.SIGCONT)
				flog.mu.Lock()
				flog.pauses[p.name] = append(flog.pauses[p.name], [2]time.Time{from, time.Now()})
				flog.mu.Unlock()
			}
		}
		t.Logf("%5.1fs: %s", time.Since(start).Seconds(), f)
		flog.mu.Lock()
		flog.done[f.kind]++
		flog.mu.Unlock()
		wg.Go(func() {
			time.Sleep(f.dur)
			undo()
			if watch != nil {
				w := <-watch
				flog.mu.Lock()
				flog.ready[f.kind] = append(flog.ready[f.kind], w)
				flog.mu.Unlock()
				if !w.healed {
					t.Errorf("%s: paiju-%d not ready again within 60s of healing", f.kind, f.target+1)
				}
				if w.notReady == 0 {
					t.Errorf("%s: /readyz of paiju-%d never answered 503 in %s (%d probes unanswered: %s)", f.kind, f.target+1, f.dur, w.timedOut, w.firstErr)
				}
			}
		})
	}
}

// checkOpsInStore checks that the store holds each accepted command once
// and nothing else: per table, the versions the accepted commands took the
// table across, (expected, version], do not overlap and lie within the
// table's stream, and what they leave of the stream after the set-up is
// at most one run of versions per command whose outcome is unknown.
func checkOpsInStore(t *testing.T, ops []loadtest.Op, log []eventstore.Event, store *clusterStore) {
	t.Helper()
	// explain lists a table's commands and the store's idempotency
	// records, for a failure's message.
	explain := func(id string, tops []loadtest.Op) string {
		var b strings.Builder
		slices.SortFunc(tops, func(a, b loadtest.Op) int { return a.Invoke.Compare(b.Invoke) })
		for _, o := range tops {
			fmt.Fprintf(&b, "\n  command %s client %d @%d → %s v%d (status %d) %s…%s", o.Key, o.Client, o.Expected, o.Outcome, o.Version, o.Status,
				o.Invoke.Format("15:04:05.000"), o.Complete.Format("15:04:05.000"))
		}
		conn, err := pgx.Connect(t.Context(), store.url)
		if err != nil {
			return b.String() + "\n  " + err.Error()
		}
		defer conn.Close(context.Background())
		rows, err := conn.Query(t.Context(), `SELECT key, first_version, last_version, created_at FROM idempotency WHERE stream = $1 ORDER BY first_version`, "table-"+id)
		if err != nil {
			return b.String() + "\n  " + err.Error()
		}
		defer rows.Close()
		for rows.Next() {
			var (
				key         string
				first, last int
				at          time.Time
			)
			if err := rows.Scan(&key, &first, &last, &at); err != nil {
				return b.String() + "\n  " + err.Error()
			}
			fmt.Fprintf(&b, "\n  stored key %s: versions %d..%d at %s", key, first, last, at.Format("15:04:05.000"))
		}
		return b.String()
	}
	head := map[string]int{}
	for _, e := range log {
		head[strings.TrimPrefix(e.Stream, "table-")] = max(head[strings.TrimPrefix(e.Stream, "table-")], e.Version)
	}
	byTable := map[string][]loadtest.Op{}
	for _, o := range ops {
		byTable[o.Table] = append(byTable[o.Table], o)
	}
	for id, tops := range byTable {
		first := slices.MinFunc(tops, func(a, b loadtest.Op) int { return a.Invoke.Compare(b.Invoke) })
		var ok []loadtest.Op
		unknown := 0
		for _, o := range tops {
			switch o.Outcome {
			case loadtest.OutcomeOK:
				ok = append(ok, o)
			case loadtest.OutcomeUnknown:
				unknown++
			}
		}
		slices.SortFunc(ok, func(a, b loadtest.Op) int { return a.Expected - b.Expected })
		at, gaps := first.Expected, 0
		for _, o := range ok {
			if o.Expected < at {
				t.Fatalf("table %s: command %s accepted at version %d → %d, but versions up to %d were another command's:%s", id, o.Key, o.Expected, o.Version, at, explain(id, tops))
			}
			if o.Expected > at {
				gaps++
			}
			at = o.Version
		}
		if at > head[id] {
			t.Fatalf("table %s: commands acknowledged up to version %d, the store holds %d:%s", id, at, head[id], explain(id, tops))
		}
		if head[id] > at {
			gaps++
		}
		if gaps > unknown {
			t.Fatalf("table %s: the store holds %d runs of events that no acknowledged command appended, with %d commands of unknown outcome:%s", id, gaps, unknown, explain(id, tops))
		}
	}
}

// leaseSpan is one holding of a lease by one run of a node, from its log.
type leaseSpan struct {
	node     string
	from, to time.Time
}

// checkLeases reads the nodes' logs for the holdings of each lease (the
// relay's and each projection's): "lease taken", logged before the role
// starts, to "lease role stopped", logged once it has returned and before
// the key is released, or to the run's end. (The lines that say why a role
// stops come before it has; "lease released" comes after another process
// may have taken the key.) Two holdings of one lease may overlap only
// while the earlier holder was paused and for the moment it takes, once
// resumed, to see its lease gone; the test fails on any other overlap and
// reports those.
func checkLeases(t *testing.T, nodes []*clusterProc, flog *faultLog) string {
	t.Helper()
	spans := map[string][]leaseSpan{}
	for _, n := range nodes {
		f, err := os.Open(n.logPath)
		if err != nil {
			t.Fatal(err)
		}
		n.mu.Lock()
		exits := slices.Clone(n.exits)
		n.mu.Unlock()
		open := map[string]time.Time{}
		run := 0
		end := func(at time.Time) {
			for k, from := range open {
				spans[k] = append(spans[k], leaseSpan{n.name, from, at})
			}
			clear(open)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "=== start") {
				if run > 0 && run-1 < len(exits) {
					end(exits[run-1])
				}
				run++
				continue
			}
			var l struct {
				Time  time.Time `json:"time"`
				Msg   string    `json:"msg"`
				Lease string    `json:"lease"`
			}
			if json.Unmarshal([]byte(line), &l) != nil || l.Lease == "" {
				continue
			}
			switch {
			case l.Msg == "lease taken":
				open[l.Lease] = l.Time
			case l.Msg == "lease role stopped":
				if from, ok := open[l.Lease]; ok {
					spans[l.Lease] = append(spans[l.Lease], leaseSpan{n.name, from, l.Time})
					delete(open, l.Lease)
				}
			}
		}
		f.Close()
		if run-1 < len(exits) {
			end(exits[run-1])
		} else {
			end(time.Now())
		}
	}
	// paused says how much of [from, to) node spent paused, or resuming
	// from a pause (the second after SIGCONT).
	paused := func(node string, from, to time.Time) time.Duration {
		var d time.Duration
		for _, p := range flog.pauses[node] {
			a, b := later(from, p[0]), earlier(to, p[1].Add(time.Second))
			if b.After(a) {
				d += b.Sub(a)
			}
		}
		return d
	}
	var (
		keys     []string
		excused  int
		worst    time.Duration
		holdings int
	)
	for k := range spans {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		ss := spans[k]
		holdings += len(ss)
		slices.SortFunc(ss, func(a, b leaseSpan) int { return a.from.Compare(b.from) })
		for i := range ss {
			for j := i + 1; j < len(ss) && ss[j].from.Before(ss[i].to); j++ {
				a, b := later(ss[i].from, ss[j].from), earlier(ss[i].to, ss[j].to)
				overlap := b.Sub(a)
				if overlap <= 0 {
					continue
				}
				if ss[i].node != ss[j].node && paused(ss[i].node, a, b) >= overlap {
					excused++
					worst = max(worst, overlap)
					continue
				}
				t.Errorf("lease %s held by %s from %s to %s and by %s from %s to %s: two holders for %s",
					k, ss[i].node, ss[i].from.Format("15:04:05.000"), ss[i].to.Format("15:04:05.000"),
					ss[j].node, ss[j].from.Format("15:04:05.000"), ss[j].to.Format("15:04:05.000"), overlap)
			}
		}
	}
	return fmt.Sprintf("%d holdings of %d leases, one holder at a time but for %d overlaps with a paused holder (at most %s)", holdings, len(keys), excused, worst.Round(time.Millisecond))
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// writeHistory writes ops to path, one JSON line each, for a look after
// the test.
func writeHistory(path string, ops []loadtest.Op) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, o := range ops {
		_ = enc.Encode(o)
	}
}
