package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/api/apitest"
	"paiju/natsbus"
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
	return r.Status, m
}

type checkView struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// waitReady waits until /readyz answers 200.
func waitReady(t *testing.T, c *apitest.Client) map[string]checkView {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, checks := readyChecks(t, c)
		if status == http.StatusOK {
			return checks
		}
		if time.Now().After(deadline) {
			t.Fatalf("never ready: %+v", checks)
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
	if err := run(context.Background(), []string{"verify", "--data", dir, "--nats-url", url, "--cluster", "prod"}, env, &out, &out); err != nil || !strings.Contains(out.String(), "chain anchor ok") {
		t.Fatalf("verify of the anchored store: %v\n%s", err, out.String())
	}

	// Another data directory in the same deployment: its store is behind
	// the anchor.
	other := t.TempDir()
	out.Reset()
	err = run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", other, "--nats-url", url, "--cluster", "prod", "--drain", "0"}, env, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "does not contain the chain anchor") {
		t.Fatalf("serve on a store behind the anchor: %v, want a refusal naming the anchor", err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"verify", "--data", other, "--nats-url", url, "--cluster", "prod"}, env, &out, &out); err == nil || !strings.Contains(err.Error(), "chain anchor") {
		t.Fatalf("verify of a store behind the anchor: %v\n%s", err, out.String())
	}
	// The same store in another deployment has no anchor to miss.
	out.Reset()
	if err := run(context.Background(), []string{"verify", "--data", other, "--nats-url", url, "--cluster", "test"}, env, &out, &out); err != nil {
		t.Fatalf("verify in a deployment without an anchor: %v\n%s", err, out.String())
	}
}
