package sqlite_test

import (
	"database/sql"
	"errors"
	"testing"
	"time"

	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/migrations"
	"paiju/migrations/schema"
)

// TestNameKeysMigrationKeepsExistingNames: players registered before names
// had keys keep their names across the migration, two of one name
// included, and hold no key; a rename gives one its key, which the other
// can then not take.
func TestNameKeysMigrationKeepsExistingNames(t *testing.T) {
	ctx := t.Context()
	p := newPaths(t)
	if err := sqlite.Migrate(ctx, p.db); err != nil {
		t.Fatal(err)
	}
	m, err := schema.Open(ctx, p.db, migrations.FS, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Down(ctx, 1); err != nil {
		t.Fatalf("Down: %v", err)
	}
	db, err := sql.Open("sqlite", p.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	if _, err := db.ExecContext(ctx, `INSERT INTO players (id, name, created_at) VALUES ('p-a', 'Twin', ?), ('p-b', 'Twin', ?)`, at, at); err != nil {
		t.Fatal(err)
	}
	if err := m.Up(ctx); err != nil {
		t.Fatalf("Up: %v", err)
	}
	s := open(t, p, sqlite.Options{})
	for _, id := range []string{"p-a", "p-b"} {
		if got, err := s.PlayerByID(ctx, id); err != nil || got.Name != "Twin" || got.NameKey != "" {
			t.Errorf("migrated %s = %+v %v, want the name Twin kept, without a key", id, got, err)
		}
	}
	if err := s.RenamePlayer(ctx, "p-a", "Twin", "twin"); err != nil {
		t.Fatalf("a migrated player renamed to its own name: %v", err)
	}
	if err := s.RenamePlayer(ctx, "p-b", "TWIN", "twin"); !errors.Is(err, eventstore.ErrNameTaken) {
		t.Errorf("the other migrated Twin renamed to the key p-a now holds: %v, want ErrNameTaken", err)
	}
}
