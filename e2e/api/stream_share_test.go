package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"paiju/api/apitest"
)

// TestStreamSharedFramesPerViewer follows one table on one node with two
// seated players, the watcher of one of them (who never sat, so reads no
// ended deal), a spectator and a second stream of the first seat. The
// streams of a table share each version's frames by viewer (api/stream.go,
// streamFrames), built by whichever stream asks first; each stream must
// still carry exactly what /events shows its caller: every event of every
// step (hidden cards, the kitty, the seeds of ended deals), and the events
// sent again when a deal ends. Frames shared between two of these viewers
// would give one of them the other's view: the seats' hands differ at
// every deal, and the seat and its watcher differ at every deal's end.
func TestStreamSharedFramesPerViewer(t *testing.T) {
	e, _ := newLiveEnv(t, 43, time.Hour)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "classic"}, 3)
	w := e.newPlayer("w")
	if r := e.watch(ps[1], id, w.ID); r.Status != http.StatusOK {
		t.Fatal(r.Status, string(r.Body))
	}
	type follower struct {
		who, token string
		reads      bool // whether it may read ended deals
		c          *sseClient
	}
	fs := []*follower{
		{who: "seat 0", token: ps[0].Token, reads: true},
		{who: "seat 1", token: ps[1].Token, reads: true},
		{who: "the watcher of seat 1", token: w.Token},
		{who: "a spectator", token: e.newPlayer("sam").Token},
		{who: "seat 0 again", token: ps[0].Token, reads: true},
	}
	for _, f := range fs {
		f.c = e.openStream(id, f.token, "", "")
		defer f.c.close()
	}
	eventsAfter := func(token string, after int) []json.RawMessage {
		t.Helper()
		var page struct {
			Events []json.RawMessage `json:"events"`
			More   bool              `json:"more"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/events?after=%d", id, after), Token: token}).Decode(t, &page)
		if page.More {
			t.Fatalf("more than a page of events after %d", after)
		}
		return page.Events
	}
	// A stream compared with /events at the same version: the same
	// events, byte for byte once compacted.
	same := func(step int, f *follower, got []sseEvent, want []json.RawMessage) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("step %d, %s: the stream sent versions %v, /events shows %d events", step, f.who, ids(got), len(want))
		}
		for i := range got {
			if !bytes.Equal(compact(t, []byte(got[i].data)), compact(t, want[i])) {
				t.Fatalf("step %d, %s: the stream's event %d is\n%s\n/events shows\n%s", step, f.who, got[i].id, got[i].data, want[i])
			}
		}
	}
	prev := e.view(id, ps[0].Token).Version
	for _, f := range fs {
		f.c.lastTurn(f.who, prev)
		same(0, f, f.c.snapshotAfter(0), eventsAfter(f.token, 0))
	}
	ends := 0
	for step := 1; step <= 80; step++ {
		e.step(id, ps)
		v := e.view(id, ps[0].Token).Version
		for _, f := range fs {
			// The turn message follows the events of its version.
			f.c.lastTurn(f.who, v)
			same(step, f, f.c.snapshotAfter(prev), eventsAfter(f.token, prev))
		}
		for _, ev := range fs[0].c.snapshotAfter(prev) {
			if ev.typ == "HandSettled" || ev.typ == "DealVoided" {
				ends++
			}
		}
		prev = v
	}
	if ends < 2 {
		t.Fatalf("%d deals ended in 80 steps: the test saw too few of them to tell the viewers apart", ends)
	}
	// The events sent again as deals ended are what /events shows now.
	for _, f := range fs {
		f.c.mu.Lock()
		revealed := append([]sseEvent(nil), f.c.revealed...)
		f.c.mu.Unlock()
		if !f.reads {
			if len(revealed) > 0 {
				t.Fatalf("%s, who may not read ended deals, was sent %d events again", f.who, len(revealed))
			}
			continue
		}
		if len(revealed) == 0 {
			t.Fatalf("%s was sent no event again though %d deals ended", f.who, ends)
		}
		byVersion := map[int][]byte{}
		for _, raw := range eventsAfter(f.token, 0) {
			var head struct {
				Version int `json:"version"`
			}
			mustUnmarshal(t, raw, &head)
			byVersion[head.Version] = raw
		}
		for _, ev := range revealed {
			var head struct {
				Version int `json:"version"`
			}
			mustUnmarshal(t, []byte(ev.data), &head)
			if want, ok := byVersion[head.Version]; !ok || !bytes.Equal(compact(t, []byte(ev.data)), compact(t, want)) {
				t.Fatalf("%s: event %d sent again as\n%s\nnot as /events shows it", f.who, head.Version, ev.data)
			}
		}
	}
}
