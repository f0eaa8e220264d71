package e2e

import (
	"bufio"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"paiju/api/apitest"
	"paiju/internal/pgtest"
)

// TestRequestTimeoutWhileTheStoreHangs: a node whose PostgreSQL does not
// answer (here: another session holds the events table locked, as a
// partition or a stuck lock would look to the node) answers a move 503
// request_timeout with Retry-After after --request-timeout, instead of
// holding the client until it gives up (docs/DEPLOY.md, Failure modes).
// Once the store answers again, the same move with the same
// Idempotency-Key is applied exactly once: the timed-out attempt either
// never reached the log or is the answer the retry replays.
func TestRequestTimeoutWhileTheStoreHangs(t *testing.T) {
	sequentialSkipsUnderRace(t)
	dsn := pgtest.NewDatabase(t)
	base, _, stop := startServer(t, t.TempDir(), "--store", dsn, "--request-timeout", "1s")
	defer stop()
	c := apitest.New(t, base)
	tv, ps := seatThree(t, c)

	// The seat to act and its first legal action.
	var (
		actor  rootPlayer
		action map[string]any
		before int
	)
	for _, p := range ps {
		var l struct {
			Version int              `json:"version"`
			Actions []map[string]any `json:"actions"`
		}
		c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/legal", Token: p.Token}).Decode(t, &l)
		if len(l.Actions) > 0 && l.Actions[0]["type"] != "escape" {
			actor, action, before = p, l.Actions[0], l.Version
			break
		}
	}
	if action == nil {
		t.Fatal("no seat has a legal action after the deal")
	}

	// A live stream is not bounded by the request timeout: opened now, it
	// must still be open, and bring the move, after the store comes back.
	ctx := t.Context()
	streamReq, err := http.NewRequestWithContext(ctx, "GET", base+"/v1/tables/"+tv.ID+"/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	streamReq.Header.Set("Authorization", "Bearer "+actor.Token)
	streamResp, err := http.DefaultClient.Do(streamReq)
	if err != nil {
		t.Fatal(err)
	}
	defer streamResp.Body.Close()
	ids := make(chan int, 1024)
	go func() {
		defer close(ids)
		sc := bufio.NewScanner(streamResp.Body)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
				if n, err := strconv.Atoi(v); err == nil {
					ids <- n
				}
			}
		}
	}()

	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "LOCK TABLE events, chain_head IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	post := func() *apitest.Response {
		return c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.ID + "/actions", Token: actor.Token, Body: action,
			Header: map[string]string{"Idempotency-Key": "move-while-the-store-hangs"}})
	}
	start := time.Now()
	r := post()
	took := time.Since(start)
	if r.Status != http.StatusServiceUnavailable || r.Problem(t) != "request_timeout" {
		t.Fatalf("a move while the store hangs: %d %s, want 503 request_timeout", r.Status, r.Body)
	}
	if got := r.Header.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After %q, want 1", got)
	}
	t.Logf("answered 503 request_timeout after %s", took.Round(time.Millisecond))
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}

	// The store answers again: the retry is applied once, and answered so
	// again after that.
	var first struct {
		Version int `json:"version"`
		Events  []struct {
			Version int `json:"version"`
		} `json:"events"`
	}
	for r = post(); r.Status == http.StatusConflict && r.Problem(t) == "request_in_progress"; r = post() {
		time.Sleep(100 * time.Millisecond) // the timed-out attempt is still finishing
	}
	if r.Status != http.StatusOK {
		t.Fatalf("the retry after the store came back: %d %s", r.Status, r.Body)
	}
	r.Decode(t, &first)
	if len(first.Events) == 0 || first.Events[0].Version != before+1 {
		t.Fatalf("the retry's events %+v, want them to follow version %d", first.Events, before)
	}
	again := post()
	if again.Status != http.StatusOK || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the same key once more: %d (Idempotent-Replayed %q) %s, want the stored answer", again.Status, again.Header.Get("Idempotent-Replayed"), again.Body)
	}
	var view struct {
		Version int `json:"version"`
	}
	c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID, Token: actor.Token}).Decode(t, &view)
	if view.Version != first.Version {
		t.Fatalf("the table is at version %d after one move answered at %d: the move was applied more than once", view.Version, first.Version)
	}
	for id := range ids {
		if id >= first.Version {
			return
		}
	}
	t.Fatalf("the live stream ended before it brought version %d: the request timeout cut it (open %s)", first.Version, time.Since(start).Round(time.Millisecond))
}
