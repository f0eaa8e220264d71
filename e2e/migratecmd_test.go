package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"paiju/internal/cli"
)

// migrateRun runs paiju migrate with args on dir and returns its output.
func migrateRun(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := cli.Run(context.Background(), append([]string{"migrate", "--data", dir}, args...), noEnv, &out, &out)
	return out.String(), err
}

func mustMigrate(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := migrateRun(t, dir, args...)
	if err != nil {
		t.Fatalf("migrate %v: %v\n%s", args, err, out)
	}
	return out
}

// execSQL runs a statement on a database file of dir, as an operator's
// sqlite3 shell would.
func execSQL(t *testing.T, path, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// TestMigrateVerbs: up, version, down N and force on both databases
// (DESIGN.md, Operations: migrations up/down/version/force).
func TestMigrateVerbs(t *testing.T) {
	dir := t.TempDir()
	if out := mustMigrate(t, dir); !strings.Contains(out, "store") || !strings.Contains(out, "projections") {
		t.Fatalf("migrate (up) should name both databases:\n%s", out)
	}
	steps := []struct {
		args []string
		want []string // lines the output must hold
	}{
		{[]string{"version"}, []string{"store " + filepath.Join(dir, "paiju.db") + ": schema version 13 of 13", "projections " + filepath.Join(dir, "projections.db") + ": schema version 15 of 15"}},
		{[]string{"down", "1", "--db", "projections"}, []string{"projections " + filepath.Join(dir, "projections.db") + ": schema version 14 of 15"}},
		{[]string{"version", "--db", "projections"}, []string{"schema version 14 of 15"}},
		{[]string{"up"}, []string{"projections " + filepath.Join(dir, "projections.db") + ": schema up to date at version 15"}},
		{[]string{"down", "9", "--db", "projections"}, []string{"schema version 0 of 15"}},
		{[]string{"up", "--db", "projections"}, []string{"schema up to date at version 15"}},
		{[]string{"force", "4", "--db", "projections"}, []string{"schema version 4 of 15"}},
		{[]string{"force", "15", "--db", "projections"}, []string{"schema version 15 of 15"}},
		// The store's name keys, rooms and tokens migrations revert (tokens
		// fold back into the players) and come back.
		{[]string{"down", "3", "--db", "store"}, []string{"store " + filepath.Join(dir, "paiju.db") + ": schema version 1 of 13"}},
		{[]string{"up", "--db", "store"}, []string{"schema up to date at version 13"}},
	}
	for _, s := range steps {
		out := mustMigrate(t, dir, s.args...)
		for _, w := range s.want {
			if !strings.Contains(out, w) {
				t.Fatalf("migrate %v said:\n%s\nwant a line with %q", s.args, out, w)
			}
		}
	}
	// The projections that came back up still work with the store.
	if out, err := migrateRun(t, dir, "down", "4", "--db", "store"); err == nil || !strings.Contains(err.Error(), "event log") {
		t.Fatalf("down 4 of the store's four migrations: %v (%s), want a refusal naming the event log", err, out)
	}
	for _, bad := range [][]string{{"down", "1"}, {"down", "0", "--db", "store"}, {"force", "x", "--db", "store"}, {"force", "7", "--db", "store"}, {"down", "10", "--db", "projections"}, {"sideways"}, {"up", "--db", "other"}} {
		if out, err := migrateRun(t, dir, bad...); err == nil {
			t.Errorf("migrate %v: nil error, want a refusal\n%s", bad, out)
		}
	}
	if out := mustMigrate(t, dir, "version"); strings.Count(out, "of 13\n")+strings.Count(out, "of 15\n") != 2 || strings.Contains(out, "dirty") {
		t.Fatalf("refused verbs changed the schema:\n%s", out)
	}
}

// TestMigrateForceRepairsDirty: a migration that failed halfway leaves the
// database dirty; up refuses it until force records its true version.
func TestMigrateForceRepairsDirty(t *testing.T) {
	dir := t.TempDir()
	mustMigrate(t, dir)
	execSQL(t, filepath.Join(dir, "projections.db"), `UPDATE schema_migrations SET dirty = 1`)
	out, err := migrateRun(t, dir, "up")
	if err == nil || !strings.Contains(err.Error(), "dirty") || !strings.Contains(err.Error(), "force") {
		t.Fatalf("up of a dirty database: %v (%s), want a refusal saying dirty and naming force", err, out)
	}
	if out := mustMigrate(t, dir, "version", "--db", "projections"); !strings.Contains(out, "dirty") {
		t.Fatalf("version of a dirty database:\n%s", out)
	}
	mustMigrate(t, dir, "force", "15", "--db", "projections")
	mustMigrate(t, dir, "up")
}

// TestOlderBinaryRefusesNewerSchema: a database migrated by a newer binary
// (a version this one has no migration for) is refused by migrate, serve
// and verify with a message that says so, never "no migration found for
// version N" (the issue's rollback failure).
func TestOlderBinaryRefusesNewerSchema(t *testing.T) {
	for _, db := range []string{"paiju.db", "projections.db"} {
		t.Run(db, func(t *testing.T) {
			dir := t.TempDir()
			mustMigrate(t, dir)
			execSQL(t, filepath.Join(dir, db), `UPDATE schema_migrations SET version = 99`)
			for _, args := range [][]string{{"migrate", "--data", dir}, {"verify", "--data", dir}, {"serve", "--data", dir, "--addr", "127.0.0.1:0"}} {
				if db == "projections.db" && args[0] == "verify" {
					continue // verify reads only the store
				}
				var out bytes.Buffer
				err := cli.Run(context.Background(), args, noEnv, &out, &out)
				if err == nil {
					t.Fatalf("%s on a newer schema: nil error, want a refusal", args[0])
				}
				msg := err.Error()
				if !strings.Contains(msg, "schema version 99, newer than this binary knows") || !strings.Contains(msg, "migrate down") || strings.Contains(msg, "no migration found") {
					t.Fatalf("%s on a newer schema said %q, want it to say the database is newer and how to roll back", args[0], msg)
				}
			}
		})
	}
}
