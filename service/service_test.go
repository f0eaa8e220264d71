package service_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"

	"paiju/domain/table"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/service"
)

func newService(t *testing.T) (*service.Service, *sqlite.Store) { return newServiceB(t) }

func newServiceB(t testing.TB) (*service.Service, *sqlite.Store) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return service.New(service.Config{Store: store, Games: games.All()}), store
}

// TestConcurrentJoins: many players race for three seats; exactly three sit,
// each in a different seat, and the rest are told the table is full.
func TestConcurrentJoins(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	res, err := svc.Open(ctx, service.Player{ID: "host"}, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, service.NoCond)
	if err != nil {
		t.Fatal(err)
	}
	id := res.Table.State.ID
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		seated, fulls int
	)
	for i := range 12 {
		wg.Go(func() {
			p := service.Player{ID: fmt.Sprintf("p%d", i), Name: "p"}
			_, err := svc.Join(ctx, p, id, -1, service.NoCond)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				seated++
			case errors.Is(err, table.ErrTableFull):
				fulls++
			default:
				t.Errorf("join: %v", err)
			}
		})
	}
	wg.Wait()
	if seated != 3 || fulls != 9 {
		t.Fatalf("%d seated and %d refused as full, want 3 and 9", seated, fulls)
	}
	l, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !l.State.Full() || !l.State.InDeal {
		t.Fatalf("after three joins: full %v, dealt %v", l.State.Full(), l.State.InDeal)
	}
}

// TestConcurrentActionsOneWins: the seat to act sends the same bid twice at
// once; one is applied, the other is re-decided on the new state and refused.
func TestConcurrentActionsOneWins(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	res, err := svc.Open(ctx, service.Player{ID: "p0"}, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, service.NoCond)
	if err != nil {
		t.Fatal(err)
	}
	id := res.Table.State.ID
	for i := range 3 {
		if _, err := svc.Join(ctx, service.Player{ID: fmt.Sprintf("p%d", i)}, id, i, service.NoCond); err != nil {
			t.Fatal(err)
		}
	}
	l, _ := svc.Load(ctx, id)
	turn := *l.State.Rules.View(l.State.G, table.Auditor).Turn
	p := service.Player{ID: fmt.Sprintf("p%d", turn)}
	bid := 1
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { _, errs[i] = svc.Act(ctx, p, id, table.Action{Type: "bid", Bid: &bid}, service.NoCond) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if !errors.Is(err, table.ErrNotYourTurn) {
			t.Fatalf("the losing bid: %v, want not_your_turn", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of two identical bids were applied, want exactly one", ok)
	}
	after, _ := svc.Load(ctx, id)
	if after.State.Version != l.State.Version+1 {
		t.Fatalf("version %d after one bid on version %d", after.State.Version, l.State.Version)
	}
}

func TestUnknownTable(t *testing.T) {
	svc, _ := newService(t)
	for _, id := range []string{"NOPE", "../etc", "a.b", "", "T*"} {
		if _, err := svc.Load(context.Background(), id); !errors.Is(err, service.ErrTableNotFound) {
			t.Errorf("load %q: %v, want table_not_found", id, err)
		}
	}
}

// TestTwoNodesOneStore: two services (two API nodes) share a store. Commands
// stay correct either way (a stale cache meets a version conflict, catches up
// and decides again); reads see the other node's moves only with SharedStore.
func TestTwoNodesOneStore(t *testing.T) {
	ctx := context.Background()
	_, store := newService(t)
	a := service.New(service.Config{Store: store, Games: games.All(), SharedStore: true})
	b := service.New(service.Config{Store: store, Games: games.All(), SharedStore: true})
	res, err := a.Open(ctx, service.Player{ID: "p0"}, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, service.NoCond)
	if err != nil {
		t.Fatal(err)
	}
	id := res.Table.State.ID
	for i := range 3 {
		node := []*service.Service{a, b}[i%2]
		if _, err := node.Join(ctx, service.Player{ID: fmt.Sprintf("p%d", i)}, id, i, service.NoCond); err != nil {
			t.Fatalf("join %d on node %d: %v", i, i%2, err)
		}
	}
	la, err := a.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := b.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if la.State.Version != lb.State.Version || !lb.State.InDeal {
		t.Fatalf("node A at version %d, node B at %d (dealt %v): shared-store reads must agree", la.State.Version, lb.State.Version, lb.State.InDeal)
	}

	// An exclusive node (SharedStore false) assumes it is the only writer.
	// Misused beside another writer, it still never appends a wrong event:
	// a command decided on its stale cache meets a version conflict, catches
	// up and is decided again.
	c := service.New(service.Config{Store: store, Games: games.All()})
	if _, err := c.Load(ctx, id); err != nil {
		t.Fatal(err)
	}
	turn := *la.State.Rules.View(la.State.G, table.Auditor).Turn
	p := service.Player{ID: fmt.Sprintf("p%d", turn)}
	if _, err := a.Act(ctx, p, id, table.Action{Type: "pass"}, service.NoCond); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Act(ctx, p, id, table.Action{Type: "pass"}, service.NoCond); !errors.Is(err, table.ErrNotYourTurn) {
		t.Fatalf("the same seat passing again through a stale node: %v, want not_your_turn after catching up", err)
	}
	next := service.Player{ID: fmt.Sprintf("p%d", (turn+1)%3)}
	if _, err := c.Act(ctx, next, id, table.Action{Type: "pass"}, service.NoCond); err != nil {
		t.Fatalf("the next seat through the caught-up node: %v", err)
	}
	lc, _ := c.Load(ctx, id)
	if lc.State.Version != la.State.Version+2 {
		t.Fatalf("after two passes the node is at version %d, want %d", lc.State.Version, la.State.Version+2)
	}
}
