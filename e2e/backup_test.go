package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
	"paiju/internal/cli"
)

func noEnv(string) string { return "" }

// tableVersion is the table's version as the auditor sees it.
func tableVersion(t *testing.T, c *apitest.Client, id string) int {
	t.Helper()
	var v struct {
		Version int `json:"version"`
	}
	r := c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: "audit-me"})
	if r.Status != http.StatusOK {
		t.Fatalf("table %s: %d %s", id, r.Status, r.Body)
	}
	r.Decode(t, &v)
	return v.Version
}

// waitVersion waits until the table has moved past version.
func waitVersion(t *testing.T, c *apitest.Client, id string, past int) int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if v := tableVersion(t, c, id); v > past {
			return v
		}
	}
	t.Fatalf("table %s did not move past version %d", id, past)
	return 0
}

// TestBackupWhileServingRestoreVerifyServe: a backup taken while bots play
// restores into an empty directory, verifies, and serves: the restored
// player's token works and the restored table keeps playing (DESIGN.md,
// Operations: online backup/restore).
func TestBackupWhileServingRestoreVerifyServe(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := filepath.Join(root, "data")
	base, _, stop := startServer(t, dir, "--bot-delay", "5ms")
	c := apitest.New(t, base)

	var ann struct{ ID, Token string }
	c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "ann"}}).Decode(t, &ann)
	var tv struct {
		ID string `json:"id"`
	}
	r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ann.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "bots": 3, "max_hands": 1000}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	r.Decode(t, &tv)
	before := waitVersion(t, c, tv.ID, 20)

	out := filepath.Join(root, "paiju.tar.gz")
	var buf bytes.Buffer
	if err := cli.Run(ctx, []string{"backup", "--data", dir, "--out", out}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("backup while serving: %v\n%s", err, buf.String())
	}
	// The bots kept playing through the backup, and after it.
	waitVersion(t, c, tv.ID, before+20)
	if err := cli.Run(ctx, []string{"backup", "--data", dir, "--out", out}, noEnv, &buf, &buf); err == nil {
		t.Fatal("a second backup over an existing file: got nil, want a refusal")
	}
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}

	restored := filepath.Join(root, "restored")
	buf.Reset()
	if err := cli.Run(ctx, []string{"restore", "--in", out, "--data", restored}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("restore: %v\n%s", err, buf.String())
	}
	for _, f := range []string{"paiju.db", "chain-head", "projections.db"} {
		if _, err := os.Stat(filepath.Join(restored, f)); err != nil {
			t.Errorf("restored directory lacks %s: %v", f, err)
		}
	}
	buf.Reset()
	if err := cli.Run(ctx, []string{"verify", "--data", restored}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("verify of the restored directory: %v\n%s", err, buf.String())
	}
	if !strings.Contains(buf.String(), "verified 1 tables") || strings.Contains(buf.String(), "warning") {
		t.Fatalf("verify of the restored directory said:\n%s", buf.String())
	}

	base, _, stop = startServer(t, restored, "--bot-delay", "5ms")
	c = apitest.New(t, base)
	at := tableVersion(t, c, tv.ID)
	if at < before {
		t.Fatalf("restored table at version %d, the backup was taken after version %d", at, before)
	}
	waitVersion(t, c, tv.ID, at+10)
	if r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ann.Token, Body: map[string]any{"game": "niuniu", "variant": "classic"}}); r.Status != http.StatusCreated {
		t.Fatalf("the restored player's token: open a table: %d %s", r.Status, r.Body)
	}
	if err := stop(); err != nil {
		t.Fatalf("serve of the restored directory returned %v", err)
	}
	buf.Reset()
	if err := cli.Run(ctx, []string{"verify", "--data", restored}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("verify after playing on: %v\n%s", err, buf.String())
	}
}

// TestRestoreRefusesNonEmptyDirectory: a restore never mixes a backup with
// files already there, and changes nothing when it refuses.
func TestRestoreRefusesNonEmptyDirectory(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	src := filepath.Join(root, "src")
	var buf bytes.Buffer
	if err := cli.Run(ctx, []string{"migrate", "--data", src}, noEnv, &buf, &buf); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "b.tar.gz")
	if err := cli.Run(ctx, []string{"backup", "--data", src, "--out", out}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("backup of an empty store: %v\n%s", err, buf.String())
	}
	dst := filepath.Join(root, "dst")
	if err := os.MkdirAll(dst, 0o750); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dst, "projections.db")
	if err := os.WriteFile(keep, []byte("newer"), 0o640); err != nil {
		t.Fatal(err)
	}
	err := cli.Run(ctx, []string{"restore", "--in", out, "--data", dst}, noEnv, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("restore into a non-empty directory: %v, want a refusal naming it not empty", err)
	}
	entries, _ := os.ReadDir(dst)
	if b, _ := os.ReadFile(keep); len(entries) != 1 || string(b) != "newer" {
		t.Fatalf("a refused restore changed the directory: %d entries, projections.db %q", len(entries), b)
	}
	// An empty directory is fine.
	empty := filepath.Join(root, "empty")
	if err := os.MkdirAll(empty, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := cli.Run(ctx, []string{"restore", "--in", out, "--data", empty}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("restore into an empty directory: %v\n%s", err, buf.String())
	}
	if err := cli.Run(ctx, []string{"verify", "--data", empty}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("verify: %v\n%s", err, buf.String())
	}
}

// projectionStatus is GET /v1/projections.
func projectionStatus(t *testing.T, c *apitest.Client) (head int64, positions map[string]int64) {
	t.Helper()
	var s struct {
		Head        int64 `json:"head"`
		Projections []struct {
			Name     string `json:"name"`
			Position int64  `json:"position"`
		} `json:"projections"`
	}
	r := c.Do(apitest.Request{Method: "GET", Path: "/v1/projections", Token: "audit-me"})
	if r.Status != http.StatusOK {
		t.Fatalf("projections: %d %s", r.Status, r.Body)
	}
	r.Decode(t, &s)
	positions = map[string]int64{}
	for _, p := range s.Projections {
		positions[p.Name] = p.Position
	}
	return s.Head, positions
}

// TestOlderBackupBesideNewerProjections: a backup restored next to a
// projections.db that has read further (the restore over an old
// directory) is noticed, and the projections are rebuilt from position 0
// to the restored log's head instead of reporting lag 0 forever (DESIGN.md,
// Projections: notices a store behind its checkpoint and rebuilds).
func TestOlderBackupBesideNewerProjections(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := filepath.Join(root, "data")
	base, _, stop := startServer(t, dir, "--bot-delay", "5ms")
	c := apitest.New(t, base)
	var ann struct{ ID, Token string }
	c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": "ann"}}).Decode(t, &ann)
	var tv struct {
		ID string `json:"id"`
	}
	c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: ann.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "bots": 3, "max_hands": 1000}}).Decode(t, &tv)
	waitVersion(t, c, tv.ID, 20)
	out := filepath.Join(root, "b.tar.gz")
	var buf bytes.Buffer
	if err := cli.Run(ctx, []string{"backup", "--data", dir, "--out", out, "--projections=false"}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("backup: %v\n%s", err, buf.String())
	}
	var backedUp int64
	if _, err := fmt.Sscanf(buf.String(), "backup "+out+": %d events", &backedUp); err != nil {
		t.Fatalf("backup said %q: %v", buf.String(), err)
	}
	// Let the projections read well past the backup.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, ps := projectionStatus(t, c)
		if min(ps["hands"], ps["leaderboards"]) > backedUp+10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("projections did not pass position %d: %v", backedUp+10, ps)
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	restored := filepath.Join(root, "restored")
	if err := cli.Run(ctx, []string{"restore", "--in", out, "--data", restored}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("restore: %v\n%s", err, buf.String())
	}
	newer, err := os.ReadFile(filepath.Join(dir, "projections.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(restored, "projections.db"), newer, 0o640); err != nil {
		t.Fatal(err)
	}
	// Bots think for a minute: the restored log stays near the backup's
	// head, well behind the newer projections' checkpoints.
	base, _, stop = startServer(t, restored, "--bot-delay", "1m")
	defer stop()
	c = apitest.New(t, base)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		head, ps := projectionStatus(t, c)
		if head < backedUp {
			t.Fatalf("restored log's head %d, the backup held %d", head, backedUp)
		}
		if ps["hands"] == head && ps["leaderboards"] == head {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("projections at %v, want both rebuilt to the restored head %d (projections.md: a checkpoint ahead of the log is rebuilt)", ps, head)
		}
	}
	// The rebuilt hand history is the restored log's: as many hands as it
	// settled for the table.
	var hands struct {
		Hands []json.RawMessage `json:"hands"`
	}
	c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/hands?limit=100", Token: "audit-me"}).Decode(t, &hands)
	var evs struct {
		Events []struct {
			Type string `json:"type"`
		} `json:"events"`
	}
	c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/events?after=0", Token: "audit-me"}).Decode(t, &evs)
	settled := 0
	for _, e := range evs.Events {
		if e.Type == "HandSettled" {
			settled++
		}
	}
	if len(hands.Hands) != settled {
		t.Fatalf("hand history lists %d hands, the restored log settled %d", len(hands.Hands), settled)
	}
}
