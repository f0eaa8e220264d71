package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"paiju/eventstore/postgres"
	"paiju/internal/pgtest"
)

// TestTokensMigrationKeepsExistingPlayers: a player registered before
// tokens were records keeps its token (now its first record) across the
// migration, and going down brings back the oldest token not revoked,
// never a revoked one.
func TestTokensMigrationKeepsExistingPlayers(t *testing.T) {
	t.Parallel()
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
	// Back to before the tokens (and the rooms and name keys after them).
	if err := m.Down(ctx, 3); err != nil {
		t.Fatalf("Down: %v", err)
	}
	at := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	exec(t, url, `INSERT INTO players (id, name, token_hash, created_at) VALUES ('p-old', 'Old', 'h-old', '2025-05-01T00:00:00Z'), ('p-gone', 'Gone', 'h-gone', '2025-05-01T00:00:00Z')`)
	if err := m.Up(ctx); err != nil {
		t.Fatalf("Up: %v", err)
	}
	s := open(t, url, postgres.Options{})
	p, tok, err := s.TokenByHash(ctx, "h-old")
	if err != nil || p.ID != "p-old" || p.Name != "Old" || tok.Label != "registration" || !tok.CreatedAt.Equal(at) || !tok.Live(at) || tok.ID == "" {
		t.Fatalf("migrated token = %+v %+v %v, want p-old's live registration token", p, tok, err)
	}
	if _, other, _ := s.TokenByHash(ctx, "h-gone"); other.ID == tok.ID {
		t.Errorf("two migrated tokens share the id %s", tok.ID)
	}
	if _, err := s.RevokeToken(ctx, "p-gone", mustTokenID(t, s, "h-gone"), at); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := m.Down(ctx, 3); err != nil {
		t.Fatalf("Down with tokens: %v", err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for id, want := range map[string]string{"p-old": "h-old", "p-gone": "revoked:p-gone"} {
		var h string
		if err := conn.QueryRow(ctx, `SELECT token_hash FROM players WHERE id = $1`, id).Scan(&h); err != nil || h != want {
			t.Errorf("token_hash of %s after Down = %q %v, want %q", id, h, err, want)
		}
	}
}

func mustTokenID(t *testing.T, s *postgres.Store, hash string) string {
	t.Helper()
	_, tok, err := s.TokenByHash(t.Context(), hash)
	if err != nil {
		t.Fatal(err)
	}
	return tok.ID
}
