package main

import (
	"io"
	"slices"
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
