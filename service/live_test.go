package service_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"paiju/audit"
	"paiju/domain/table"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/internal/testclock"
	"paiju/service"
)

type liveEnv struct {
	t     testing.TB
	store *sqlite.Store
	clock *testclock.Clock
	path  string
}

func newLiveEnv(t testing.TB) *liveEnv {
	t.Helper()
	e := &liveEnv{t: t, clock: testclock.New(time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)), path: filepath.Join(t.TempDir(), "t.db")}
	e.reopen()
	return e
}

// reopen opens the store file (again): a restart.
func (e *liveEnv) reopen() {
	e.t.Helper()
	if e.store != nil {
		e.store.Close()
	}
	store, err := sqlite.Open(context.Background(), e.path, sqlite.Options{Logger: slog.New(slog.DiscardHandler), Now: e.clock.Now})
	if err != nil {
		e.t.Fatal(err)
	}
	e.store = store
	e.t.Cleanup(func() { store.Close() })
}

func (e *liveEnv) service(shared bool) *service.Service {
	return service.New(service.Config{Store: e.store, Games: games.All(), Clock: e.clock, SharedStore: shared})
}

func (e *liveEnv) types(svc *service.Service, id string) []string {
	e.t.Helper()
	l, err := svc.Load(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	out := make([]string, len(l.Events))
	for i, r := range l.Events {
		out[i] = r.Type
	}
	return out
}

// verify re-decides the table's stream with the auditor.
func (e *liveEnv) verify(id string) audit.Report {
	e.t.Helper()
	evs, err := e.store.Load(context.Background(), service.StreamID(id), 0)
	if err != nil {
		e.t.Fatal(err)
	}
	rep, err := audit.VerifyTable(games.All().Rules, evs)
	if err != nil {
		e.t.Fatalf("verify table %s: %v", id, err)
	}
	return rep
}

func openSeated(t *testing.T, svc *service.Service, req service.OpenRequest, humans int) string {
	t.Helper()
	ctx := context.Background()
	res, err := svc.Open(ctx, service.Player{ID: "p0"}, req, service.NoCond)
	if err != nil {
		t.Fatalf("open %s/%s: %v", req.Game, req.Variant, err)
	}
	id := res.Table.State.ID
	for i := range humans {
		if _, err := svc.Join(ctx, service.Player{ID: fmt.Sprintf("p%d", i), Name: "p"}, id, i, service.NoCond); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func count(types []string, typ string) int {
	n := 0
	for _, t := range types {
		if t == typ {
			n++
		}
	}
	return n
}

// TestTurnClockTimesOutThenDelegates: nobody acts at a 斗地主 table with the
// default clock. Nothing happens before the deadline; at it, the server
// appends TurnTimedOut and the seat's default action; after two timeouts in
// a row the seat is delegated (托管) and the bot plays it at once from then on;
// resume gives it back. The stream verifies throughout.
func TestTurnClockTimesOutThenDelegates(t *testing.T) {
	e := newLiveEnv(t)
	svc := e.service(false)
	ctx := context.Background()
	id := openSeated(t, svc, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, 3)
	l, _ := svc.Load(ctx, id)
	turn := *l.State.Rules.View(l.State.G, table.Auditor).Turn
	dl, ok := l.State.Deadline(turn)
	if !ok || !dl.Equal(e.clock.Now().Add(30*time.Second)) {
		t.Fatalf("deadline of seat %d: %v %v, want 30 s after the deal", turn, dl, ok)
	}
	if due, ok := svc.Due(id); !ok || !due.Equal(dl) {
		t.Fatalf("scheduled at %v %v, want the deadline %v", due, ok, dl)
	}
	e.clock.Advance(30*time.Second - time.Millisecond)
	if n := svc.RunDue(ctx); n != 0 {
		t.Fatalf("%d server moves a millisecond before the deadline, want none", n)
	}
	e.clock.Advance(time.Millisecond)
	if n := svc.RunDue(ctx); n != 1 {
		t.Fatalf("%d server moves at the deadline, want 1", n)
	}
	l, _ = svc.Load(ctx, id)
	i := slices.IndexFunc(l.Events, func(r service.Recorded) bool { return r.Type == "TurnTimedOut" })
	if i < 0 || i+1 >= len(l.Events) {
		t.Fatalf("no TurnTimedOut and default action in %d events", len(l.Events))
	}
	if to := l.Events[i].Payload.(table.TurnTimedOut); to.Seat != turn || !to.At.Equal(dl) {
		t.Fatalf("TurnTimedOut %+v, want seat %d at %v", to, turn, dl)
	}
	// The default action follows: a command of the same seat (doudizhu's doc.go: pass the bid).
	if seat, a, ok := l.State.Rules.Command(l.Events[i+1].Payload); !ok || seat != turn || a.Type != "pass" {
		t.Fatalf("after the timeout %s: seat %d %q, want seat %d's pass", l.Events[i+1].Type, seat, a.Type, turn)
	}
	if l.State.TimedOut[turn] != 1 || l.State.Delegated[turn] {
		t.Fatalf("seat %d: %d timeouts, delegated %v; want 1, false", turn, l.State.TimedOut[turn], l.State.Delegated[turn])
	}
	// The next seats time out too, once each: nobody is delegated yet.
	// Then the first seat again: its second timeout in a row delegates it.
	for range 40 {
		l, _ = svc.Load(ctx, id)
		if l.State.Delegated[turn] || l.State.Closed || !l.State.InDeal {
			break
		}
		e.clock.Advance(30 * time.Second)
		svc.RunDue(ctx)
	}
	l, _ = svc.Load(ctx, id)
	types := e.types(svc, id)
	if count(types, "SeatDelegated") == 0 {
		t.Fatalf("no seat was delegated after repeated timeouts: %v", types)
	}
	var delegated []int
	for seat, d := range l.State.Delegated {
		if d {
			delegated = append(delegated, seat)
			if l.State.TimedOut[seat] < 2 {
				t.Errorf("seat %d delegated after %d timeouts in a row, want 2", seat, l.State.TimedOut[seat])
			}
		}
	}
	e.verify(id)

	// A delegated seat's player may only resume (or escape).
	seat := delegated[0]
	p := service.Player{ID: fmt.Sprintf("p%d", seat)}
	if _, err := svc.Act(ctx, p, id, table.Action{Type: "pass"}, service.NoCond); err == nil || !isCode(err, "seat_delegated") {
		t.Fatalf("a delegated seat passes: %v, want seat_delegated", err)
	}
	legal := svc.Legal(l.State, seat)
	if !slices.ContainsFunc(legal, func(a table.Action) bool { return a.Type == table.ActionResume }) {
		t.Fatalf("legal of a delegated seat %v lacks resume", legal)
	}
	if _, err := svc.Act(ctx, p, id, table.Action{Type: table.ActionResume}, service.NoCond); err != nil {
		t.Fatalf("resume: %v", err)
	}
	l, _ = svc.Load(ctx, id)
	if l.State.Delegated[seat] || l.State.TimedOut[seat] != 0 {
		t.Fatalf("after resume: delegated %v, %d timeouts", l.State.Delegated[seat], l.State.TimedOut[seat])
	}
	e.verify(id)
}

func isCode(err error, code string) bool {
	var te *table.Error
	return errors.As(err, &te) && te.Code == code
}

// TestQuietSeatsReachSettlement: in every variant, some seats never act; the
// clock and 托管 carry the hand to its settlement, and the stream verifies.
func TestQuietSeatsReachSettlement(t *testing.T) {
	for _, gv := range allVariants() {
		t.Run(gv.game+"/"+gv.variant, func(t *testing.T) {
			e := newLiveEnv(t)
			svc := e.service(false)
			ctx := context.Background()
			id := openSeated(t, svc, service.OpenRequest{Game: gv.game, Variant: gv.variant, Stake: 1, MaxHands: 1}, gv.seats)
			for step := 0; step < 5000; step++ {
				l, err := svc.Load(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if l.State.Closed {
					break
				}
				// Seat 0 plays by the bot's choice itself (a present player);
				// everyone else is quiet.
				if l.State.Awaited(0) && !l.State.Delegated[0] {
					a, ok := table.BotMove(l.State, 0, e.clock.Now())
					if ok {
						if _, err := svc.Act(ctx, service.Player{ID: "p0"}, id, a, service.NoCond); err != nil {
							t.Fatalf("seat 0 plays %+v: %v", a, err)
						}
						continue
					}
				}
				e.clock.Advance(30 * time.Second)
				svc.RunDue(ctx)
			}
			l, _ := svc.Load(ctx, id)
			if !l.State.Closed || l.State.Last == nil {
				t.Fatalf("the hand did not end: phase %v, version %d", l.State.Rules.View(l.State.G, table.Auditor).Phase, l.State.Version)
			}
			types := e.types(svc, id)
			if count(types, "TurnTimedOut") == 0 {
				t.Fatalf("no timeout in a hand where seats never act: %v", types)
			}
			e.verify(id)
		})
	}
}

type variantCase struct {
	game, variant string
	seats         int
}

func allVariants() []variantCase {
	var out []variantCase
	reg := games.All()
	names := make([]string, 0, len(reg))
	for n := range reg {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		for _, v := range reg[n].Variants() {
			r, err := reg[n].Rules(v, nil)
			if err != nil {
				panic(err)
			}
			out = append(out, variantCase{n, v, r.Seats()})
		}
	}
	return out
}

// TestBotTablesPlayToTheirEnd: a table of bots only, in every variant, plays
// itself to its end (max_hands) and its stream verifies; so does a 斗地主
// match of the game's own option hands.
func TestBotTablesPlayToTheirEnd(t *testing.T) {
	cases := []struct {
		variantCase
		options  string
		maxHands int
	}{}
	for _, gv := range allVariants() {
		cases = append(cases, struct {
			variantCase
			options  string
			maxHands int
		}{gv, "", 3})
	}
	cases = append(cases, struct {
		variantCase
		options  string
		maxHands int
	}{variantCase{"doudizhu", "classic", 3}, `{"hands":2}`, 5})
	for _, c := range cases {
		t.Run(c.game+"/"+c.variant+c.options, func(t *testing.T) {
			e := newLiveEnv(t)
			svc := e.service(false)
			ctx := context.Background()
			req := service.OpenRequest{Game: c.game, Variant: c.variant, Stake: 1, Bots: c.seats, MaxHands: c.maxHands}
			if c.options != "" {
				req.Options = []byte(c.options)
			}
			id := openSeated(t, svc, req, 0)
			if n := svc.RunDue(ctx); n == 0 {
				t.Fatal("a table of bots made no move")
			}
			l, _ := svc.Load(ctx, id)
			if !l.State.Closed {
				t.Fatalf("the bots' table is not closed after RunDue (version %d)", l.State.Version)
			}
			for seat := range c.seats {
				if !l.State.Bots[seat] || !service.IsBot(l.State.Players[seat]) {
					t.Fatalf("seat %d is not a bot: %q", seat, l.State.Players[seat])
				}
			}
			types := e.types(svc, id)
			if count(types, "TurnTimedOut") != 0 {
				t.Fatalf("bots timed out: %d", count(types, "TurnTimedOut"))
			}
			got := count(types, "HandSettled")
			if c.options == "" && got != c.maxHands {
				t.Fatalf("%d hands settled, want max_hands %d", got, c.maxHands)
			}
			// A match of 2 hands plays on while two seats tie for first
			// (doudizhu.md, Tournament); max_hands still bounds it.
			if c.options != "" && (got < 2 || got > c.maxHands || count(types, "MatchEnded") != 1 && got < c.maxHands) {
				t.Fatalf("%d hands settled and %d MatchEnded in a match of 2 hands", got, count(types, "MatchEnded"))
			}
			if rep := e.verify(id); rep.Open {
				t.Fatal("verify says a deal is still running")
			}
		})
	}
}

// TestBotsOnlyNeedAnEnd: a table of bots only must say when it ends; bots
// beyond the seats are refused.
func TestBotsOnlyNeedAnEnd(t *testing.T) {
	e := newLiveEnv(t)
	svc := e.service(false)
	for _, req := range []service.OpenRequest{
		{Game: "doudizhu", Variant: "classic", Stake: 1, Bots: 3},
		{Game: "doudizhu", Variant: "classic", Stake: 1, Bots: 4, MaxHands: 1},
		{Game: "doudizhu", Variant: "classic", Stake: 1, Bots: -1},
		{Game: "doudizhu", Variant: "classic", Stake: 1, Clock: &table.Clock{TurnSeconds: 4}},
		{Game: "doudizhu", Variant: "classic", Stake: 1, Clock: &table.Clock{TurnSeconds: 30, DelegateAfter: 11}},
		{Game: "doudizhu", Variant: "classic", Stake: 1, MaxHands: table.MaxMaxHands + 1},
	} {
		if _, err := svc.Open(context.Background(), service.Player{ID: "p0"}, req, service.NoCond); !isCode(err, "invalid_option") {
			t.Errorf("open %+v: %v, want invalid_option", req, err)
		}
	}
	if n, _ := e.store.ReadAll(context.Background(), 0, 10); len(n) != 0 {
		t.Fatalf("refused opens stored %d events", len(n))
	}
}

// TestTimeoutSurvivesRestart: the deadline passes while no service runs; a
// new service on the same store rebuilds the schedule from the events and
// fires the timeout once.
func TestTimeoutSurvivesRestart(t *testing.T) {
	e := newLiveEnv(t)
	ctx := context.Background()
	id := openSeated(t, e.service(false), service.OpenRequest{Game: "shuangkou", Variant: "classic", Stake: 1}, 4)
	e.reopen()
	e.clock.Advance(45 * time.Second)
	svc := e.service(false)
	if n := svc.RunDue(ctx); n != 0 {
		t.Fatalf("%d moves before Resume: nothing should be known yet", n)
	}
	if err := svc.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if n := svc.RunDue(ctx); n != 1 {
		t.Fatalf("%d moves after the restart, want the one timeout", n)
	}
	if got := count(e.types(svc, id), "TurnTimedOut"); got != 1 {
		t.Fatalf("%d TurnTimedOut after the restart, want 1", got)
	}
	e.verify(id)
}

// TestTwoNodesFireOnce: two services on one store race to fire the same
// deadline; the expected-version append lets exactly one TurnTimedOut in.
func TestTwoNodesFireOnce(t *testing.T) {
	for round := range 10 {
		e := newLiveEnv(t)
		ctx := context.Background()
		a, b := e.service(true), e.service(true)
		if err := b.Resume(ctx); err != nil { // b starts first, on an empty store
			t.Fatal(err)
		}
		id := openSeated(t, a, service.OpenRequest{Game: "dadun", Variant: "lean", Stake: 1}, 4)
		// b learns of a's table from what a appended since b's last Resume.
		if err := b.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		if _, ok := b.Due(id); !ok {
			t.Fatal("node b does not know the deadline")
		}
		e.clock.Advance(31 * time.Second)
		var wg sync.WaitGroup
		wg.Go(func() { a.RunDue(ctx) })
		wg.Go(func() { b.RunDue(ctx) })
		wg.Wait()
		if got := count(e.types(a, id), "TurnTimedOut"); got != 1 {
			t.Fatalf("round %d: %d TurnTimedOut from two nodes, want 1", round, got)
		}
		e.verify(id)
	}
}
