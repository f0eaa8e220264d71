package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"paiju/api/apitest"
)

// streamTurn is a turn message as a client reads it.
type streamTurn struct {
	Version  int       `json:"version"`
	Awaited  []int     `json:"awaited_seats"`
	Deadline []*string `json:"deadlines"`
}

// lastTurn waits until c has received a turn message of version at least
// v and returns the last one with its raw data.
func (c *sseClient) lastTurn(who string, v int) (streamTurn, string) {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		c.mu.Lock()
		turns := slices.Clone(c.turns)
		c.mu.Unlock()
		if n := len(turns); n > 0 {
			var st streamTurn
			if err := json.Unmarshal([]byte(turns[n-1].data), &st); err != nil {
				c.t.Fatalf("%s: turn message %q: %v", who, turns[n-1].data, err)
			}
			if st.Version >= v {
				return st, turns[n-1].data
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: no turn message of version %d in 20 s (%d received)", who, v, len(turns))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestStreamTurn plays a table with a turn clock while a seated player, a
// spectator and a watcher follow its stream: after every action each
// stream names the seats awaited and their deadlines exactly as every
// caller's view shows them (the turn, the seats' deadlines), the message
// has no id and no other field, carries none of the hidden cards nor the
// seed, each version once, and after a resume with Last-Event-ID the
// stream tells the turn at once.
func TestStreamTurn(t *testing.T) {
	e, _ := newLiveEnv(t, 37, time.Hour)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "classic", "clock": map[string]any{"turn_seconds": 600}}, 3)
	w := e.newPlayer("w")
	if r := e.watch(ps[1], id, w.ID); r.Status != http.StatusOK {
		t.Fatal(r.Status, string(r.Body))
	}
	type follower struct {
		who, token string
		seat       int // whose secrets it may see
		c          *sseClient
	}
	fs := []*follower{
		{who: "seat 0", token: ps[0].Token, seat: 0},
		{who: "a spectator", token: e.newPlayer("sam").Token, seat: -1},
		{who: "the watcher of seat 1", token: w.Token, seat: 1},
	}
	for _, f := range fs {
		f.c = e.openStream(id, f.token, "", "")
	}
	// The view as each follower reads it: the turn and the seats'
	// deadlines are the same for all, and the stream must repeat them.
	type viewTurn struct {
		Version int  `json:"version"`
		Turn    *int `json:"turn"`
		Seats   []struct {
			Deadline *string `json:"deadline"`
		} `json:"seats"`
	}
	check := func(step int) {
		t.Helper()
		tr := e.auditorTruth(id)
		for _, f := range fs {
			var v viewTurn
			e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: f.token}).Decode(t, &v)
			got, raw := f.c.lastTurn(f.who, v.Version)
			if got.Version != v.Version {
				t.Fatalf("step %d, %s: turn message of version %d, the table is at %d", step, f.who, got.Version, v.Version)
			}
			var want []int
			var deadlines []*string
			for seat, s := range v.Seats {
				if s.Deadline != nil {
					want = append(want, seat)
					deadlines = append(deadlines, s.Deadline)
				}
			}
			if v.Turn != nil && !slices.Equal(want, []int{*v.Turn}) {
				t.Fatalf("step %d: the view's turn %d, its seats with a deadline %v", step, *v.Turn, want)
			}
			if !slices.Equal(got.Awaited, want) || len(got.Deadline) != len(deadlines) {
				t.Fatalf("step %d, %s: turn message %s, the view awaits %v", step, f.who, raw, want)
			}
			for i := range deadlines {
				if got.Deadline[i] == nil || *got.Deadline[i] != *deadlines[i] {
					t.Fatalf("step %d, %s: turn message %s, the view's deadline of seat %d %s", step, f.who, raw, want[i], *deadlines[i])
				}
			}
			var fields map[string]json.RawMessage
			mustUnmarshal(t, []byte(raw), &fields)
			if len(fields) != 3 {
				t.Fatalf("%s: turn message %s has fields beyond version, awaited_seats and deadlines", f.who, raw)
			}
			e.c.CheckSchema("StreamTurn", []byte(raw))
			checkNoLeak(t, f.who, "a turn message", []byte(raw), tr.secrets(f.seat), tr.seed)
			evs, _ := f.c.snapshot()
			if len(evs) == 0 || evs[len(evs)-1].id != got.Version {
				t.Fatalf("%s: turn message of version %d after events up to %v", f.who, got.Version, ids(evs))
			}
		}
	}
	check(0)
	lastID := 0
	for step := 1; step <= 40; step++ {
		if step%10 == 5 {
			evs, _ := fs[0].c.snapshot()
			lastID = evs[len(evs)-1].id
			fs[0].c.close()
		}
		e.step(id, ps)
		if step%10 == 5 {
			// Resumed after the action it missed: the events past lastID,
			// then the turn at the table's version.
			fs[0].c = e.openStream(id, fs[0].token, strconv.Itoa(lastID), "")
			evs := fs[0].c.waitFor("seat 0 resumed", lastID+1)
			if evs[0].id != lastID+1 {
				t.Fatalf("resumed after %d, the stream starts at %d", lastID, evs[0].id)
			}
		}
		check(step)
	}
	for _, f := range fs {
		f.c.mu.Lock()
		var vs []int
		for _, m := range f.c.turns {
			var st streamTurn
			mustUnmarshal(t, []byte(m.data), &st)
			vs = append(vs, st.Version)
		}
		f.c.mu.Unlock()
		for i := 1; i < len(vs); i++ {
			if vs[i] <= vs[i-1] {
				t.Fatalf("%s: turn message of version %d after %d", f.who, vs[i], vs[i-1])
			}
		}
		f.c.close()
		if f.who == "seat 0" {
			continue // its stream was reopened; the check above saw it resume
		}
		if len(vs) < 40 {
			t.Fatalf("%s: %d turn messages for 40 actions", f.who, len(vs))
		}
	}
}
