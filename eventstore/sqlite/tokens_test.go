package sqlite_test

import (
	"database/sql"
	"testing"
	"time"

	"paiju/eventstore/sqlite"
	"paiju/migrations"
	"paiju/migrations/schema"
)

// TestTokensMigrationKeepsExistingPlayers: a player registered before
// tokens were records keeps its token (now its first record) across the
// migration, and going down brings back the oldest token not revoked,
// never a revoked one.
func TestTokensMigrationKeepsExistingPlayers(t *testing.T) {
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
	// Back to before the tokens (and the rooms and name keys after them).
	if err := m.Down(ctx, 3); err != nil {
		t.Fatalf("Down: %v", err)
	}
	at := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	db, err := sql.Open("sqlite", p.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `INSERT INTO players (id, name, token_hash, created_at) VALUES ('p-old', 'Old', 'h-old', ?), ('p-gone', 'Gone', 'h-gone', ?)`,
		at.UnixNano(), at.UnixNano()); err != nil {
		t.Fatal(err)
	}
	if err := m.Up(ctx); err != nil {
		t.Fatalf("Up: %v", err)
	}
	s := open(t, p, sqlite.Options{})
	pl, tok, err := s.TokenByHash(ctx, "h-old")
	if err != nil || pl.ID != "p-old" || pl.Name != "Old" || tok.Label != "registration" || !tok.CreatedAt.Equal(at) || !tok.Live(at) || tok.ID == "" {
		t.Fatalf("migrated token = %+v %+v %v, want p-old's live registration token", pl, tok, err)
	}
	_, gone, err := s.TokenByHash(ctx, "h-gone")
	if err != nil || gone.ID == tok.ID {
		t.Fatalf("second migrated token = %+v %v, want an id of its own", gone, err)
	}
	if _, err := s.RevokeToken(ctx, "p-gone", gone.ID, at); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := m.Down(ctx, 3); err != nil {
		t.Fatalf("Down with tokens: %v", err)
	}
	for id, want := range map[string]string{"p-old": "h-old", "p-gone": "revoked:p-gone"} {
		var h string
		if err := db.QueryRowContext(ctx, `SELECT token_hash FROM players WHERE id = ?`, id).Scan(&h); err != nil || h != want {
			t.Errorf("token_hash of %s after Down = %q %v, want %q", id, h, err, want)
		}
	}
}
