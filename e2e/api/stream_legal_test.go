package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"paiju/api/apitest"
)

// legalMessage waits until c has received a legal message of version v
// and returns its data.
func (c *sseClient) legalMessage(who string, v int) string {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		c.mu.Lock()
		legals := slices.Clone(c.legals)
		c.mu.Unlock()
		for _, m := range legals {
			var l struct {
				Version int `json:"version"`
			}
			if err := json.Unmarshal([]byte(m.data), &l); err != nil {
				c.t.Fatalf("%s: legal message %q: %v", who, m.data, err)
			}
			if l.Version == v {
				return m.data
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: no legal message of version %d in 20 s (%d received)", who, v, len(legals))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestStreamLegal follows a table with every seat's stream opened with
// ?legal=true: after each action the seat the game awaits is sent its
// legal actions for the empty selection, the same as GET /legal answers
// it at that version (so only its own cards), after the turn message that
// names it and without an id; the watcher of that seat is sent the same,
// as it reads the seat's /legal; a seat not awaited, a spectator and a
// stream opened without the parameter are sent none. A resumed stream sends the
// awaited seat's at once, and a bad value is a 400.
func TestStreamLegal(t *testing.T) {
	e, _ := newLiveEnv(t, 43, time.Hour)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "classic"}, 3)
	seats := make([]*sseClient, len(ps))
	for i, p := range ps {
		seats[i] = e.openStream(id, p.Token, "", "?legal=true")
	}
	spectator := e.openStream(id, e.newPlayer("sam").Token, "", "?legal=true")
	// A watcher of seat 1 reads seat 1's /legal (docs/AUDIT.md), and so its
	// legal messages, and nobody else's.
	w := e.newPlayer("w")
	if r := e.watch(ps[1], id, w.ID); r.Status != http.StatusOK {
		t.Fatal(r.Status, string(r.Body))
	}
	watcher := e.openStream(id, w.Token, "", "?legal=true")
	plain := e.openStream(id, ps[0].Token, "", "")

	awaitedAt := map[int]int{} // version → the seat the view names on turn
	check := func(step int) {
		t.Helper()
		v := e.view(id, ps[0].Token)
		if v.Turn == nil {
			t.Fatalf("step %d: nobody on turn in phase %s", step, v.Phase)
		}
		seat := *v.Turn
		awaitedAt[v.Version] = seat
		who := fmt.Sprintf("seat %d", seat)
		got := seats[seat].legalMessage(who, v.Version)
		e.c.CheckSchema("LegalActions", []byte(got))
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal", Token: ps[seat].Token})
		if r.Status != http.StatusOK {
			t.Fatalf("step %d: /legal %d %s", step, r.Status, r.Body)
		}
		var want, have any
		mustUnmarshal(t, r.Body, &want)
		mustUnmarshal(t, []byte(got), &have)
		if !reflect.DeepEqual(have, want) {
			t.Fatalf("step %d, %s: legal message %s, /legal answers %s", step, who, got, r.Body)
		}
		tr := e.auditorTruth(id)
		checkNoLeak(t, who, "a legal message", []byte(got), tr.secrets(seat), tr.seed)
		if seat == 1 {
			if w := watcher.legalMessage("the watcher of seat 1", v.Version); w != got {
				t.Fatalf("step %d: the watcher of seat 1 was sent %s, seat 1 %s", step, w, got)
			}
		}
		// The turn message naming the seat came first.
		turn, _ := seats[seat].lastTurn(who, v.Version)
		if !slices.Contains(turn.Awaited, seat) {
			t.Fatalf("step %d, %s: legal message at version %d, the turn message awaits %v", step, who, v.Version, turn.Awaited)
		}
	}
	check(0)
	for step := 1; step <= 30; step++ {
		if step == 15 {
			// Resumed while on turn: the legal message comes at once.
			v := e.view(id, ps[0].Token)
			seat := *v.Turn
			evs, _ := seats[seat].snapshot()
			seats[seat].close()
			seats[seat] = e.openStream(id, ps[seat].Token, strconv.Itoa(evs[len(evs)-1].id), "?legal=true")
			seats[seat].legalMessage("the resumed seat", v.Version)
		}
		e.step(id, ps)
		check(step)
	}
	// Every legal message went to a seat awaited at its version (or its
	// watcher), once.
	for i, c := range append(slices.Clone(seats), watcher) {
		if c == watcher {
			i = 1
		}
		c.mu.Lock()
		legals := slices.Clone(c.legals)
		c.mu.Unlock()
		seen := map[int]bool{}
		for _, m := range legals {
			var l struct {
				Version int `json:"version"`
			}
			mustUnmarshal(t, []byte(m.data), &l)
			if s, ok := awaitedAt[l.Version]; ok && s != i {
				t.Fatalf("seat %d was sent the legal actions of version %d, when seat %d was on turn", i, l.Version, s)
			}
			if seen[l.Version] {
				t.Fatalf("seat %d was sent the legal actions of version %d twice", i, l.Version)
			}
			seen[l.Version] = true
		}
	}
	for who, c := range map[string]*sseClient{"a spectator": spectator, "a stream without ?legal": plain} {
		c.mu.Lock()
		n := len(c.legals)
		c.mu.Unlock()
		if n != 0 {
			t.Fatalf("%s was sent %d legal messages", who, n)
		}
	}

	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/stream?legal=maybe", Token: ps[0].Token, Raw: true})
	if r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_query" {
		t.Fatalf("?legal=maybe: %d %s", r.Status, r.Body)
	}
}
