package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/projections"
	"paiju/service"
)

// The tests in this file run the API against in-memory fakes of the
// interfaces it declares (Projections, Live, Exporter), so that what the
// HTTP layer does with a read model, a live feed or an exporter is tested
// apart from SQLite and NATS. The real adapters are tested end to end in
// projections_test.go, stream_test.go and export_test.go.

// fakeReadModel is an in-memory hand history and leaderboard.
type fakeReadModel struct {
	mu       sync.Mutex
	hands    map[string]projections.Hand
	playing  map[string]bool // hands still in progress
	board    projections.Leaderboard
	queries  []projections.LeaderboardQuery
	position int64 // every projection has applied up to here
	calls    int
}

func (f *fakeReadModel) called() {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
}

func (f *fakeReadModel) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *fakeReadModel) Hand(_ context.Context, id string) (projections.Hand, error) {
	f.called()
	if f.playing[id] {
		return projections.Hand{}, projections.ErrHandInProgress
	}
	h, ok := f.hands[id]
	if !ok {
		return projections.Hand{}, projections.ErrNotFound
	}
	return h, nil
}

// TableHands pages the table's hands by hand number, one cursor per page.
func (f *fakeReadModel) TableHands(_ context.Context, tableID, cursor string, limit int) (projections.HandPage, error) {
	f.called()
	after, err := projections.DecodeCursor(cursor)
	if err != nil {
		return projections.HandPage{}, err
	}
	limit, err = projections.ClampLimit(limit)
	if err != nil {
		return projections.HandPage{}, err
	}
	p := projections.HandPage{Hands: []projections.HandSummary{}}
	for n := int(after) + 1; ; n++ {
		h, ok := f.hands[projections.HandID(tableID, n)]
		if !ok {
			break
		}
		if len(p.Hands) == limit {
			p.Next = projections.EncodeCursor(int64(n - 1))
			break
		}
		p.Hands = append(p.Hands, projections.HandSummary{HandID: h.HandID, TableID: h.TableID, Hand: h.Hand, Game: h.Game,
			Variant: h.Variant, Deltas: h.Deltas, SettledAt: h.SettledAt, SettledPosition: h.SettledPosition})
	}
	return p, nil
}

func (f *fakeReadModel) PlayerHands(context.Context, string, string, int) (projections.HandPage, error) {
	f.called()
	return projections.HandPage{Hands: []projections.HandSummary{}}, nil
}

func (f *fakeReadModel) Leaderboard(_ context.Context, q projections.LeaderboardQuery) (projections.Leaderboard, error) {
	f.called()
	f.mu.Lock()
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	if q.Game != f.board.Game {
		return projections.Leaderboard{}, projections.ErrNotFound
	}
	return f.board, nil
}

func (f *fakeReadModel) Player(context.Context, string) (projections.PlayerStats, error) {
	f.called()
	return projections.PlayerStats{}, projections.ErrNotFound
}

func (f *fakeReadModel) Status(context.Context) (projections.Status, error) {
	f.called()
	s := projections.Status{Head: f.position, Projections: []projections.ProjectionStatus{}}
	for _, n := range projections.Names {
		s.Projections = append(s.Projections, projections.ProjectionStatus{Name: n, Position: f.position})
	}
	return s, nil
}

// WaitFor answers at once: the fake is either there or lagging for good.
func (f *fakeReadModel) WaitFor(_ context.Context, pos int64, _ time.Duration) error {
	f.called()
	if pos > f.position {
		return fmt.Errorf("%w: position %d", projections.ErrLagging, pos)
	}
	return nil
}

// fakeHand is a finished two-seat hand of table tableID.
func fakeHand(tableID string, n int) projections.Hand {
	at := time.Date(2026, 11, 29, 12, n, 0, 0, time.UTC)
	return projections.Hand{
		HandID: projections.HandID(tableID, n), TableID: tableID, Hand: n, Game: "doudizhu", Variant: "classic",
		Seats: []projections.Seat{{Seat: 0, PlayerID: "A", Name: "a"}, {Seat: 1, PlayerID: "B", Name: "b"}},
		Deals: []projections.Deal{}, Events: []projections.HandEvent{},
		Result: json.RawMessage(`{"end":"played_out","landlord":0,"winner":"landlord","bid":1,"multiplier":1,"spring":false,"anti_spring":false,"cards_left":[0,5]}`), Deltas: []int{n, -n},
		StartedAt: at, SettledAt: at.Add(time.Minute), SettledPosition: int64(10 * n),
	}
}

// newFakeReadModel holds three finished hands of table tableID and a fourth
// in play.
func newFakeReadModel(tableID string) *fakeReadModel {
	f := &fakeReadModel{
		hands:    map[string]projections.Hand{},
		playing:  map[string]bool{tableID + "-4": true},
		position: 30,
		board: projections.Leaderboard{Game: "doudizhu", Period: projections.PeriodAll, TimeZone: "UTC",
			Rows: []projections.Row{{Rank: 1, PlayerID: "A", Name: "a", Score: 6, Hands: 3, Wins: 3, Title: projections.Title(6)}}},
	}
	for n := 1; n <= 3; n++ {
		h := fakeHand(tableID, n)
		f.hands[h.HandID] = h
	}
	return f
}

// TestProjectionRoutesOverAFakeReadModel: the read routes serve what the read
// model returns, map its errors to their problems, check limit and
// min_position before asking it, and pass the leaderboard query through.
func TestProjectionRoutesOverAFakeReadModel(t *testing.T) {
	rm := newFakeReadModel("T0001")
	e := newEnvWith(t, 1, func(d *api.Deps) { d.Projections = rm })
	// The table the fake's hands belong to exists in the store (its first
	// hand is being played there, whatever the fake says). The auditor
	// reads: this test is about routing and error mapping (the visibility
	// policy has its own test, TestVisibilityPolicy).
	if id, _ := e.openFull(); id != "T0001" {
		t.Fatalf("opened table %s, the fake holds T0001's hands", id)
	}
	tok := auditorToken

	cases := []struct {
		name, path string
		status     int
		code       string // the problem's, for an error
		asks       bool   // whether the read model is asked at all
	}{
		{"a finished hand", "/v1/hands/T0001-2", http.StatusOK, "", true},
		{"a hand in play (a hand's cards are hidden until it is over)", "/v1/hands/T0001-4", http.StatusConflict, "hand_in_progress", true},
		{"an unknown hand", "/v1/hands/T0001-8", http.StatusNotFound, "not_found", true},
		{"a table's hands", "/v1/tables/T0001/hands?limit=2", http.StatusOK, "", true},
		{"a cursor the server did not issue", "/v1/tables/T0001/hands?cursor=x", http.StatusBadRequest, "invalid_cursor", true},
		{"a limit above the maximum", fmt.Sprintf("/v1/tables/T0001/hands?limit=%d", projections.MaxLimit+1), http.StatusBadRequest, "invalid_query", false},
		{"a limit of 0", "/v1/players/A/hands?limit=0", http.StatusBadRequest, "invalid_query", false},
		{"a negative min_position", "/v1/hands/T0001-2?min_position=-1", http.StatusBadRequest, "invalid_query", false},
		{"a projected min_position", "/v1/hands/T0001-2?min_position=30", http.StatusOK, "", true},
		{"a min_position not projected yet", "/v1/hands/T0001-2?min_position=31", http.StatusServiceUnavailable, "projection_lagging", true},
		{"an unknown player", "/v1/players/Z", http.StatusNotFound, "player_not_found", false},
		{"an unknown game's leaderboard", "/v1/leaderboards/mahjong", http.StatusNotFound, "game_not_found", false},
		{"a leaderboard", "/v1/leaderboards/doudizhu", http.StatusOK, "", true},
		{"the projections' progress", "/v1/projections", http.StatusOK, "", true},
	}
	for _, c := range cases {
		before := rm.count()
		// Raw: some of the requests break the query's schema on purpose.
		r := e.c.Do(apitest.Request{Method: "GET", Path: c.path, Token: tok, Raw: c.status == http.StatusBadRequest})
		if r.Status != c.status {
			t.Errorf("%s: GET %s = %d %s, want %d", c.name, c.path, r.Status, r.Body, c.status)
			continue
		}
		if c.code != "" {
			if got := r.Problem(t); got != c.code {
				t.Errorf("%s: GET %s: code %s, want %s", c.name, c.path, got, c.code)
			}
		}
		if asked := rm.count() > before; asked != c.asks {
			t.Errorf("%s: GET %s asked the read model: %v, want %v", c.name, c.path, asked, c.asks)
		}
		if c.code == "projection_lagging" && r.Header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", c.name)
		}
	}

	// The hand is served as the read model has it.
	var h projections.Hand
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/hands/T0001-2", Token: tok}).Decode(t, &h)
	if want := rm.hands["T0001-2"]; h.HandID != want.HandID || fmt.Sprint(h.Deltas) != fmt.Sprint(want.Deltas) || !h.SettledAt.Equal(want.SettledAt) {
		t.Errorf("hand T0001-2 served as %+v, the read model has %+v", h, want)
	}
	// Pages follow the read model's cursors to the end.
	var seen []string
	cursor := ""
	for range 5 {
		var p projections.HandPage
		e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/T0001/hands?limit=2&cursor=" + cursor, Token: tok}).Decode(t, &p)
		for _, s := range p.Hands {
			seen = append(seen, s.HandID)
		}
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	if got := strings.Join(seen, " "); got != "T0001-1 T0001-2 T0001-3" {
		t.Errorf("paging T0001's hands by 2 gave %s, want T0001-1 T0001-2 T0001-3", got)
	}
	// The leaderboard query reaches the read model as asked.
	rm.mu.Lock()
	rm.queries = nil
	rm.mu.Unlock()
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/leaderboards/doudizhu?variant=classic&period=week&limit=7&around=A", Token: tok})
	want := projections.LeaderboardQuery{Game: "doudizhu", Variant: "classic", Period: "week", Limit: 7, Around: "A"}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if len(rm.queries) != 1 || rm.queries[0] != want {
		t.Errorf("leaderboard queries %+v, want [%+v]", rm.queries, want)
	}
}

// TestProjectionRoutesWithoutReadModel: a server without projections says so.
func TestProjectionRoutesWithoutReadModel(t *testing.T) {
	e := newEnvWith(t, 1, func(d *api.Deps) { d.Projections, d.Directory = nil, nil })
	// The auditor: this test is about routing and error mapping, and the
	// fake's table T9 has no players in the store (the visibility policy has
	// its own test, TestVisibilityPolicy).
	tok := auditorToken
	for _, path := range []string{"/v1/hands/T9-2", "/v1/tables/T9/hands", "/v1/players/A/hands", "/v1/players/A", "/v1/leaderboards/doudizhu", "/v1/projections"} {
		r := e.c.Do(apitest.Request{Method: "GET", Path: path, Token: tok})
		if r.Status != http.StatusServiceUnavailable || r.Problem(t) != "projections_unavailable" {
			t.Errorf("GET %s without projections: %d %s, want 503 projections_unavailable", path, r.Status, r.Body)
		}
	}
}

// fakeLive is an in-memory live feed: the test announces versions itself.
type fakeLive struct {
	mu       sync.Mutex
	watchers map[string][]func(int)
	watched  chan string   // each Watch's table id
	stopped  chan struct{} // one send per stop
}

func newFakeLive() *fakeLive {
	return &fakeLive{watchers: map[string][]func(int){}, watched: make(chan string, 8), stopped: make(chan struct{}, 8)}
}

func (f *fakeLive) Watch(tableID string, notify func(int)) (func(), error) {
	f.mu.Lock()
	f.watchers[tableID] = append(f.watchers[tableID], notify)
	f.mu.Unlock()
	f.watched <- tableID
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			delete(f.watchers, tableID)
			f.mu.Unlock()
			f.stopped <- struct{}{}
		})
	}, nil
}

// announce tells the table's watchers that version was committed.
func (f *fakeLive) announce(tableID string, version int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, n := range f.watchers[tableID] {
		n(version)
	}
}

// receive waits for a value from ch, failing the test if none comes.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("no %s in 20 s", what)
		panic("unreachable")
	}
}

// TestStreamOverAFakeLiveFeed: /stream watches the table before catching
// up, sends the events past the last sent each time the feed announces a
// version, and stops watching when the client goes.
func TestStreamOverAFakeLiveFeed(t *testing.T) {
	live := newFakeLive()
	e := newEnvWith(t, 3, func(d *api.Deps) {
		d.Live = live
		d.Heartbeat = time.Hour // only the feed wakes the stream
	})
	id, ps := e.openFull()
	v := e.view(id, ps[0].Token).Version
	// The auditor sees every event, so the stream's ids are 1, 2, 3...
	s := e.openStream(id, auditorToken, "", "")
	t.Cleanup(s.close) // before the server closes, which waits for streams
	if got := receive(t, live.watched, "Watch"); got != id {
		t.Fatalf("the stream watches table %s, want %s", got, id)
	}
	s.waitFor("catch-up", v)

	cr := e.step(id, ps)
	live.announce(id, cr.Version)
	evs := s.waitFor("after the announcement", cr.Version)
	for i, ev := range evs {
		if ev.id != i+1 {
			t.Fatalf("event %d of the stream has id %d: the stream has a gap or a duplicate", i+1, ev.id)
		}
	}
	// An announcement of what was already sent sends nothing new, and one
	// that arrives late is harmless.
	live.announce(id, cr.Version)
	live.announce(id, 1)
	cr = e.step(id, ps)
	live.announce(id, cr.Version)
	evs = s.waitFor("after the second announcement", cr.Version)
	if n := len(evs); n != cr.Version {
		t.Fatalf("the stream sent %d events for %d versions", n, cr.Version)
	}
	s.close()
	receive(t, live.stopped, "stop after the client left")
}

// TestStreamWithoutLiveFeed: a server without a live feed says so.
func TestStreamWithoutLiveFeed(t *testing.T) {
	e := newEnvWith(t, 1, func(d *api.Deps) { d.Live = nil })
	id, ps := e.openFull()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/stream", Token: ps[0].Token})
	if r.Status != http.StatusServiceUnavailable || r.Problem(t) != "live_unavailable" {
		t.Fatalf("stream without a live feed: %d %s, want 503 live_unavailable", r.Status, r.Body)
	}
}

// fakeExporter writes one line naming how many events it was given.
type fakeExporter struct {
	mu    sync.Mutex
	calls int
}

func (f *fakeExporter) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *fakeExporter) ContentType() string { return "text/plain" }

func (f *fakeExporter) WriteExport(w io.Writer, raw *service.Raw, n int, _ time.Time) error {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	if n > len(raw.Stored) {
		return errors.New("more events than stored")
	}
	_, err := fmt.Fprintf(w, "%d of %d\n", n, len(raw.Stored))
	return err
}

// TestExportThroughAFakeExporter: /export decides who gets how much of the
// log (the auditor all of it, a seated player the deals that ended) and
// hands exactly that to the exporter.
func TestExportThroughAFakeExporter(t *testing.T) {
	ex := &fakeExporter{}
	e := newEnvWith(t, 5, func(d *api.Deps) { d.Exporter = ex })
	id, ps := e.openFull()
	e.playHand(id, ps)
	e.step(id, ps) // into the second hand: its events stay out of a player's export
	total := e.view(id, ps[0].Token).Version
	raw := e.c.Unchecked()

	r := raw.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/export", Token: auditorToken})
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/plain" {
		t.Fatalf("auditor export: %d %q %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	if want := fmt.Sprintf("%d of %d\n", total, total); string(r.Body) != want {
		t.Fatalf("auditor export %q, want %q: the auditor gets the whole log", r.Body, want)
	}
	r = raw.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/export", Token: ps[1].Token})
	var n, of int
	if _, err := fmt.Sscanf(string(r.Body), "%d of %d\n", &n, &of); err != nil || r.Status != http.StatusOK {
		t.Fatalf("player export: %d %q (%v)", r.Status, r.Body, err)
	}
	if of != total || n >= total || n < 1 {
		t.Fatalf("player export of %d events out of %d: a player gets the log up to the running deal (AUDIT.md)", n, of)
	}
	if r.Header.Get("ETag") != fmt.Sprintf("%q", fmt.Sprint(n)) {
		t.Errorf("player export ETag %s, want the %d events it holds", r.Header.Get("ETag"), n)
	}
	stranger := e.newPlayer("stranger")
	calls := ex.count()
	r = e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/export", Token: stranger.Token})
	if r.Status != http.StatusForbidden || r.Problem(t) != "export_not_seated" || ex.count() != calls {
		t.Fatalf("stranger export: %d %s (exporter called %d times), want 403 export_not_seated without exporting", r.Status, r.Body, ex.count()-calls)
	}
}

// TestExportWithoutExporter: a server without an exporter says so.
func TestExportWithoutExporter(t *testing.T) {
	e := newEnvWith(t, 1, func(d *api.Deps) { d.Exporter = nil })
	id, ps := e.openFull()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/export", Token: ps[0].Token})
	if r.Status != http.StatusServiceUnavailable || r.Problem(t) != "export_unavailable" {
		t.Fatalf("export without an exporter: %d %s, want 503 export_unavailable", r.Status, r.Body)
	}
}
