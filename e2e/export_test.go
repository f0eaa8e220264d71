package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/eventstore"
	"paiju/internal/cli"
)

// playedTable starts the server in dir, plays one whole hand of 斗地主 over
// HTTP and then some actions of the next, and returns the table id, the
// auditor's HTTP export, and the server's stop function.
func playedTable(t *testing.T, dir string) (id string, httpExport []byte, stop func() error) {
	t.Helper()
	base, _, stop := startServer(t, dir)
	c := apitest.New(t, base)
	tv, ps := seatThree(t, c)
	rng := rand.New(rand.NewPCG(21, 22))
	settled, extra := false, 0
	for step := 0; extra < 4 && step < 500; step++ {
		var v struct {
			Turn *int `json:"turn"`
		}
		c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID, Token: ps[0].Token}).Decode(t, &v)
		p := ps[*v.Turn]
		r := playRandomChoice(t, c, tv.ID, p.Token, rng)
		if settled {
			extra++
		}
		settled = settled || strings.Contains(string(r.Body), `"HandSettled"`)
	}
	if !settled {
		t.Fatal("the hand did not settle")
	}
	r := c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/export", Token: "audit-me"})
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != audit.ContentType {
		t.Fatalf("export: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	return tv.ID, r.Body, stop
}

func runCLI(args ...string) (string, error) {
	var out bytes.Buffer
	err := cli.Run(context.Background(), args, func(string) string { return "" }, &out, &out)
	return out.String(), err
}

// eventLines drops the chain head line (its exported_at differs per export).
func eventLines(b []byte) string {
	s := strings.TrimSuffix(string(b), "\n")
	return s[:strings.LastIndex(s, "\n")]
}

// readLines parses an export's event lines without checking them.
func readLines(t *testing.T, file []byte) ([]eventstore.Event, audit.ChainHead) {
	t.Helper()
	var (
		evs  []eventstore.Event
		head audit.ChainHead
	)
	sc := bufio.NewScanner(bytes.NewReader(file))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), `{"chain_head"`) {
			var h audit.Head
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
				t.Fatal(err)
			}
			head = h.ChainHead
			continue
		}
		var l audit.Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, eventstore.Event{Position: l.Position, Stream: l.Stream, Version: l.Version, Type: l.Type,
			RecordedAt: l.RecordedAt, Data: []byte(l.Data), PrevHash: l.PrevHash, Hash: l.Hash})
	}
	return evs, head
}

// forge writes events as a cheat who knows the hash function would: versions
// renumbered, every hash recomputed, each event linked to the line before
// when their positions are consecutive, the head moved along.
func forge(t *testing.T, evs []eventstore.Event, head audit.ChainHead) []byte {
	t.Helper()
	for i := range evs {
		evs[i].Version = i + 1
		if i > 0 && evs[i].Position == evs[i-1].Position+1 {
			evs[i].PrevHash = evs[i-1].Hash
		}
		evs[i].Hash = eventstore.Hash(evs[i].PrevHash, evs[i].Stream, evs[i].Version, evs[i].Type, evs[i].Data)
	}
	if last := evs[len(evs)-1]; head.Position <= last.Position {
		head = audit.ChainHead{Position: last.Position, Hash: last.Hash}
	}
	var b bytes.Buffer
	if err := audit.WriteExport(&b, evs, head, time.Now()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func first(t *testing.T, evs []eventstore.Event, typ string) int {
	t.Helper()
	for i, e := range evs {
		if e.Type == typ {
			return i
		}
	}
	t.Fatalf("no %s in the log", typ)
	return -1
}

func edit(t *testing.T, e *eventstore.Event, f func(m map[string]any)) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.Data, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	e.Data = b
}

var faultRE = regexp.MustCompile(`FAULT \S+: event (\d+) \(line (\d+)\): (.*)`)

// TestExportVerifyOffline is the auditor's path (docs/AUDIT.md): export a
// table over HTTP and with `paiju export`, check both are the same log, verify
// the file with `paiju verify FILE` (no server, no database), then change it
// the ways a cheat would and check the verifier names the changed event.
func TestExportVerifyOffline(t *testing.T) {
	dir := t.TempDir()
	id, httpExport, stop := playedTable(t, dir)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	cliExport, err := runCLI("export", "--table", id, "--data", dir)
	if err != nil {
		t.Fatalf("paiju export: %v\n%s", err, cliExport)
	}
	if eventLines([]byte(cliExport)) != eventLines(httpExport) {
		t.Fatalf("paiju export and GET /export differ:\n%s\n---\n%s", cliExport, httpExport)
	}
	file := filepath.Join(t.TempDir(), "table.jsonl")
	if err := os.WriteFile(file, []byte(cliExport), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI("verify", file)
	if err != nil || !strings.Contains(out, "ok table-"+id) || !strings.Contains(out, "events/s") {
		t.Fatalf("paiju verify on a clean export: %v\n%s", err, out)
	}
	t.Log(strings.TrimSpace(out))

	evs, head := readLines(t, []byte(cliExport))
	clone := func() []eventstore.Event {
		c := make([]eventstore.Event, len(evs))
		copy(c, evs)
		return c
	}
	cases := []struct {
		name   string
		tamper func() ([]byte, int) // the file and the version the verifier must name
		reason string
	}{
		{"one card changed, hash left", func() ([]byte, int) {
			i := first(t, evs, "CardsPlayed")
			c := clone()
			var b bytes.Buffer
			edit(t, &c[i], func(m map[string]any) {
				cs := m["cards"].([]any)
				if cs[0] == "S3" {
					cs[0] = "H3"
				} else {
					cs[0] = "S3"
				}
			})
			audit.WriteExport(&b, c, head, time.Now())
			return b.Bytes(), c[i].Version
		}, "hash"},
		{"a play changed to a card another seat holds, rehashed", func() ([]byte, int) {
			c := clone()
			i := first(t, c, "CardsPlayed")
			var deal struct {
				Hands [][]string `json:"hands"`
			}
			json.Unmarshal(c[first(t, c, "HandDealt")].Data, &deal)
			edit(t, &c[i], func(m map[string]any) {
				seat := int(m["seat"].(float64))
				m["cards"].([]any)[0] = deal.Hands[(seat+1)%3][0]
			})
			return forge(t, c, head), c[i].Version
		}, "reject"},
		{"a settlement changed, rehashed", func() ([]byte, int) {
			c := clone()
			i := first(t, c, "HandSettled")
			edit(t, &c[i], func(m map[string]any) {
				d := m["deltas"].([]any)
				d[0], d[1] = d[0].(float64)+1, d[1].(float64)-1
			})
			return forge(t, c, head), c[i].Version
		}, "differs"},
		{"the revealed seed swapped, rehashed", func() ([]byte, int) {
			c := clone()
			i := first(t, c, "HandSettled")
			edit(t, &c[i], func(m map[string]any) { m["seed"] = strings.Repeat("5a", 32) })
			return forge(t, c, head), c[i].Version
		}, "commitment"},
		{"an event removed", func() ([]byte, int) {
			c := clone()
			i := first(t, c, "BidMade")
			v := c[i].Version
			var b bytes.Buffer
			audit.WriteExport(&b, append(c[:i], c[i+1:]...), head, time.Now())
			return b.Bytes(), v
		}, "missing"},
		{"an event removed, renumbered and rehashed", func() ([]byte, int) {
			c := clone()
			i := first(t, c, "CardsPlayed")
			v := c[i].Version
			return forge(t, append(c[:i], c[i+1:]...), head), v
		}, "reject"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, version := tc.tamper()
			f := filepath.Join(t.TempDir(), "tampered.jsonl")
			if err := os.WriteFile(f, data, 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := runCLI("verify", f)
			if err == nil {
				t.Fatalf("paiju verify accepts a tampered log:\n%s", out)
			}
			m := faultRE.FindStringSubmatch(out)
			if m == nil || m[1] != itoa(version) || m[2] != itoa(version) || !strings.Contains(m[3], tc.reason) {
				t.Fatalf("paiju verify says\n%s\nwant a fault at event %d (line %d) with %q in the reason", out, version, version, tc.reason)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestServeStreamShutdown: paiju serve ends its live streams when it shuts
// down instead of waiting for them (http.Server.Shutdown waits for every
// response to finish, and an event stream never does).
func TestServeStreamShutdown(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir())
	c := apitest.New(t, base)
	var p struct{ ID, Token string }
	c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "ann"}}).Decode(t, &p)
	var tv struct {
		ID string `json:"id"`
	}
	c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic"}}).Decode(t, &tv)
	resp, problem := c.Stream(context.Background(), apitest.Request{Path: "/v1/tables/" + tv.ID + "/stream", Token: p.Token})
	if problem != nil {
		t.Fatalf("stream: %d %s", problem.Status, problem.Body)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "event: TableOpened") {
	}
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	ended := make(chan struct{})
	go func() {
		for sc.Scan() {
		}
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(8 * time.Second): // the server's shutdown grace is 10 s
		t.Fatal("the stream is still open 8 s after the server began to shut down")
	}
	if err := <-stopped; err != nil {
		t.Fatalf("serve returned %v", err)
	}
}
