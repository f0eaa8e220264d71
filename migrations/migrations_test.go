package migrations_test

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/golang-migrate/migrate/v4"
	migratesqlite "github.com/golang-migrate/migrate/v4/database/sqlite"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	_ "modernc.org/sqlite"

	"paiju/migrations"
)

func tables(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	return names
}

// TestUpDownUp: every migration applies, reverts completely, and applies
// again, so a down file never leaves a table behind that its up would
// trip over.
func TestUpDownUp(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	driver, err := migratesqlite.WithInstance(db, &migratesqlite.Config{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "sqlite", driver)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	want := []string{"checkpoints", "events", "idempotency", "players", "rooms", "tokens"}
	for round := range 2 {
		if err := m.Up(); err != nil {
			t.Fatalf("round %d: Up: %v", round, err)
		}
		if got := tables(t, db); !slices.Equal(got, want) {
			t.Fatalf("round %d: tables after Up = %v, want %v", round, got, want)
		}
		// A fresh log starts at position 1 even after a down and up.
		if _, err := db.ExecContext(t.Context(), `INSERT INTO events (stream, version, type, data, recorded_at, prev_hash, hash) VALUES ('s', 1, 'E', '{}', 0, '', 'h')`); err != nil {
			t.Fatal(err)
		}
		var pos int64
		if err := db.QueryRowContext(t.Context(), `SELECT position FROM events`).Scan(&pos); err != nil || pos != 1 {
			t.Fatalf("round %d: first event at position %d %v, want 1", round, pos, err)
		}
		if err := m.Down(); err != nil {
			t.Fatalf("round %d: Down: %v", round, err)
		}
		if got := tables(t, db); len(got) != 0 {
			t.Fatalf("round %d: tables after Down = %v, want none", round, got)
		}
	}
	if err := m.Down(); !errors.Is(err, migrate.ErrNoChange) {
		t.Errorf("Down of an empty schema: %v, want ErrNoChange", err)
	}
}

// TestFilesPaired: each up file has its down file.
func TestFilesPaired(t *testing.T) {
	ups, _ := fsGlob("*.up.sql")
	downs, _ := fsGlob("*.down.sql")
	if len(ups) == 0 || len(ups) != len(downs) {
		t.Fatalf("%d up files and %d down files, want as many of each", len(ups), len(downs))
	}
	for i := range ups {
		if want := ups[i][:len(ups[i])-len(".up.sql")] + ".down.sql"; downs[i] != want {
			t.Errorf("up file %s has no down file %s", ups[i], want)
		}
	}
}

func fsGlob(pattern string) ([]string, error) {
	names, err := fs.Glob(migrations.FS, pattern)
	if err != nil {
		return nil, fmt.Errorf("glob %s: %w", pattern, err)
	}
	return names, nil
}
