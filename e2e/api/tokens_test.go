package api_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"paiju/api"
	"paiju/api/apitest"
	"paiju/internal/testclock"
)

// tokenOut mirrors the Token schema.
type tokenOut struct {
	ID         string     `json:"id"`
	Label      string     `json:"label"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	Current    bool       `json:"current"`
	Token      string     `json:"token"`
}

// newClockedEnv is newEnv with the API on the test's clock too, so that
// expiry and last use can be moved through.
func newClockedEnv(t *testing.T) *env {
	t.Helper()
	var e *env
	e = newEnvWith(t, 1, func(d *api.Deps) { d.Now = func() time.Time { return e.clock.Now() } })
	return e
}

func (e *env) tokens(token string) []tokenOut {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/me/tokens", Token: token})
	if r.Status != http.StatusOK {
		e.t.Fatalf("GET /v1/me/tokens: %d %s", r.Status, r.Body)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		e.t.Errorf("GET /v1/me/tokens Cache-Control %q, want no-store", cc)
	}
	var l struct {
		Tokens []tokenOut `json:"tokens"`
	}
	r.Decode(e.t, &l)
	return l.Tokens
}

func (e *env) issueToken(token string, body map[string]any) tokenOut {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/me/tokens", Token: token, Body: body})
	if r.Status != http.StatusCreated {
		e.t.Fatalf("POST /v1/me/tokens %v: %d %s", body, r.Status, r.Body)
	}
	var out tokenOut
	r.Decode(e.t, &out)
	if out.Token == "" || out.ID == "" {
		e.t.Fatalf("issued token without its secret or id: %s", r.Body)
	}
	return out
}

// meStatus is the status of GET /v1/me with token.
func (e *env) meStatus(token string) (int, string) {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/me", Token: token})
	if r.Status == http.StatusOK {
		var m struct {
			Name string `json:"name"`
		}
		r.Decode(e.t, &m)
		return r.Status, m.Name
	}
	return r.Status, r.Problem(e.t)
}

func (e *env) revoke(token, id string) *apitest.Response {
	e.t.Helper()
	return e.c.Do(apitest.Request{Method: "DELETE", Path: "/v1/me/tokens/" + id, Token: token})
}

// TestTokenLifecycle: the registration's token is the first record; a
// player issues more (shown once, listed without the secret), uses them
// from several devices, and revokes one, which stops working at once while
// the others go on.
func TestTokenLifecycle(t *testing.T) {
	e := newClockedEnv(t)
	wang := e.newPlayer("小王")
	list := e.tokens(wang.Token)
	if len(list) != 1 || list[0].Label != "registration" || !list[0].Current || list[0].RevokedAt != nil || list[0].ExpiresAt != nil {
		t.Fatalf("tokens after registration = %+v, want the one registration token, current", list)
	}

	// Tokens are listed oldest first: the clock moves between issues.
	e.clock.Advance(time.Second)
	phone := e.issueToken(wang.Token, map[string]any{"label": " 手机 "})
	if phone.Label != "手机" || phone.Current || phone.ExpiresAt != nil || phone.Token == wang.Token {
		t.Errorf("issued token = %+v, want label 手机, not current, no expiry, a new secret", phone)
	}
	e.clock.Advance(time.Second)
	laptop := e.issueToken(wang.Token, map[string]any{"label": "laptop"})
	for _, tok := range []string{wang.Token, phone.Token, laptop.Token} {
		if st, name := e.meStatus(tok); st != http.StatusOK || name != "小王" {
			t.Errorf("GET /v1/me with one of the player's tokens = %d %s, want 200 小王", st, name)
		}
	}
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/me/tokens", Token: phone.Token})
	for _, secret := range []string{wang.Token, phone.Token, laptop.Token, api.HashToken(phone.Token)} {
		if strings.Contains(string(r.Body), secret) {
			t.Fatalf("the token list shows a secret or its hash: %s", r.Body)
		}
	}
	list = e.tokens(phone.Token)
	if len(list) != 3 || list[0].Label != "registration" || list[1].ID != phone.ID || list[2].ID != laptop.ID {
		t.Fatalf("tokens = %+v, want registration, phone, laptop", list)
	}
	if list[0].Current || !list[1].Current || list[2].Current {
		t.Errorf("current marks %v %v %v, want only the phone's (the request's token)", list[0].Current, list[1].Current, list[2].Current)
	}

	// Another player cannot revoke (or even find) the player's tokens.
	li := e.newPlayer("小李")
	if r := e.revoke(li.Token, phone.ID); r.Status != http.StatusNotFound || r.Problem(t) != "token_not_found" {
		t.Errorf("revoking another player's token: %d %s, want 404 token_not_found", r.Status, r.Body)
	}
	if r := e.revoke(wang.Token, "tk_nosuchtoken"); r.Status != http.StatusNotFound || r.Problem(t) != "token_not_found" {
		t.Errorf("revoking an unknown token: %d %s, want 404 token_not_found", r.Status, r.Body)
	}
	if st, _ := e.meStatus(phone.Token); st != http.StatusOK {
		t.Fatalf("the phone's token after refused revocations: %d, want 200", st)
	}

	// The phone is lost: the laptop revokes it.
	if r := e.revoke(laptop.Token, phone.ID); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s, want 204", r.Status, r.Body)
	}
	if st, code := e.meStatus(phone.Token); st != http.StatusUnauthorized || code != "unauthorized" {
		t.Errorf("GET /v1/me with a revoked token = %d %s, want 401 unauthorized", st, code)
	}
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: phone.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic"}}); r.Status != http.StatusUnauthorized {
		t.Errorf("a command with a revoked token: %d, want 401", r.Status)
	}
	for _, tok := range []string{wang.Token, laptop.Token} {
		if st, _ := e.meStatus(tok); st != http.StatusOK {
			t.Errorf("another token of the player after the revocation: %d, want 200", st)
		}
	}
	list = e.tokens(laptop.Token)
	if list[1].RevokedAt == nil || !list[1].RevokedAt.Equal(e.clock.Now()) || list[0].RevokedAt != nil || list[2].RevokedAt != nil {
		t.Errorf("tokens after the revocation = %+v, want only the phone's revoked, now", list)
	}
	// Revoking again is harmless; revoking the request's own token logs
	// this device out.
	if r := e.revoke(laptop.Token, phone.ID); r.Status != http.StatusNoContent {
		t.Errorf("revoking a revoked token: %d %s, want 204", r.Status, r.Body)
	}
	if r := e.revoke(laptop.Token, laptop.ID); r.Status != http.StatusNoContent {
		t.Fatalf("revoking the request's own token: %d %s, want 204", r.Status, r.Body)
	}
	if st, _ := e.meStatus(laptop.Token); st != http.StatusUnauthorized {
		t.Errorf("GET /v1/me after revoking the token itself: %d, want 401", st)
	}
	if st, _ := e.meStatus(wang.Token); st != http.StatusOK {
		t.Errorf("the registration token after the others were revoked: %d, want 200", st)
	}
}

// TestTokenExpiryAndLastUse: a token issued with expires_in stops working
// then; last use is kept to the minute.
func TestTokenExpiryAndLastUse(t *testing.T) {
	e := newClockedEnv(t)
	p := e.newPlayer("阿丽")
	start := e.clock.Now()
	short := e.issueToken(p.Token, map[string]any{"label": "网吧", "expires_in": 3600})
	if short.ExpiresAt == nil || !short.ExpiresAt.Equal(start.Add(time.Hour)) {
		t.Fatalf("expires_at = %v, want %v", short.ExpiresAt, start.Add(time.Hour))
	}
	if st, _ := e.meStatus(short.Token); st != http.StatusOK {
		t.Fatalf("a fresh token: %d", st)
	}
	used := func() *time.Time {
		for _, tok := range e.tokens(p.Token) {
			if tok.ID == short.ID {
				return tok.LastUsedAt
			}
		}
		t.Fatalf("token %s not listed", short.ID)
		return nil
	}
	if at := used(); at == nil || !at.Equal(start) {
		t.Errorf("last_used_at after a use = %v, want %v", at, start)
	}
	e.clock.Advance(30 * time.Second)
	e.meStatus(short.Token)
	if at := used(); at == nil || !at.Equal(start) {
		t.Errorf("last_used_at after a use 30 s later = %v, want %v still (kept to the minute)", at, start)
	}
	e.clock.Advance(31 * time.Second)
	e.meStatus(short.Token)
	if at := used(); at == nil || !at.Equal(e.clock.Now()) {
		t.Errorf("last_used_at after a use 61 s later = %v, want %v", at, e.clock.Now())
	}
	e.clock.Advance(time.Hour)
	if st, code := e.meStatus(short.Token); st != http.StatusUnauthorized || code != "unauthorized" {
		t.Errorf("an expired token: %d %s, want 401 unauthorized", st, code)
	}
	if st, _ := e.meStatus(p.Token); st != http.StatusOK {
		t.Errorf("the token without expiry an hour later: %d, want 200", st)
	}
}

// TestTokenRequestsRefused: what POST /v1/me/tokens, PATCH /v1/me and the
// token routes refuse, each with its code.
func TestTokenRequestsRefused(t *testing.T) {
	e := newClockedEnv(t)
	p := e.newPlayer("小张")
	for _, c := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"label": ""}, "invalid_label"},
		{map[string]any{"label": "  "}, "invalid_label"},
		{map[string]any{"label": "phone\u202e"}, "invalid_label"},
		{map[string]any{"label": strings.Repeat("长", 41)}, "invalid_label"},
		{map[string]any{"label": "x", "expires_in": 59}, "invalid_expires_in"},
		{map[string]any{"label": "x", "expires_in": 366 * 24 * 3600}, "invalid_expires_in"},
	} {
		r := e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/me/tokens", Token: p.Token, Body: c.body})
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != c.code {
			t.Errorf("POST /v1/me/tokens %v: %d %s, want 422 %s", c.body, r.Status, r.Body, c.code)
		}
	}
	if r := e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/me/tokens", Token: p.Token, Body: map[string]any{"label": "x", "secret": "mine"}}); r.Status != http.StatusBadRequest {
		t.Errorf("POST /v1/me/tokens with an unknown field: %d, want 400", r.Status)
	}
	for _, m := range []struct{ method, path string }{{"GET", "/v1/me/tokens"}, {"POST", "/v1/me/tokens"}, {"DELETE", "/v1/me/tokens/tk_x"}, {"PATCH", "/v1/me"}} {
		var body any
		switch m.method {
		case "POST":
			body = map[string]any{"label": "x"}
		case "PATCH":
			body = map[string]any{"name": "x"}
		}
		r := e.c.Do(apitest.Request{Method: m.method, Path: m.path, Token: auditorToken, Body: body})
		if r.Status != http.StatusForbidden || r.Problem(t) != "not_a_player" {
			t.Errorf("%s %s as the auditor: %d %s, want 403 not_a_player", m.method, m.path, r.Status, r.Body)
		}
	}

	// At most maxLiveTokens (20) that still work: revoked and expired
	// ones do not count.
	var last tokenOut
	for i := range 19 {
		last = e.issueToken(p.Token, map[string]any{"label": fmt.Sprintf("device %d", i), "expires_in": 120})
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/me/tokens", Token: p.Token, Body: map[string]any{"label": "one too many"}})
	if r.Status != http.StatusConflict || r.Problem(t) != "too_many_tokens" {
		t.Fatalf("the 21st token: %d %s, want 409 too_many_tokens", r.Status, r.Body)
	}
	if r := e.revoke(p.Token, last.ID); r.Status != http.StatusNoContent {
		t.Fatal(r.Status)
	}
	e.issueToken(p.Token, map[string]any{"label": "after a revocation"})
	e.clock.Advance(121 * time.Second)
	e.issueToken(p.Token, map[string]any{"label": "after the expiries"})
}

// TestRenameMe: PATCH /v1/me normalises the name as registration does and
// every token of the player sees the new name at once.
func TestRenameMe(t *testing.T) {
	e := newClockedEnv(t)
	p := e.newPlayer("小王")
	other := e.issueToken(p.Token, map[string]any{"label": "laptop"})
	// "老王" with a decomposed mark would be another spelling: é as e+U+0301.
	r := e.c.Do(apitest.Request{Method: "PATCH", Path: "/v1/me", Token: p.Token, Body: map[string]any{"name": "  Rene\u0301 老王 "}})
	if r.Status != http.StatusOK {
		t.Fatalf("PATCH /v1/me: %d %s", r.Status, r.Body)
	}
	var me struct {
		ID, Name string
	}
	r.Decode(t, &me)
	if me.ID != p.ID || me.Name != "René 老王" {
		t.Errorf("renamed = %+v, want %s René 老王 (trimmed, NFC)", me, p.ID)
	}
	if st, name := e.meStatus(other.Token); st != http.StatusOK || name != "René 老王" {
		t.Errorf("GET /v1/me with another token after the rename = %d %s", st, name)
	}
	for _, bad := range []string{"", "\u200b", strings.Repeat("x", 41), "a\u0007b"} {
		r := e.c.Do(apitest.Request{Method: "PATCH", Path: "/v1/me", Token: p.Token, Body: map[string]any{"name": bad}})
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_name" {
			t.Errorf("PATCH /v1/me %q: %d %s, want 422 invalid_name", bad, r.Status, r.Body)
		}
	}
	if st, name := e.meStatus(p.Token); st != http.StatusOK || name != "René 老王" {
		t.Errorf("name after refused renames = %d %s", st, name)
	}
}

// TestTokenRevocationEndsStreams: revoking a token ends its live streams:
// at once on the node that revoked it; on another node sharing the store,
// at once when the nodes share revocation notices (NATS), else at its next
// heartbeat. A stream ticket obtained with the token no longer opens one;
// other tokens' streams go on.
func TestTokenRevocationEndsStreams(t *testing.T) {
	for _, notices := range []bool{true, false} {
		t.Run(fmt.Sprintf("notices=%v", notices), func(t *testing.T) { testRevocationEndsStreams(t, notices) })
	}
}

func testRevocationEndsStreams(t *testing.T, notices bool) {
	var deps api.Deps
	logs := &logBuffer{}
	// Node A never beats within the test: its streams can end only by the
	// revocation itself. So does node B when notices are shared: its stream
	// ends by the notice, long before any heartbeat could check the token.
	e, _ := newLiveEnvWith(t, 41, time.Hour, func(d *api.Deps) {
		d.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
		if !notices {
			d.Revocations = nil
		}
		deps = *d
	})
	b := deps
	if !notices {
		b.Heartbeat = 20 * time.Millisecond
	}
	srvB := httptest.NewServer(api.NewServer(b))
	t.Cleanup(srvB.Close)
	nodeB := &env{t: t, store: e.store, c: apitest.New(t, srvB.URL)}

	id, ps := e.openFull()
	phone := e.issueToken(ps[0].Token, map[string]any{"label": "phone"})
	onA := e.openStream(id, phone.Token, "", "")
	onB := nodeB.openStream(id, phone.Token, "", "")
	keep := e.openStream(id, ps[0].Token, "", "")
	onA.waitFor("phone on A", 1)
	onB.waitFor("phone on B", 1)
	keep.waitFor("registration token on A", 1)
	tr := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/stream-tickets", Token: phone.Token, Body: map[string]any{}})
	if tr.Status != http.StatusCreated {
		t.Fatalf("stream ticket: %d %s", tr.Status, tr.Body)
	}
	var ticket struct {
		Ticket string `json:"ticket"`
	}
	tr.Decode(t, &ticket)

	if r := e.revoke(ps[0].Token, phone.ID); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	// The handler logs a failed announcement before it answers.
	for _, l := range logs.lines(t) {
		if l["msg"] == "announce a token revocation" {
			t.Errorf("the revocation's notice failed: %v (issue #35, part 5a: the announcement needs a bounded context)", l)
		}
	}
	for _, s := range []struct {
		who string
		c   *sseClient
	}{{"node A, which revoked it", onA}, {"node B", onB}} {
		select {
		case <-s.c.done:
		case <-time.After(20 * time.Second):
			t.Fatalf("the revoked token's stream on %s is still open", s.who)
		}
	}
	resp, problem := e.c.Stream(t.Context(), apitest.Request{Path: "/v1/tables/" + id + "/stream?ticket=" + ticket.Ticket})
	if resp != nil {
		resp.Body.Close()
		t.Fatal("a stream ticket of a revoked token opened a stream")
	}
	if problem.Status != http.StatusUnauthorized {
		t.Errorf("stream ticket of a revoked token: %d %s, want 401", problem.Status, problem.Body)
	}
	select {
	case <-keep.done:
		t.Fatal("revoking one token ended the stream of another token of the same player")
	default:
	}
	// The other token's stream still delivers.
	v := e.step(id, ps)
	keep.waitFor("registration token after the revocation", v.Version)
	keep.close()
}

// TestTokenRevocationReachesEveryNode: a node trusts a token it verified for
// api.DefaultTokenCacheFor at most without reading the store again. The node
// that revokes a token refuses it at once; so does every node that hears
// the revocation notice (NATS); a node that misses it refuses the token once
// the bound has passed on its clock, and not before. A rename is seen at
// once on the node that made it.
func TestTokenRevocationReachesEveryNode(t *testing.T) {
	for _, notices := range []bool{true, false} {
		t.Run(fmt.Sprintf("notices=%v", notices), func(t *testing.T) { testRevocationReachesNodes(t, notices) })
	}
}

func testRevocationReachesNodes(t *testing.T, notices bool) {
	// Both nodes read one clock that moves only when the test moves it.
	clock := testclock.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	var deps api.Deps
	e, _ := newLiveEnvWith(t, 43, time.Hour, func(d *api.Deps) {
		d.Now = clock.Now
		// Nodes share a store only in a cluster (PostgreSQL), where they
		// keep the API's bound; a SQLite store is one node's, trusted
		// longer (internal/app, tokenCacheFor).
		d.TokenCacheFor = 0
		if !notices {
			d.Revocations = nil
		}
		deps = *d
	})
	srvB := httptest.NewServer(api.NewServer(deps))
	t.Cleanup(srvB.Close)
	nodeB := &env{t: t, store: e.store, c: apitest.New(t, srvB.URL)}

	wang := e.newPlayer("小王")
	phone := e.issueToken(wang.Token, map[string]any{"label": "phone"})
	// Both nodes verify the phone's token now, and keep it.
	for _, n := range []*env{e, nodeB} {
		if st, name := n.meStatus(phone.Token); st != http.StatusOK || name != "小王" {
			t.Fatalf("GET /v1/me with the new token: %d %s", st, name)
		}
	}

	if r := e.revoke(wang.Token, phone.ID); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if st, why := e.meStatus(phone.Token); st != http.StatusUnauthorized || why != "unauthorized" {
		t.Fatalf("the node that revoked the token: %d %q, want 401 at once", st, why)
	}
	if notices {
		// The notice travels through NATS: wait for it, the clock standing
		// still, so that only the notice can make node B refuse the token.
		for i := 0; ; i++ {
			st, _ := nodeB.meStatus(phone.Token)
			if st == http.StatusUnauthorized {
				break
			}
			if i == 400 {
				t.Fatalf("node B still accepts the revoked token with notices shared: %d", st)
			}
			time.Sleep(50 * time.Millisecond)
		}
	} else {
		// Without the notice node B trusts its verification until the
		// bound has passed: this is what the cache saves, and all that a
		// revocation may take.
		clock.Advance(api.DefaultTokenCacheFor - time.Millisecond)
		if st, _ := nodeB.meStatus(phone.Token); st != http.StatusOK {
			t.Fatalf("node B within the bound after the revocation: %d, want the cached 200", st)
		}
		clock.Advance(time.Millisecond)
		if st, why := nodeB.meStatus(phone.Token); st != http.StatusUnauthorized || why != "unauthorized" {
			t.Fatalf("node B once the bound has passed: %d %q, want 401", st, why)
		}
	}
	// The registration token goes on working on both nodes.
	for _, n := range []*env{e, nodeB} {
		if st, _ := n.meStatus(wang.Token); st != http.StatusOK {
			t.Fatalf("the other token after the revocation: %d", st)
		}
	}

	// A rename is seen at once where it was made, though the node verified
	// the token under the old name a moment before.
	r := e.c.Do(apitest.Request{Method: "PATCH", Path: "/v1/me", Token: wang.Token, Body: map[string]any{"name": "老王"}})
	if r.Status != http.StatusOK {
		t.Fatalf("rename: %d %s", r.Status, r.Body)
	}
	if st, name := e.meStatus(wang.Token); st != http.StatusOK || name != "老王" {
		t.Fatalf("GET /v1/me after the rename on the same node: %d %q, want 老王", st, name)
	}
	clock.Advance(api.DefaultTokenCacheFor)
	if st, name := nodeB.meStatus(wang.Token); st != http.StatusOK || name != "老王" {
		t.Fatalf("GET /v1/me on node B once the bound has passed: %d %q, want 老王", st, name)
	}
}
