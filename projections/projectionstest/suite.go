package projectionstest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/domain/tournament"
	"paiju/eventstore"
	"paiju/internal/cputime"
	"paiju/projections"
)

// Opener opens an empty projection store whose leaderboard periods are
// bounded at now in Asia/Shanghai, closed when t ends. again, if not nil,
// opens another handle on the same database, as another node or process
// would; the concurrent tests need it.
type Opener func(t testing.TB, now func() time.Time) (db DB, again func() DB)

// Run runs the conformance suite against the stores open opens.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(*testing.T, Opener)
	}{
		{"ApplyIdempotentAndEscapes", testApplyIdempotent},
		{"GapReported", testGap},
		{"SettlementWithoutDeltas", testNoDeltas},
		{"FailedBatchAppliesNothing", testFailedBatch},
		{"ReplaySameAsIncremental", testReplay},
		{"Directory", testDirectory},
		{"DirectoryPrivateTables", testDirectoryPrivate},
		{"RebuildOnDivergedLog", testDiverged},
		{"ConcurrentAppliers", testConcurrent},
		{"BadQueries", testBadQueries},
		{"WaitFor", testWaitFor},
		{"Tournaments", testTournaments},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open) })
	}
}

// fixed is a clock for stores whose answers do not depend on it.
func fixed() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }

// escapeTable: three seats; of every three hands, the second ends with B
// escaping from seat 1 and sitting down there again afterwards.
func escapeTable(hands int) *Log {
	l := NewLog(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	const s = "table-T1"
	l.Add(s, time.Second, table.TableOpened{TableID: "T1", Game: "g", Variant: "v", Seats: 3, Stake: 1})
	for seat, id := range []string{"A", "B", "C"} {
		l.Add(s, time.Second, table.PlayerSeated{Seat: seat, PlayerID: id, Name: "name" + id})
	}
	for h := 1; h <= hands; h++ {
		l.Add(s, time.Second, table.HandDealt{Hand: h, Deal: 1, Commitment: "c"})
		l.Add(s, time.Second, table.DealSecret{Hand: h, Deal: 1, Seed: "s"})
		if h%3 == 2 {
			l.Add(s, time.Second, table.PlayerEscaped{Seat: 1, PlayerID: "B", Hand: h})
			l.Add(s, time.Second, table.HandSettled{Hand: h, Deltas: []int{2, -4, 2}, Seed: "s"})
			l.Add(s, time.Second, table.PlayerSeated{Seat: 1, PlayerID: "B", Name: "nameB"})
			continue
		}
		l.Add(s, time.Second, table.HandSettled{Hand: h, Deltas: []int{-2, 1, 1}, Seed: "s"})
	}
	return l
}

func apply1(t testing.TB, db DB, name string, ev eventstore.Event) int {
	t.Helper()
	n, err := db.ApplyBatch(context.Background(), name, []eventstore.Event{ev})
	if err != nil {
		t.Fatalf("apply %d to %s: %v", ev.Position, name, err)
	}
	return n
}

// testApplyIdempotent: events delivered again change nothing, and the
// escaper answers for the hand they left (shengji.md escape settlement is
// per seat).
func testApplyIdempotent(t *testing.T, open Opener) {
	ctx := context.Background()
	db, _ := open(t, fixed)
	l := escapeTable(2)
	for _, ev := range l.Events {
		for _, n := range projections.Names {
			if got := apply1(t, db, n, ev); got != 1 {
				t.Fatalf("apply %d to %s: applied %d, want 1", ev.Position, n, got)
			}
		}
	}
	want := Snapshot(t, db, l)
	for _, ev := range l.Events {
		for _, n := range projections.Names {
			if got := apply1(t, db, n, ev); got != 0 {
				t.Fatalf("apply %d to %s again: applied %d, want 0", ev.Position, n, got)
			}
		}
	}
	if got := Snapshot(t, db, l); got != want {
		t.Fatalf("after duplicates:\n%s\nwas\n%s", got, want)
	}
	lb, err := db.Leaderboard(ctx, projections.LeaderboardQuery{Game: "g"})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]projections.Row{}
	for _, r := range lb.Rows {
		byID[r.PlayerID] = r
	}
	if byID["B"].Score != -3 || byID["A"].Score != 0 || byID["C"].Score != 3 || byID["B"].Hands != 2 {
		t.Fatalf("rows %+v: want B -3 over 2 hands (escape settled on the escaper), A 0, C 3", lb.Rows)
	}
	h, err := db.Hand(ctx, "T1-2")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Seats) != 3 || h.Seats[1].PlayerID != "B" || !slices.Equal(h.Deltas, []int{2, -4, 2}) || len(h.Events) != 4 {
		t.Fatalf("hand T1-2 %+v: want B in seat 1, deltas [2 -4 2], 4 events", h)
	}
	if _, err := db.Checkpoint(ctx, "nope"); !errors.Is(err, projections.ErrUnknown) {
		t.Fatalf("checkpoint of an unknown projection: %v, want ErrUnknown", err)
	}
	if _, err := db.ApplyBatch(ctx, "nope", l.Events); !errors.Is(err, projections.ErrUnknown) {
		t.Fatalf("apply to an unknown projection: %v, want ErrUnknown", err)
	}
}

// testGap: a batch past a gap applies what comes before the gap, commits
// it, and reports the gap.
func testGap(t *testing.T, open Opener) {
	ctx := context.Background()
	db, _ := open(t, fixed)
	l := escapeTable(3)
	for _, n := range projections.Names {
		if _, err := db.ApplyBatch(ctx, n, l.Events[:5]); err != nil {
			t.Fatal(err)
		}
		var gap *projections.GapError
		_, err := db.ApplyBatch(ctx, n, l.Events[7:9])
		if !errors.As(err, &gap) || gap.Checkpoint != 5 || gap.Position != 8 || gap.Name != n {
			t.Fatalf("%s: events 8, 9 at checkpoint 5: %v, want a gap at 5 to 8", n, err)
		}
		applied, err := db.ApplyBatch(ctx, n, append(slices.Clone(l.Events[3:7]), l.Events[8]))
		if !errors.As(err, &gap) || gap.Checkpoint != 7 || gap.Position != 9 || applied != 2 {
			t.Fatalf("%s: events 4-7 and 9 at checkpoint 5: applied %d, %v; want 6 and 7 applied, then a gap at 7 to 9", n, applied, err)
		}
		if cp, err := db.Checkpoint(ctx, n); err != nil || cp != 7 {
			t.Fatalf("%s: checkpoint %d, %v after the gap; want 7: the events before it are committed", n, cp, err)
		}
		pos, hash, err := db.Anchor(ctx, n)
		if err != nil || pos != 7 || hash != l.Events[6].Hash {
			t.Fatalf("%s: anchor %d %q, %v; want 7 %q", n, pos, hash, err, l.Events[6].Hash)
		}
	}
}

// testNoDeltas: a settlement that records no deltas settles the hand with
// none, and credits no one.
func testNoDeltas(t *testing.T, open Opener) {
	ctx := context.Background()
	db, _ := open(t, fixed)
	l := escapeTable(1)
	l.Add("table-T1", time.Second, table.HandDealt{Hand: 2, Deal: 1})
	l.Add("table-T1", time.Second, table.HandSettled{Hand: 2, Seed: "s"})
	for _, n := range projections.Names {
		if err := projections.CatchUp(ctx, db, n, l); err != nil {
			t.Fatal(err)
		}
	}
	h, err := db.Hand(ctx, "T1-2")
	if err != nil || h.Deltas != nil || len(h.Events) != 2 {
		t.Fatalf("hand T1-2 settled without deltas: %+v, %v; want no deltas, 2 events", h, err)
	}
	p, err := db.PlayerHands(ctx, "A", "", 0)
	if err != nil || len(p.Hands) != 1 || p.Hands[0].Hand != 1 {
		t.Fatalf("A's hands %+v, %v: want hand 1 only", p, err)
	}
	ps, err := db.Player(ctx, "A")
	if err != nil || len(ps.Games) != 1 || ps.Games[0].Hands != 1 {
		t.Fatalf("A's totals %+v, %v: want one hand", ps, err)
	}
}

// testFailedBatch: a batch with an event that cannot be applied applies
// none of its events and leaves the store able to apply the others.
func testFailedBatch(t *testing.T, open Opener) {
	ctx := context.Background()
	db, _ := open(t, fixed)
	l := escapeTable(1)
	bad := slices.Clone(l.Events[:4])
	bad[3].Data = []byte(`{"seat": "two", "player_id": "C"}`) // PlayerSeated
	// The tournaments read no table stream: theirs is broken in a
	// registration.
	tl := NewLog(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	tl.Add("tournament-U1", time.Second, tournament.Opened{TournamentID: "U1", Format: tournament.FormatElimination, Players: 3})
	tl.Add("tournament-U1", time.Second, tournament.Registered{PlayerID: "A", Name: "a"})
	tl.Add("tournament-U1", time.Second, tournament.Registered{PlayerID: "B", Name: "b"})
	badT := slices.Clone(tl.Events)
	badT[2].Data = []byte(`{"player_id": 2}`)
	for range 10 {
		for _, n := range projections.Names {
			batch := bad
			if n == projections.Tournaments {
				batch = badT
			}
			if _, err := db.ApplyBatch(ctx, n, batch); err == nil {
				t.Fatalf("%s: a batch with a malformed event applied", n)
			}
			if cp, err := db.Checkpoint(ctx, n); err != nil || cp != 0 {
				t.Fatalf("%s: checkpoint %d, %v after a failed batch; want 0", n, cp, err)
			}
		}
	}
	for _, n := range projections.Names {
		if err := projections.CatchUp(ctx, db, n, l); err != nil {
			t.Fatal(err)
		}
	}
	if h, err := db.Hand(ctx, "T1-1"); err != nil || len(h.Events) != 3 {
		t.Fatalf("hand T1-1 after the failures: %+v, %v", h, err)
	}
}

// testReplay: a random log applied in random batches, one event at a time,
// or rebuilt from position 0 gives the same answers.
func testReplay(t *testing.T, open Opener) {
	ctx := context.Background()
	l := RandomLog(7, 10, Events(500))
	db, _ := open(t, l.Now)
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range projections.Names {
		for i := 0; i < len(l.Events); {
			j := min(len(l.Events), i+1+r.IntN(40))
			if _, err := db.ApplyBatch(ctx, n, l.Events[i:j]); err != nil {
				t.Fatal(err)
			}
			i = j
		}
	}
	want := Snapshot(t, db, l)
	for _, n := range projections.Names {
		if err := projections.Replay(ctx, db, n, l); err != nil {
			t.Fatal(err)
		}
	}
	if got := Snapshot(t, db, l); got != want {
		t.Fatalf("after replay:\n%s", Diff(got, want))
	}
	one, _ := open(t, l.Now)
	for _, ev := range l.Events {
		for _, n := range projections.Names {
			apply1(t, one, n, ev)
		}
	}
	if got := Snapshot(t, one, l); got != want {
		t.Fatalf("one event a transaction:\n%s", Diff(got, want))
	}
}

// Diff shows the first lines two snapshots differ at.
func Diff(got, want string) string {
	g, w := splitLines(got), splitLines(want)
	var out []string
	for i := 0; i < max(len(g), len(w)) && len(out) < 6; i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			out = append(out, fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, a, b))
		}
	}
	return fmt.Sprint(len(g), " lines, want ", len(w), "\n", join(out))
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

func join(lines []string) string {
	s := ""
	for _, l := range lines {
		s += l + "\n"
	}
	return s
}

// lobbyLog: T1 open (A, B of three seats), T2 running then open again when
// D escapes (A, C, D; one hand settled), T3 closed (A), T4 another game
// with nobody seated.
func lobbyLog() *Log {
	l := NewLog(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	at := func(tid string, p table.Payload) { l.Add("table-"+tid, time.Second, p) }
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

// testDirectoryPrivate: a private table (found by its room code only) is
// among its players' tables, never in the lobby nor among quick play's open
// tables.
func testDirectoryPrivate(t *testing.T, open Opener) {
	ctx := context.Background()
	db, _ := open(t, fixed)
	l := NewLog(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	for _, tid := range []string{"P1", "O1"} {
		l.Add("table-"+tid, time.Second, table.TableOpened{TableID: tid, Game: "g", Variant: "v", Seats: 3, Stake: 1, RulesVersion: "1", Private: tid == "P1"})
		l.Add("table-"+tid, time.Second, table.PlayerSeated{Seat: 0, PlayerID: "A", Name: "nameA"})
	}
	if err := projections.CatchUp(ctx, db, projections.Directory, l); err != nil {
		t.Fatal(err)
	}
	lobby, err := db.Tables(ctx, projections.TableQuery{})
	if err != nil || !slices.Equal(ids(lobby), []string{"O1"}) {
		t.Errorf("lobby = %v %v, want [O1] only", ids(lobby), err)
	}
	mine, err := db.PlayerTables(ctx, "A", nil, "", 10)
	if got := ids(mine); err != nil || !slices.Equal(got, []string{"O1", "P1"}) && !slices.Equal(got, []string{"P1", "O1"}) {
		t.Errorf("A's tables = %v %v, want both", got, err)
	}
	quick, err := db.OpenTables(ctx, projections.QuickKind{Game: "g", Variant: "v", Stake: 1, Options: "{}", RulesVersion: "1", Spectators: "public"}, "B", 10)
	if err != nil || !slices.Equal(quick, []string{"O1"}) {
		t.Errorf("quick play's open tables = %v %v, want [O1] only", quick, err)
	}
}

func ids(p projections.TablePage) []string {
	var out []string
	for _, t := range p.Tables {
		out = append(out, t.ID)
	}
	return out
}

// testDirectory: the lobby, a player's tables and quick play, as the
// directory's statuses and orders say (projections/directory.go).
func testDirectory(t *testing.T, open Opener) {
	ctx := context.Background()
	db, _ := open(t, fixed)
	l := lobbyLog()
	if err := projections.CatchUp(ctx, db, projections.Directory, l); err != nil {
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
	if t4 := lobby(projections.TableQuery{Game: "h"}).Tables; len(t4) != 1 || string(t4[0].Options) != `{"a":1}` || len(t4[0].Players) != 0 || t4[0].Players == nil {
		t.Fatalf("table T4: %+v, want compact options and an empty list of players", t4)
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
	kind := projections.QuickKind{Game: "g", Variant: "v", Stake: 1, Options: "{}", RulesVersion: "1", Spectators: "public"}
	quick := func(player string) []string {
		t.Helper()
		got, err := db.OpenTables(ctx, kind, player, 10)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := quick("C"); !slices.Equal(got, []string{"T1"}) {
		t.Fatalf("quick tables for C: %v, want [T1]", got)
	}
	if got := quick("A"); len(got) != 0 {
		t.Fatalf("quick tables for A, seated at T1: %v, want none", got)
	}

	// D escapes from T2: it is open again, and no longer D's.
	l.Add("table-T2", time.Second, table.PlayerEscaped{Seat: 2, PlayerID: "D", Hand: 2})
	if err := projections.CatchUp(ctx, db, projections.Directory, l); err != nil {
		t.Fatal(err)
	}
	if got := quick("E"); !slices.Equal(got, []string{"T1", "T2"}) {
		t.Fatalf("quick tables for E after the escape: %v, want one free seat each, the oldest first [T1 T2]", got)
	}
	if got := quick("B"); !slices.Equal(got, []string{"T2"}) {
		t.Fatalf("quick tables for B, seated at T1, after the escape: %v, want [T2]", got)
	}
	if got := ids(mine("D", nil, "", 0)); len(got) != 0 {
		t.Fatalf("D's tables after escaping: %v", got)
	}

	// Rebuilt from position 0: the same answers.
	snap := func() string {
		b, _ := json.Marshal([]any{lobby(projections.TableQuery{Statuses: all}), mine("A", all, "", 0), quick("B")})
		return string(b)
	}
	want := snap()
	if err := projections.Replay(ctx, db, projections.Directory, l); err != nil {
		t.Fatal(err)
	}
	if got := snap(); got != want {
		t.Fatalf("after replay:\n%s\nwas\n%s", got, want)
	}
}

// testDiverged: a log that no longer holds a projection's checkpoint (an
// older backup restored) makes CatchUp rebuild from position 0, with the
// answers of a store built from that log alone.
func testDiverged(t *testing.T, open Opener) {
	ctx := context.Background()
	newer := RandomLog(11, 6, 300)
	older := RandomLog(12, 6, 200)
	db, _ := open(t, older.Now)
	for _, n := range projections.Names {
		if err := projections.CatchUp(ctx, db, n, newer); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range projections.Names {
		if err := projections.CatchUp(ctx, db, n, older); err != nil {
			t.Fatal(err)
		}
	}
	fresh, _ := open(t, older.Now)
	for _, n := range projections.Names {
		if err := projections.CatchUp(ctx, fresh, n, older); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := Snapshot(t, db, older), Snapshot(t, fresh, older); got != want {
		t.Fatalf("caught up on an older log:\n%s", Diff(got, want))
	}
}

// testConcurrent: appliers on two handles (two nodes) delivering the same
// events at once, in batches of their own sizes, apply each event once:
// the rows are those of one applier.
func testConcurrent(t *testing.T, open Opener) {
	ctx := context.Background()
	l := RandomLog(21, 12, 800)
	db, again := open(t, l.Now)
	if again == nil {
		t.Skip("the store cannot open a second handle on its database")
	}
	other := again()
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(projections.Names))
	for i, h := range []DB{db, other} {
		for _, n := range projections.Names {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(i), 99))
				f := projections.Feed{Store: h, Log: l}
				for j := 0; j < len(l.Events); {
					k := min(len(l.Events), j+1+r.IntN(64))
					// Overlapping batches, as redeliveries are.
					from := max(0, j-r.IntN(8))
					if err := f.Apply(ctx, n, l.Events[from:k]); err != nil {
						errs <- fmt.Errorf("applier %d, %s: %w", i, n, err)
						return
					}
					j = k
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	one, _ := open(t, l.Now)
	for _, n := range projections.Names {
		if err := projections.CatchUp(ctx, one, n, l); err != nil {
			t.Fatal(err)
		}
	}
	want := Snapshot(t, one, l)
	if got := Snapshot(t, db, l); got != want {
		t.Fatalf("two appliers:\n%s", Diff(got, want))
	}
	if got := Snapshot(t, other, l); got != want {
		t.Fatalf("two appliers, read on the second handle:\n%s", Diff(got, want))
	}
}

// testBadQueries: cursors not issued by the list, limits out of range,
// unknown statuses and periods are refused with the errors the API maps.
func testBadQueries(t *testing.T, open Opener) {
	ctx := context.Background()
	db, _ := open(t, fixed)
	if _, err := db.Tables(ctx, projections.TableQuery{Cursor: "bogus"}); !errors.Is(err, projections.ErrBadCursor) {
		t.Errorf("lobby, bad cursor: %v", err)
	}
	if _, err := db.PlayerTables(ctx, "A", nil, projections.EncodeCursor(3), 0); !errors.Is(err, projections.ErrBadCursor) {
		t.Errorf("a lobby cursor for a player's list: %v", err)
	}
	if _, err := db.Tables(ctx, projections.TableQuery{Statuses: []string{"gone"}}); !errors.Is(err, projections.ErrBadQuery) {
		t.Errorf("lobby, unknown status: %v", err)
	}
	if _, err := db.Tables(ctx, projections.TableQuery{Limit: projections.MaxLimit + 1}); !errors.Is(err, projections.ErrBadQuery) {
		t.Errorf("lobby, limit too large: %v", err)
	}
	if _, err := db.TableHands(ctx, "T1", "bogus", 0); !errors.Is(err, projections.ErrBadCursor) {
		t.Errorf("table hands, bad cursor: %v", err)
	}
	if _, err := db.PlayerHands(ctx, "A", "", -1); !errors.Is(err, projections.ErrBadQuery) {
		t.Errorf("player hands, negative limit: %v", err)
	}
	if _, err := db.Leaderboard(ctx, projections.LeaderboardQuery{Game: "g", Period: "year"}); !errors.Is(err, projections.ErrBadQuery) {
		t.Errorf("leaderboard, period year: %v", err)
	}
	if _, err := db.Leaderboard(ctx, projections.LeaderboardQuery{Game: "g", Around: "A"}); !errors.Is(err, projections.ErrNotFound) {
		t.Errorf("leaderboard around a player without a row: %v", err)
	}
	if _, err := db.Player(ctx, "A"); !errors.Is(err, projections.ErrNotFound) {
		t.Errorf("a player never seated: %v", err)
	}
	if _, err := db.Hand(ctx, "T1-1"); !errors.Is(err, projections.ErrNotFound) {
		t.Errorf("an unknown hand: %v", err)
	}
	l := escapeTable(1)
	for _, n := range projections.Names {
		if _, err := db.ApplyBatch(ctx, n, l.Events[:6]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Hand(ctx, "T1-1"); !errors.Is(err, projections.ErrHandInProgress) {
		t.Errorf("a hand dealt, not settled: %v, want ErrHandInProgress", err)
	}
}

// testWaitFor: WaitFor returns once every projection holds the position,
// and says ErrLagging when one does not.
func testWaitFor(t *testing.T, open Opener) {
	ctx := context.Background()
	db, _ := open(t, fixed)
	l := escapeTable(1)
	for _, n := range projections.Names {
		if n == projections.Directory {
			continue
		}
		if err := projections.CatchUp(ctx, db, n, l); err != nil {
			t.Fatal(err)
		}
	}
	head := int64(len(l.Events))
	if err := db.WaitFor(ctx, head, time.Millisecond); !errors.Is(err, projections.ErrLagging) {
		t.Fatalf("wait with the directory at 0: %v, want ErrLagging", err)
	}
	done := make(chan error, 1)
	go func() { done <- db.WaitFor(ctx, head, time.Minute) }()
	if err := projections.CatchUp(ctx, db, projections.Directory, l); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("wait until the directory caught up: %v", err)
	}
}

// BenchApplyBatch measures events projected per second by the three
// projections, applied as the feed applies a fetched batch: up to 256
// events a transaction, each projection in turn. The log is a random one
// of 50 tables.
func BenchApplyBatch(b *testing.B, open Opener) {
	benchApplyBatch(b, open, RandomLog(5, 50, max(b.N, 1)))
}

// BenchApplyBatches is BenchApplyBatch with each batch applied to the four
// projections in one transaction (projections.BatchStore), as the feed
// applies them to a store that can.
func BenchApplyBatches(b *testing.B, open Opener) {
	benchApplyBatches(b, open, RandomLog(5, 50, max(b.N, 1)), 256)
}

// BenchApplyBatchesPageFeed is BenchApplyBatches with the batches of a
// single node's feed (projections.PageFeed): up to PageFeedBatch events a
// transaction instead of the 256 a NATS fetch brings.
func BenchApplyBatchesPageFeed(b *testing.B, open Opener) {
	benchApplyBatches(b, open, RandomLog(5, 50, max(b.N, 1)), projections.PageFeedBatch)
}

// BenchApplyBatchesLongHands is BenchApplyBatches on LongHandsLog.
func BenchApplyBatchesLongHands(b *testing.B, open Opener) {
	benchApplyBatches(b, open, LongHandsLog(5, 50, max(b.N, 1)), 256)
}

func benchApplyBatches(b *testing.B, open Opener, l *Log, batch int) {
	ctx := context.Background()
	db, _ := open(b, l.Now)
	bs, ok := db.(projections.BatchStore)
	if !ok {
		b.Skip("the store applies one projection a transaction")
	}
	evs := l.Events[:b.N]
	b.ResetTimer()
	cpu := cputime.Now()
	for i := 0; i < len(evs); i += batch {
		if err := bs.ApplyBatches(ctx, projections.Names, evs[i:min(i+batch, len(evs))]); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, cpu)
}

// BenchApplyBatchLongHands is BenchApplyBatch on a log of 50 tables whose
// hands are as long as the games' (LongHandsLog).
func BenchApplyBatchLongHands(b *testing.B, open Opener) {
	benchApplyBatch(b, open, LongHandsLog(5, 50, max(b.N, 1)))
}

// BenchApplyBatchConcurrent is BenchApplyBatch with the three projections
// applied at once, each by a goroutine of its own, as the feed applies
// them.
func BenchApplyBatchConcurrent(b *testing.B, open Opener) {
	ctx := context.Background()
	l := RandomLog(5, 50, max(b.N, 1))
	db, _ := open(b, l.Now)
	evs := l.Events[:b.N]
	b.ResetTimer()
	var wg sync.WaitGroup
	for _, n := range projections.Names {
		wg.Go(func() {
			for i := 0; i < len(evs); i += 256 {
				if _, err := db.ApplyBatch(ctx, n, evs[i:min(i+256, len(evs))]); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchApplyBatchOneTable is BenchApplyBatch on the log projections/sqlite's
// BenchmarkApplyBatch applies: one table whose hands are three to five
// events long, the most writes an event can cost.
func BenchApplyBatchOneTable(b *testing.B, open Opener) {
	benchApplyBatch(b, open, escapeTable(b.N/3+1))
}

func benchApplyBatch(b *testing.B, open Opener, l *Log) {
	ctx := context.Background()
	db, _ := open(b, l.Now)
	evs := l.Events[:b.N]
	b.ResetTimer()
	cpu := cputime.Now()
	for i := 0; i < len(evs); i += 256 {
		page := evs[i:min(i+256, len(evs))]
		for _, n := range projections.Names {
			if _, err := db.ApplyBatch(ctx, n, page); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportRates(b, cpu)
}

// reportRates reports events/s on the wall clock and on the process's CPU
// time (cpu-ns/op, cpu-events/s): on a shared machine the wall clock counts
// the time spent waiting for a core, the CPU time does not (it does count
// the garbage collector's and SQLite's work, which run in the process).
func reportRates(b *testing.B, cpuStart int64) {
	cpu := cputime.Now() - cpuStart
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	if cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(b.N)/(float64(cpu)/1e9), "cpu-events/s")
	}
}

// BenchApplyBatchByProjection measures each projection alone as
// BenchApplyBatch does all three: what each costs of the whole.
func BenchApplyBatchByProjection(b *testing.B, open Opener) {
	for _, n := range projections.Names {
		b.Run(n, func(b *testing.B) {
			ctx := context.Background()
			l := RandomLog(5, 50, max(b.N, 1))
			db, _ := open(b, l.Now)
			evs := l.Events[:b.N]
			b.ResetTimer()
			cpu := cputime.Now()
			for i := 0; i < len(evs); i += 256 {
				if _, err := db.ApplyBatch(ctx, n, evs[i:min(i+256, len(evs))]); err != nil {
					b.Fatal(err)
				}
			}
			reportRates(b, cpu)
		})
	}
}
