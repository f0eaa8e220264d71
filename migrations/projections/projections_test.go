package projections_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/golang-migrate/migrate/v4"
	migratesqlite "github.com/golang-migrate/migrate/v4/database/sqlite"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	_ "modernc.org/sqlite"

	"paiju/migrations/projections"
)

// TestUpDownUp: the projections schema applies, reverts completely and
// applies again.
func TestUpDownUp(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	driver, err := migratesqlite.WithInstance(db, &migratesqlite.Config{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := iofs.New(projections.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "sqlite", driver)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	count := func() int {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for round := range 2 {
		if err := m.Up(); err != nil {
			t.Fatalf("round %d: Up: %v", round, err)
		}
		if n := count(); n != 20 {
			t.Fatalf("round %d: %d tables after Up, want 20", round, n)
		}
		if err := m.Down(); err != nil {
			t.Fatalf("round %d: Down: %v", round, err)
		}
		if n := count(); n != 0 {
			t.Fatalf("round %d: %d tables after Down, want 0", round, n)
		}
	}
}
