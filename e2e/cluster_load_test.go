package e2e

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/eventstore"
	"paiju/loadtest"
)

// The cluster test (issue #20): three nats-server processes in one
// JetStream cluster, three `paiju serve` processes on one shared store, the
// load tool driving all of them, and SIGKILLs of API nodes and of one NATS
// server at random moments (a fixed seed). It takes minutes and several
// processes, so it runs only when PAIJU_CLUSTER_TEST=1 (make cluster-test,
// which make test runs once, outside the race-detector pass).
//
// Knobs, for measuring rather than testing:
//
//	PAIJU_CLUSTER_NODES     paiju nodes (default 3)
//	PAIJU_CLUSTER_STORE     postgres (default) or sqlite (one node)
//	PAIJU_CLUSTER_DURATION  how long the load runs (default 40s)
//	PAIJU_CLUSTER_KILLS     0 turns the faults off (figures); default on
//	PAIJU_CLUSTER_TABLES, PAIJU_CLUSTER_CLIENTS   the load (default 24, 12)
//	PAIJU_CLUSTER_KEEP_LOGS a directory that receives every process's log

const (
	clusterAuditor = "crash-audit" // checkProjected reads with it
	clusterName    = "paiju-test"  // --cluster: the deployment's names on NATS
)

func clusterEnv(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want an integer ≥ 0", name, v)
	}
	return n
}

func TestCluster(t *testing.T) {
	if os.Getenv("PAIJU_CLUSTER_TEST") != "1" {
		t.Skip("the cluster test runs with PAIJU_CLUSTER_TEST=1 (make cluster-test): it builds paiju and nats-server and runs 6 processes for minutes")
	}
	nNodes := clusterEnv(t, "PAIJU_CLUSTER_NODES", 3)
	duration := 40 * time.Second
	if v := os.Getenv("PAIJU_CLUSTER_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("PAIJU_CLUSTER_DURATION=%q: want a positive Go duration", v)
		}
		duration = d
	}
	faults := clusterEnv(t, "PAIJU_CLUSTER_KILLS", 1) > 0
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

	nc := startNATSCluster(t, natsBin, logDir, 3)
	store := newClusterStore(t)
	if store.sqliteDir != "" && nNodes != 1 {
		t.Fatalf("PAIJU_CLUSTER_STORE=sqlite is one node's store: set PAIJU_CLUSTER_NODES=1")
	}
	nodes := make([]*clusterProc, nNodes)
	for i := range nodes {
		nodes[i] = startPaijuNode(t, bin, logDir, i, nc.urls, store)
	}
	for _, n := range nodes {
		n.waitReady(t, 90*time.Second)
	}

	// The faults: a schedule drawn from a fixed seed before the load
	// starts, so that every run kills at the same moments of the load.
	rng := rand.New(rand.NewPCG(2026, 20))
	var plan []clusterFault
	if faults {
		plan = planFaults(rng, duration, nNodes, len(nc.procs))
	}
	var (
		survived   faultCount
		faultsDone = make(chan struct{})
		playing    = make(chan struct{})
		stopFaults = make(chan struct{})
	)
	go func() {
		defer close(faultsDone)
		select {
		case <-playing:
		case <-stopFaults:
			return
		}
		survived = runFaults(t, plan, nodes, nc.procs, stopFaults)
	}()
	var cpuStart [2]time.Duration

	var (
		mu   sync.Mutex
		acks []loadtest.Ack
	)
	urls := make([]string, nNodes)
	for i, n := range nodes {
		urls[i] = n.url
	}
	var out strings.Builder
	cfg := loadtest.Config{
		Addrs: urls, Duration: duration, Game: "doudizhu", Variant: "classic", Seed: 20,
		Tables: clusterEnv(t, "PAIJU_CLUSTER_TABLES", 24), Clients: clusterEnv(t, "PAIJU_CLUSTER_CLIENTS", 12),
		Record: filepath.Join(logDir, "acks.jsonl"),
		// The whole view in every answer, as when this test's figures
		// were taken; the test measures the nodes' CPU itself.
		Full: true, MetricsURL: "-",
		OnAck: func(a loadtest.Ack) { mu.Lock(); acks = append(acks, a); mu.Unlock() },
		OnPlaying: func() {
			cpuStart = [2]time.Duration{cpuOf(nodes), cpuOf(nc.procs)}
			close(playing)
		},
	}
	res, err := loadtest.Run(ctx, cfg, &out)
	cpuEnd := [2]time.Duration{cpuOf(nodes), cpuOf(nc.procs)}
	var commits commitStats
	if !faults {
		commits = scrapeCommits(t, nodes)
	}
	close(stopFaults)
	<-faultsDone
	if err != nil {
		t.Fatalf("load: %v\n%s", err, out.String())
	}
	t.Logf("load on %d nodes: %s", nNodes, res)
	if !faults && cpuEnd[0] > 0 {
		// Without faults the same processes ran the whole load, so the
		// difference is their CPU time for it.
		paijuCPU, natsCPU := cpuEnd[0]-cpuStart[0], cpuEnd[1]-cpuStart[1]
		t.Logf("CPU during the load: paiju nodes %s (%.2f ms per move), NATS servers %s (%.2f ms per move), over %s of wall time on %d cores",
			paijuCPU.Round(10*time.Millisecond), float64(paijuCPU.Microseconds())/1000/float64(max(res.Moves, 1)),
			natsCPU.Round(10*time.Millisecond), float64(natsCPU.Microseconds())/1000/float64(max(res.Moves, 1)), res.Elapsed.Round(time.Millisecond), runtime.NumCPU())
		if commits.commits > 0 {
			t.Logf("store commits since the nodes started (setup included): %.0f transactions, %.1f appends and %.1f events each, %.2f ms from BEGIN to COMMIT on average; %.0f transactions/s over the load",
				commits.commits, commits.appends/commits.commits, commits.events/commits.commits, 1000*commits.seconds/commits.commits, commits.commits/res.Elapsed.Seconds())
		}
	}
	if rec, err := os.ReadFile(cfg.Record); err != nil || strings.Count(string(rec), "\n") != len(acks) {
		t.Fatalf("--record %s holds %d lines for %d acknowledged moves (%v)", cfg.Record, strings.Count(string(rec), "\n"), len(acks), err)
	}
	if res.Moves < 50 {
		t.Fatalf("only %d moves acknowledged in %s: the cluster did not serve (first error: %s)", res.Moves, duration, res.FirstErr)
	}
	// Every process up again, whatever the faults left down.
	bringUp(t, nc, nodes)

	c := loadtest.NewClient(urls...)
	c.RetryFor = 60 * time.Second
	log, err := store.readAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	replayed := checkAcks(t, c, acks, log)
	relayed := checkJetStream(t, nc, len(log), func() []eventstore.Event {
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
	verifyOut := store.verify(t, bin, nc.urls)
	t.Logf("survived %d SIGKILLs of paiju nodes and %d of NATS servers; %d moves acknowledged on %d tables (%d only on a retry after their node died, %d requests retried on another node, %d errors), all in the store once, at the positions acknowledged; JetStream holds the store's first %d events in order (%d when the load ended); %d settled hands projected once each; %s",
		survived.paiju, survived.nats, len(acks), len(tables), replayed, res.Retries, res.Errors, relayed, len(log), hands, verifyOut)
}

// faultCount is what runFaults did.
type faultCount struct{ paiju, nats int }

// clusterFault is one SIGKILL: of paiju node (nats false) or NATS server
// index, at a moment of the load, restarted after down.
type clusterFault struct {
	at, down time.Duration
	nats     bool
	index    int
}

// planFaults draws the faults: a SIGKILL of a random paiju node every 2–5s
// (down 0.2–2s), and one NATS server killed once, in the first half of the
// load, for 3–8s. The last fault ends well before the load does, so that
// the load runs on a whole cluster again at the end.
func planFaults(rng *rand.Rand, d time.Duration, nodes, natsServers int) []clusterFault {
	var plan []clusterFault
	last := d - 5*time.Second
	for at := time.Duration(2+rng.IntN(3)) * time.Second; at < last; at += time.Duration(2000+rng.IntN(3000)) * time.Millisecond {
		plan = append(plan, clusterFault{at: at, down: time.Duration(200+rng.IntN(1800)) * time.Millisecond, index: rng.IntN(nodes)})
	}
	at := d/8 + time.Duration(rng.Int64N(int64(d/3)))
	plan = append(plan, clusterFault{at: at, down: time.Duration(3000+rng.IntN(5000)) * time.Millisecond, nats: true, index: rng.IntN(natsServers)})
	slices.SortFunc(plan, func(a, b clusterFault) int { return int(a.at - b.at) })
	return plan
}

// runFaults carries the plan out from now: each fault kills its process
// and a goroutine restarts it after its down time.
func runFaults(t *testing.T, plan []clusterFault, nodes, natsProcs []*clusterProc, stop <-chan struct{}) faultCount {
	start := time.Now()
	var (
		n  faultCount
		wg sync.WaitGroup
	)
	for _, f := range plan {
		select {
		case <-stop:
			wg.Wait()
			return n
		case <-time.After(time.Until(start.Add(f.at))):
		}
		p := nodes[f.index%len(nodes)]
		if f.nats {
			p = natsProcs[f.index]
		}
		if !p.kill() {
			continue // down already (its restart is pending)
		}
		if f.nats {
			n.nats++
		} else {
			n.paiju++
		}
		t.Logf("%5.1fs: SIGKILL %s, down for %s", time.Since(start).Seconds(), p.name, f.down)
		wg.Go(func() {
			time.Sleep(f.down)
			if err := p.start(); err != nil {
				t.Errorf("restart %s: %v", p.name, err)
			}
		})
	}
	wg.Wait()
	return n
}

// clusterProc is a process the test runs and may kill and restart, with
// the same arguments, ports and directories.
type clusterProc struct {
	name    string
	bin     string
	args    []string
	logPath string
	url     string // paiju nodes: the API's base URL

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	// exits are when the process's runs ended (the fault test reads
	// which lease holder was alive when).
	exits []time.Time
	// keepDown: the test holds the process down (a SIGKILL's down
	// time), so that a supervisor leaves it be.
	keepDown atomic.Bool
}

func newClusterProc(t *testing.T, name, bin, logDir string, args ...string) *clusterProc {
	p := &clusterProc{name: name, bin: bin, args: args, logPath: filepath.Join(logDir, name+".log")}
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("--- last lines of %s's log:\n%s", p.name, tail(p.logPath, 40))
		}
	})
	return p
}

// start runs the process, its output appended to its log.
func (p *clusterProc) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		return fmt.Errorf("%s is running", p.name)
	}
	f, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o640)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "=== start %s\n", time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(p.bin, p.args...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("start %s: %w", p.name, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		f.Close()
		p.mu.Lock()
		if p.cmd == cmd {
			p.cmd = nil
		}
		p.exits = append(p.exits, time.Now())
		p.mu.Unlock()
		close(done)
	}()
	p.cmd, p.done = cmd, done
	return nil
}

// kill sends SIGKILL and waits for the process to end; false if it was not
// running.
func (p *clusterProc) kill() bool { return p.signal(syscall.SIGKILL, 0) }

// stop asks the process to end (SIGTERM), and kills it after 20s.
func (p *clusterProc) stop(t *testing.T) {
	if !p.signal(syscall.SIGTERM, 20*time.Second) {
		t.Errorf("%s was not running at the end", p.name)
	}
}

// send sends sig (SIGSTOP, SIGCONT) without waiting for anything; false
// if the process was not running.
func (p *clusterProc) send(sig syscall.Signal) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil && p.cmd.Process.Signal(sig) == nil
}

func (p *clusterProc) signal(sig syscall.Signal, grace time.Duration) bool {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return false
	}
	_ = cmd.Process.Signal(sig)
	if grace > 0 {
		select {
		case <-done:
			return true
		case <-time.After(grace):
			_ = cmd.Process.Kill()
		}
	}
	<-done
	return true
}

// running reports whether the process runs.
func (p *clusterProc) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil
}

func (p *clusterProc) ensureRunning(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	running := p.cmd != nil
	p.mu.Unlock()
	if !running {
		if err := p.start(); err != nil {
			t.Fatal(err)
		}
	}
}

// waitReady waits for a paiju node's /readyz to answer 200.
func (p *clusterProc) waitReady(t *testing.T, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	last := ""
	for time.Now().Before(deadline) {
		resp, err := http.Get(p.url + "/readyz")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
			last = fmt.Sprintf("%d %s", resp.StatusCode, b)
		} else {
			last = err.Error()
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s not ready after %s: %s\n%s", p.name, within, last, tail(p.logPath, 40))
}

// commitStats sums the nodes' group commits (metrics.Metrics.Commit).
// bringUp restarts every NATS server and node a fault left down and waits
// until each node is ready.
func bringUp(t *testing.T, nc natsCluster, nodes []*clusterProc) {
	t.Helper()
	for _, p := range nc.procs {
		p.ensureRunning(t)
	}
	for _, n := range nodes {
		n.ensureRunning(t)
	}
	for _, n := range nodes {
		n.waitReady(t, 90*time.Second)
	}
}

type commitStats struct{ commits, appends, events, seconds float64 }

// scrapeCommits reads the store's commit histograms from every node's
// /metrics.
func scrapeCommits(t *testing.T, nodes []*clusterProc) commitStats {
	t.Helper()
	var s commitStats
	for _, n := range nodes {
		resp, err := http.Get(n.url + "/metrics")
		if err != nil {
			t.Fatalf("%s /metrics: %v", n.name, err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(b)) {
			name, val, ok := strings.Cut(strings.TrimSpace(line), " ")
			if !ok {
				continue
			}
			v, err := strconv.ParseFloat(val, 64)
			if err != nil {
				continue
			}
			switch name {
			case "paiju_store_commit_appends_count":
				s.commits += v
			case "paiju_store_commit_appends_sum":
				s.appends += v
			case "paiju_store_commit_events_sum":
				s.events += v
			case "paiju_store_commit_duration_seconds_sum":
				s.seconds += v
			}
		}
	}
	return s
}

// cpuOf is the CPU time (user and system) the running processes of ps have
// used, from /proc (0 where there is none: not Linux).
func cpuOf(ps []*clusterProc) time.Duration {
	var total time.Duration
	for _, p := range ps {
		p.mu.Lock()
		cmd := p.cmd
		p.mu.Unlock()
		if cmd == nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
		if err != nil {
			return 0
		}
		// The fields after the command name, which is in parentheses and
		// may hold spaces: state is the first, utime and stime the 12th
		// and 13th, in clock ticks (USER_HZ, 100 on Linux).
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 13 {
			return 0
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		k, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(u+k) * 10 * time.Millisecond
	}
	return total
}

func tail(path string, lines int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	ls := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(ls[max(0, len(ls)-lines):], "\n")
}

// freePorts reserves n distinct loopback ports. Each listener is closed
// before the port is handed out; the window in which another program could
// take it is accepted (the ports are fixed for the processes' restarts).
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var (
		lns   []net.Listener
		ports []int
	)
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// natsCluster is the NATS servers and the URL list a client dials.
type natsCluster struct {
	procs []*clusterProc
	urls  string
	// monitors are the servers' monitoring addresses (http://…), read
	// for a failure's report of what each server holds.
	monitors []string
}

// startNATSCluster runs n nats-server processes with JetStream, routed to
// each other on loopback, and waits for JetStream to answer.
func startNATSCluster(t *testing.T, bin, logDir string, n int) natsCluster {
	t.Helper()
	ports := freePorts(t, 3*n)
	var routes, urls []string
	for i := range n {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", ports[n+i]))
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
	}
	var c natsCluster
	for i := range n {
		dir := t.TempDir()
		conf := filepath.Join(dir, "nats.conf")
		c.monitors = append(c.monitors, fmt.Sprintf("http://127.0.0.1:%d", ports[2*n+i]))
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
  routes: [%s]
}
`, i+1, ports[i], ports[2*n+i], filepath.Join(dir, "js"), ports[n+i], strings.Join(routes, ", "))
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

// awaitJetStream returns once the cluster at urls answers JetStream
// requests, that is once its servers have elected a meta leader.
func awaitJetStream(t *testing.T, urls string) {
	t.Helper()
	conn, err := nats.Connect(urls, nats.RetryOnFailedConnect(true), nats.MaxReconnects(-1))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	js, err := jetstream.New(conn)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		actx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		_, err := js.AccountInfo(actx)
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the NATS cluster's JetStream did not answer within 60s: %v", err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// startPaijuNode starts `paiju serve` node i on a fixed port of its own with
// its own data directory.
func startPaijuNode(t *testing.T, bin, logDir string, i int, natsURLs string, store *clusterStore, extra ...string) *clusterProc {
	t.Helper()
	port := freePorts(t, 1)[0]
	args := []string{"serve", "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--data", t.TempDir(),
		"--auditor-token", clusterAuditor, "--log-level", "info", "--drain", "0",
		// One client address plays every seat: the per-node limits would
		// only measure themselves.
		"--rate-limit", "0", "--quota-registrations-per-minute", "-1", "--quota-tables-per-hour", "-1", "--quota-costly-reads", "-1",
		"--nats-url", natsURLs, "--nats-replicas", "3", "--cluster", clusterName}
	args = append(args, store.serveArgs()...)
	args = append(args, extra...)
	p := newClusterProc(t, fmt.Sprintf("paiju-%d", i+1), bin, logDir, args...)
	p.url = fmt.Sprintf("http://127.0.0.1:%d", port)
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkAcks checks every acknowledged move against the store's log: its
// events are at the positions and versions the answer gave, no position was
// acknowledged for two moves, and asking again with the same token, key and
// body, on another node, is answered as a replay of the same versions and
// positions (the key is recorded with the events, so the move is stored
// once). It returns how many moves were acknowledged only by a retry's
// replay (the first attempt's node died before answering).
func checkAcks(t *testing.T, c *loadtest.Client, acks []loadtest.Ack, log []eventstore.Event) int {
	t.Helper()
	byPos := make(map[int64]eventstore.Event, len(log))
	for _, e := range log {
		byPos[e.Position] = e
	}
	owner := map[int64]string{}
	replayed := 0
	for _, a := range acks {
		if a.Replayed {
			replayed++
		}
		if len(a.Positions) == 0 || len(a.Versions) != len(a.Positions) || a.Versions[len(a.Versions)-1] > a.Version {
			t.Fatalf("move %s at table %s: acknowledged version %d with events of versions %v at positions %v", a.Key, a.Table, a.Version, a.Versions, a.Positions)
		}
		for i, pos := range a.Positions {
			e, ok := byPos[pos]
			if !ok {
				t.Fatalf("move %s at table %s: acknowledged position %d is not in the store (head %d)", a.Key, a.Table, pos, int64(len(log)))
			}
			if e.Stream != "table-"+a.Table || e.Version != a.Versions[i] {
				t.Fatalf("move %s at table %s: position %d holds %s version %d, acknowledged as version %d", a.Key, a.Table, pos, e.Stream, e.Version, a.Versions[i])
			}
			if k, dup := owner[pos]; dup {
				t.Fatalf("position %d acknowledged for two moves, %s and %s", pos, k, a.Key)
			}
			owner[pos] = a.Key
		}
	}
	// The replays, spread over the nodes, a few at a time.
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []string
	)
	work := make(chan int)
	for range 4 {
		wg.Go(func() {
			for i := range work {
				a := acks[i]
				var r struct {
					Version int `json:"version"`
					Events  []struct {
						Position int64 `json:"position"`
					} `json:"events"`
				}
				rep, _, err := c.DoOn(t.Context(), i+1, "POST", "/v1/tables/"+a.Table+"/actions", a.Token, a.Key, a.Action, &r)
				var pos []int64
				for _, e := range r.Events {
					pos = append(pos, e.Position)
				}
				if err == nil && (!rep.Replayed || r.Version != a.Version || !slices.Equal(pos, a.Positions)) {
					err = fmt.Errorf("answered version %d positions %v (replayed %v), acknowledged version %d positions %v", r.Version, pos, rep.Replayed, a.Version, a.Positions)
				}
				if err != nil {
					mu.Lock()
					errs = append(errs, fmt.Sprintf("move %s at table %s again on %s: %v", a.Key, a.Table, rep.Node, err))
					mu.Unlock()
				}
			}
		})
	}
	// Every move is replayed up to replayAll of them; past that (the long
	// fault runs: 124,130 moves took over 40 minutes to replay) every move
	// a retry's replay acknowledged and an even sample of replaySample of
	// the others. That each move is in the store once, at its positions,
	// was checked above for all of them.
	stride, sent := 1, 0
	if len(acks) > replayAll {
		stride = (len(acks) + replaySample - 1) / replaySample
	}
	for i, a := range acks {
		if i%stride == 0 || a.Replayed {
			work <- i
			sent++
		}
	}
	close(work)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d of %d acknowledged moves replayed do not replay; first: %s", len(errs), sent, errs[0])
	}
	if sent < len(acks) {
		t.Logf("replayed %d of the %d acknowledged moves (every one a retry's replay acknowledged, and every %dth)", sent, len(acks), stride)
	}
	return replayed
}

// replayAll is the most acknowledged moves checkAcks replays every one of;
// past it, it replays replaySample of them and those acknowledged by a
// retry's replay.
const (
	replayAll    = 25_000
	replaySample = 10_000
)

// readAllEvents reads a store's whole log in global order.
func readAllEvents(ctx context.Context, s eventstore.Store) ([]eventstore.Event, error) {
	var all []eventstore.Event
	for {
		page, err := s.ReadAll(ctx, int64(len(all)), 1000)
		if err != nil {
			return nil, err
		}
		if len(page) == 0 {
			return all, nil
		}
		for _, e := range page {
			if e.Position != int64(len(all)+1) {
				return nil, fmt.Errorf("the store's log skips from position %d to %d", len(all), e.Position)
			}
			all = append(all, e)
		}
	}
}
