package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"paiju/internal/pgtest"
	"paiju/projections"
)

// TestOpenProjectionsBesideTheStore: the projections live beside the event
// store --store names: a SQLite file in the data directory, or the
// PostgreSQL database itself.
func TestOpenProjectionsBesideTheStore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	lite, err := openProjections(ctx, Common{Data: dir}, projections.DefaultLocation)
	if err != nil {
		t.Fatal(err)
	}
	lite.Close()
	if lite.Shared {
		t.Error("projections in the data directory said to be shared by the cluster's nodes")
	}
	if _, err := os.Stat(filepath.Join(dir, "projections.db")); err != nil {
		t.Fatalf("no --store: %v, want projections.db in the data directory", err)
	}

	url := pgtest.NewDatabase(t)
	pdir := t.TempDir()
	pg, err := openProjections(ctx, Common{Data: pdir, Store: url}, "Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if !pg.Shared {
		t.Error("projections in the PostgreSQL store's database not said to be shared by the cluster's nodes")
	}
	if _, err := os.Stat(filepath.Join(pdir, "projections.db")); err == nil {
		t.Fatal("--store postgres://… created projections.db in the data directory")
	}
	for _, n := range projections.Names {
		if cp, err := pg.Checkpoint(ctx, n); err != nil || cp != 0 {
			t.Fatalf("checkpoint of %s in a new database: %d, %v", n, cp, err)
		}
	}
	if _, err := openProjections(ctx, Common{Data: pdir, Store: "mysql://x"}, projections.DefaultLocation); err == nil {
		t.Fatal("--store mysql://x opened projections")
	}
	if _, err := openProjections(ctx, Common{Data: pdir, Store: url}, "Mars/Olympus"); err == nil {
		t.Fatal("an unknown time zone was accepted")
	}
}
