package sqlite

import (
	"database/sql"
	"path/filepath"
	"testing"
)

// TestWALAutocheckpoint checks that both of the file's connection pools
// run with the longer WAL: the pragma is a connection's, and a pool that
// missed it would checkpoint at SQLite's default after its own commits.
func TestWALAutocheckpoint(t *testing.T) {
	d, err := Open(t.Context(), filepath.Join(t.TempDir(), "projections.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	for name, pool := range map[string]*sql.DB{"reads": d.db, "writes": d.wdb} {
		var n int
		if err := pool.QueryRowContext(t.Context(), `PRAGMA wal_autocheckpoint`).Scan(&n); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n != walAutocheckpoint {
			t.Errorf("%s: wal_autocheckpoint %d, want %d", name, n, walAutocheckpoint)
		}
	}
}
