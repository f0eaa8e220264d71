package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/internal/app"
)

// newLiveEnv is newEnv with live streams on the system's clock: idle
// streams send a comment line every heartbeat. Closing stop ends every
// stream, as a server shutdown does.
func newLiveEnv(t *testing.T, seed uint64, heartbeat time.Duration) (e *env, stop func()) {
	t.Helper()
	return newLiveEnvWith(t, seed, heartbeat, func(*api.Deps) {})
}

// newLiveEnvWith is newLiveEnv with the server's dependencies adjusted by
// opt.
func newLiveEnvWith(t *testing.T, seed uint64, heartbeat time.Duration, opt func(*api.Deps)) (e *env, stop func()) {
	t.Helper()
	stopCh := make(chan struct{})
	var once sync.Once
	stop = func() { once.Do(func() { close(stopCh) }) }
	e, _ = start(t, seed, nil, app.Config{}, func(d *api.Deps) {
		d.Heartbeat = heartbeat
		d.Stop = stopCh
		opt(d)
	})
	// Cleanups run last registered first: the streams end before the
	// server shuts down, which waits for them.
	t.Cleanup(stop)
	return e, stop
}

// sseEvent is one event read from a stream.
type sseEvent struct {
	id   int
	typ  string
	data string
}

// sseClient reads one /stream response in the background.
type sseClient struct {
	t      *testing.T
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	events []sseEvent
	// revealed are the events sent again without an id once their deal
	// ended (api/stream.go).
	revealed []sseEvent
	// turns are the turn messages (api/stream.go), sent without an id.
	turns []sseEvent
	// legals are the legal messages of a stream opened with ?legal=true.
	legals    []sseEvent
	comments  []string
	malformed string
	// api validates each event's data against the Event schema of
	// openapi.yaml; checked counts the events done.
	api     *apitest.Client
	checked int
}

// openStream opens /stream as token with the given Last-Event-ID ("" for
// none) and query, checking the response against openapi.yaml.
func (e *env) openStream(id, token, lastID, query string) *sseClient {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h := map[string]string{}
	if lastID != "" {
		h["Last-Event-ID"] = lastID
	}
	resp, problem := e.c.Stream(ctx, apitest.Request{Path: "/v1/tables/" + id + "/stream" + query, Token: token, Header: h})
	if problem != nil {
		cancel()
		e.t.Fatalf("stream: %d %s", problem.Status, problem.Body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		cancel()
		e.t.Fatalf("stream content type %q", ct)
	}
	c := &sseClient{t: e.t, cancel: cancel, done: make(chan struct{}), api: e.c}
	go c.read(resp)
	return c
}

// read parses the event stream format (id, event and data fields, comment
// lines, an empty line ending each event).
func (c *sseClient) read(resp *http.Response) {
	defer close(c.done)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<22)
	var cur sseEvent
	hasID := false
	for sc.Scan() {
		line := sc.Text()
		c.mu.Lock()
		switch {
		case line == "":
			switch {
			case cur.typ == "" && cur.data == "":
			case hasID:
				c.events = append(c.events, cur)
			case cur.typ == "turn":
				c.turns = append(c.turns, cur)
			case cur.typ == "legal":
				c.legals = append(c.legals, cur)
			default:
				c.revealed = append(c.revealed, cur)
			}
			cur, hasID = sseEvent{}, false
		case strings.HasPrefix(line, ":"):
			c.comments = append(c.comments, line)
		case strings.HasPrefix(line, "id: "):
			n, err := strconv.Atoi(line[4:])
			if err != nil {
				c.malformed = line
			}
			cur.id, hasID = n, true
		case strings.HasPrefix(line, "event: "):
			cur.typ = line[7:]
		case strings.HasPrefix(line, "data: "):
			if cur.data != "" {
				c.malformed = "a second data line: " + line
			}
			cur.data = line[6:]
		default:
			c.malformed = line
		}
		c.mu.Unlock()
	}
}

func (c *sseClient) close() {
	c.cancel()
	<-c.done
}

func (c *sseClient) snapshot() ([]sseEvent, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.malformed != "" {
		c.t.Fatalf("malformed event stream line %q", c.malformed)
	}
	for ; c.checked < len(c.events); c.checked++ {
		c.api.CheckSchema("Event", []byte(c.events[c.checked].data))
	}
	return append([]sseEvent(nil), c.events...), len(c.comments)
}

// waitFor waits until the client has received an event with id ≥ version.
func (c *sseClient) waitFor(who string, version int) []sseEvent {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		evs, _ := c.snapshot()
		if len(evs) > 0 && evs[len(evs)-1].id >= version {
			return evs
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: the stream did not deliver version %d in 20 s (it has %d events)", who, version, len(evs))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// viewer is one stream reader of TestStreamResumeNoLeak.
type viewer struct {
	who     string
	token   string
	seat    int // -1 spectator, -2 auditor
	c       *sseClient
	checked int // the stream has been compared with /events up to here
	start   int // the stream was opened after this version
	lastID  int // the last id received
	got     []int
}

// TestStreamResumeNoLeak plays whole hands while every seat, a spectator and
// the auditor follow the table's SSE stream. After every action each stream
// must have delivered exactly what GET /events shows that caller at that
// moment (same versions, same redacted data: nothing missed, nothing extra,
// nothing that seat may not see), the running deal's hidden cards and seed
// never reach another seat (the crawler of hidden_test.go), and a client that
// disconnects and resumes with Last-Event-ID gets every event once.
func TestStreamResumeNoLeak(t *testing.T) {
	e, _ := newLiveEnv(t, 31, time.Hour)
	id, ps := e.openFull()
	vs := []*viewer{
		{who: "seat 0", token: ps[0].Token, seat: 0},
		{who: "seat 1", token: ps[1].Token, seat: 1},
		{who: "seat 2", token: ps[2].Token, seat: 2},
		{who: "a spectator", token: e.newPlayer("sam").Token, seat: -1},
		{who: "the auditor", token: auditorToken, seat: -2},
	}
	for _, v := range vs {
		v.c = e.openStream(id, v.token, "", "")
	}
	check := func() {
		t.Helper()
		tr := e.auditorTruth(id)
		for _, v := range vs {
			r := e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/events?after=%d", id, v.checked), Token: v.token})
			var feed struct {
				Version int               `json:"version"`
				Events  []json.RawMessage `json:"events"`
			}
			r.Decode(t, &feed)
			var want []eventView
			for _, raw := range feed.Events {
				var ev eventView
				mustUnmarshal(t, raw, &ev)
				want = append(want, ev)
			}
			if len(want) > 0 {
				v.c.waitFor(v.who, want[len(want)-1].Version)
			}
			whole, _ := v.c.snapshot()
			if len(whole) > 0 && whole[0].id <= v.start {
				t.Fatalf("%s: the stream opened after version %d sends version %d", v.who, v.start, whole[0].id)
			}
			all := v.c.snapshotAfter(v.checked)
			if len(all) != len(want) {
				t.Fatalf("%s: the stream sent versions %v after %d, GET /events shows %d events", v.who, ids(all), v.checked, len(want))
			}
			for i, got := range all {
				if got.id != want[i].Version || got.typ != want[i].Type || canonical(t, []byte(got.data)) != canonical(t, feed.Events[i]) {
					t.Fatalf("%s: stream event %d:%s %s differs from GET /events %s (api/stream.go: redacted exactly like /events)", v.who, got.id, got.typ, got.data, feed.Events[i])
				}
				v.got = append(v.got, got.id)
				v.lastID = got.id
				if got.id >= tr.dealAt && v.seat != -2 {
					seat := v.seat
					checkNoLeak(t, v.who, fmt.Sprintf("stream event %d", got.id), []byte(got.data), tr.secrets(seat), tr.seed)
				}
			}
			v.checked = feed.Version
		}
	}
	check()
	// The first check ran through the checking client; the many requests of
	// the loop skip the OpenAPI checks, which would dominate a -race run.
	e.c = e.c.Unchecked()
	hands, after := 0, 0
	for step := 0; after < 6 && step < 1000; step++ {
		if hands > 0 {
			after++ // actions of the next hand's deal
		}
		// Every fifth action seat 1 is away: its stream is closed while the
		// action happens and resumed after the last id it received.
		away := step%5 == 2
		if away {
			vs[1].c.close()
		}
		// Every seventh the spectator resumes with ?after= instead.
		if step%7 == 3 {
			vs[3].c.close()
			vs[3].c = e.openStream(id, vs[3].token, "", fmt.Sprintf("?after=%d", vs[3].lastID))
			vs[3].checked, vs[3].start = vs[3].lastID, vs[3].lastID
		}
		cr := e.step(id, ps)
		if away {
			vs[1].c = e.openStream(id, vs[1].token, strconv.Itoa(vs[1].lastID), "")
			vs[1].checked, vs[1].start = vs[1].lastID, vs[1].lastID
		}
		check()
		for _, ev := range cr.Events {
			if ev.Type == "HandSettled" {
				hands++
			}
		}
	}
	if hands < 1 {
		t.Fatal("the hand did not end")
	}
	final := e.view(id, auditorToken).Version
	for _, v := range vs {
		for i := 1; i < len(v.got); i++ {
			if v.got[i] <= v.got[i-1] {
				t.Fatalf("%s received version %d after %d: a duplicate or out of order", v.who, v.got[i], v.got[i-1])
			}
		}
		v.c.close()
	}
	if a := vs[4].got; len(a) != final || a[0] != 1 || a[len(a)-1] != final {
		t.Fatalf("the auditor's stream has %d events, the table %d", len(a), final)
	}
}

func ids(evs []sseEvent) []int {
	out := make([]int, len(evs))
	for i, e := range evs {
		out[i] = e.id
	}
	return out
}

func (c *sseClient) snapshotAfter(after int) []sseEvent {
	evs, _ := c.snapshot()
	var out []sseEvent
	for _, e := range evs {
		if e.id > after {
			out = append(out, e)
		}
	}
	return out
}

// TestStreamHeartbeatAndShutdown: an idle stream sends comment lines at the
// configured interval, and the server's stop signal ends every stream (a
// server shutdown does not wait for them).
func TestStreamHeartbeatAndShutdown(t *testing.T) {
	e, stop := newLiveEnv(t, 32, 20*time.Millisecond)
	id, ps := e.openFull()
	c := e.openStream(id, ps[0].Token, "", "")
	c.waitFor("seat 0", 1)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, n := c.snapshot(); n >= 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no heartbeats on an idle stream")
		}
	}
	stop()
	select {
	case <-c.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the stream stays open after the server's stop signal")
	}
}

// TestStreamErrors: the stream's problems, each with its stable code.
func TestStreamErrors(t *testing.T) {
	e, _ := newLiveEnv(t, 33, time.Hour)
	id, ps := e.openFull()
	ctx := context.Background()
	for _, tc := range []struct {
		path, lastID string
		status       int
		code         string
	}{
		{"/v1/tables/NOPE/stream", "", http.StatusNotFound, "table_not_found"},
		{"/v1/tables/" + id + "/stream", "x", http.StatusBadRequest, "invalid_query"},
		{"/v1/tables/" + id + "/stream", "-1", http.StatusBadRequest, "invalid_query"},
	} {
		h := map[string]string{}
		if tc.lastID != "" {
			h["Last-Event-ID"] = tc.lastID
		}
		resp, p := e.c.Stream(ctx, apitest.Request{Path: tc.path, Token: ps[0].Token, Header: h})
		if resp != nil {
			resp.Body.Close()
			t.Fatalf("%s Last-Event-ID %q: a stream, want %d", tc.path, tc.lastID, tc.status)
		}
		if p.Status != tc.status || p.Problem(t) != tc.code {
			t.Fatalf("%s: %d %s, want %d %s", tc.path, p.Status, p.Body, tc.status, tc.code)
		}
	}
	// A server without a live feed says so.
	plain := newEnvWith(t, 1, func(d *api.Deps) { d.Live = nil })
	pid, pps := plain.openFull()
	if _, p := plain.c.Stream(ctx, apitest.Request{Path: "/v1/tables/" + pid + "/stream", Token: pps[0].Token}); p == nil || p.Status != http.StatusServiceUnavailable || p.Problem(t) != "live_unavailable" {
		t.Fatalf("stream without a live feed: %+v", p)
	}
}

// TestStreamRevealsEndedDeals: once a deal ends, a player's stream sends
// again the deal's events that /events now shows differently (its
// DealSecret, every hand of its HandDealt), without an id, so that what the
// stream showed ends up equal to /events, event for event; a resumed stream
// does the same for the deals that ended after its Last-Event-ID. A
// registered player who never sat at the table gets no reveal, as on
// /events (docs/AUDIT.md, Who may read what).
func TestStreamRevealsEndedDeals(t *testing.T) {
	e, _ := newLiveEnv(t, 34, time.Hour)
	id, ps := e.openFull()
	seat := e.openStream(id, ps[0].Token, "", "")
	defer seat.close()
	outsider := e.newPlayer("sam")
	spectator := e.openStream(id, outsider.Token, "", "")
	defer spectator.close()
	e.playHand(id, ps)
	resumed := e.openStream(id, ps[1].Token, "20", "")
	defer resumed.close()

	for _, v := range []struct {
		who    string
		token  string
		c      *sseClient
		reveal bool
	}{
		{"seat 0", ps[0].Token, seat, true},
		{"seat 1 resumed after event 20", ps[1].Token, resumed, true},
		{"a registered player who never sat", outsider.Token, spectator, false},
	} {
		feed := e.allEvents(id, v.token)
		var last eventView
		mustUnmarshal(t, feed[len(feed)-1], &last)
		v.c.waitFor(v.who, last.Version)
		evs, _ := v.c.snapshot()
		v.c.mu.Lock()
		revealed := append([]sseEvent(nil), v.c.revealed...)
		v.c.mu.Unlock()
		if !v.reveal {
			if len(revealed) != 0 {
				t.Fatalf("%s: the stream revealed %d events of an ended deal", v.who, len(revealed))
			}
			continue
		}
		shown := map[int]string{}
		for _, ev := range append(evs, revealed...) {
			if ev.id == 0 {
				var ver struct{ Version int }
				mustUnmarshal(t, []byte(ev.data), &ver)
				ev.id = ver.Version
			}
			shown[ev.id] = canonical(t, []byte(ev.data))
		}
		secret := false
		for _, raw := range feed {
			var ev eventView
			mustUnmarshal(t, raw, &ev)
			secret = secret || ev.Type == "DealSecret"
			if got, ok := shown[ev.Version]; ok && got != canonical(t, raw) {
				t.Fatalf("%s: the stream last showed event %d as %s; /events shows %s", v.who, ev.Version, got, raw)
			}
			if _, ok := shown[ev.Version]; !ok && ev.Version > 20 {
				t.Fatalf("%s: the stream never sent event %d", v.who, ev.Version)
			}
		}
		if !secret {
			t.Fatalf("%s: /events shows no DealSecret after a whole hand", v.who)
		}
		found := false
		for _, ev := range revealed {
			found = found || ev.typ == "DealSecret"
		}
		if !found {
			t.Fatalf("%s: the stream never sent the ended deal's DealSecret (revealed %d events)", v.who, len(revealed))
		}
	}
}
