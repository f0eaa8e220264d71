package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/internal/app"
	"paiju/internal/app/apptest"
	"paiju/internal/race"
	"paiju/internal/testclock"
	"paiju/service"
)

const auditorToken = "auditor-secret-token"

// env is one real server, as apptest starts it (a SQLite store in a temp
// dir, embedded NATS, the relay, the projections, the real games and the
// HTTP API on a loopback port), and a client of its API.
type env struct {
	t     *testing.T
	store store
	c     *apitest.Client
	rng   *rand.Rand
	// clock is the server's clock: it stands still unless a test moves it
	// (nil on a server on the system's clock).
	clock *testclock.Clock
	// svc is the table service behind the server. The server leaves the
	// turn clocks and bots to the tests, which run them by hand (RunDue).
	svc *service.Service
	// names counts the players newPlayer registered under each name asked
	// for: names are unique on a server, and a registration refused as
	// taken still counts toward the registrations an address may make.
	names   map[string]int
	namesMu sync.Mutex // some tests register players side by side
}

// store is what the tests read of the server's store: the log, and the
// room codes kept beside it.
type store interface {
	eventstore.Store
	RoomByCode(ctx context.Context, code string) (eventstore.Room, error)
	RoomOfTable(ctx context.Context, tableID string) (eventstore.Room, error)
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
	clock := testclock.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	e, _ := start(t, seed, clock, app.Config{BotDelay: think}, opt)
	return e
}

// start starts the real server configured by cfg with the test's inputs:
// deal seeds derived from seed, tables named T0001, T0002..., players
// P0001, P0002..., clock (nil: the system's) for the service and the
// store, and the turn clocks and bots left to the test. opt adjusts the
// API's dependencies last, over the real ones.
func start(t *testing.T, seed uint64, clock *testclock.Clock, cfg app.Config, opt func(*api.Deps)) (*env, *apptest.Server) {
	t.Helper()
	var ids, pids atomic.Int64
	cfg.AuditorToken = auditorToken
	cfg.Inputs = app.Inputs{
		Seeds:       &seqSeeds{base: seed},
		TableIDs:    idFunc(func() string { return fmt.Sprintf("T%04d", ids.Add(1)) }),
		PlayerIDs:   func() string { return fmt.Sprintf("P%04d", pids.Add(1)) },
		ManualClock: true,
		API:         opt,
	}
	if clock != nil {
		// The store records by the same clock: deadlines count from
		// recorded times.
		cfg.Inputs.Clock = clock
	}
	s := apptest.New(t, cfg)
	e := &env{t: t, store: s.Store().(store), c: apitest.New(t, s.URL), rng: rand.New(rand.NewPCG(seed, 7)), clock: clock, svc: s.Service()}
	return e, s
}

type idFunc func() string

func (f idFunc) NewID() string { return f() }

type player struct {
	ID, Name, Token string
}

// newPlayer registers a player named name, or, when another player of the
// env holds the name already (names are unique), name with a number after
// it: tests name players by their role and may register two of one role.
func (e *env) newPlayer(name string) player {
	e.t.Helper()
	e.namesMu.Lock()
	if e.names == nil {
		e.names = map[string]int{}
	}
	e.names[name]++
	n := e.names[name]
	e.namesMu.Unlock()
	asked := name
	if n > 1 {
		asked = fmt.Sprintf("%s %d", name, n)
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": asked}})
	// A name a player registered otherwise (not by newPlayer) holds.
	for n++; r.Status == http.StatusConflict && r.Problem(e.t) == "name_taken"; n++ {
		r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": fmt.Sprintf("%s %d", name, n)}})
	}
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
	Private    bool   `json:"private"`
	RoomCode   string `json:"room_code"`
	Spectators string `json:"spectators"`
	Watchers   bool   `json:"watchers"`
	Closed     bool   `json:"closed"`
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

// crawlerSkipsUnderRace skips, under the race detector, a test that is one
// client's sequence of requests: a crawler of the rules, the views and the
// hidden information playing whole games turn by turn, a table option's or
// a tournament's flow played out, a schema checked. Its work is all in the
// test's own goroutine and the request it waits on. make test runs it in
// full in its pass without -race; the race pass keeps the tests that run
// things side by side (streams, clocks, bots, the projections' feeds).
func crawlerSkipsUnderRace(t *testing.T) {
	t.Helper()
	if race.Enabled {
		t.Skip("one client's sequence of requests: runs in full in make test's pass without -race")
	}
}
