package main

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// TestParseLoadtestAddrs: --addr takes one server or a cluster's nodes,
// comma-separated, with or without a scheme; naming none is an error.
func TestParseLoadtestAddrs(t *testing.T) {
	none := func(string) string { return "" }
	c, err := parseLoadtest([]string{"--addr", "http://a:8080/, b:8080 ,,https://c", "--record", "acks.jsonl"}, none, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://a:8080", "http://b:8080", "https://c"}; !slices.Equal(c.Addrs, want) || c.Record != "acks.jsonl" {
		t.Fatalf("addrs %q record %q, want %q and acks.jsonl", c.Addrs, c.Record, want)
	}
	d, err := parseLoadtest(nil, func(k string) string {
		if k == "PAIJU_ADDR" {
			return "n1:1,n2:2"
		}
		return ""
	}, io.Discard)
	if err != nil || !slices.Equal(d.Addrs, []string{"http://n1:1", "http://n2:2"}) {
		t.Fatalf("from PAIJU_ADDR: %q, %v", d.Addrs, err)
	}
	if _, err := parseLoadtest([]string{"--addr", " , "}, none, io.Discard); err == nil {
		t.Fatal("--addr naming no server was accepted")
	}
}

// TestParseProcessCPU: the server's CPU seconds are read from Prometheus'
// text format, and a scrape without them is an error, not zero.
func TestParseProcessCPU(t *testing.T) {
	text := "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 12.34\nprocess_cpu_seconds_total_other 1\n"
	v, err := parseProcessCPU(strings.NewReader(text))
	if err != nil || v != 12.34 {
		t.Fatalf("got %v, %v; want 12.34", v, err)
	}
	if _, err := parseProcessCPU(strings.NewReader("go_goroutines 7\n")); err == nil {
		t.Fatal("a scrape without process_cpu_seconds_total read as a figure")
	}
}
