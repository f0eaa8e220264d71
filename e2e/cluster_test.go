package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/api/apitest"
	"paiju/internal/cli"
	"paiju/internal/pgtest"
	"paiju/natsbus"
	"paiju/projections"
)

// startNATS starts a nats-server with JetStream on loopback: the external
// NATS of --nats-url.
func startNATSServer(t *testing.T) string {
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
	if !srv.ReadyForConnections(30 * time.Second) {
		t.Fatal("nats-server not ready")
	}
	return srv.ClientURL()
}

// dialNATS connects the test to the external server at url.
func dialNATS(t *testing.T, url string) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, js, err := natsbus.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc, js
}

// readyChecks returns /readyz's status and checks by name.
func readyChecks(t *testing.T, c *apitest.Client) (int, map[string]checkView) {
	t.Helper()
	r := c.Do(apitest.Request{Method: "GET", Path: "/readyz"})
	return r.Status, checksOf(t, r)
}

// checksOf is the checks of a /readyz answer, by name.
func checksOf(t *testing.T, r *apitest.Response) map[string]checkView {
	t.Helper()
	var body struct {
		Checks []checkView `json:"checks"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("readyz body %s: %v", r.Body, err)
	}
	m := map[string]checkView{}
	for _, c := range body.Checks {
		m[c.Name] = c
	}
	return m
}

type checkView struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// waitReady waits until /readyz answers 200 and returns its checks.
func waitReady(t *testing.T, c *apitest.Client) map[string]checkView {
	t.Helper()
	return checksOf(t, c.WaitReady())
}

// waitRelaying waits until the node behind c holds the relay's lease. A
// node is ready before its first try at the lease has an answer (a
// standby node is ready too), so readiness alone does not say which node
// relays: the relay check's detail does, once the lease is taken.
func waitRelaying(t *testing.T, c *apitest.Client) map[string]checkView {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, checks := readyChecks(t, c)
		if status == http.StatusOK && !strings.Contains(checks["relay"].Detail, "standby") {
			return checks
		}
		if time.Now().After(deadline) {
			t.Fatalf("the node never took the relay's lease: %d %+v", status, checks)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two deployments on one external NATS, the operator's case of issue 20
// with a cluster name each: both relay their own store to their own stream
// (no "diverged" stream), project their own events, and stay ready.
func TestServeDeploymentsShareNATS(t *testing.T) {
	url := startNATSServer(t)
	var events []int
	for _, name := range []string{"blue", "green"} {
		dir := t.TempDir()
		base, _, stop := startServer(t, dir, "--nats-url", url, "--cluster", name)
		c := apitest.New(t, base)
		tv, ps := seatThree(t, c)
		checks := waitReady(t, c)
		if !strings.Contains(checks["relay"].Detail, "events behind") || !checks["anchor"].OK {
			t.Errorf("deployment %s: relay %+v anchor %+v, want this node relaying and the anchor checked", name, checks["relay"], checks["anchor"])
		}
		waitProjected(t, c, ps[0].Token)
		var feed struct {
			Version int `json:"version"`
		}
		c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/events", Token: "audit-me"}).Decode(t, &feed)
		events = append(events, feed.Version)
		defer func() {
			if err := stop(); err != nil {
				t.Errorf("serve %s: %v", name, err)
			}
		}()
	}
	_, js := dialNATS(t, url)
	for i, name := range []string{"blue", "green"} {
		ns, _ := natsbus.NewNamespace(name)
		s, err := js.Stream(t.Context(), ns.Stream())
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		// Players are rows, not events: the one table's events are all
		// the store holds.
		if int(info.State.Msgs) != events[i] {
			t.Errorf("stream %s holds %d messages, want deployment %s's %d events", ns.Stream(), info.State.Msgs, name, events[i])
		}
	}
	if _, err := js.Stream(t.Context(), natsbus.StreamName); err == nil {
		t.Error("the unnamed deployment's stream exists though every node has a cluster name")
	}
}

// A node whose store does not contain the deployment's chain anchor (a
// store restored from an older copy, or another store altogether) refuses
// to serve; paiju verify --nats-url says which.
func TestServeRefusesStoreBehindAnchor(t *testing.T) {
	url := startNATSServer(t)
	dir := t.TempDir()
	base, _, stop := startServer(t, dir, "--nats-url", url, "--cluster", "prod", "--anchor-interval", "100ms")
	c := apitest.New(t, base)
	tv, _ := seatThree(t, c)
	var feed struct {
		Version int `json:"version"`
	}
	c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/events", Token: "audit-me"}).Decode(t, &feed)
	_, js := dialNATS(t, url)
	ns, _ := natsbus.NewNamespace("prod")
	a, ok, err := natsbus.LookupAnchor(t.Context(), js, ns)
	if err != nil || !ok {
		t.Fatalf("anchor bucket: %v %v", ok, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		p, ok, err := a.Load(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if ok && p.Position >= int64(feed.Version) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("anchor at %+v, want the store's head", p)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	env := func(string) string { return "" }
	var out bytes.Buffer
	if err := cli.Run(context.Background(), []string{"verify", "--data", dir, "--nats-url", url, "--cluster", "prod"}, env, &out, &out); err != nil || !strings.Contains(out.String(), "chain anchor ok") {
		t.Fatalf("verify of the anchored store: %v\n%s", err, out.String())
	}

	// Another data directory in the same deployment: its store is behind
	// the anchor.
	other := t.TempDir()
	out.Reset()
	err = cli.Run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", other, "--nats-url", url, "--cluster", "prod", "--drain", "0"}, env, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "does not contain the chain anchor") {
		t.Fatalf("serve on a store behind the anchor: %v, want a refusal naming the anchor", err)
	}
	out.Reset()
	if err := cli.Run(context.Background(), []string{"verify", "--data", other, "--nats-url", url, "--cluster", "prod"}, env, &out, &out); err == nil || !strings.Contains(err.Error(), "chain anchor") {
		t.Fatalf("verify of a store behind the anchor: %v\n%s", err, out.String())
	}
	// The same store in another deployment has no anchor to miss.
	out.Reset()
	if err := cli.Run(context.Background(), []string{"verify", "--data", other, "--nats-url", url, "--cluster", "test"}, env, &out, &out); err != nil {
		t.Fatalf("verify in a deployment without an anchor: %v\n%s", err, out.String())
	}
}

// followStream opens a /stream (with token in the Authorization header,
// if any) and collects the ids it sends in the
// background until stop.
func followStream(t *testing.T, c *apitest.Client, path, token string) (ids func() []int, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	resp, problem := c.Stream(ctx, apitest.Request{Path: path, Token: token})
	if problem != nil {
		cancel()
		t.Fatalf("stream %s: %d %s", path, problem.Status, problem.Body)
	}
	var mu sync.Mutex
	var got []int
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
				if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
					mu.Lock()
					got = append(got, n)
					mu.Unlock()
				}
			}
		}
	}()
	ids = func() []int {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
	return ids, func() { cancel(); <-done }
}

// Two nodes of one deployment on one PostgreSQL store and one NATS: one
// relays, the other stands by and says so while ready; a ticket issued by
// one opens a live stream on the other, which sees every event the first
// node's moves commit; each node projects every event; when the relaying
// node stops, the other takes the relay over, and JetStream holds exactly
// the store's events in the end.
func TestServeTwoNodesOneDeployment(t *testing.T) {
	natsURL := startNATSServer(t)
	pg := pgtest.NewDatabase(t)
	common := []string{"--store", pg, "--nats-url", natsURL, "--cluster", "prod", "--anchor-interval", "100ms", "--ready-lag-grace", "1h"}
	baseA, _, stopA := startServer(t, t.TempDir(), common...)
	a := apitest.New(t, baseA)
	// Alone in the deployment, the first node takes the relay's lease.
	waitRelaying(t, a)
	baseB, _, stopB := startServer(t, t.TempDir(), common...)
	defer func() {
		if err := stopB(); err != nil {
			t.Errorf("serve B: %v", err)
		}
	}()
	b := apitest.New(t, baseB)
	if checks := waitReady(t, b); !strings.Contains(checks["relay"].Detail, "standby") || !checks["anchor"].OK {
		t.Fatalf("second node: relay %+v anchor %+v, want it ready, standing by, the anchor checked", checks["relay"], checks["anchor"])
	}

	// Players and tables are the store's: seat them on A, and follow
	// seat 1 on B with a ticket A issued while A plays a hand. B does not
	// relay: what it streams live comes through JetStream.
	tv, ps := seatThree(t, a)
	r := a.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/stream-tickets", Token: ps[1].Token})
	if r.Status != http.StatusCreated {
		t.Fatalf("ticket on A: %d %s", r.Status, r.Body)
	}
	var ticket struct {
		Ticket string `json:"ticket"`
	}
	r.Decode(t, &ticket)
	seat1, stopSeat1 := followStream(t, b, "/v1/tables/"+tv.ID+"/stream?ticket="+ticket.Ticket, "")
	defer stopSeat1()
	// The auditor sees every event, each with its id.
	all, stopAll := followStream(t, b, "/v1/tables/"+tv.ID+"/stream", "audit-me")
	defer stopAll()
	playHand(t, a, tv.ID, ps)
	// The last version each may see: the table's for the auditor, seat
	// 1's /events' for seat 1.
	var table struct {
		Version int `json:"version"`
	}
	a.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID, Token: "audit-me"}).Decode(t, &table)
	last := table.Version
	var feed struct {
		Events []struct {
			Version int `json:"version"`
		} `json:"events"`
	}
	a.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/events", Token: ps[1].Token}).Decode(t, &feed)
	lastSeat1 := feed.Events[len(feed.Events)-1].Version
	deadline := time.Now().Add(30 * time.Second)
	for _, f := range []struct {
		ids  func() []int
		last int
	}{{seat1, lastSeat1}, {all, last}} {
		for {
			got := f.ids()
			if len(got) > 0 && got[len(got)-1] >= f.last {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("B's stream sent ids %v, want up to %d", got, f.last)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	stopSeat1()
	stopAll()
	var want []int
	for v := 1; v <= last; v++ {
		want = append(want, v)
	}
	if got := all(); !slices.Equal(got, want) {
		t.Errorf("the auditor's stream on B sent ids %v, want every version 1 to %d once, in order", got, last)
	}
	// Seat 1's stream skips what seat 1 could not see when it was sent
	// (revealed later without an id), never repeats.
	if got := seat1(); !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) || got[len(got)-1] != lastSeat1 {
		t.Errorf("seat 1's ticket stream on B sent ids %v, want increasing ids up to %d", got, lastSeat1)
	}
	// Spent on B: the ticket opens nothing on A.
	if _, p := a.Stream(t.Context(), apitest.Request{Path: "/v1/tables/" + tv.ID + "/stream?ticket=" + ticket.Ticket}); p == nil || p.Status != http.StatusUnauthorized {
		t.Errorf("a ticket spent on B opened a stream on A")
	}
	waitProjected(t, b, ps[0].Token)
	waitProjected(t, a, ps[0].Token)

	// A stops: B takes the relay over and relays what B's clients commit.
	if err := stopA(); err != nil {
		t.Fatalf("serve A: %v", err)
	}
	deadline = time.Now().Add(30 * time.Second)
	for {
		_, checks := readyChecks(t, b)
		if c := checks["relay"]; c.OK && !strings.Contains(c.Detail, "standby") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("B never took the relay over: %+v", checks["relay"])
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, ps2 := seatThree(t, b)
	waitProjected(t, b, ps2[0].Token)

	conn, err := pgx.Connect(t.Context(), pg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var events, head int64
	if err := conn.QueryRow(t.Context(), `SELECT count(*), coalesce(max(position), 0) FROM events`).Scan(&events, &head); err != nil {
		t.Fatal(err)
	}
	_, js := dialNATS(t, natsURL)
	ns, _ := natsbus.NewNamespace("prod")
	deadline = time.Now().Add(30 * time.Second)
	for {
		relayed, err := ns.Relayed(t.Context(), js)
		if err != nil {
			t.Fatal(err)
		}
		if relayed == head {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("JetStream holds up to %d, the store's head is %d", relayed, head)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s, err := js.Stream(t.Context(), ns.Stream())
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if int64(info.State.Msgs) != events {
		t.Errorf("JetStream holds %d messages for the store's %d events: two relays, or one that skipped or repeated", info.State.Msgs, events)
	}
	// The projections live in the shared PostgreSQL database: one durable
	// consumer per projection for the deployment, each consumed by the
	// node that holds the projection's lease.
	var consumers []string
	for name := range s.ConsumerNames(t.Context()).Name() {
		consumers = append(consumers, name)
	}
	slices.Sort(consumers)
	var wantConsumers []string
	for _, p := range projections.Names {
		wantConsumers = append(wantConsumers, ns.ProjectionConsumer(p))
	}
	slices.Sort(wantConsumers)
	if !slices.Equal(consumers, wantConsumers) {
		t.Errorf("consumers %v, want %v: one per projection for the deployment", consumers, wantConsumers)
	}
}
