package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
)

// TestBroadcastDelay crawls a table opened with broadcast_delay after
// every event of whole hands: a spectator's /events holds exactly the
// events up to N before the table's version, each in full (every seat's
// hand once N events have followed its deal), never a later one, never a
// deal secret or a seed; the seated players and a watcher see what they
// always see, never another seat's cards of the running deal; and the
// spectator's live stream delivers what its /events shows.
func TestBroadcastDelay(t *testing.T) {
	const delay = 5
	e, _ := newLiveEnv(t, 71, time.Hour)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "classic", "broadcast_delay": delay}, 3)
	sam, w := e.newPlayer("sam"), e.newPlayer("w")
	if r := e.watch(ps[0], id, w.ID); r.Status != http.StatusOK {
		t.Fatalf("watch: %d %s", r.Status, r.Body)
	}
	stream := e.openStream(id, sam.Token, "", "")
	defer stream.close()
	sawHands := 0
	check := func() {
		tr := e.auditorTruth(id)
		all := e.auditorEvents(id)
		version := len(all)
		var want []auditedEvent
		for _, ev := range all {
			if ev.Version <= version-delay && ev.Type != "DealSecret" {
				want = append(want, ev)
			}
		}
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: sam.Token})
		if r.Status != http.StatusOK {
			t.Fatalf("spectator /events: %d %s", r.Status, r.Body)
		}
		var page struct {
			Events []auditedEvent `json:"events"`
			Next   int            `json:"next"`
		}
		r.Decode(t, &page)
		if len(page.Events) != len(want) {
			t.Fatalf("at version %d the spectator sees %d events, want the %d up to version %d", version, len(page.Events), len(want), version-delay)
		}
		for i, ev := range page.Events {
			if ev.Version != want[i].Version || ev.Type != want[i].Type {
				t.Fatalf("spectator event %d is %d %s, want %d %s", i, ev.Version, ev.Type, want[i].Version, want[i].Type)
			}
			// In full, as the auditor sees it, but without the seed the
			// settlement publishes.
			got, exp := stripSeed(t, ev.Data), stripSeed(t, want[i].Data)
			if !bytes.Equal(got, exp) {
				t.Fatalf("spectator event %d (%s) = %s, want it in full: %s", ev.Version, ev.Type, ev.Data, want[i].Data)
			}
			if ev.Type == "HandDealt" && ev.Version == tr.dealAt {
				sawHands++
			}
		}
		if tr.seed != "" && strings.Contains(string(r.Body), tr.seed) {
			t.Fatalf("the spectator sees the running deal's seed")
		}
		// The players and the watcher see as always.
		for seat, who := range []player{ps[0], ps[1], ps[2], w} {
			s := seat
			if seat == 3 {
				s = 0 // the watcher of seat 0
			}
			r := e.eventsSince(id, who.Token, tr.dealAt-1)
			checkNoLeak(t, fmt.Sprintf("%s (seat %d's view)", who.Name, s), "GET /events", r.Body, tr.secrets(s), tr.seed)
			v := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: who.Token})
			checkNoLeak(t, who.Name, "GET the table", v.Body, tr.secrets(s), tr.seed)
		}
		// The spectator's table view stays the public one.
		v := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: sam.Token})
		checkNoLeak(t, "the spectator", "GET the table", v.Body, tr.secrets(-1), tr.seed)
	}
	check()
	hands := 0
	for step := 0; hands < 2 && step < 1000; step++ {
		cr := e.step(id, ps)
		check()
		if slices.ContainsFunc(cr.Events, func(ev eventView) bool { return ev.Type == "HandSettled" }) {
			hands++
		}
	}
	if hands < 2 || sawHands == 0 {
		t.Fatalf("%d hands played, the running deal's hands seen in full %d times: the crawl did not cover the broadcast", hands, sawHands)
	}
	// The live stream delivered exactly the delayed feed.
	var page struct {
		Events []auditedEvent `json:"events"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events", Token: sam.Token}).Decode(t, &page)
	last := page.Events[len(page.Events)-1].Version
	got := stream.waitFor("the spectator's stream", last)
	if len(got) != len(page.Events) {
		t.Fatalf("the stream sent %d events, /events shows %d", len(got), len(page.Events))
	}
	for i, ev := range got {
		var sent auditedEvent
		mustUnmarshal(t, []byte(ev.data), &sent)
		if ev.id != page.Events[i].Version || sent.Type != page.Events[i].Type || !bytes.Equal(compact(t, sent.Data), compact(t, page.Events[i].Data)) {
			t.Fatalf("stream event %d = %d %s, /events has %d %s", i, ev.id, ev.data, page.Events[i].Version, page.Events[i].Data)
		}
	}
}

// stripSeed is an event's data without a "seed" field.
func stripSeed(t *testing.T, data []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return data
	}
	delete(m, "seed")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return buf.Bytes()
}

// TestBroadcastDelayBounds: the delay is 0 to 1000 events.
func TestBroadcastDelayBounds(t *testing.T) {
	e := newEnv(t, 72)
	p := e.newPlayer("ann")
	for _, d := range []int{-1, 1001} {
		r := e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "broadcast_delay": d}})
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" {
			t.Errorf("broadcast_delay %d: %d %s, want 422 invalid_option", d, r.Status, r.Body)
		}
	}
}
