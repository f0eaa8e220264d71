package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/eventstore"
	"paiju/internal/app"
	"paiju/natsbus"
	"paiju/projections"
	psqlite "paiju/projections/sqlite"
)

// projEnv is an env whose server projects nothing itself: the test runs
// the projections' runner beside it, as paiju project does, on the
// server's projection database, and can stop it and start it again.
type projEnv struct {
	*env
	pdb    *psqlite.DB
	js     jetstream.JetStream
	ctx    context.Context
	stopFn context.CancelFunc
	done   chan struct{}
	// consumers are the durable consumers the runner reads.
	consumers []string
}

func newProjEnv(t *testing.T, seed uint64) *projEnv {
	t.Helper()
	e, s := start(t, seed, nil, app.Config{Projector: "external"}, func(*api.Deps) {})
	ctx, cancel := context.WithCancel(context.Background())
	pdb, err := psqlite.Open(ctx, s.Config.ProjectionsPath(), psqlite.Options{Rater: app.Rater()})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	pe := &projEnv{env: e, pdb: pdb, js: s.JetStream(), ctx: ctx}
	pe.start()
	// Before the server stops (cleanups run last registered first).
	t.Cleanup(func() {
		pe.stop()
		cancel()
		pdb.Close()
	})
	return pe
}

// start runs the projections' runner with no direct access to the log:
// everything it applies comes from NATS.
func (p *projEnv) start() { p.startWith(nil) }

// startWith runs the runner with src to fill gaps from.
func (p *projEnv) startWith(src projections.Source) {
	p.startFeed(projections.Feed{Store: p.pdb, Log: src})
}

// startFeed runs the runner over pr, as paiju serve does with the
// embedded NATS: no leases, so one consumer for every projection.
func (p *projEnv) startFeed(pr natsbus.Projector) {
	ctx, cancel := context.WithCancel(p.ctx)
	p.stopFn, p.done = cancel, make(chan struct{})
	r := &natsbus.ProjectionFeed{Projector: pr, JS: p.js, Names: projections.Names, FetchWait: 50 * time.Millisecond}
	p.consumers = r.Consumers()
	go func() { defer close(p.done); _ = r.Run(ctx) }()
}

func (p *projEnv) stop() {
	if p.stopFn != nil {
		p.stopFn()
		<-p.done
		p.stopFn = nil
	}
}

// get reads a projection route as tok after waiting for the log's head.
func (p *projEnv) get(path, tok string) *apitest.Response {
	p.t.Helper()
	sep := "?"
	if bytes.ContainsRune([]byte(path), '?') {
		sep = "&"
	}
	return p.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("%s%smin_position=%d", path, sep, p.head()), Token: tok})
}

// snapshot reads every projection route the test compares, as bodies.
func (p *projEnv) snapshot(tid string, ps []player, hands int) map[string]string {
	p.t.Helper()
	paths := []string{
		"/v1/tables/" + tid + "/hands",
		"/v1/tables/" + tid + "/hands?limit=1",
		"/v1/players/" + ps[0].ID + "/hands",
		"/v1/players/" + ps[1].ID,
		"/v1/leaderboards/doudizhu",
		"/v1/leaderboards/doudizhu?variant=classic&period=day",
		"/v1/leaderboards/doudizhu?period=month&around=" + ps[2].ID + "&limit=1",
		"/v1/tables",
		"/v1/me/tables",
	}
	for h := 1; h <= hands; h++ {
		paths = append(paths, fmt.Sprintf("/v1/hands/%s-%d", tid, h))
	}
	out := map[string]string{}
	for _, path := range paths {
		r := p.get(path, ps[0].Token)
		if r.Status != http.StatusOK {
			p.t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
		}
		out[path] = string(r.Body)
	}
	return out
}

func TestProjectionsHandsAndLeaderboards(t *testing.T) {
	p := newProjEnv(t, 77)
	tid, ps := p.openFull()
	var settled [][]int
	for range 3 {
		s := p.playHand(tid, ps)
		settled = append(settled, s.Deltas)
	}

	// A hand in progress is not served: its record holds every seat's cards.
	r := p.get(fmt.Sprintf("/v1/hands/%s-%d", tid, 4), ps[0].Token)
	if r.Status != http.StatusConflict && r.Status != http.StatusNotFound {
		t.Fatalf("hand in progress: %d %s, want 409 or 404", r.Status, r.Body)
	}
	if r.Status == http.StatusConflict {
		if code := r.Problem(t); code != "hand_in_progress" {
			t.Fatalf("hand in progress: code %s", code)
		}
	}

	live := p.snapshot(tid, ps, 3)
	var h projections.Hand
	if err := json.Unmarshal([]byte(live[fmt.Sprintf("/v1/hands/%s-2", tid)]), &h); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(h.Deltas) != fmt.Sprint(settled[1]) || h.Seed == "" || h.Commitment == "" || len(h.Deals) == 0 || len(h.Deals[0].Hands) == 0 {
		t.Fatalf("hand 2 record: deltas %v (want %v), seed %q, commitment %q, deals %d", h.Deltas, settled[1], h.Seed, h.Commitment, len(h.Deals))
	}
	if h.Events[0].Type != "HandDealt" || h.Events[len(h.Events)-1].Type != "HandSettled" {
		t.Fatalf("hand 2 events run from %s to %s, want HandDealt to HandSettled", h.Events[0].Type, h.Events[len(h.Events)-1].Type)
	}
	for i := 1; i < len(h.Events); i++ {
		if h.Events[i].Position <= h.Events[i-1].Position {
			t.Fatalf("hand 2 events out of order at %d", i)
		}
	}

	// Leaderboard scores are the sums of each player's deltas.
	lb, want := leaderboardOf(t, live, settled, ps)
	for i, row := range lb.Rows {
		if row.Score != want[row.PlayerID] || row.Hands != 3 || row.Rank != i+1 || row.Title != projections.Title(row.Score) {
			t.Fatalf("row %d: %+v, want score %d over 3 hands", i, row, want[row.PlayerID])
		}
		if i > 0 && row.Score > lb.Rows[i-1].Score {
			t.Fatalf("rows not ranked by score: %+v", lb.Rows)
		}
	}
	var page projections.HandPage
	if err := json.Unmarshal([]byte(live["/v1/tables/"+tid+"/hands?limit=1"]), &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Hands) != 1 || page.Next == "" {
		t.Fatalf("first page of 1: %+v", page)
	}
	seen := 1
	for page.Next != "" {
		r := p.get("/v1/tables/"+tid+"/hands?limit=1&cursor="+page.Next, ps[0].Token)
		page = projections.HandPage{}
		r.Decode(t, &page)
		seen += len(page.Hands)
	}
	if seen != 3 {
		t.Fatalf("paged through %d hands, want 3", seen)
	}
	if code := p.get("/v1/tables/"+tid+"/hands?cursor=xyz", ps[0].Token).Problem(t); code != "invalid_cursor" {
		t.Fatalf("bad cursor: %s", code)
	}

	// Duplicates: every event published again under fresh message ids (so
	// JetStream stores them twice) changes nothing.
	evs, err := p.store.ReadAll(context.Background(), 0, 10000)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		m := natsbus.NewMsg(natsbus.Subject("doudizhu", tid), ev)
		m.Header.Del(jetstream.MsgIDHeader)
		if _, err := p.js.PublishMsg(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	p.waitConsumed(t)
	assertSame(t, "after duplicates", live, p.snapshot(tid, ps, 3))

	// A runner stopped mid-stream catches up when started again.
	p.stop()
	p.playHand(tid, ps)
	p.start()
	after := p.snapshot(tid, ps, 4)

	// Rebuilt from position 0, reading the store: the same answers.
	for _, n := range projections.Names {
		if err := p.pdb.Replay(context.Background(), n, p.store); err != nil {
			t.Fatal(err)
		}
	}
	assertSame(t, "after replay", after, p.snapshot(tid, ps, 4))

	// A projection emptied while its consumer has moved on sees a gap in
	// what NATS delivers and fills it from the log.
	p.stop()
	if err := p.pdb.Reset(context.Background(), projections.Hands); err != nil {
		t.Fatal(err)
	}
	p.startWith(p.store)
	p.playHand(tid, ps)
	withFifth := p.snapshot(tid, ps, 5) // every hand 1..5 served
	var all projections.HandPage
	if err := json.Unmarshal([]byte(withFifth["/v1/tables/"+tid+"/hands"]), &all); err != nil {
		t.Fatal(err)
	}
	if len(all.Hands) != 5 {
		t.Fatalf("after filling the gap the table lists %d hands, want 5", len(all.Hands))
	}

	var st projections.Status
	p.get("/v1/projections", ps[0].Token).Decode(t, &st)
	for _, s := range st.Projections {
		if s.Lag != 0 || s.Position != st.Head {
			t.Fatalf("projection %s at %d, lag %d, head %d", s.Name, s.Position, s.Lag, st.Head)
		}
	}
}

// waitConsumed waits until the runner's consumers have nothing pending.
func (p *projEnv) waitConsumed(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for _, n := range p.consumers {
		for {
			c, err := p.js.Consumer(context.Background(), natsbus.StreamName, n)
			if err != nil {
				t.Fatal(err)
			}
			info, err := c.Info(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if info.NumPending == 0 && info.NumAckPending == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("consumer %s: %d pending, %d unacknowledged", n, info.NumPending, info.NumAckPending)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func assertSame(t *testing.T, when string, want, got map[string]string) {
	t.Helper()
	for path, w := range want {
		if got[path] != w {
			t.Fatalf("%s: GET %s changed:\nwas %s\nnow %s", when, path, w, got[path])
		}
	}
}

func TestProjectionsLagging(t *testing.T) {
	p := newProjEnv(t, 5)
	tid, ps := p.openFull()
	r := p.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/hands?min_position=%d", tid, p.head()+1000), Token: ps[0].Token})
	if r.Status != http.StatusServiceUnavailable || r.Problem(t) != "projection_lagging" {
		t.Fatalf("unreachable min_position: %d %s", r.Status, r.Body)
	}
	if code := p.get("/v1/hands/"+tid+"-99", ps[0].Token).Problem(t); code != "not_found" {
		t.Fatalf("unknown hand: %s", code)
	}
	// The spec itself refuses the period, so the request goes unchecked.
	r = p.c.Unchecked().Do(apitest.Request{Method: "GET", Path: "/v1/leaderboards/doudizhu?period=year", Token: ps[0].Token})
	if r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_query" {
		t.Fatalf("bad period: %d %s", r.Status, r.Body)
	}
}

// TestProjectionsTwoGames: hands of 斗地主 and 牛牛 land each in its game's
// leaderboard, hand history and players' totals.
func TestProjectionsTwoGames(t *testing.T) {
	p := newProjEnv(t, 31)
	tid, ps := p.openFull()
	d := p.playHand(tid, ps)

	nid, nps := p.openTable(map[string]any{"game": "niuniu", "variant": "classic", "options": map[string]any{"seats": 2}}, 2)
	var nd []int
	for step := 0; nd == nil && step < 50; step++ {
		for seat, pl := range nps {
			var choice map[string]any
			for _, a := range p.legal(nid, pl.Token) {
				if a["type"] != "escape" && a["type"] != "leave" && a["type"] != "delegate" {
					choice = a
					break
				}
			}
			if choice == nil {
				continue
			}
			r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + nid + "/actions", Token: pl.Token, Body: choice})
			if r.Status != http.StatusOK {
				t.Fatalf("niuniu seat %d %v: %d %s", seat, choice, r.Status, r.Body)
			}
			var cr commandResp
			r.Decode(t, &cr)
			for _, ev := range cr.Events {
				if ev.Type == "HandSettled" {
					nd = cr.Table.LastSettlement.Deltas
				}
			}
			if nd != nil {
				break
			}
		}
	}
	if nd == nil {
		t.Fatal("the 牛牛 hand did not settle")
	}

	for game, want := range map[string]map[string]int{
		"doudizhu": {ps[0].ID: d.Deltas[0], ps[1].ID: d.Deltas[1], ps[2].ID: d.Deltas[2]},
		"niuniu":   {nps[0].ID: nd[0], nps[1].ID: nd[1]},
	} {
		var lb projections.Leaderboard
		p.get("/v1/leaderboards/"+game, ps[0].Token).Decode(t, &lb)
		if len(lb.Rows) != len(want) {
			t.Fatalf("%s leaderboard has %d rows, want %d", game, len(lb.Rows), len(want))
		}
		for _, row := range lb.Rows {
			if row.Score != want[row.PlayerID] || row.Hands != 1 {
				t.Fatalf("%s leaderboard row %+v, want score %d over 1 hand", game, row, want[row.PlayerID])
			}
		}
	}
	if r := p.get(fmt.Sprintf("/v1/hands/%s-1", nid), nps[0].Token); r.Status != http.StatusOK {
		t.Fatalf("the 牛牛 hand's history: %d %s", r.Status, r.Body)
	}
	var st projections.PlayerStats
	p.get("/v1/players/"+nps[1].ID, nps[1].Token).Decode(t, &st)
	if len(st.Games) != 1 || st.Games[0].Game != "niuniu" || st.Games[0].Score != nd[1] {
		t.Fatalf("player totals %+v, want niuniu with score %d", st, nd[1])
	}
}

// TestProjectionsAnswerAsSpecified: the read routes answer what openapi.yaml
// says whether or not the projections have caught up: a running first hand
// is 409 hand_in_progress (never a 404 while the projection trails the
// store); a registered player who has not played is a player with no totals,
// an id nobody registered is 404; an unknown game's leaderboard and an
// unknown table's hands are 404, for the auditor too.
func TestProjectionsAnswerAsSpecified(t *testing.T) {
	p := newProjEnv(t, 21)
	tid, ps := p.openFull()
	newbie := p.newPlayer("newbie")
	hand1 := fmt.Sprintf("/v1/hands/%s-1", tid)
	// Straight away (the projection may not have the deal yet), then once it
	// has applied everything.
	for _, r := range []*apitest.Response{
		p.c.Do(apitest.Request{Method: "GET", Path: hand1, Token: ps[0].Token}),
		p.get(hand1, ps[0].Token),
		p.get(hand1, auditorToken),
	} {
		if r.Status != http.StatusConflict || r.Problem(t) != "hand_in_progress" {
			t.Fatalf("GET %s of the running first hand: %d %s, want 409 hand_in_progress", hand1, r.Status, r.Body)
		}
	}
	if r := p.get(fmt.Sprintf("/v1/hands/%s-2", tid), ps[0].Token); r.Status != http.StatusNotFound || r.Problem(t) != "not_found" {
		t.Fatalf("GET a hand not dealt yet: %d %s, want 404 not_found", r.Status, r.Body)
	}

	var stats projections.PlayerStats
	r := p.get("/v1/players/"+newbie.ID, newbie.Token)
	if r.Status != http.StatusOK {
		t.Fatalf("GET /v1/players/<registered, no hands>: %d %s, want 200", r.Status, r.Body)
	}
	r.Decode(t, &stats)
	if stats.PlayerID != newbie.ID || stats.Name != "newbie" || stats.Games == nil || len(stats.Games) != 0 {
		t.Fatalf("a registered player with no hands: %s, want their id and name and no games", r.Body)
	}
	if r := p.get("/v1/players/"+newbie.ID+"/hands", newbie.Token); r.Status != http.StatusOK || strings.TrimSpace(string(r.Body)) != `{"hands":[]}` {
		t.Fatalf("their hand history: %d %s, want 200 with no hands", r.Status, r.Body)
	}
	for _, c := range []struct{ path, tok, code string }{
		{"/v1/players/NOPE", ps[0].Token, "player_not_found"},
		{"/v1/players/NOPE/hands", auditorToken, "player_not_found"},
		{"/v1/leaderboards/mahjong", ps[0].Token, "game_not_found"},
		{"/v1/leaderboards/mahjong?period=day", auditorToken, "game_not_found"},
		{"/v1/tables/NOPE/hands", ps[0].Token, "table_not_found"},
		{"/v1/tables/NOPE/hands", auditorToken, "table_not_found"},
		{"/v1/hands/NOPE-1", auditorToken, "not_found"},
	} {
		if r := p.get(c.path, c.tok); r.Status != http.StatusNotFound || r.Problem(t) != c.code {
			t.Errorf("GET %s: %d %s, want 404 %s", c.path, r.Status, r.Body, c.code)
		}
	}
	if r := p.get("/v1/leaderboards/doudizhu", ps[0].Token); r.Status != http.StatusOK {
		t.Fatalf("a known game with no hands settled: %d %s, want 200", r.Status, r.Body)
	}
}

// countingStore counts the events each projection applies.
type countingStore struct {
	projections.Store
	mu      sync.Mutex
	applied map[string]int64
}

func (c *countingStore) ApplyBatch(ctx context.Context, name string, evs []eventstore.Event) (int, error) {
	n, err := c.Store.ApplyBatch(ctx, name, evs)
	c.mu.Lock()
	c.applied[name] += int64(n)
	c.mu.Unlock()
	return n, err
}

// failFirst fails the first batch projection name is given, before
// applying any of it.
type failFirst struct {
	projections.Feed
	name   string
	failed atomic.Bool
}

func (f *failFirst) Apply(ctx context.Context, name string, evs []eventstore.Event) error {
	if name == f.name && len(evs) > 0 && f.failed.CompareAndSwap(false, true) {
		return errors.New("the projection's database refused the batch")
	}
	return f.Feed.Apply(ctx, name, evs)
}

// ApplyAll applies the projections one at a time through Apply, so that the
// feed meets the failure (the embedded Feed's ApplyAll would not call it).
func (f *failFirst) ApplyAll(ctx context.Context, names []string, evs []eventstore.Event) error {
	var errs []error
	for _, n := range names {
		if err := f.Apply(ctx, n, evs); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// One consumer feeds the four projections. A batch that one of them fails
// is not acknowledged but delivered again, and every projection ends with
// every event applied exactly once: the ones that applied it the first time
// skip it. The runner reads no log here, so the failed projection can only
// get its batch again from JetStream. The reads over HTTP show all four
// current.
func TestProjectionsFeedRedeliversFailedBatch(t *testing.T) {
	p := newProjEnv(t, 78)
	p.stop()
	cs := &countingStore{Store: p.pdb, applied: map[string]int64{}}
	fp := &failFirst{Feed: projections.Feed{Store: cs}, name: projections.Leaderboards}
	p.startFeed(fp)

	tid, ps := p.openFull()
	var settled [][]int
	for range 2 {
		settled = append(settled, p.playHand(tid, ps).Deltas)
	}
	live := p.snapshot(tid, ps, 2)
	if !fp.failed.Load() {
		t.Fatal("no batch failed: the test tests nothing")
	}

	lb, want := leaderboardOf(t, live, settled, ps)
	for _, row := range lb.Rows {
		if row.Score != want[row.PlayerID] || row.Hands != 2 {
			t.Errorf("leaderboard row %+v, want score %d over 2 hands: the failed batch applied once", row, want[row.PlayerID])
		}
	}
	if !strings.Contains(live["/v1/tables"], tid) {
		t.Errorf("the directory does not list table %s: %s", tid, live["/v1/tables"])
	}

	var st projections.Status
	p.get("/v1/projections", ps[0].Token).Decode(t, &st)
	if len(st.Projections) != len(projections.Names) {
		t.Fatalf("/v1/projections lists %d projections, want %d", len(st.Projections), len(projections.Names))
	}
	for _, s := range st.Projections {
		if s.Lag != 0 || s.Position != st.Head {
			t.Errorf("projection %s at %d, lag %d, head %d", s.Name, s.Position, s.Lag, st.Head)
		}
	}
	p.waitConsumed(t)
	cs.mu.Lock()
	for _, n := range projections.Names {
		if got := cs.applied[n]; got != st.Head {
			t.Errorf("projection %s applied %d events, want each of the %d once", n, got, st.Head)
		}
	}
	cs.mu.Unlock()

	s, err := p.js.Stream(context.Background(), natsbus.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	var consumers []string
	for n := range s.ConsumerNames(context.Background()).Name() {
		consumers = append(consumers, n)
	}
	if len(consumers) != 1 || consumers[0] != natsbus.ProjectionsConsumer() {
		t.Errorf("consumers %v, want the one shared consumer %s", consumers, natsbus.ProjectionsConsumer())
	}
}

// leaderboardOf reads the 斗地主 leaderboard from live (its three rows) and
// each player's sum of the settled hands' deltas.
func leaderboardOf(t *testing.T, live map[string]string, settled [][]int, ps []player) (projections.Leaderboard, map[string]int) {
	t.Helper()
	var lb projections.Leaderboard
	if err := json.Unmarshal([]byte(live["/v1/leaderboards/doudizhu"]), &lb); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, d := range settled {
		for seat, v := range d {
			want[ps[seat].ID] += v
		}
	}
	if len(lb.Rows) != 3 {
		t.Fatalf("leaderboard rows %d, want 3", len(lb.Rows))
	}
	return lb, want
}
