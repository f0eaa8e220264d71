package natsbus_test

import (
	"bufio"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"paiju/internal/listeners"
	"paiju/natsbus"
)

// The embedded server opens no socket: nothing but this process can read
// the deals' secret seeds from it or forge the relay's stream (DESIGN.md,
// NATS: embedded, in-process only). A raw TCP client finds no NATS server
// on any port the process listens on, and an in-process client works.
func TestEmbeddedListensNowhere(t *testing.T) {
	before, err := listeners.Own()
	if errors.Is(err, listeners.ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t) // starts the embedded server and connects in-process
	after, err := listeners.Own()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before, after) {
		t.Errorf("the embedded server opened listeners: %v before, %v after; want none", before, after)
	}
	for _, ap := range after {
		if greeting := greet(t, ap.String()); strings.HasPrefix(greeting, "INFO ") {
			t.Errorf("a raw TCP client on %s reached a NATS server: %q", ap, greeting)
		}
	}
	e.openTable("01A", "doudizhu")
	e.relayToHead(smallOpts)
	e.checkJetStream()
}

// greet reads what a server at addr says first; a NATS server sends INFO at
// once, a HTTP server says nothing until asked.
func greet(t *testing.T, addr string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return ""
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	line, _ := bufio.NewReader(c).ReadString('\n')
	return line
}

// An external NATS (--nats-url) that requires credentials refuses a client
// without them, or with the wrong ones, and accepts paiju's Auth.
func TestExternalNATSCredentials(t *testing.T) {
	user, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, err := user.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	seed, err := user.Seed()
	if err != nil {
		t.Fatal(err)
	}
	seedFile := filepath.Join(t.TempDir(), "paiju.nk")
	if err := os.WriteFile(seedFile, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	other, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	otherSeed, _ := other.Seed()
	otherFile := filepath.Join(t.TempDir(), "other.nk")
	if err := os.WriteFile(otherFile, otherSeed, 0o600); err != nil {
		t.Fatal(err)
	}

	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: t.TempDir(),
		Users: []*server.User{{Username: "paiju", Password: "s3cret"}},
		Nkeys: []*server.NkeyUser{{Nkey: pub}},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.Start()
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	if !srv.ReadyForConnections(waitLimit) {
		t.Fatal("nats-server not ready")
	}
	url := srv.ClientURL()

	tests := []struct {
		name string
		auth natsbus.Auth
		ok   bool
	}{
		{"no credentials", natsbus.Auth{}, false},
		{"wrong password", natsbus.Auth{User: "paiju", Password: "guess"}, false},
		{"unknown nkey", natsbus.Auth{NKeySeed: otherFile}, false},
		{"user and password", natsbus.Auth{User: "paiju", Password: "s3cret"}, true},
		{"nkey seed", natsbus.Auth{NKeySeed: seedFile}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts, err := tc.auth.Options()
			if err != nil {
				t.Fatal(err)
			}
			nc, js, err := natsbus.Connect(t.Context(), url, opts...)
			if !tc.ok {
				if err == nil {
					nc.Close()
					t.Fatalf("connected to a NATS server requiring credentials with %s", tc.name)
				}
				return
			}
			if err != nil {
				t.Fatalf("connect with %s: %v", tc.name, err)
			}
			defer nc.Close()
			if _, err := natsbus.EnsureStream(t.Context(), js, natsbus.StreamLimits{}); err != nil {
				t.Fatalf("stream with %s: %v", tc.name, err)
			}
		})
	}
}

// Auth refuses combinations that cannot be meant.
func TestAuthOptionsRefusesAmbiguity(t *testing.T) {
	for _, a := range []natsbus.Auth{
		{Creds: "a.creds", NKeySeed: "a.nk"},
		{Creds: "a.creds", User: "u", Password: "p"},
		{User: "u"},
		{Password: "p"},
		{TLSCert: "c.pem"},
		{TLSKey: "k.pem"},
	} {
		if _, err := a.Options(); err == nil {
			t.Errorf("Auth%+v.Options() accepted it", a)
		}
	}
}

// A secret written in --nats-url never reaches a log line or an error.
func TestRedactedURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"nats://n1:4222", "nats://n1:4222"},
		{"nats://paiju:s3cret@n1:4222", "nats://paiju:xxxxx@n1:4222"},
		{"nats://s3cret-token@n1:4222", "nats://xxxxx@n1:4222"},
		{"nats://a:p1@n1:4222, nats://n2:4222", "nats://a:xxxxx@n1:4222, nats://n2:4222"},
		{natsbus.InProcessURL, natsbus.InProcessURL},
	}
	for _, tc := range tests {
		if got := natsbus.Redacted(tc.in); got != tc.want {
			t.Errorf("Redacted(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
