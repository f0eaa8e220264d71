package postgres_test

import (
	"errors"
	"testing"

	"paiju/eventstore"
	"paiju/eventstore/postgres"
	"paiju/internal/pgtest"
)

// TestNameKeysMigrationKeepsExistingNames: players registered before names
// had keys keep their names across the migration, two of one name
// included, and hold no key; a rename gives one its key, which the other
// can then not take.
func TestNameKeysMigrationKeepsExistingNames(t *testing.T) {
	ctx := t.Context()
	url := pgtest.NewDatabase(t)
	if err := postgres.Migrate(ctx, url); err != nil {
		t.Fatal(err)
	}
	m, err := postgres.Migrator(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Down(ctx, 1); err != nil {
		t.Fatalf("Down: %v", err)
	}
	exec(t, url, `INSERT INTO players (id, name, created_at) VALUES ('p-a', 'Twin', '2025-05-01T00:00:00Z'), ('p-b', 'Twin', '2025-05-01T00:00:00Z')`)
	if err := m.Up(ctx); err != nil {
		t.Fatalf("Up: %v", err)
	}
	s := open(t, url, postgres.Options{})
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
