package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/projections"
)

// lobbyLog: T1 open (A, B of three seats), T2 running then open again when
// D escapes (A, C, D; one hand settled), T3 closed (A), T4 another game
// with nobody seated.
func lobbyLog() *log {
	l := &log{at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	at := func(tid string, p table.Payload) {
		l.stream = "table-" + tid
		l.add(p)
	}
	for _, tid := range []string{"T1", "T2", "T3"} {
		at(tid, table.TableOpened{TableID: tid, Game: "g", Variant: "v", Seats: 3, Stake: 1, RulesVersion: "1"})
	}
	at("T4", table.TableOpened{TableID: "T4", Game: "h", Variant: "v", Seats: 4, Stake: 1, RulesVersion: "1", Options: json.RawMessage(`{"a": 1}`)})
	at("T1", table.PlayerSeated{Seat: 0, PlayerID: "A", Name: "nameA"})
	at("T1", table.PlayerSeated{Seat: 1, PlayerID: "B", Name: "nameB"})
	for s, id := range []string{"A", "C", "D"} {
		at("T2", table.PlayerSeated{Seat: s, PlayerID: id, Name: "name" + id})
	}
	at("T2", table.HandDealt{Hand: 1, Deal: 1})
	at("T2", table.DealSecret{Hand: 1, Deal: 1, Seed: "s"})
	at("T2", table.HandSettled{Hand: 1, Deltas: []int{2, -1, -1}, Seed: "s"})
	at("T3", table.PlayerSeated{Seat: 0, PlayerID: "A", Name: "nameA"})
	at("T3", table.TableClosed{Reason: "test"})
	return l
}

func ids(p projections.TablePage) []string {
	var out []string
	for _, t := range p.Tables {
		out = append(out, t.ID)
	}
	return out
}

func TestDirectory(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	l := lobbyLog()
	if err := db.CatchUp(ctx, projections.Directory, l); err != nil {
		t.Fatal(err)
	}
	lobby := func(q projections.TableQuery) projections.TablePage {
		t.Helper()
		p, err := db.Tables(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	mine := func(player string, statuses []string, cursor string, limit int) projections.TablePage {
		t.Helper()
		p, err := db.PlayerTables(ctx, player, statuses, cursor, limit)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got := ids(lobby(projections.TableQuery{})); !slices.Equal(got, []string{"T4", "T2", "T1"}) {
		t.Fatalf("lobby lists %v, want the open and running tables newest first [T4 T2 T1]", got)
	}
	if got := ids(lobby(projections.TableQuery{Game: "g", Statuses: []string{projections.StatusOpen}})); !slices.Equal(got, []string{"T1"}) {
		t.Fatalf("open tables of g: %v, want [T1]", got)
	}
	var paged []string
	for cursor, n := "", 0; n < 5; n++ {
		p := lobby(projections.TableQuery{Cursor: cursor, Limit: 1})
		paged = append(paged, ids(p)...)
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	if !slices.Equal(paged, []string{"T4", "T2", "T1"}) {
		t.Fatalf("lobby one by one: %v", paged)
	}
	t2 := lobby(projections.TableQuery{Game: "g", Statuses: []string{projections.StatusRunning}}).Tables
	if len(t2) != 1 || t2[0].Status != "running" || t2[0].FreeSeats != 0 || t2[0].HandsPlayed != 1 || len(t2[0].Players) != 3 || t2[0].Players[2].PlayerID != "D" {
		t.Fatalf("running table: %+v", t2)
	}
	if got := ids(mine("A", nil, "", 0)); !slices.Equal(got, []string{"T2", "T1"}) {
		t.Fatalf("A's tables %v, want running first [T2 T1]", got)
	}
	all := []string{projections.StatusOpen, projections.StatusRunning, projections.StatusClosed}
	paged = nil
	for cursor, n := "", 0; n < 5; n++ {
		p := mine("A", all, cursor, 1)
		paged = append(paged, ids(p)...)
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	if !slices.Equal(paged, []string{"T2", "T1", "T3"}) {
		t.Fatalf("A's tables with the closed one, one by one: %v, want [T2 T1 T3]", paged)
	}
	kind := projections.QuickKind{Game: "g", Variant: "v", Stake: 1, Options: "{}", RulesVersion: "1"}
	open := func(player string) []string {
		t.Helper()
		got, err := db.OpenTables(ctx, kind, player, 10)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := open("C"); !slices.Equal(got, []string{"T1"}) {
		t.Fatalf("quick tables for C: %v, want [T1]", got)
	}
	if got := open("A"); len(got) != 0 {
		t.Fatalf("quick tables for A, seated at T1: %v, want none", got)
	}

	// D escapes from T2: it is open again, and no longer D's.
	l.stream = "table-T2"
	l.add(table.PlayerEscaped{Seat: 2, PlayerID: "D", Hand: 2})
	if err := db.CatchUp(ctx, projections.Directory, l); err != nil {
		t.Fatal(err)
	}
	if got := open("E"); !slices.Equal(got, []string{"T1", "T2"}) {
		t.Fatalf("quick tables for E after the escape: %v, want one free seat each, the oldest first [T1 T2]", got)
	}
	if got := open("B"); !slices.Equal(got, []string{"T2"}) {
		t.Fatalf("quick tables for B, seated at T1, after the escape: %v, want [T2]", got)
	}
	if got := ids(mine("D", nil, "", 0)); len(got) != 0 {
		t.Fatalf("D's tables after escaping: %v", got)
	}

	// Rebuilt from position 0: the same answers.
	snap := func() string {
		b, _ := json.Marshal([]any{lobby(projections.TableQuery{Statuses: all}), mine("A", all, "", 0), open("B")})
		return string(b)
	}
	want := snap()
	if err := db.Replay(ctx, projections.Directory, l); err != nil {
		t.Fatal(err)
	}
	if got := snap(); got != want {
		t.Fatalf("after replay:\n%s\nwas\n%s", got, want)
	}

	if _, err := db.Tables(ctx, projections.TableQuery{Cursor: "bogus"}); !errors.Is(err, projections.ErrBadCursor) {
		t.Fatalf("bad cursor: %v", err)
	}
	if _, err := db.PlayerTables(ctx, "A", nil, projections.EncodeCursor(3), 0); !errors.Is(err, projections.ErrBadCursor) {
		t.Fatalf("a lobby cursor for a player's list: %v", err)
	}
}

// BenchmarkApplyBatchByProjection measures events projected per second by
// each projection alone, in batches of up to 256 events as the runner
// applies them: what the directory adds to the others.
func BenchmarkApplyBatchByProjection(b *testing.B) {
	for _, n := range projections.Names {
		b.Run(n, func(b *testing.B) {
			ctx := context.Background()
			db := open(b)
			src := escapeTable(b.N/3 + 1)
			evs := src.evs[:b.N]
			b.ResetTimer()
			for i := 0; i < len(evs); i += 256 {
				if _, err := db.ApplyBatch(ctx, n, evs[i:min(i+256, len(evs))]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// TestDirectoryKeepsPrivateTablesOut: a private table is among its
// players' tables, never in the lobby nor among quick play's open tables.
func TestDirectoryKeepsPrivateTablesOut(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	l := &log{at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, tid := range []string{"P1", "O1"} {
		l.stream = "table-" + tid
		l.add(table.TableOpened{TableID: tid, Game: "g", Variant: "v", Seats: 3, Stake: 1, RulesVersion: "1", Private: tid == "P1"})
		l.add(table.PlayerSeated{Seat: 0, PlayerID: "A", Name: "nameA"})
	}
	if err := db.CatchUp(ctx, projections.Directory, l); err != nil {
		t.Fatal(err)
	}
	lobby, err := db.Tables(ctx, projections.TableQuery{})
	if err != nil || !slices.Equal(ids(lobby), []string{"O1"}) {
		t.Errorf("lobby = %v %v, want [O1] only", ids(lobby), err)
	}
	mine, err := db.PlayerTables(ctx, "A", nil, "", 10)
	if err != nil || !slices.Equal(ids(mine), []string{"P1", "O1"}) && !slices.Equal(ids(mine), []string{"O1", "P1"}) {
		t.Errorf("A's tables = %v %v, want both", ids(mine), err)
	}
	open, err := db.OpenTables(ctx, projections.QuickKind{Game: "g", Variant: "v", Stake: 1, Options: "{}", RulesVersion: "1"}, "B", 10)
	if err != nil || !slices.Equal(open, []string{"O1"}) {
		t.Errorf("quick play's open tables = %v %v, want [O1] only", open, err)
	}
}
