package e2e

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"paiju/internal/cli"
)

// TestVerifyRatings: paiju verify --ratings recomputes a player's rating
// history from the log and finds it equal, bit for bit, to the ratings
// projection's; a history row changed in its last bit is a fault.
func TestVerifyRatings(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, export, stop := playedTable(t, dir)
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	var player string
	sc := bufio.NewScanner(bytes.NewReader(export))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && player == "" {
		var line struct {
			Type string `json:"type"`
			Data struct {
				PlayerID string `json:"player_id"`
			} `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "PlayerSeated" {
			player = line.Data.PlayerID
		}
	}
	if player == "" {
		t.Fatal("the export seats nobody")
	}
	noEnv := func(string) string { return "" }
	var buf bytes.Buffer
	// Whatever the server had projected when it stopped, the projection is
	// brought to the log's head.
	if err := cli.Run(ctx, []string{"replay", "--data", dir, "--projection", "ratings"}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("replay: %v\n%s", err, buf.String())
	}
	buf.Reset()
	if err := cli.Run(ctx, []string{"verify", "--data", dir, "--ratings", player}, noEnv, &buf, &buf); err != nil {
		t.Fatalf("verify --ratings: %v\n%s", err, buf.String())
	}
	if !strings.Contains(buf.String(), "ratings ok: 1 rated hands of "+player) || !strings.Contains(buf.String(), "1 equal to the projection's") {
		t.Fatalf("verify --ratings said:\n%s", buf.String())
	}

	db, err := sql.Open("sqlite", filepath.Join(dir, "projections.db"))
	if err != nil {
		t.Fatal(err)
	}
	// The next double after mu_after: one bit off.
	if _, err := db.Exec(`UPDATE rt_player_hands SET mu_after = mu_after * (1 + 2.220446049250313e-16) WHERE player_id = ?`, player); err != nil {
		t.Fatal(err)
	}
	db.Close()
	buf.Reset()
	err = cli.Run(ctx, []string{"verify", "--data", dir, "--ratings", player}, noEnv, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), "differs from the log's") {
		t.Fatalf("verify --ratings of a changed history: %v\n%s", err, buf.String())
	}
}
