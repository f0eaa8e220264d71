package e2e

import (
	"bufio"
	"errors"
	"log/slog"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"paiju/api/apitest"
	"paiju/eventstore/postgres"
	"paiju/internal/pgtest"
	"paiju/natsbus"
)

// startNode runs the built binary as one `paiju serve` node with args and
// returns it with its base URL.
func startNode(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	all := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--auditor-token", "audit-me", "--rate-limit", "0", "--drain", "0"}, args...)
	cmd := exec.Command(bin, all...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
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
		t.Fatal("the node did not start listening")
	}
	return nil, ""
}

// TestClusterRelayFailover: two node processes of one deployment on one
// PostgreSQL store and one NATS. The first relays; it is killed (SIGKILL:
// its lease is never released) while the second takes moves; the second
// takes the relay over once the lease expired, and JetStream holds every
// event of the store exactly once, in the store's order.
func TestClusterRelayFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills server processes")
	}
	bin := paijuBin(t)
	natsURL := startNATSServer(t)
	pg := pgtest.NewDatabase(t)
	common := []string{"--store", pg, "--nats-url", natsURL, "--cluster", "prod", "--lease-ttl", "2s", "--anchor-interval", "200ms", "--ready-lag-grace", "1h"}
	cmdA, baseA := startNode(t, bin, common...)
	a := apitest.New(t, baseA)
	// Alone in the deployment, the first node takes the relay's lease.
	waitRelaying(t, a)
	_, baseB := startNode(t, bin, common...)
	b := apitest.New(t, baseB)
	if checks := waitReady(t, b); !strings.Contains(checks["relay"].Detail, "standby") {
		t.Fatalf("the second node relays too: %+v", checks["relay"])
	}

	tv, ps := seatThree(t, b)
	played := make(chan struct{})
	go func() {
		defer close(played)
		playHand(t, b, tv.ID, ps)
	}()
	// Kill A once the hand is under way on B.
	for deadline := time.Now().Add(30 * time.Second); ; {
		var v struct {
			Version int `json:"version"`
		}
		b.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID, Token: "audit-me"}).Decode(t, &v)
		if v.Version >= 12 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the hand did not get under way")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmdA.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmdA.Wait()
	killed := time.Now()
	<-played
	for deadline := time.Now().Add(60 * time.Second); ; {
		_, checks := readyChecks(t, b)
		if c := checks["relay"]; c.OK && !strings.Contains(c.Detail, "standby") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("B never took the relay over: %+v", checks["relay"])
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("B relays %v after A was killed (lease TTL 2s)", time.Since(killed).Round(time.Millisecond))
	_, ps2 := seatThree(t, b)
	waitProjected(t, b, ps2[0].Token)

	// JetStream against the store, event by event.
	store, err := postgres.Open(t.Context(), pg, postgres.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	want, err := store.ReadAll(t.Context(), 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	_, js := dialNATS(t, natsURL)
	ns, _ := natsbus.NewNamespace("prod")
	for deadline := time.Now().Add(30 * time.Second); ; {
		relayed, err := ns.Relayed(t.Context(), js)
		if err != nil {
			t.Fatal(err)
		}
		if relayed == want[len(want)-1].Position {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("JetStream holds up to %d, the store's head is %d", relayed, want[len(want)-1].Position)
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
	if int(info.State.Msgs) != len(want) {
		t.Errorf("JetStream holds %d messages for the store's %d events", info.State.Msgs, len(want))
	}
	i := 0
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && seq > 0; seq++ {
		m, err := s.GetMsg(t.Context(), seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := natsbus.DecodeEvent(m.Header, m.Data)
		if err != nil {
			t.Fatalf("message %d: %v", seq, err)
		}
		if i >= len(want) || got.Position != want[i].Position || got.Hash != want[i].Hash {
			t.Fatalf("message %d is position %d hash %s, want the store's event %d in order", seq, got.Position, got.Hash, i+1)
		}
		i++
	}
	waitReady(t, b) // B after the failover
}
