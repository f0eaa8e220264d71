package loadtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseLoadtestAddrs: --addr takes one server or a cluster's nodes,
// comma-separated, with or without a scheme; naming none is an error.
func TestParseLoadtestAddrs(t *testing.T) {
	none := func(string) string { return "" }
	c, err := ParseFlags([]string{"--addr", "http://a:8080/, b:8080 ,,https://c", "--record", "acks.jsonl"}, none, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://a:8080", "http://b:8080", "https://c"}; !slices.Equal(c.Addrs, want) || c.Record != "acks.jsonl" {
		t.Fatalf("addrs %q record %q, want %q and acks.jsonl", c.Addrs, c.Record, want)
	}
	d, err := ParseFlags(nil, func(k string) string {
		if k == "PAIJU_ADDR" {
			return "n1:1,n2:2"
		}
		return ""
	}, io.Discard)
	if err != nil || !slices.Equal(d.Addrs, []string{"http://n1:1", "http://n2:2"}) {
		t.Fatalf("from PAIJU_ADDR: %q, %v", d.Addrs, err)
	}
	if _, err := ParseFlags([]string{"--addr", " , "}, none, io.Discard); err == nil {
		t.Fatal("--addr naming no server was accepted")
	}
}

// TestParseFlags: the defaults, the environment of --record and --metrics,
// the combinations refused, and -h, which prints the flags with the
// environment variables that set them.
func TestParseFlags(t *testing.T) {
	none := func(string) string { return "" }
	c, err := ParseFlags(nil, none, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Addrs: []string{"http://127.0.0.1:8080"}, Duration: 10 * time.Second, Tables: 64, Clients: 16, Game: "doudizhu", Variant: "classic", Seed: 1}
	if !slices.Equal(c.Addrs, want.Addrs) || c.Duration != want.Duration || c.Tables != want.Tables || c.Clients != want.Clients ||
		c.Game != want.Game || c.Variant != want.Variant || c.Seed != want.Seed || c.Record != "" || c.MetricsURL != "" || c.Full || c.PerSeat || c.AskLegal {
		t.Fatalf("defaults %+v, want %+v", c, want)
	}
	env := map[string]string{"PAIJU_RECORD": "r.jsonl", "PAIJU_METRICS": "-"}
	c, err = ParseFlags([]string{"--per-seat", "--ask-legal"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil || c.Record != "r.jsonl" || c.MetricsURL != "-" || !c.PerSeat || !c.AskLegal {
		t.Fatalf("from the environment: %+v, %v", c, err)
	}
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"extra"}, `loadtest: unexpected arguments ["extra"]`},
		{[]string{"--tables", "0"}, "loadtest: --tables, --clients and --duration must be positive"},
		{[]string{"--clients", "-1"}, "loadtest: --tables, --clients and --duration must be positive"},
		{[]string{"--duration", "0s"}, "loadtest: --tables, --clients and --duration must be positive"},
		{[]string{"--per-seat", "--full"}, "loadtest: --per-seat learns the turn from the stream; it cannot take --full"},
		{[]string{"--ask-legal"}, "loadtest: --ask-legal is a --per-seat client's choice"},
		{[]string{"--addr", ","}, "loadtest: --addr names no server"},
		{[]string{"--idle", "--per-seat"}, "loadtest: --idle plays no move: it takes no --per-seat, --full or --record"},
		{[]string{"--idle", "--record", "r.jsonl"}, "loadtest: --idle plays no move: it takes no --per-seat, --full or --record"},
	} {
		if _, err := ParseFlags(tc.args, none, io.Discard); err == nil || err.Error() != tc.err {
			t.Errorf("%q: %v, want %s", tc.args, err, tc.err)
		}
	}
	var help bytes.Buffer
	if _, err := ParseFlags([]string{"-h"}, none, &help); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v, want flag.ErrHelp", err)
	}
	for _, s := range []string{"Usage of loadtest:", "-addr string", "(env PAIJU_ADDR)", "(env PAIJU_RECORD)", "(env PAIJU_METRICS)", "-per-seat", "-ask-legal", `(default "http://127.0.0.1:8080")`} {
		if !strings.Contains(help.String(), s) {
			t.Errorf("-h does not print %q:\n%s", s, help.String())
		}
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

// TestPickMove: the load tool never plays escape, leave or delegate, picks
// every other action, sends the one it picks as the server wrote it, and
// reports an action it cannot read.
func TestPickMove(t *testing.T) {
	raw := func(s ...string) []json.RawMessage {
		out := make([]json.RawMessage, len(s))
		for i, a := range s {
			out[i] = json.RawMessage(a)
		}
		return out
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if a, ok, err := pickMove(raw(`{"type":"escape"}`, `{"type":"leave"}`, `{"type":"delegate"}`), rng); ok || err != nil {
		t.Fatalf("only escape, leave and delegate: picked %s, %v, %v", a, ok, err)
	}
	actions := raw(`{"type":"escape"}`, `{"type":"pass"}`, `{"type":"delegate"}`, `{"type":"play","cards":["S3"]}`, `{"type":"leave"}`)
	seen := map[string]int{}
	for range 400 {
		a, ok, err := pickMove(actions, rng)
		if !ok || err != nil {
			t.Fatalf("picked nothing: %v", err)
		}
		seen[string(a)]++
	}
	if len(seen) != 2 || seen[`{"type":"pass"}`] < 150 || seen[`{"type":"play","cards":["S3"]}`] < 150 {
		t.Fatalf("picks %v, want pass and the play about as often, nothing else", seen)
	}
	if string(actions[0]) != `{"type":"escape"}` || string(actions[4]) != `{"type":"leave"}` {
		t.Fatalf("pickMove reordered its argument: %s", actions)
	}
	if _, _, err := pickMove(raw(`{"type":`), rng); err == nil {
		t.Fatal("an action that is not JSON was picked without an error")
	}
	for a, want := range map[string]bool{`{"type":"pass"}`: false, `{"type":"play","cards":null}`: false, `{"type":"play","cards":["BJ"]}`: true, `{`: false} {
		if got := namesCards(json.RawMessage(a)); got != want {
			t.Errorf("namesCards(%s) = %v, want %v", a, got, want)
		}
	}
}
