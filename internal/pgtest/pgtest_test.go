package pgtest_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"paiju/internal/pgtest"
)

// TestNewDatabase checks the database is new, empty and writable.
func TestNewDatabase(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("new database has %d tables, want 0", n)
	}
	if _, err := c.Exec(ctx, "CREATE TABLE t (x int)"); err != nil {
		t.Fatal(err)
	}
}
