package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/internal/testclock"
	"paiju/natsbus"
)

// ticketFor obtains a stream ticket of table id as token.
func (e *env) ticketFor(id, token string) (ticket string, expires time.Time) {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/stream-tickets", Token: token})
	if r.Status != http.StatusCreated {
		e.t.Fatalf("stream ticket: %d %s", r.Status, r.Body)
	}
	if r.Header.Get("Cache-Control") != "no-store" {
		e.t.Errorf("a stream ticket answered with Cache-Control %q, want no-store", r.Header.Get("Cache-Control"))
	}
	var st struct {
		Ticket    string    `json:"ticket"`
		ExpiresAt time.Time `json:"expires_at"`
	}
	r.Decode(e.t, &st)
	return st.Ticket, st.ExpiresAt
}

// streamStatus opens path with no Authorization header and returns the
// problem's status and code, or 200 and "" for a stream (closed at once).
func (e *env) streamStatus(path string) (int, string) {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, problem := e.c.Stream(ctx, apitest.Request{Path: path})
	if problem != nil {
		return problem.Status, problem.Problem(e.t)
	}
	resp.Body.Close()
	return resp.StatusCode, ""
}

// TestStreamTickets: a browser's EventSource, which cannot send a header,
// opens /stream with a ticket obtained with the bearer token. The stream
// shows exactly what the ticket's player may see (their seat's redacted
// events, the same as their /events); the ticket opens one stream once,
// within 30 s, of its own table; no bearer token is taken from the URL; and
// the access log never holds the ticket.
func TestStreamTickets(t *testing.T) {
	logs := &logBuffer{}
	clock := testclock.New(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	e, _ := newLiveEnvWith(t, 41, time.Hour, func(d *api.Deps) {
		d.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
		d.Now = clock.Now
	})
	id, ps := e.openFull()
	other, _ := e.openFull()

	ticket, expires := e.ticketFor(id, ps[1].Token)
	if !strings.HasPrefix(ticket, "pjst_") || len(ticket) < 40 || !expires.Equal(clock.Now().Add(api.StreamTicketTTL)) {
		t.Fatalf("ticket %q expiring %v; want an opaque pjst_ ticket valid 30 s from %v", ticket, expires, clock.Now())
	}
	ctx, cancel := context.WithCancel(context.Background())
	resp, problem := e.c.Stream(ctx, apitest.Request{Path: "/v1/tables/" + id + "/stream?ticket=" + ticket})
	if problem != nil {
		t.Fatalf("stream with a fresh ticket: %d %s", problem.Status, problem.Body)
	}
	c := &sseClient{t: t, cancel: cancel, done: make(chan struct{}), api: e.c}
	go c.read(resp)
	for range 6 {
		e.step(id, ps)
	}
	// Seat 1's feed, as /events shows it with its token: the stream must
	// carry the same events, redacted the same way.
	var feed struct {
		Events []struct {
			Version int             `json:"version"`
			Type    string          `json:"type"`
			Data    json.RawMessage `json:"data"`
		} `json:"events"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: ps[1].Token}).Decode(t, &feed)
	got := c.waitFor("seat 1 by ticket", feed.Events[len(feed.Events)-1].Version)
	if len(got) != len(feed.Events) {
		t.Fatalf("the ticket's stream sent %d events, seat 1's /events shows %d", len(got), len(feed.Events))
	}
	for i, want := range feed.Events {
		var ev struct {
			Data json.RawMessage `json:"data"`
		}
		mustUnmarshal(t, []byte(got[i].data), &ev)
		if got[i].id != want.Version || got[i].typ != want.Type || string(ev.Data) != string(want.Data) {
			t.Fatalf("stream event %d: %d %s %s; seat 1's /events: %d %s %s", i, got[i].id, got[i].typ, ev.Data, want.Version, want.Type, want.Data)
		}
	}
	// Seat 1's own cards are in the stream, the others' never.
	var dealt struct {
		Hands [][]string `json:"hands"`
	}
	for _, g := range got {
		if g.typ == "HandDealt" {
			var ev struct {
				Data json.RawMessage `json:"data"`
			}
			mustUnmarshal(t, []byte(g.data), &ev)
			mustUnmarshal(t, ev.Data, &dealt)
		}
	}
	if len(dealt.Hands) != 3 || len(dealt.Hands[1]) != 17 || len(dealt.Hands[0]) != 0 || len(dealt.Hands[2]) != 0 {
		t.Fatalf("the ticket's stream shows the deal as %v; want seat 1's 17 cards and no other hand", dealt.Hands)
	}
	tr := e.auditorTruth(id)
	for _, g := range got {
		checkNoLeak(t, "seat 1's ticket stream", fmt.Sprintf("event %d", g.id), []byte(g.data), tr.secrets(1), tr.seed)
	}
	c.close()

	path := func(table, q string) string { return "/v1/tables/" + table + "/stream?" + q }
	refused := map[string]string{
		"a used ticket":              path(id, "ticket="+ticket),
		"an unknown ticket":          path(id, "ticket=pjst_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
		"an empty ticket":            path(id, "ticket="),
		"a bearer token as a ticket": path(id, "ticket="+ps[1].Token),
	}
	t2, _ := e.ticketFor(id, ps[2].Token)
	refused["another table's ticket"] = path(other, "ticket="+t2)
	t3, _ := e.ticketFor(id, ps[0].Token)
	clock.Advance(api.StreamTicketTTL)
	refused["an expired ticket"] = path(id, "ticket="+t3)
	for what, p := range refused {
		if status, code := e.streamStatus(p); status != http.StatusUnauthorized || code != "invalid_stream_ticket" {
			t.Errorf("%s: %d %s, want 401 invalid_stream_ticket", what, status, code)
		}
	}
	// A ticket is spent by a failed attempt too (t2 was tried on the
	// wrong table), and tokens are never read from the URL.
	if status, code := e.streamStatus(path(id, "ticket="+t2)); status != http.StatusUnauthorized || code != "invalid_stream_ticket" {
		t.Errorf("a ticket tried on another table, then on its own: %d %s, want 401", status, code)
	}
	for _, q := range []string{"access_token=" + ps[1].Token, "token=" + ps[1].Token, "authorization=Bearer+" + ps[1].Token} {
		if status, code := e.streamStatus(path(id, q)); status != http.StatusUnauthorized || code != "unauthorized" {
			t.Errorf("?%s...: %d %s, want 401 unauthorized", q[:strings.IndexByte(q, '=')], status, code)
		}
	}
	// Tickets of an unknown table are not issued.
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/NOPE/stream-tickets", Token: ps[0].Token}); r.Status != http.StatusNotFound || r.Problem(t) != "table_not_found" {
		t.Errorf("ticket of an unknown table: %d %s", r.Status, r.Body)
	}

	// The stream's access line is written when it ends: it names the
	// route, never the ticket, and neither does any other line.
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(logs.String(), `"route":"/v1/tables/{id}/stream","status":200`) {
		if time.Now().After(deadline) {
			t.Fatalf("no access line for the ticket's stream:\n%s", logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, secret := range []string{ticket, t2, t3, strings.TrimPrefix(ticket, "pjst_")} {
		if strings.Contains(logs.String(), secret) {
			t.Fatalf("the log holds a stream ticket:\n%s", logs.String())
		}
	}
}

// TestStreamTicketsAcrossNodes: with a ticket store the nodes share (a
// JetStream key-value bucket in a cluster), a ticket issued by one node
// opens the stream on another, once, with its caller's visibility; with
// the default store each node knows only its own tickets.
func TestStreamTicketsAcrossNodes(t *testing.T) {
	ctx := t.Context()
	emb, err := natsbus.StartEmbedded(ctx, filepath.Join(t.TempDir(), "nats"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emb.Shutdown)
	shared := func() api.TicketStore {
		nc, js, err := emb.Connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		tk, err := natsbus.OpenTickets(ctx, js, natsbus.Namespace{}, 2*api.StreamTicketTTL, 1)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	for _, tc := range []struct {
		name   string
		store  func() api.TicketStore
		shared bool
	}{
		{"memory", func() api.TicketStore { return nil }, false},
		{"jetstream", shared, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var deps *api.Deps
			e, _ := newLiveEnvWith(t, 43, time.Hour, func(d *api.Deps) {
				d.Tickets = tc.store()
				deps = d
			})
			// A second node over the same tables, with its own ticket store.
			second := *deps
			second.Tickets = tc.store()
			srv := httptest.NewServer(api.NewServer(second))
			t.Cleanup(srv.Close)
			other := &env{t: t, store: e.store, c: apitest.New(t, srv.URL)}

			id, ps := e.openFull()
			ticket, _ := e.ticketFor(id, ps[1].Token)
			status, code := other.streamStatus("/v1/tables/" + id + "/stream?ticket=" + ticket)
			if tc.shared && status != http.StatusOK {
				t.Fatalf("a ticket of node A on node B: %d %s, want the stream", status, code)
			}
			if !tc.shared && (status != http.StatusUnauthorized || code != "invalid_stream_ticket") {
				t.Fatalf("a ticket of node A's memory on node B: %d %s, want 401 invalid_stream_ticket", status, code)
			}
			if !tc.shared {
				return
			}
			// Spent on B, so refused on A and on B.
			for what, n := range map[string]*env{"A": e, "B": other} {
				if status, code := n.streamStatus("/v1/tables/" + id + "/stream?ticket=" + ticket); status != http.StatusUnauthorized || code != "invalid_stream_ticket" {
					t.Errorf("a ticket used on B, again on %s: %d %s, want 401", what, status, code)
				}
			}
			// B streams with the visibility of the ticket's caller: seat 1
			// sees its own hand only.
			t2, _ := e.ticketFor(id, ps[1].Token)
			sctx, cancel := context.WithCancel(context.Background())
			resp, problem := other.c.Stream(sctx, apitest.Request{Path: "/v1/tables/" + id + "/stream?ticket=" + t2})
			if problem != nil {
				t.Fatalf("stream on B: %d %s", problem.Status, problem.Body)
			}
			c := &sseClient{t: t, cancel: cancel, done: make(chan struct{}), api: other.c}
			go c.read(resp)
			e.step(id, ps)
			var feed struct {
				Events []struct {
					Version int `json:"version"`
				} `json:"events"`
			}
			e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: ps[1].Token}).Decode(t, &feed)
			got := c.waitFor("seat 1 by ticket on B", feed.Events[len(feed.Events)-1].Version)
			tr := e.auditorTruth(id)
			for _, g := range got {
				checkNoLeak(t, "seat 1's ticket stream on B", fmt.Sprintf("event %d", g.id), []byte(g.data), tr.secrets(1), tr.seed)
			}
			c.close()
		})
	}
}
