package e2e

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/domain/tournament"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/internal/app"
	"paiju/internal/cli"
	"paiju/internal/testclock"
	"paiju/service"
)

// TestVerifyRedecidesTournaments: paiju verify re-decides a tournament's
// stream next to its tables'.
func TestVerifyRedecidesTournaments(t *testing.T) {
	ctx := context.Background()
	c := app.Common{Data: t.TempDir()}
	// One clock, standing still but for the test, records the events and
	// times the bots: what is due does not depend on the machine's speed.
	clock := testclock.New(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	st, err := sqlite.Open(ctx, c.DBPath(), sqlite.Options{HeadFile: c.HeadPath(), Logger: slog.New(slog.DiscardHandler), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	svc := service.New(service.Config{Store: st, Games: games.All(), Clock: clock})
	tl, err := svc.OpenTournament(ctx, service.Player{ID: "host"}, service.TournamentRequest{
		Game: "doudizhu", Variant: "classic", Format: "elimination", Players: 3, HandsPerTable: 1, Stake: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	id := tl.State.TournamentID
	for i := range 3 {
		if tl, err = svc.JoinTournament(ctx, service.Player{ID: fmt.Sprintf("p%d", i)}, id); err != nil {
			t.Fatal(err)
		}
	}
	tb := tl.State.Current().Tables[0]
	for _, p := range tb.Players {
		if _, err := svc.Act(ctx, service.Player{ID: p}, tb.TableID, table.Action{Type: table.ActionDelegate}, service.NoCond); err != nil {
			t.Fatal(err)
		}
	}
	for range 1000 {
		if tl, err = svc.LoadTournament(ctx, id); err != nil {
			t.Fatal(err)
		}
		if tl.State.Status == tournament.StatusEnded {
			break
		}
		svc.RunDue(ctx)
		clock.Advance(time.Second)
	}
	if tl.State.Status != tournament.StatusEnded {
		t.Fatalf("the tournament did not end: %s", tl.State.Status)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := cli.Run(ctx, []string{"verify", "--data", c.Data}, func(string) string { return "" }, &out, &out); err != nil {
		t.Fatalf("verify: %v\n%s", err, out.String())
	}
	want := "ok tournament-" + id + ": "
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "ok table-"+tb.TableID) {
		t.Fatalf("verify said:\n%s\nwant a line %q and the table's", out.String(), want)
	}
}
