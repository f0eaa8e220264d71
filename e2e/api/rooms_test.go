package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"regexp"
	"slices"
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

// TestRoomCodeGuessingLimited: failed room code attempts (unknown codes
// looked up, wrong codes to join) are counted per player and per address;
// past the quota every attempt of either is 429, the right code included,
// until the minute has passed.
func TestRoomCodeGuessingLimited(t *testing.T) {
	var e *env
	e = newEnvWith(t, 53, func(d *api.Deps) {
		d.Now = func() time.Time { return e.clock.Now() }
		d.Quotas.RoomFailuresPerMinute = 3
		d.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	})
	owner := e.newPlayer("owner")
	tv := e.openPrivate(owner, map[string]any{"game": "niuniu", "variant": "classic"})
	lookup := func(pl player, addr, code string) *apitest.Response {
		return e.c.Do(apitest.Request{Method: "GET", Path: "/v1/rooms/" + code, Token: pl.Token, Header: map[string]string{"X-Forwarded-For": addr}})
	}
	unknown := func(i int) string {
		for c := i; ; c++ {
			if code := fmt.Sprintf("%06d", c); code != tv.RoomCode {
				return code
			}
		}
	}
	mallory, eve, trent := e.newPlayer("mallory"), e.newPlayer("eve"), e.newPlayer("trent")
	for i := range 3 {
		if r := lookup(mallory, "198.51.100.1", unknown(i)); r.Status != http.StatusNotFound || r.Problem(t) != "room_not_found" {
			t.Fatalf("guess %d: %d %s, want 404 room_not_found", i, r.Status, r.Body)
		}
	}
	for _, c := range []struct {
		who  string
		pl   player
		addr string
		want int
	}{
		{"the same player from the same address, with the right code", mallory, "198.51.100.1", http.StatusTooManyRequests},
		{"the same player from another address", mallory, "198.51.100.2", http.StatusTooManyRequests},
		{"another player from the same address", eve, "198.51.100.1", http.StatusTooManyRequests},
		{"another player from another address", eve, "198.51.100.3", http.StatusOK},
	} {
		r := lookup(c.pl, c.addr, tv.RoomCode)
		if r.Status != c.want {
			t.Errorf("%s: %d %s, want %d", c.who, r.Status, r.Body, c.want)
		}
		if c.want == http.StatusTooManyRequests && (r.Problem(t) != "rate_limited" || r.Header.Get("Retry-After") == "") {
			t.Errorf("%s: %s without Retry-After or not rate_limited", c.who, r.Body)
		}
	}

	// Wrong codes to join count too.
	for i := range 3 {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: trent.Token,
			Header: map[string]string{"X-Forwarded-For": "203.0.113.7"}, Body: map[string]any{"room_code": unknown(100 + i)}})
		if r.Status != http.StatusForbidden || r.Problem(t) != "room_code_wrong" {
			t.Fatalf("wrong join %d: %d %s, want 403 room_code_wrong", i, r.Status, r.Body)
		}
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/join", Token: trent.Token,
		Header: map[string]string{"X-Forwarded-For": "203.0.113.7"}, Body: map[string]any{"room_code": tv.RoomCode}})
	if r.Status != http.StatusTooManyRequests {
		t.Errorf("join with the right code after three wrong ones: %d %s, want 429", r.Status, r.Body)
	}

	// A minute later the budget is whole again.
	e.clock.Advance(time.Minute)
	if r := lookup(mallory, "198.51.100.1", tv.RoomCode); r.Status != http.StatusOK {
		t.Errorf("a minute later: %d %s, want 200", r.Status, r.Body)
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
