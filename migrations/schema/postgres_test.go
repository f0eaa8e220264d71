package schema_test

import (
	"context"
	"io/fs"
	"sync"
	"testing"

	"paiju/internal/pgtest"
	"paiju/migrations/postgres/projections"
	"paiju/migrations/postgres/store"
	"paiju/migrations/schema"
)

// TestUpPostgresConcurrently migrates both schemas of an empty database
// from several processes at once, as the nodes of a cluster do when they
// start together. golang-migrate marks a version dirty while it applies
// it; a migrator that read that mark before waiting for the migration lock
// took the database for one whose migration had failed. Every Up must
// succeed, and both schemas end at their latest version, clean.
func TestUpPostgresConcurrently(t *testing.T) {
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	schemas := []struct {
		files fs.FS
		table string
	}{{store.FS, store.MigrationsTable}, {projections.FS, projections.MigrationsTable}}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(schemas))
	for range 4 {
		for _, s := range schemas {
			wg.Go(func() { errs <- schema.UpPostgres(ctx, url, s.files, s.table) })
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Up: %v", err)
		}
	}
	for _, s := range schemas {
		m, err := schema.OpenPostgres(ctx, url, s.files, s.table)
		if err != nil {
			t.Fatal(err)
		}
		v, dirty, err := m.Version()
		m.Close()
		if err != nil || dirty || v != m.Latest() {
			t.Errorf("%s: version %d dirty %v (%v), want %d clean", s.table, v, dirty, err, m.Latest())
		}
	}
}
