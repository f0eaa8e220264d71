package natsbus

import "testing"

func TestGameCacheBounded(t *testing.T) {
	c := newGameCache(2)
	for _, s := range []string{"table-a", "table-b", "table-c", "table-d", "table-e"} {
		c.put(s, "g-"+s)
		if n := len(c.cur) + len(c.old); n > 2*c.size {
			t.Fatalf("after putting %s the cache holds %d games, want at most %d: the relay's game cache is bounded", s, n, 2*c.size)
		}
	}
	if _, ok := c.get("table-a"); ok {
		t.Errorf("table-a still cached after three newer generations of puts, want it aged out")
	}
	// A hit in the older generation survives the next turnover.
	if g, ok := c.get("table-d"); !ok || g != "g-table-d" {
		t.Fatalf("get(table-d) = %q, %v; want g-table-d, true", g, ok)
	}
	c.put("table-f", "g-table-f")
	c.put("table-g", "g-table-g")
	if g, ok := c.get("table-d"); !ok || g != "g-table-d" {
		t.Errorf("get(table-d) after it was promoted = %q, %v; want g-table-d, true", g, ok)
	}
}
