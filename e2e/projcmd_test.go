package e2e

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
	"paiju/internal/cli"
)

// waitProjected polls /v1/projections until every projection has caught up
// with the log.
func waitProjected(t *testing.T, c *apitest.Client, tok string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var st struct {
			Head        int64 `json:"head"`
			Projections []struct {
				Lag int64 `json:"lag"`
			} `json:"projections"`
		}
		c.Do(apitest.Request{Method: "GET", Path: "/v1/projections", Token: tok}).Decode(t, &st)
		caught := st.Head > 0
		for _, p := range st.Projections {
			caught = caught && p.Lag == 0
		}
		if caught {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("projections did not catch up: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeProjectsAndReplay: the server projects a played hand in process;
// "paiju replay" rebuilds the projections from the log to the same answers.
func TestServeProjectsAndReplay(t *testing.T) {
	dir := t.TempDir()
	base, _, stop := startServer(t, dir, "--time-zone", "Europe/Paris")
	c := apitest.New(t, base)
	tv, ps := seatThree(t, c)
	rng := rand.New(rand.NewPCG(3, 4))
	for settled, step := false, 0; !settled; step++ {
		if step == 500 {
			t.Fatal("the hand did not settle")
		}
		var v struct {
			Turn *int `json:"turn"`
		}
		c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID, Token: ps[0].Token}).Decode(t, &v)
		p := ps[*v.Turn]
		r := playRandomChoice(t, c, tv.ID, p.Token, rng)
		settled = strings.Contains(string(r.Body), `"HandSettled"`)
	}
	waitProjected(t, c, ps[0].Token)
	paths := []string{"/v1/hands/" + tv.ID + "-1", "/v1/leaderboards/doudizhu?period=week", "/v1/players/" + ps[0].ID}
	read := func(c *apitest.Client) []string {
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
	if !strings.Contains(before[1], `"time_zone":"Europe/Paris"`) {
		t.Fatalf("leaderboard ignores --time-zone: %s", before[1])
	}
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}

	var out bytes.Buffer
	if err := cli.Run(context.Background(), []string{"replay", "--data", dir, "--projection", "all"}, func(string) string { return "" }, &out, &out); err != nil {
		t.Fatalf("paiju replay: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "projection hands rebuilt") || !strings.Contains(out.String(), "projection leaderboards rebuilt") {
		t.Fatalf("replay output:\n%s", out.String())
	}

	base, _, stop = startServer(t, dir, "--time-zone", "Europe/Paris", "--projector", "external")
	c = apitest.New(t, base)
	after := read(c)
	for i := range paths {
		if after[i] != before[i] {
			t.Fatalf("GET %s after replay:\n%s\nwas\n%s", paths[i], after[i], before[i])
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
}
