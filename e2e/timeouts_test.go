package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
)

// TestTrickledBodyIsCut: a client that sends its body a byte at a time must
// not hold its connection (and a descriptor) open past --read-timeout. The
// body announces 200 bytes and gets one every 50 ms, so it would take 10 s;
// the server must answer or hang up before it is all sent.
func TestTrickledBodyIsCut(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir(), "--read-timeout", "1s", "--read-header-timeout", "500ms")
	defer stop()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const size = 200
	if _, err := fmt.Fprintf(conn, "POST /v1/players HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", u.Host, size); err != nil {
		t.Fatal(err)
	}
	answered := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(conn).ReadString('\n')
		_, _ = io.Copy(io.Discard, conn) // until the server hangs up
		answered <- line
	}()
	sent := 0
	body := `{"name":"` + strings.Repeat("a", size)
	for ; sent < size; sent++ {
		select {
		case line := <-answered:
			if line != "" && !strings.Contains(line, " 400 ") {
				t.Fatalf("the server answered a trickled body with %q, want a 400 or a hang-up", line)
			}
			return
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := conn.Write([]byte{body[sent]}); err != nil {
			return // cut
		}
	}
	t.Fatalf("all %d bytes of a body trickled over 10 s were read: --read-timeout 1s did not cut it", size)
}

// TestStreamOutlivesReadTimeout: the read timeout bounds sending a request,
// not listening to an event stream: a stream open longer than --read-timeout
// still delivers the next event.
func TestStreamOutlivesReadTimeout(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir(), "--read-timeout", "500ms", "--read-header-timeout", "500ms")
	defer stop()
	c := apitest.New(t, base)
	type player struct{ ID, Token string }
	var ps []player
	for _, name := range []string{"ann", "ben"} {
		var p player
		c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": name}}).Decode(t, &p)
		ps = append(ps, p)
	}
	var tv struct {
		ID string `json:"id"`
	}
	c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[0].Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 1}}).Decode(t, &tv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, r := c.Stream(ctx, apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/stream", Token: ps[0].Token})
	if resp == nil {
		t.Fatalf("stream: %d %s", r.Status, r.Body)
	}
	defer resp.Body.Close()
	events := make(chan string, 16)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			// Turn messages (event: turn) follow the events; only events count here.
			if ev, ok := strings.CutPrefix(sc.Text(), "event: "); ok && ev != "turn" {
				events <- ev
			}
		}
	}()
	if ev := <-events; ev != "TableOpened" {
		t.Fatalf("first stream event %q, want TableOpened", ev)
	}
	time.Sleep(1500 * time.Millisecond) // past the read timeout, with the stream idle
	if r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: ps[1].Token}); r.Status != http.StatusOK {
		t.Fatalf("join: %d %s", r.Status, r.Body)
	}
	if ev, ok := <-events; !ok || ev != "PlayerSeated" {
		t.Fatalf("after the read timeout the stream gave %q (open %v), want PlayerSeated", ev, ok)
	}
}
