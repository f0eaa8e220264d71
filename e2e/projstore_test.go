package e2e

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"paiju/api/apitest"
	"paiju/internal/pgtest"
	"paiju/projections"
)

// TestServePostgresProjections: with --store naming a PostgreSQL database,
// serve projects a played hand into that database and serves hands,
// leaderboards, players, the lobby and quick play from it; "paiju replay
// --store" rebuilds it to the same answers, which a server with an
// external projector then serves; migrate lists its schema.
func TestServePostgresProjections(t *testing.T) {
	url := pgtest.NewDatabase(t)
	dir := t.TempDir()
	base, _, stop := startServer(t, dir, "--store", url)
	c := apitest.New(t, base)
	tv, ps := seatThree(t, c)
	playHand(t, c, tv.ID, ps)
	waitProjected(t, c, ps[0].Token)

	// Quick play finds the table the first player opened in the
	// directory, as the second asks for the same kind.
	var quick []string
	for i, p := range ps[:2] {
		r := c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: p.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "stake": 2}})
		want := http.StatusOK
		if i == 0 {
			want = http.StatusCreated
		}
		if r.Status != want {
			t.Fatalf("quick play %d: %d %s, want %d", i, r.Status, r.Body, want)
		}
		var v struct {
			ID string `json:"id"`
		}
		r.Decode(t, &v)
		quick = append(quick, v.ID)
	}
	if quick[0] != quick[1] {
		t.Fatalf("quick play opened %s, then seated the second player at %s: want the same table", quick[0], quick[1])
	}
	waitProjected(t, c, ps[0].Token)

	paths := []string{"/v1/hands/" + tv.ID + "-1", "/v1/tables/" + tv.ID + "/hands", "/v1/leaderboards/doudizhu?period=week",
		"/v1/players/" + ps[0].ID, "/v1/players/" + ps[0].ID + "/hands", "/v1/tables?status=open", "/v1/me/tables"}
	read := func(c *apitest.Client) []string {
		t.Helper()
		var out []string
		for _, p := range paths {
			r := c.Do(apitest.Request{Method: "GET", Path: p, Token: ps[0].Token})
			if r.Status != http.StatusOK {
				t.Fatalf("GET %s: %d %s", p, r.Status, r.Body)
			}
			out = append(out, string(r.Body))
		}
		return out
	}
	before := read(c)
	if !strings.Contains(before[5], quick[0]) || !strings.Contains(before[6], tv.ID) {
		t.Fatalf("lobby %s, my tables %s: want the quick table and the played one", before[5], before[6])
	}
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "projections.db")); err == nil {
		t.Error("serve --store postgres://… created projections.db: the read model belongs in PostgreSQL")
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var hands, events int64
	if err := conn.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM hh_hands WHERE settled_at IS NOT NULL), (SELECT max(position) FROM events)`).Scan(&hands, &events); err != nil {
		t.Fatal(err)
	}
	if hands != 1 {
		t.Fatalf("PostgreSQL holds %d settled hands, want 1", hands)
	}

	out, err := runCmd(t, "replay", "--data", dir, "--store", url, "--projection", "all")
	if err != nil || strings.Count(out, "rebuilt to position ") != len(projections.Names) {
		t.Fatalf("replay --store: %v\n%s", err, out)
	}
	base, _, stop = startServer(t, dir, "--store", url, "--projector", "external")
	after := read(apitest.New(t, base))
	for i := range paths {
		if after[i] != before[i] {
			t.Errorf("GET %s after replay:\n%s\nwas\n%s", paths[i], after[i], before[i])
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}

	out, err = runCmd(t, "migrate", "--data", dir, "--store", url, "--db", "projections", "version")
	if err != nil || !strings.Contains(out, "schema version 14 of 14") {
		t.Fatalf("migrate version --db projections --store: %v\n%s", err, out)
	}
}
