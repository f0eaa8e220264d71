package api

import (
	"testing"
	"time"
)

// TestTokenCacheRevocationDuringLookup: a verification read from the store
// before a revocation, and offered to the cache after it, is not kept: the
// node would otherwise trust the revoked token for the whole bound.
func TestTokenCacheRevocationDuringLookup(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	c := newTokenCache(time.Second)
	p := PlayerRecord{ID: "P1", Name: "小王"}
	tok := TokenRecord{ID: "tk-1", PlayerID: "P1", Hash: "h1"}

	_, _, gen, ok := c.get([]byte(tok.Hash), now)
	if ok {
		t.Fatal("an empty cache answered")
	}
	c.evictToken(tok.ID) // the revocation lands while the store is read
	c.put(gen, tok.Hash, p, tok, now)
	if _, _, _, ok := c.get([]byte(tok.Hash), now); ok {
		t.Fatal("a verification read before a revocation was kept after it")
	}

	_, _, gen, _ = c.get([]byte(tok.Hash), now)
	c.put(gen, tok.Hash, p, tok, now)
	if _, got, _, ok := c.get([]byte(tok.Hash), now.Add(time.Second-time.Nanosecond)); !ok || got.ID != tok.ID {
		t.Fatalf("within the bound: %v %v, want the cached token", got, ok)
	}
	if _, _, _, ok := c.get([]byte(tok.Hash), now.Add(time.Second)); ok {
		t.Fatal("the cache answered once its bound had passed")
	}
	c.evictPlayer(p.ID)
	if _, _, _, ok := c.get([]byte(tok.Hash), now); ok {
		t.Fatal("the cache answered for a renamed player's token")
	}
	if len(c.byHash) != 0 || len(c.hashes) != 0 || len(c.byPlayer) != 0 {
		t.Errorf("entries left after evicting the only player: %d %d %d", len(c.byHash), len(c.hashes), len(c.byPlayer))
	}
}
