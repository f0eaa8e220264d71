package app

import "testing"

// TestTokenCacheForStore: a node on its own SQLite store trusts a verified
// token for a minute, since every revocation and rename goes through it;
// nodes sharing a PostgreSQL store keep the API's default (0), the bound on
// a revocation notice one of them misses.
func TestTokenCacheForStore(t *testing.T) {
	if got := tokenCacheFor(Common{Data: t.TempDir()}); got != soleNodeTokenCacheFor {
		t.Errorf("SQLite store: token cache %v, want %v", got, soleNodeTokenCacheFor)
	}
	if got := tokenCacheFor(Common{Store: "postgres://127.0.0.1/paiju"}); got != 0 {
		t.Errorf("PostgreSQL store: token cache %v, want the API's default (0)", got)
	}
}
