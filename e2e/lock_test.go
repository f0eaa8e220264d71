package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"paiju/internal/cli"
	"paiju/internal/listeners"
)

// A second server, or a migration, on a directory a server is using exits
// with an error naming the server's process; once it stops, the directory
// is free again (the diverging servers on one directory).
func TestDataDirectoryIsLocked(t *testing.T) {
	dir := t.TempDir()
	_, _, stop := startServer(t, dir)
	noEnv := func(string) string { return "" }
	pid := fmt.Sprintf("process %d", os.Getpid())
	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0", "--data", dir},
		{"migrate", "--data", dir},
	} {
		var out bytes.Buffer
		err := cli.Run(context.Background(), args, noEnv, &out, &out)
		if err == nil || !strings.Contains(err.Error(), pid) {
			t.Errorf("paiju %s on a directory in use: %v, want an error naming %s", args[0], err, pid)
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	var out bytes.Buffer
	if err := cli.Run(context.Background(), []string{"migrate", "--data", dir}, noEnv, &out, &out); err != nil {
		t.Fatalf("migrate after the server stopped: %v", err)
	}
	if b, err := os.ReadFile(dir + "/lock"); err != nil || len(b) != 0 {
		t.Errorf("lock file after release: %q, %v; want it empty so that no stale pid is shown", b, err)
	}
}

// serve listens on its HTTP address, and its debug address when asked, and
// on nothing else: the embedded NATS has no port (the hidden
// information hole).
func TestServeListensOnlyWhereTold(t *testing.T) {
	before, err := listeners.Own()
	if errors.Is(err, listeners.ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	base, _, stopServer := startServer(t, t.TempDir(), "--debug-addr", "127.0.0.1:0")
	stop := sync.OnceValue(stopServer)
	defer stop()
	after, err := listeners.Own()
	if err != nil {
		t.Fatal(err)
	}
	var opened []netip.AddrPort
	for _, a := range after {
		if !slices.Contains(before, a) {
			opened = append(opened, a)
		}
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	api := netip.MustParseAddrPort(u.Host)
	if len(opened) != 2 || !slices.Contains(opened, api) {
		t.Fatalf("serve opened listeners %v; want its API %v and its profiler, nothing else", opened, api)
	}
	for _, a := range opened {
		if a == api {
			continue
		}
		r, err := http.Get("http://" + a.String() + "/debug/pprof/")
		if err != nil {
			t.Fatalf("the listener %v besides the API: %v", a, err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusOK {
			t.Fatalf("the listener %v besides the API answers /debug/pprof/ with %d, want the profiler", a, r.StatusCode)
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
}
