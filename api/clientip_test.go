package api

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

// Only a trusted proxy's X-Forwarded-For is believed, read from the right:
// a client cannot pick its own rate-limit bucket by sending the header.
func TestClientAddr(t *testing.T) {
	proxies := clientAddr{trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8::/32")}}
	tests := []struct {
		name   string
		c      clientAddr
		remote string
		xff    []string
		want   string
	}{
		{"no proxies trusted: the header is ignored", clientAddr{}, "10.0.0.1:4000", []string{"198.51.100.7"}, "10.0.0.1"},
		{"untrusted peer: its header is ignored", proxies, "192.0.2.9:4000", []string{"198.51.100.7"}, "192.0.2.9"},
		{"trusted peer without a header", proxies, "10.0.0.1:4000", nil, "10.0.0.1"},
		{"one trusted proxy", proxies, "10.0.0.1:4000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"a spoofed leftmost entry is passed over", proxies, "10.0.0.1:4000", []string{"203.0.113.1, 198.51.100.7"}, "198.51.100.7"},
		{"two trusted proxies", proxies, "10.0.0.1:4000", []string{"203.0.113.1, 198.51.100.7, 10.2.3.4"}, "198.51.100.7"},
		{"several header lines", proxies, "10.0.0.1:4000", []string{"203.0.113.1", "198.51.100.7", "10.2.3.4"}, "198.51.100.7"},
		{"all hops trusted: the leftmost", proxies, "10.0.0.1:4000", []string{"10.9.9.9, 10.2.3.4"}, "10.9.9.9"},
		{"garbage from the client side stops the walk", proxies, "10.0.0.1:4000", []string{"nonsense, 10.2.3.4"}, "10.2.3.4"},
		{"IPv6 proxy and client", proxies, "[2001:db8::1]:443", []string{"2001:db8:ffff::1, [2001:db9::5]"}, "2001:db9::5"},
		{"IPv4 mapped in IPv6", proxies, "[::ffff:10.0.0.1]:80", []string{"::ffff:198.51.100.7"}, "198.51.100.7"},
	}
	for _, tc := range tests {
		r := httptest.NewRequest("POST", "/v1/players", nil)
		r.RemoteAddr = tc.remote
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := tc.c.of(r); got != tc.want {
			t.Errorf("%s: client of %s with X-Forwarded-For %q = %s, want %s", tc.name, tc.remote, tc.xff, got, tc.want)
		}
	}
}
