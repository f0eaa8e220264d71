// Package listeners lists the TCP sockets the current process listens on,
// so that tests can prove what a server exposes. It reads Linux's /proc:
// the network namespace's socket tables, kept to the sockets whose inodes
// this process holds open.
package listeners

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ErrUnsupported is returned where /proc does not describe sockets.
var ErrUnsupported = errors.New("listeners: /proc/self/net/tcp is not available")

// tcpListen is the kernel's state number for a listening socket.
const tcpListen = "0A"

// Own returns the addresses the process listens on over TCP (v4 and v6),
// sorted.
func Own() ([]netip.AddrPort, error) {
	if _, err := os.Stat("/proc/self/net/tcp"); err != nil {
		return nil, ErrUnsupported
	}
	inodes, err := socketInodes()
	if err != nil {
		return nil, err
	}
	var out []netip.AddrPort
	for _, table := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		got, err := listening(table, inodes)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	slices.SortFunc(out, func(a, b netip.AddrPort) int { return a.Compare(b) })
	return out, nil
}

// socketInodes are the inodes of the sockets among the process's open files.
func socketInodes() (map[string]bool, error) {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil, fmt.Errorf("listeners: %w", err)
	}
	inodes := make(map[string]bool)
	for _, fd := range fds {
		// A descriptor closed since ReadDir has no link any more: skip it.
		link, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err != nil {
			continue
		}
		if ino, ok := strings.CutPrefix(link, "socket:["); ok {
			inodes[strings.TrimSuffix(ino, "]")] = true
		}
	}
	return inodes, nil
}

// listening reads one socket table (header line, then one socket a line:
// sl local rem st tx:rx tr:when retrnsmt uid timeout inode …).
func listening(table string, inodes map[string]bool) ([]netip.AddrPort, error) {
	f, err := os.Open(table)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil // no IPv6 in this kernel
	}
	if err != nil {
		return nil, fmt.Errorf("listeners: %w", err)
	}
	defer f.Close()
	var out []netip.AddrPort
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != tcpListen || !inodes[fields[9]] {
			continue
		}
		ap, err := parseAddr(fields[1])
		if err != nil {
			return nil, fmt.Errorf("listeners: %s: %w", table, err)
		}
		out = append(out, ap)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("listeners: %s: %w", table, err)
	}
	return out, nil
}

// parseAddr reads "0100007F:1F90": the address as 32-bit words in host
// (little-endian on the machines this runs on) order, the port in hex.
func parseAddr(s string) (netip.AddrPort, error) {
	h, p, ok := strings.Cut(s, ":")
	if !ok {
		return netip.AddrPort{}, fmt.Errorf("address %q", s)
	}
	raw, err := hex.DecodeString(h)
	if err != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, fmt.Errorf("address %q", s)
	}
	for i := 0; i < len(raw); i += 4 {
		w := binary.LittleEndian.Uint32(raw[i:])
		binary.BigEndian.PutUint32(raw[i:], w)
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("port in %q: %w", s, err)
	}
	addr, _ := netip.AddrFromSlice(raw)
	return netip.AddrPortFrom(addr.Unmap(), uint16(port)), nil
}
