package api

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientAddr finds the address of the client behind a request. The peer is
// the client unless it is one of the trusted reverse proxies; then
// X-Forwarded-For says who the proxy served, and each proxy appends the
// peer it saw, so the header is read from the right and the first address
// that is not a trusted proxy is the client. Anything to its left was
// written by the client itself and is never believed.
type clientAddr struct {
	trusted []netip.Prefix
}

// of returns the client's address for rate limits and logs: an IP address,
// or the raw peer string if it is not one.
func (c clientAddr) of(r *http.Request) string {
	peer, ok := parseHost(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if !c.isTrusted(peer) {
		return peer.String()
	}
	hops := r.Header.Values("X-Forwarded-For")
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		parts := strings.Split(hops[i], ",")
		for j := len(parts) - 1; j >= 0; j-- {
			addr, ok := parseHost(strings.TrimSpace(parts[j]))
			if !ok {
				// A trusted proxy passed on something that is no address:
				// the last address it vouched for is all we know.
				return client.String()
			}
			client = addr
			if !c.isTrusted(addr) {
				return addr.String()
			}
		}
	}
	return client.String() // every hop is a trusted proxy: the leftmost sent it
}

func (c clientAddr) isTrusted(a netip.Addr) bool {
	for _, p := range c.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseHost reads an address with or without a port ("192.0.2.1:5000",
// "[2001:db8::1]:80", "2001:db8::1"), unmapping IPv4-in-IPv6.
func parseHost(s string) (netip.Addr, bool) {
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	a, err := netip.ParseAddr(strings.Trim(s, "[]"))
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}
