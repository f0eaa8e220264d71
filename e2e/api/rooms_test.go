package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/eventstore"
)

// roomOut mirrors the Room schema.
type roomOut struct {
	TableID   string `json:"table_id"`
	Game      string `json:"game"`
	Variant   string `json:"variant"`
	Stake     int    `json:"stake"`
	Seats     int    `json:"seats"`
	FreeSeats []int  `json:"free_seats"`
}

var roomCodeForm = regexp.MustCompile(`^[0-9]{6}$`)

func (e *env) openPrivate(pl player, body map[string]any) tableView {
	e.t.Helper()
	body["private"] = true
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: pl.Token, Body: body})
	if r.Status != http.StatusCreated {
		e.t.Fatalf("open a private table: %d %s", r.Status, r.Body)
	}
	var tv tableView
	r.Decode(e.t, &tv)
	if !tv.Private || !roomCodeForm.MatchString(tv.RoomCode) {
		e.t.Fatalf("a private table opened without a six-digit room code: %s", r.Body)
	}
	return tv
}

func (e *env) joinWith(pl player, id string, body map[string]any) *apitest.Response {
	e.t.Helper()
	return e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: pl.Token, Body: body})
}

// TestPrivateRoom: friends in a private room. The opener gets a room code;
// the lobby and quick play never show the table; the code finds it and
// joins it (and only the code); its players see the code, nobody else
// does, and the log holds none; when the table closes the code is free.
func TestPrivateRoom(t *testing.T) {
	p := newProjEnv(t, 51)
	ann, ben, cat, dan := p.newPlayer("ann"), p.newPlayer("ben"), p.newPlayer("cat"), p.newPlayer("dan")
	tv := p.openPrivate(ann, map[string]any{"game": "doudizhu", "variant": "classic", "max_hands": 1})
	id, code := tv.ID, tv.RoomCode
	if r := p.joinWith(ann, id, map[string]any{"room_code": code}); r.Status != http.StatusOK {
		t.Fatalf("the opener joins with the code: %d %s", r.Status, r.Body)
	}

	// Never listed, never offered by quick play, even to a player who
	// asks for exactly its kind.
	if ids := listingIDs(p.page("/v1/tables", dan.Token)); slices.Contains(ids, id) {
		t.Fatalf("the lobby lists the private table: %v", ids)
	}
	if st, q, _ := p.quick(dan, map[string]any{"game": "doudizhu", "variant": "classic"}, nil); st != http.StatusCreated || q.ID == id {
		t.Fatalf("quick play of the private table's kind: %d at %s, want a new table, not %s", st, q.ID, id)
	}
	if ids := listingIDs(p.page("/v1/me/tables", ann.Token)); !slices.Contains(ids, id) {
		t.Errorf("the opener's own tables %v miss the private table %s", ids, id)
	}

	// The code finds it.
	r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/rooms/" + code, Token: ben.Token})
	if r.Status != http.StatusOK {
		t.Fatalf("GET /v1/rooms/%s: %d %s", code, r.Status, r.Body)
	}
	var room roomOut
	r.Decode(t, &room)
	if room.TableID != id || room.Game != "doudizhu" || room.Variant != "classic" || room.Stake != 1 || room.Seats != 3 || !slices.Equal(room.FreeSeats, []int{1, 2}) {
		t.Errorf("room = %+v, want %s, doudizhu classic, stake 1, free seats 1 and 2", room, id)
	}

	// Joining needs the code, the right one.
	if r := p.joinWith(ben, id, map[string]any{}); r.Status != http.StatusForbidden || r.Problem(t) != "room_code_required" {
		t.Errorf("join without the code: %d %s, want 403 room_code_required", r.Status, r.Body)
	}
	wrong := fmt.Sprintf("%06d", (mustAtoi(t, code)+1)%1_000_000)
	if r := p.joinWith(ben, id, map[string]any{"room_code": wrong}); r.Status != http.StatusForbidden || r.Problem(t) != "room_code_wrong" {
		t.Errorf("join with a wrong code: %d %s, want 403 room_code_wrong", r.Status, r.Body)
	}
	for i, pl := range []player{ben, cat} {
		if r := p.joinWith(pl, id, map[string]any{"room_code": code, "seat": i + 1}); r.Status != http.StatusOK {
			t.Fatalf("%s joins with the code: %d %s", pl.Name, r.Status, r.Body)
		}
	}
	ps := []player{ann, ben, cat}

	// The players see the code; a spectator and the log do not.
	if got := p.view(id, ben.Token); got.RoomCode != code || !got.Private {
		t.Errorf("a seated player's view: room_code %q private %v, want %s", got.RoomCode, got.Private, code)
	}
	// A spectator watches a private table only with its code (in a
	// header, never the URL); then it sees no code in the view.
	for _, c := range []struct {
		header map[string]string
		code   string
	}{{nil, "room_code_required"}, {map[string]string{"Room-Code": wrong}, "room_code_wrong"}} {
		for _, path := range []string{"", "/events", "/legal", "/state?at=1"} {
			r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + path, Token: dan.Token, Header: c.header})
			if r.Status != http.StatusForbidden || r.Problem(t) != c.code {
				t.Errorf("a spectator GET %s with %v: %d %s, want 403 %s", path, c.header, r.Status, r.Body, c.code)
			}
		}
	}
	withCode := map[string]string{"Room-Code": code}
	r = p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: dan.Token, Header: withCode})
	var got tableView
	if r.Status != http.StatusOK {
		t.Fatalf("a spectator with the code: %d %s", r.Status, r.Body)
	}
	r.Decode(t, &got)
	if got.RoomCode != "" || !got.Private || got.Seat != nil {
		t.Errorf("a spectator's view shows room_code %q (private %v, seat %v), want none", got.RoomCode, got.Private, got.Seat)
	}
	// A stream ticket obtained with the code opens the stream, whose URL
	// cannot carry the code.
	tr := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/stream-tickets", Token: dan.Token, Header: withCode, Body: map[string]any{}})
	if tr.Status != http.StatusCreated {
		t.Fatalf("stream ticket with the code: %d %s", tr.Status, tr.Body)
	}
	var ticket struct {
		Ticket string `json:"ticket"`
	}
	tr.Decode(t, &ticket)
	ctx, cancel := context.WithCancel(context.Background())
	resp, prob := p.c.Stream(ctx, apitest.Request{Path: "/v1/tables/" + id + "/stream?ticket=" + ticket.Ticket})
	if prob != nil {
		t.Fatalf("stream by a ticket obtained with the room code: %d %s", prob.Status, prob.Body)
	}
	cancel()
	resp.Body.Close()
	p.playHand(id, ps)
	for _, path := range []string{"/v1/tables/" + id + "/events?limit=500", "/v1/tables/" + id + "/export"} {
		r := p.c.Do(apitest.Request{Method: "GET", Path: path, Token: auditorToken})
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
		}
		if strings.Contains(string(r.Body), code) {
			t.Errorf("%s holds the room code %s", path, code)
		}
	}

	// One hand was the limit: the table closed, its code finds nothing
	// and is free again.
	if v := p.view(id, ann.Token); v.Phase != "closed" {
		t.Fatalf("the table after its last hand: phase %s, want closed", v.Phase)
	}
	if r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/rooms/" + code, Token: ben.Token}); r.Status != http.StatusNotFound || r.Problem(t) != "room_not_found" {
		t.Errorf("the code of a closed table: %d %s, want 404 room_not_found", r.Status, r.Body)
	}
	if _, err := p.store.RoomByCode(context.Background(), code); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("the closed table's code is still bound: %v", err)
	}
	// Its players reading it again draw it no new code.
	if r := p.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ann.Token}); strings.Contains(string(r.Body), "room_code") {
		t.Errorf("a player's view of the closed table shows a room code: %s", r.Body)
	}
	if room, err := p.store.RoomOfTable(context.Background(), id); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("reading the closed table bound it a code again: %+v %v", room, err)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRoomCodesAreNotSequential: codes of tables opened one after another
// are all different and do not count up.
func TestRoomCodesAreNotSequential(t *testing.T) {
	e := newEnv(t, 52)
	pl := e.newPlayer("opener")
	var codes []int
	for range 8 {
		codes = append(codes, mustAtoi(t, e.openPrivate(pl, map[string]any{"game": "niuniu", "variant": "classic"}).RoomCode))
	}
	steps := map[int]bool{}
	for i := 1; i < len(codes); i++ {
		steps[codes[i]-codes[i-1]] = true
	}
	sorted := slices.Clone(codes)
	slices.Sort(sorted)
	if len(slices.Compact(sorted)) != len(codes) || len(steps) == 1 {
		t.Errorf("room codes %v: want distinct codes without a constant step", codes)
	}
}

// roomEnv is a server on the test clock whose room code budgets are per
// player and per node, behind a trusted proxy so that each request names
// its client address.
func roomEnv(t *testing.T, seed uint64, perPlayer, perNode int) *env {
	t.Helper()
	var e *env
	e = newEnvWith(t, seed, func(d *api.Deps) {
		d.Now = func() time.Time { return e.clock.Now() }
		d.Quotas.RoomFailuresPerMinute = perPlayer
		d.Quotas.RoomFailuresPerNodePerMinute = perNode
		d.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	})
	return e
}

// lookupRoom is GET /v1/rooms/{code} by pl from the client address addr.
func (e *env) lookupRoom(pl player, addr, code string) *apitest.Response {
	e.t.Helper()
	return e.c.Do(apitest.Request{Method: "GET", Path: "/v1/rooms/" + code, Token: pl.Token, Header: map[string]string{"X-Forwarded-For": addr}})
}

// otherCode is the i-th code that is not code.
func otherCode(code string, i int) string {
	for c := i; ; c++ {
		if s := fmt.Sprintf("%06d", c); s != code {
			return s
		}
	}
}

// wantRoom429 checks a refused room code attempt: 429 with the code and a
// Retry-After of want seconds.
func wantRoom429(t *testing.T, what string, r *apitest.Response, code string, want int) {
	t.Helper()
	if r.Status != http.StatusTooManyRequests || r.Problem(t) != code {
		t.Fatalf("%s: %d %s, want 429 %s", what, r.Status, r.Body, code)
	}
	if got := r.Header.Get("Retry-After"); got != strconv.Itoa(want) {
		t.Fatalf("%s: Retry-After %q, want %d", what, got, want)
	}
}

// TestRoomCodeGuessingLimited: failed room code attempts (unknown codes
// looked up, wrong codes to join) are counted per player, never per
// address: a guesser behind a shared NAT locks itself out, never its
// friends with the right code. Past the budget the player waits a minute,
// then twice as long at its next lockout.
func TestRoomCodeGuessingLimited(t *testing.T) {
	e := roomEnv(t, 53, 3, -1)
	owner := e.newPlayer("owner")
	tv := e.openPrivate(owner, map[string]any{"game": "niuniu", "variant": "classic"})
	const nat = "198.51.100.1"
	mallory, eve, trent := e.newPlayer("mallory"), e.newPlayer("eve"), e.newPlayer("trent")
	for i := range 3 {
		if r := e.lookupRoom(mallory, nat, otherCode(tv.RoomCode, i)); r.Status != http.StatusNotFound || r.Problem(t) != "room_not_found" {
			t.Fatalf("guess %d: %d %s, want 404 room_not_found", i, r.Status, r.Body)
		}
	}
	wantRoom429(t, "the guesser, with the right code", e.lookupRoom(mallory, nat, tv.RoomCode), "room_attempts_limited", 60)
	wantRoom429(t, "the guesser from another address", e.lookupRoom(mallory, "198.51.100.2", tv.RoomCode), "room_attempts_limited", 60)
	// A friend behind the same NAT is not the guesser.
	if r := e.lookupRoom(eve, nat, tv.RoomCode); r.Status != http.StatusOK {
		t.Fatalf("a friend from the guesser's address, with the right code: %d %s, want 200", r.Status, r.Body)
	}
	if r := e.joinWith(eve, tv.ID, map[string]any{"room_code": tv.RoomCode}); r.Status != http.StatusOK {
		t.Fatalf("a friend from the guesser's address joins: %d %s, want 200", r.Status, r.Body)
	}

	// Wrong codes to join count too.
	for i := range 3 {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: trent.Token,
			Header: map[string]string{"X-Forwarded-For": nat}, Body: map[string]any{"room_code": otherCode(tv.RoomCode, 100+i)}})
		if r.Status != http.StatusForbidden || r.Problem(t) != "room_code_wrong" {
			t.Fatalf("wrong join %d: %d %s, want 403 room_code_wrong", i, r.Status, r.Body)
		}
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: trent.Token,
		Header: map[string]string{"X-Forwarded-For": nat}, Body: map[string]any{"room_code": tv.RoomCode}})
	wantRoom429(t, "join with the right code after three wrong ones", r, "room_attempts_limited", 60)

	// A minute later the guesser may try again; its next lockout lasts
	// two, the one after four.
	for _, lockout := range []time.Duration{2 * time.Minute, 4 * time.Minute} {
		e.clock.Advance(time.Minute)
		if r := e.lookupRoom(mallory, nat, tv.RoomCode); r.Status != http.StatusOK {
			t.Fatalf("once the lockout passed, the right code: %d %s, want 200", r.Status, r.Body)
		}
		for i := range 3 {
			if r := e.lookupRoom(mallory, nat, otherCode(tv.RoomCode, 10+i)); r.Status != http.StatusNotFound {
				t.Fatalf("guess %d after the lockout: %d %s, want 404", i, r.Status, r.Body)
			}
		}
		wantRoom429(t, "the guesser locked out again", e.lookupRoom(mallory, nat, tv.RoomCode), "room_attempts_limited", int(lockout/time.Second))
		e.clock.Advance(lockout - time.Minute)
	}
}

// TestRoomCodeGuessingSlowedPerNode: the node's budget of failures a minute
// bounds everyone's guessing together: once it is spent, a player who
// failed lately is refused before its code is compared, while a player who
// has not failed is still heard and its right code accepted.
func TestRoomCodeGuessingSlowedPerNode(t *testing.T) {
	e := roomEnv(t, 55, 5, 3)
	owner := e.newPlayer("owner")
	tv := e.openPrivate(owner, map[string]any{"game": "niuniu", "variant": "classic"})
	guessers := []player{e.newPlayer("g1"), e.newPlayer("g2"), e.newPlayer("g3")}
	for i, g := range guessers { // one failure each, well within their own budgets
		if r := e.lookupRoom(g, fmt.Sprintf("203.0.113.%d", i+1), otherCode(tv.RoomCode, i)); r.Status != http.StatusNotFound {
			t.Fatalf("guess of %s: %d %s, want 404", g.Name, r.Status, r.Body)
		}
	}
	// The node's 3 a minute are spent: 20 s to refill one.
	wantRoom429(t, "a player who failed lately, with the right code", e.lookupRoom(guessers[0], "203.0.113.1", tv.RoomCode), "room_attempts_throttled", 20)
	friend := e.newPlayer("friend")
	if r := e.lookupRoom(friend, "203.0.113.1", tv.RoomCode); r.Status != http.StatusOK {
		t.Fatalf("a player who has not failed, with the right code: %d %s, want 200", r.Status, r.Body)
	}
	if r := e.joinWith(friend, tv.ID, map[string]any{"room_code": tv.RoomCode}); r.Status != http.StatusOK {
		t.Fatalf("a player who has not failed joins: %d %s, want 200", r.Status, r.Body)
	}
	// A new player is heard once; failing, it waits with the others.
	fresh := e.newPlayer("fresh")
	if r := e.lookupRoom(fresh, "203.0.113.9", otherCode(tv.RoomCode, 50)); r.Status != http.StatusNotFound {
		t.Fatalf("a new player's first guess: %d %s, want 404", r.Status, r.Body)
	}
	wantRoom429(t, "the new player's second guess", e.lookupRoom(fresh, "203.0.113.9", otherCode(tv.RoomCode, 51)), "room_attempts_throttled", 20)
	e.clock.Advance(20 * time.Second)
	if r := e.lookupRoom(guessers[1], "203.0.113.2", otherCode(tv.RoomCode, 60)); r.Status != http.StatusNotFound {
		t.Fatalf("once the node's budget refilled one: %d %s, want 404", r.Status, r.Body)
	}
	wantRoom429(t, "its next guess", e.lookupRoom(guessers[1], "203.0.113.2", otherCode(tv.RoomCode, 61)), "room_attempts_throttled", 20)
}

// TestRoomCodeGuessesAtOnce: 50 wrong guesses of one player at once are
// answered exactly as far as its budget goes; the rest are 429. (Each
// attempt reserves its budget before its code is compared.) It runs under
// the race detector too.
func TestRoomCodeGuessesAtOnce(t *testing.T) {
	const budget = 10
	e := roomEnv(t, 56, budget, -1)
	owner := e.newPlayer("owner")
	tv := e.openPrivate(owner, map[string]any{"game": "niuniu", "variant": "classic"})
	g := e.newPlayer("guesser")
	rs := atOnce(capAttempts, func(i int) *apitest.Response {
		return e.c.Unchecked().Do(apitest.Request{Method: "GET", Path: "/v1/rooms/" + otherCode(tv.RoomCode, i), Token: g.Token})
	})
	n := tally(t, "wrong guesses at once", rs, map[int]string{http.StatusNotFound: "room_not_found", http.StatusTooManyRequests: "room_attempts_limited"})
	if n[http.StatusNotFound] != budget {
		t.Errorf("%d wrong guesses at once: %d answered; want %d (the budget)", capAttempts, n[http.StatusNotFound], budget)
	}
}

// oneCode is a room store in which every code is stored as the same one,
// so that every draw collides with the table holding it; each table is
// shown the code it was given.
type oneCode struct {
	api.Rooms
	code  string
	mu    sync.Mutex
	given map[string]string // table → the code the API drew for it
}

func (o *oneCode) CreateRoom(ctx context.Context, code, tableID string, at time.Time) error {
	err := o.Rooms.CreateRoom(ctx, o.code, tableID, at)
	o.remember(err, code, tableID)
	return err
}

func (o *oneCode) TakeOverRoom(ctx context.Context, code, oldTable, newTable string, at time.Time) error {
	err := o.Rooms.TakeOverRoom(ctx, o.code, oldTable, newTable, at)
	o.remember(err, code, newTable)
	return err
}

func (o *oneCode) remember(err error, code, tableID string) {
	if err == nil {
		o.mu.Lock()
		o.given[tableID] = code
		o.mu.Unlock()
	}
}

func (o *oneCode) ReleaseRoom(ctx context.Context, _, tableID string) error {
	return o.Rooms.ReleaseRoom(ctx, o.code, tableID)
}

func (o *oneCode) RoomByCode(ctx context.Context, _ string) (api.RoomRecord, error) {
	return o.Rooms.RoomByCode(ctx, o.code)
}

func (o *oneCode) RoomOfTable(ctx context.Context, tableID string) (api.RoomRecord, error) {
	r, err := o.Rooms.RoomOfTable(ctx, tableID)
	o.mu.Lock()
	defer o.mu.Unlock()
	r.Code = o.given[tableID]
	return r, err
}

// TestClosedTableCodeTakenOver: a code whose table has closed is free: a
// new private table that draws it takes it over, and the code then finds
// the new table, never the old one.
func TestClosedTableCodeTakenOver(t *testing.T) {
	e := newEnvWith(t, 54, func(d *api.Deps) {
		d.Rooms = &oneCode{Rooms: d.Rooms, code: "424242", given: map[string]string{}}
	})
	ps := []player{e.newPlayer("a"), e.newPlayer("b"), e.newPlayer("c")}
	old := e.openPrivate(ps[0], map[string]any{"game": "doudizhu", "variant": "classic", "max_hands": 1})
	for i, p := range ps {
		if r := e.joinWith(p, old.ID, map[string]any{"room_code": old.RoomCode, "seat": i}); r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
	}
	e.playHand(old.ID, ps)
	if v := e.view(old.ID, ps[0].Token); v.Phase != "closed" {
		t.Fatalf("old table phase %s, want closed", v.Phase)
	}
	next := e.openPrivate(ps[0], map[string]any{"game": "niuniu", "variant": "classic"})
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/rooms/" + next.RoomCode, Token: ps[1].Token})
	var room roomOut
	if r.Status != http.StatusOK {
		t.Fatalf("the taken-over code: %d %s", r.Status, r.Body)
	}
	r.Decode(t, &room)
	if room.TableID != next.ID {
		t.Errorf("the code finds %s, want the new table %s", room.TableID, next.ID)
	}
	if _, err := e.store.RoomOfTable(context.Background(), old.ID); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("the closed table still holds a code: %v", err)
	}
}
