package e2e

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"paiju/api/apitest"
	"paiju/internal/cli"
	"paiju/internal/pgtest"
)

// runCmd runs one paiju command and returns its output.
func runCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := cli.Run(context.Background(), args, func(string) string { return "" }, &out, &out)
	return out.String(), err
}

// playHand plays the first hand of table id to its settlement with random
// legal actions.
func playHand(t *testing.T, c *apitest.Client, id string, ps []rootPlayer) {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 22))
	for step := 0; step < 500; step++ {
		var v struct {
			Turn *int `json:"turn"`
		}
		c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token}).Decode(t, &v)
		p := ps[*v.Turn]
		r := playRandomChoice(t, c, id, p.Token, rng)
		if strings.Contains(string(r.Body), `"HandSettled"`) {
			return
		}
	}
	t.Fatal("the hand did not settle")
}

// TestServePostgresPlayVerifyExport: serve with --store naming a PostgreSQL
// database plays a hand over HTTP; verify and export then work on the same
// URL, and the export verifies offline as one from SQLite does.
func TestServePostgresPlayVerifyExport(t *testing.T) {
	url := pgtest.NewDatabase(t)
	dir := t.TempDir()
	base, _, stop := startServer(t, dir, "--store", url)
	c := apitest.New(t, base)
	waitReady(t, c)
	tv, ps := seatThree(t, c)
	playHand(t, c, tv.ID, ps)
	waitProjected(t, c, ps[0].Token)
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "paiju.db")); err == nil {
		t.Error("serve --store postgres://… created paiju.db in the data directory: the log belongs in PostgreSQL")
	}

	// The events, the players and the relay's checkpoint are in PostgreSQL.
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var events, players int
	if err := conn.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM players)`).Scan(&events, &players); err != nil {
		t.Fatal(err)
	}
	if events < 10 || players != 3 {
		t.Fatalf("PostgreSQL holds %d events and %d players, want a played hand's events and 3 players", events, players)
	}

	out, err := runCmd(t, "verify", "--data", dir, "--store", url)
	if err != nil || !strings.Contains(out, "verified 1 tables") || !strings.Contains(out, "hash chain ok") {
		t.Fatalf("verify --store: %v\n%s", err, out)
	}
	export, err := runCmd(t, "export", "--data", dir, "--store", url, "--table", tv.ID)
	if err != nil {
		t.Fatalf("export --store: %v\n%s", err, export)
	}
	if lines := strings.Count(export, "\n"); lines != events+1 {
		t.Errorf("export has %d lines for %d events, want one per event and the chain head", lines, events)
	}
	file := filepath.Join(t.TempDir(), "table.jsonl")
	if err := os.WriteFile(file, []byte(export), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := runCmd(t, "verify", file); err != nil {
		t.Fatalf("verify of the export: %v\n%s", err, out)
	}

	// A rewritten head row is found by verify and refused by serve.
	if _, err := conn.Exec(t.Context(), `UPDATE chain_head SET position = position - 1`); err != nil {
		t.Fatal(err)
	}
	if out, err := runCmd(t, "verify", "--data", dir, "--store", url); err == nil || !strings.Contains(err.Error(), "chain head") {
		t.Errorf("verify of a store whose head row was rewritten: %v, want a chain head fault\n%s", err, out)
	}
	// Bounded, so that a serve that wrongly starts ends the test, failing.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var logs bytes.Buffer
	err = cli.Run(ctx, []string{"serve", "--data", dir, "--store", url, "--addr", "127.0.0.1:0", "--drain", "0"}, func(string) string { return "" }, &logs, &logs)
	if err == nil || !strings.Contains(err.Error(), "refusing to serve") {
		t.Errorf("serve on a store whose head row was rewritten: %v, want a refusal\n%s", err, logs.String())
	}
}

// TestPostgresStoreCommands: migrate applies to the PostgreSQL store; the
// SQLite-only commands say what to use instead; a --store that is no
// URL of a known store is refused.
func TestPostgresStoreCommands(t *testing.T) {
	url := pgtest.NewDatabase(t)
	dir := t.TempDir()
	out, err := runCmd(t, "migrate", "--data", dir, "--store", url)
	if err != nil || !strings.Contains(out, "store postgres://") || !strings.Contains(out, "schema up to date") {
		t.Fatalf("migrate --store: %v\n%s", err, out)
	}
	out, err = runCmd(t, "migrate", "--data", dir, "--store", url, "--db", "store", "version")
	if err != nil || !strings.Contains(out, "schema version 13 of 13") {
		t.Fatalf("migrate version --store: %v\n%s", err, out)
	}
	if _, err := runCmd(t, "migrate", "--data", dir, "--store", url, "--db", "store", "down", "4"); err == nil {
		t.Error("migrate down 4 of the PostgreSQL store: nil error, want the refusal to drop the log")
	}
	for _, cmd := range [][]string{
		{"backup", "--out", filepath.Join(t.TempDir(), "b.tar")},
		{"restore", "--in", filepath.Join(t.TempDir(), "b.tar")},
		{"recover-head", "--accept-log"},
	} {
		args := append([]string{cmd[0], "--data", dir, "--store", url}, cmd[1:]...)
		if out, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), "pg_dump") {
			t.Errorf("%s --store postgres://…: %v, want a pointer to pg_dump\n%s", cmd[0], err, out)
		}
	}
	if out, err := runCmd(t, "verify", "--data", dir, "--store", "mysql://x"); err == nil || !strings.Contains(err.Error(), "postgres://") {
		t.Errorf("verify --store mysql://x: %v, want a refusal naming postgres://\n%s", err, out)
	}
}
