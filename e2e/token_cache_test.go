package e2e

import (
	"net/http"
	"testing"

	"paiju/api/apitest"
)

// TestServeRevocationAndRenameAtOnce: on a server of its own store, whose
// token cache lasts a minute, a revoked token is refused by the very next
// request, and a renamed player's next request carries the new name,
// although both tokens had just been verified and cached.
func TestServeRevocationAndRenameAtOnce(t *testing.T) {
	base, _, stop := startServer(t, t.TempDir())
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	c := apitest.New(t, base)
	var p rootPlayer
	c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "ann"}}).Decode(t, &p)
	var phone struct{ ID, Token string }
	c.Do(apitest.Request{Method: "POST", Path: "/v1/me/tokens", Token: p.Token, Body: map[string]any{"label": "phone"}}).Decode(t, &phone)
	var me struct{ Name string }
	c.Do(apitest.Request{Method: "GET", Path: "/v1/me", Token: phone.Token}).Decode(t, &me) // cached now
	if me.Name != "ann" {
		t.Fatalf("name %q, want ann", me.Name)
	}

	if r := c.Do(apitest.Request{Method: "PATCH", Path: "/v1/me", Token: p.Token, Body: map[string]string{"name": "anne"}}); r.Status != http.StatusOK {
		t.Fatalf("rename: %d %s", r.Status, r.Body)
	}
	c.Do(apitest.Request{Method: "GET", Path: "/v1/me", Token: phone.Token}).Decode(t, &me)
	if me.Name != "anne" {
		t.Fatalf("after the rename the other token's player is named %q, want anne", me.Name)
	}

	if r := c.Do(apitest.Request{Method: "GET", Path: "/v1/me", Token: phone.Token}); r.Status != http.StatusOK {
		t.Fatalf("the phone's token before its revocation: %d %s", r.Status, r.Body)
	}
	if r := c.Do(apitest.Request{Method: "DELETE", Path: "/v1/me/tokens/" + phone.ID, Token: p.Token}); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := c.Do(apitest.Request{Method: "GET", Path: "/v1/me", Token: phone.Token}); r.Status != http.StatusUnauthorized {
		t.Fatalf("the revoked token's next request: %d %s, want 401", r.Status, r.Body)
	}
	if r := c.Do(apitest.Request{Method: "GET", Path: "/v1/me", Token: p.Token}); r.Status != http.StatusOK {
		t.Fatalf("the first token after the other's revocation: %d %s", r.Status, r.Body)
	}
}
