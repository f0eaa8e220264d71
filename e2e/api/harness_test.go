package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/audit"
	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/internal/testclock"
	"paiju/service"
)

const auditorToken = "auditor-secret-token"

// env is one real server: a SQLite store in a temp dir, the table service with
// the real games, and the HTTP API on an httptest server.
type env struct {
	t     *testing.T
	store *sqlite.Store
	c     *apitest.Client
	rng   *rand.Rand
	// clock is the service's clock: it stands still unless a test moves it.
	clock *testclock.Clock
	// svc is the table service behind the server, for tests that run the
	// turn clock by hand (RunDue).
	svc *service.Service
}

// seqSeeds derives deal seeds from a test seed, so that a failing game
// reproduces.
type seqSeeds struct {
	base uint64
	n    atomic.Uint64
}

func (s *seqSeeds) NewSeed() (cards.Seed, error) {
	var seed cards.Seed
	r := rand.New(rand.NewPCG(s.base, s.n.Add(1)))
	for i := range seed {
		seed[i] = byte(r.Uint32())
	}
	return seed, nil
}

type players struct{ s *sqlite.Store }

func (p players) CreatePlayer(ctx context.Context, r api.PlayerRecord, first api.TokenRecord) error {
	return p.s.CreatePlayer(ctx, sqlite.Player(r), sqlite.Token(first))
}

func (p players) PlayerByID(ctx context.Context, id string) (api.PlayerRecord, error) {
	r, err := p.s.PlayerByID(ctx, id)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.PlayerRecord{}, api.ErrNoPlayer
	}
	return api.PlayerRecord(r), err
}

func (p players) RenamePlayer(ctx context.Context, id, name string) error {
	err := p.s.RenamePlayer(ctx, id, name)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.ErrNoPlayer
	}
	return err
}

func (p players) CreateToken(ctx context.Context, t api.TokenRecord) error {
	return p.s.CreateToken(ctx, sqlite.Token(t))
}

func (p players) TokenByHash(ctx context.Context, hash string) (api.PlayerRecord, api.TokenRecord, error) {
	r, t, err := p.s.TokenByHash(ctx, hash)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.PlayerRecord{}, api.TokenRecord{}, api.ErrNoPlayer
	}
	return api.PlayerRecord(r), api.TokenRecord(t), err
}

func (p players) TokenByID(ctx context.Context, id string) (api.TokenRecord, error) {
	t, err := p.s.TokenByID(ctx, id)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.TokenRecord{}, api.ErrNoToken
	}
	return api.TokenRecord(t), err
}

func (p players) Tokens(ctx context.Context, playerID string) ([]api.TokenRecord, error) {
	ts, err := p.s.Tokens(ctx, playerID)
	out := make([]api.TokenRecord, len(ts))
	for i, t := range ts {
		out[i] = api.TokenRecord(t)
	}
	return out, err
}

func (p players) RevokeToken(ctx context.Context, playerID, id string, at time.Time) (api.TokenRecord, error) {
	t, err := p.s.RevokeToken(ctx, playerID, id, at)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.TokenRecord{}, api.ErrNoToken
	}
	return api.TokenRecord(t), err
}

func (p players) TouchToken(ctx context.Context, id string, at time.Time) error {
	return p.s.TouchToken(ctx, id, at)
}

// rooms adapts the store's room codes to the API's.
type rooms struct{ s *sqlite.Store }

func (r rooms) CreateRoom(ctx context.Context, code, tableID string, at time.Time) error {
	err := r.s.CreateRoom(ctx, code, tableID, at)
	if errors.Is(err, eventstore.ErrExists) {
		return api.ErrRoomTaken
	}
	return err
}

func (r rooms) TakeOverRoom(ctx context.Context, code, oldTable, newTable string, at time.Time) error {
	err := r.s.TakeOverRoom(ctx, code, oldTable, newTable, at)
	switch {
	case errors.Is(err, eventstore.ErrNotFound):
		return api.ErrNoRoom
	case errors.Is(err, eventstore.ErrExists):
		return api.ErrRoomTaken
	}
	return err
}

func (r rooms) ReleaseRoom(ctx context.Context, code, tableID string) error {
	return r.s.ReleaseRoom(ctx, code, tableID)
}

func (r rooms) RoomByCode(ctx context.Context, code string) (api.RoomRecord, error) {
	room, err := r.s.RoomByCode(ctx, code)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.RoomRecord{}, api.ErrNoRoom
	}
	return api.RoomRecord(room), err
}

func (r rooms) RoomOfTable(ctx context.Context, tableID string) (api.RoomRecord, error) {
	room, err := r.s.RoomOfTable(ctx, tableID)
	if errors.Is(err, eventstore.ErrNotFound) {
		return api.RoomRecord{}, api.ErrNoRoom
	}
	return api.RoomRecord(room), err
}

func newEnv(t *testing.T, seed uint64) *env {
	t.Helper()
	return newEnvWith(t, seed, func(*api.Deps) {})
}

// newEnvWith is newEnv with the server's dependencies adjusted by opt.
func newEnvWith(t *testing.T, seed uint64, opt func(*api.Deps)) *env {
	t.Helper()
	return newEnvThinking(t, seed, 0, opt)
}

// newEnvThinking is newEnvWith with bots (and delegated seats) that wait
// think after their turn begins before they play (service.Config.ThinkDelay).
func newEnvThinking(t *testing.T, seed uint64, think time.Duration, opt func(*api.Deps)) *env {
	t.Helper()
	ctx := context.Background()
	clock := testclock.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	// The store records by the same clock: deadlines count from recorded times.
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "paiju.db"), sqlite.Options{Logger: slog.New(slog.DiscardHandler), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var ids atomic.Int64
	svc := service.New(service.Config{
		Store:      store,
		Games:      games.All(),
		Seeds:      &seqSeeds{base: seed},
		Clock:      clock,
		IDs:        idFunc(func() string { return fmt.Sprintf("T%04d", ids.Add(1)) }),
		ThinkDelay: think,
	})
	var pids atomic.Int64
	deps := api.Deps{
		Tables:       svc,
		Players:      players{store},
		Rooms:        rooms{store},
		AuditorToken: auditorToken,
		NewPlayerID:  func() string { return fmt.Sprintf("P%04d", pids.Add(1)) },
		Exporter:     audit.Exporter{},
	}
	opt(&deps)
	srv := httptest.NewServer(api.NewServer(deps))
	t.Cleanup(srv.Close)
	return &env{t: t, store: store, c: apitest.New(t, srv.URL), rng: rand.New(rand.NewPCG(seed, 7)), clock: clock, svc: svc}
}

type idFunc func() string

func (f idFunc) NewID() string { return f() }

type player struct {
	ID, Name, Token string
}

func (e *env) newPlayer(name string) player {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": name}})
	if r.Status != http.StatusCreated {
		e.t.Fatalf("create player: %d %s", r.Status, r.Body)
	}
	var p player
	r.Decode(e.t, &p)
	return p
}

// tableView mirrors the Table schema as far as the tests read it.
type tableView struct {
	ID             string             `json:"id"`
	Version        int                `json:"version"`
	Phase          string             `json:"phase"`
	Turn           *int               `json:"turn"`
	Seat           *int               `json:"seat"`
	HandNumber     int                `json:"hand_number"`
	Hand           []string           `json:"hand"`
	LastSettlement *table.HandSettled `json:"last_settlement"`
	Seats          []struct {
		Seat     int     `json:"seat"`
		PlayerID *string `json:"player_id"`
		Total    int     `json:"total"`
	} `json:"seats"`
	Private  bool   `json:"private"`
	RoomCode string `json:"room_code"`
}

type commandResp struct {
	Version int         `json:"version"`
	Events  []eventView `json:"events"`
	Table   tableView   `json:"table"`
}

type eventView struct {
	Version int            `json:"version"`
	Type    string         `json:"type"`
	Data    map[string]any `json:"data"`
}

// openFull opens a 斗地主 classic table at stake 2 and seats three new
// players; the first hand is dealt by the last join.
func (e *env) openFull() (string, []player) {
	e.t.Helper()
	return e.openTable(map[string]any{"game": "doudizhu", "variant": "classic", "stake": 2}, 3)
}

// openTable opens a table with the given request body and seats n new
// players in seats 0..n-1.
func (e *env) openTable(body map[string]any, n int) (string, []player) {
	e.t.Helper()
	var ps []player
	for i := range n {
		ps = append(ps, e.newPlayer(fmt.Sprintf("player%d", i)))
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ps[0].Token, Body: body})
	if r.Status != http.StatusCreated {
		e.t.Fatalf("open table: %d %s", r.Status, r.Body)
	}
	var tv tableView
	r.Decode(e.t, &tv)
	for i, p := range ps {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: p.Token, Body: map[string]any{"seat": i}})
		if r.Status != http.StatusOK {
			e.t.Fatalf("join seat %d: %d %s", i, r.Status, r.Body)
		}
	}
	return tv.ID, ps
}

func (e *env) view(id, token string) tableView {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token})
	if r.Status != http.StatusOK {
		e.t.Fatalf("get table: %d %s", r.Status, r.Body)
	}
	var v tableView
	r.Decode(e.t, &v)
	return v
}

// legal lists token's legal actions at table id for a test to choose from:
// every one when /legal lists them whole, and otherwise the card-less ones
// and the actions reached by a random walk over extend (legalChoices).
func (e *env) legal(id, token string) []map[string]any {
	e.t.Helper()
	return legalChoices(e.rng, func(selected string) legalPage {
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal?selected=" + selected, Token: token})
		if r.Status != http.StatusOK {
			e.t.Fatalf("legal with selected=%s: %d %s", selected, r.Status, r.Body)
		}
		var l legalPage
		r.Decode(e.t, &l)
		return l
	})
}

// legalPage is the body of /legal as the tests read it.
type legalPage struct {
	Version  int              `json:"version"`
	Actions  []map[string]any `json:"actions"`
	Complete bool             `json:"complete"`
	Selected []string         `json:"selected"`
	Extend   []string         `json:"extend"`
}

// legalChoices asks get for the legal actions with an empty selection and,
// while the answer is not complete, adds a random card of extend to the
// selection and asks again, until the answer is complete or lists a play
// of the selected cards (then it stops there or goes on, at random). The
// result is the card-less actions and the card actions of the last answer.
func legalChoices(rng *rand.Rand, get func(selected string) legalPage) []map[string]any {
	var sel []string
	for {
		l := get(strings.Join(sel, ","))
		if l.Complete || len(l.Extend) == 0 {
			return l.Actions
		}
		withCards := slices.ContainsFunc(l.Actions, func(a map[string]any) bool { return a["cards"] != nil })
		if withCards && rng.IntN(2) == 0 {
			return l.Actions
		}
		sel = append(sel, l.Extend[rng.IntN(len(l.Extend))])
	}
}

// step makes the seat to act take a random legal action other than escape and
// returns the command's response.
func (e *env) step(id string, ps []player) commandResp {
	e.t.Helper()
	v := e.view(id, ps[0].Token)
	if v.Turn == nil {
		e.t.Fatalf("no seat to act in phase %s", v.Phase)
	}
	p := ps[*v.Turn]
	var choices []map[string]any
	for _, a := range e.legal(id, p.Token) {
		if a["type"] != "escape" && a["type"] != "delegate" {
			choices = append(choices, a)
		}
	}
	if len(choices) == 0 {
		e.t.Fatalf("seat %d has no legal action in phase %s", *v.Turn, v.Phase)
	}
	a := choices[e.rng.IntN(len(choices))]
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: p.Token, Body: a})
	if r.Status != http.StatusOK {
		e.t.Fatalf("seat %d posting its legal action %v: %d %s", *v.Turn, a, r.Status, r.Body)
	}
	var cr commandResp
	r.Decode(e.t, &cr)
	// Awaited-Seats names the seat to act next, as the view does.
	if got := r.Header.Get("Awaited-Seats"); cr.Table.Turn != nil && got != fmt.Sprint(*cr.Table.Turn) {
		e.t.Fatalf("after seat %d played %v: Awaited-Seats %q, view's turn %d", *v.Turn, a, got, *cr.Table.Turn)
	}
	return cr
}

// playHand plays until the hand in progress settles; it returns the settlement.
func (e *env) playHand(id string, ps []player) table.HandSettled {
	e.t.Helper()
	start := e.view(id, ps[0].Token).HandNumber
	for range 500 {
		cr := e.step(id, ps)
		for _, ev := range cr.Events {
			if ev.Type == "HandSettled" && int(ev.Data["hand"].(float64)) == start {
				return *cr.Table.LastSettlement
			}
		}
	}
	e.t.Fatalf("hand %d did not end in 500 actions", start)
	return table.HandSettled{}
}

func (e *env) head() int64 {
	e.t.Helper()
	pos, _, err := e.store.Head(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return pos
}

// auditedEvent is one event of a table's whole stream as the auditor reads it.
type auditedEvent struct {
	Version int             `json:"version"`
	Type    string          `json:"type"`
	Data    json.RawMessage `json:"data"`
}

// auditorEvents is the whole stream of table id, hidden events included:
// what the hidden-information crawlers compare the seats' answers against.
func (e *env) auditorEvents(id string) []auditedEvent {
	e.t.Helper()
	var out []auditedEvent
	// The tests' own record of the truth, read again after every step: its
	// pages are the auditor's feed, whose shape the tests' other reads
	// check against openapi.yaml; checking the whole, ever longer feed at
	// every step would make long hands quadratic in schema checks.
	for _, raw := range e.eventsVia(e.c.Unchecked(), id, auditorToken) {
		var ev auditedEvent
		mustUnmarshal(e.t, raw, &ev)
		out = append(out, ev)
	}
	return out
}

// eventsSince reads the page of table id's events after version after as
// token, for the crawls that read a running deal's feed again at every
// step. Each event is checked against openapi.yaml's Event schema the first
// time its bytes are read, not at every read: checking the whole, ever
// longer feed at every step made long hands quadratic in schema checks. An
// event shown differently once its deal has ended is new bytes, checked
// again. The page itself is the package's other reads' to check.
func (e *env) eventsSince(id, token string, after int) *apitest.Response {
	e.t.Helper()
	r := e.c.Unchecked().Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/events?after=%d", id, after), Token: token})
	if r.Status != http.StatusOK {
		e.t.Fatalf("events after %d: %d %s", after, r.Status, r.Body)
	}
	var page struct {
		Events []json.RawMessage `json:"events"`
	}
	r.Decode(e.t, &page)
	for _, ev := range page.Events {
		e.c.CheckSchemaOnce("Event", ev)
	}
	return r
}

// tableGet is GET /v1/tables/{id}{path} as token, through eventsSince when
// path reads the events after a version: the crawls read each viewer's
// table, legal actions and the running deal's events at every step.
func (e *env) tableGet(id, path, token string) *apitest.Response {
	e.t.Helper()
	if q, ok := strings.CutPrefix(path, "/events?after="); ok {
		if after, err := strconv.Atoi(q); err == nil {
			return e.eventsSince(id, token, after)
		}
	}
	return e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + path, Token: token})
}

// allEvents reads every page of /events as token, following next while more
// events follow.
func (e *env) allEvents(id, token string) []json.RawMessage {
	e.t.Helper()
	return e.eventsVia(e.c, id, token)
}

// eventsVia is allEvents through client c.
func (e *env) eventsVia(c *apitest.Client, id, token string) []json.RawMessage {
	e.t.Helper()
	var out []json.RawMessage
	after := 0
	for {
		r := c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/events?after=%d", id, after), Token: token})
		if r.Status != http.StatusOK {
			e.t.Fatalf("events after %d: %d %s", after, r.Status, r.Body)
		}
		var page struct {
			Events []json.RawMessage `json:"events"`
			More   bool              `json:"more"`
			Next   int               `json:"next"`
		}
		r.Decode(e.t, &page)
		out = append(out, page.Events...)
		if !page.More {
			return out
		}
		after = page.Next
	}
}
