package listeners_test

import (
	"errors"
	"net"
	"net/netip"
	"slices"
	"testing"

	"paiju/internal/listeners"
)

// A listener opened by the test is among Own's, and is gone once closed.
func TestOwnSeesAListener(t *testing.T) {
	for _, network := range []string{"tcp4", "tcp6"} {
		ln, err := net.Listen(network, map[string]string{"tcp4": "127.0.0.1:0", "tcp6": "[::1]:0"}[network])
		if err != nil {
			t.Logf("%s: %v (no such stack here)", network, err)
			continue
		}
		addr := netip.MustParseAddrPort(ln.Addr().String())
		got, err := listeners.Own()
		if errors.Is(err, listeners.ErrUnsupported) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(got, addr) {
			t.Fatalf("%s listener %v not among the process's listeners %v", network, addr, got)
		}
		ln.Close()
		if got, err := listeners.Own(); err != nil || slices.Contains(got, addr) {
			t.Fatalf("after close: %v, %v still lists %v", got, err, addr)
		}
	}
}
