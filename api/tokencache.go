package api

import (
	"sync"
	"time"
)

// DefaultTokenCacheFor is how long a node trusts a token it has verified
// without reading the player store again (Deps.TokenCacheFor).
//
// The bound is what a revocation may take to reach a node that did not see
// it: the node that revokes a token forgets it at once, and so does every
// node that hears the revocation notice (Deps.Revocations); a node that
// misses the notice refuses the token at most this long after the
// revocation. A rename is seen likewise. An expiry is checked at every
// request, cached or not.
const DefaultTokenCacheFor = time.Second

// maxCachedTokens bounds the cache's memory: past it, entries past their
// time are swept, and if that is not enough the cache starts again empty.
const maxCachedTokens = 1 << 16

// tokenCache keeps verified tokens by their hash for a short time, so that
// authentication does not read the player store at every request.
type tokenCache struct {
	ttl time.Duration
	mu  sync.Mutex
	// gen counts evictions: a lookup that began before one may not store
	// what it read, which could be the token before its revocation.
	gen    uint64
	byHash map[string]cachedToken
	// hashes maps a token id to its hash, and a player to the hashes of
	// its cached tokens, for eviction by id (a revocation) or by player (a
	// rename).
	hashes   map[string]string
	byPlayer map[string][]string
}

type cachedToken struct {
	player PlayerRecord
	token  TokenRecord
	until  time.Time
}

// newTokenCache returns a cache that trusts an entry for ttl; ttl <= 0
// caches nothing.
func newTokenCache(ttl time.Duration) *tokenCache {
	return &tokenCache{ttl: ttl, byHash: map[string]cachedToken{}, hashes: map[string]string{}, byPlayer: map[string][]string{}}
}

// get returns the token whose hash's hex digits are hash if it was
// verified less than ttl before now, and the generation to hand to put
// after a store read. The digits come in a buffer, which a map lookup
// reads without making a string of them.
func (c *tokenCache) get(hash []byte, now time.Time) (PlayerRecord, TokenRecord, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byHash[string(hash)]
	if ok && now.Before(e.until) {
		return e.player, e.token, c.gen, true
	}
	return PlayerRecord{}, TokenRecord{}, c.gen, false
}

// put keeps what the store said at now of the token with hash, unless an
// eviction happened since gen (get's) was read.
func (c *tokenCache) put(gen uint64, hash string, p PlayerRecord, t TokenRecord, now time.Time) {
	if c.ttl <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(c.byHash) >= maxCachedTokens {
		c.sweep(now)
	}
	if _, known := c.byHash[hash]; !known {
		c.byPlayer[p.ID] = append(c.byPlayer[p.ID], hash)
	}
	c.byHash[hash] = cachedToken{player: p, token: t, until: now.Add(c.ttl)}
	c.hashes[t.ID] = hash
}

// touched records that the store now holds at as t's last use, so that
// the cached copy does not ask for the same write again.
func (c *tokenCache) touched(hash string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byHash[hash]; ok {
		e.token.LastUsedAt = at
		c.byHash[hash] = e
	}
}

// evictToken forgets token id (it was revoked).
func (c *tokenCache) evictToken(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if h, ok := c.hashes[id]; ok {
		c.drop(h)
	}
}

// evictPlayer forgets every token of player (it was renamed).
func (c *tokenCache) evictPlayer(player string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, h := range c.byPlayer[player] {
		if e, ok := c.byHash[h]; ok {
			delete(c.hashes, e.token.ID)
		}
		delete(c.byHash, h)
	}
	delete(c.byPlayer, player)
}

// drop removes the entry of hash; c.mu is held.
func (c *tokenCache) drop(hash string) {
	e, ok := c.byHash[hash]
	if !ok {
		return
	}
	delete(c.byHash, hash)
	delete(c.hashes, e.token.ID)
	hs := c.byPlayer[e.player.ID]
	for i, h := range hs {
		if h == hash {
			hs = append(hs[:i], hs[i+1:]...)
			break
		}
	}
	if len(hs) == 0 {
		delete(c.byPlayer, e.player.ID)
	} else {
		c.byPlayer[e.player.ID] = hs
	}
}

// sweep drops the entries past their time, or all of them if that leaves
// the cache full; c.mu is held.
func (c *tokenCache) sweep(now time.Time) {
	for h, e := range c.byHash {
		if !now.Before(e.until) {
			c.drop(h)
		}
	}
	if len(c.byHash) >= maxCachedTokens {
		clear(c.byHash)
		clear(c.hashes)
		clear(c.byPlayer)
	}
}
