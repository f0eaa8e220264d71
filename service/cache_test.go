package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"paiju/domain/table"
	"paiju/games"
	"paiju/service"
)

// TestEvictionNeverServesAStaleTable: with room for one table in the cache,
// commands and reads on several tables evict each other's entries all the
// time, among them entries whose table a command is deciding. Whatever the
// eviction order, a read that starts after a command returned sees that
// command's events (the store is the only writer's, so the cache is trusted
// without a query), every command's result is the version it appended, and
// every table ends as a fresh load from the store folds it.
func TestEvictionNeverServesAStaleTable(t *testing.T) {
	ctx := context.Background()
	_, store := newService(t)
	svc := service.New(service.Config{Store: store, Games: games.All(), CacheSize: 1})
	const (
		tables  = 4
		steps   = 40
		readers = 2
	)
	ids := make([]string, tables)
	for i := range ids {
		res, err := svc.Open(ctx, service.Player{ID: "p0"}, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, service.NoCond)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = res.Table.State.ID
	}
	committed := make([]atomic.Int64, tables) // the last version a command returned, per table
	done := make(chan struct{})
	var wg, writers sync.WaitGroup
	check := func(ti int, what string) bool {
		want := committed[ti].Load()
		l, err := svc.Load(ctx, ids[ti])
		if err != nil {
			t.Errorf("%s: load table %d: %v", what, ti, err)
			return false
		}
		if int64(l.State.Version) < want {
			t.Errorf("%s: table %d loads at version %d after a command returned version %d: a stale snapshot", what, ti, l.State.Version, want)
			return false
		}
		return true
	}
	for ti := range tables {
		writers.Go(func() {
			record := func(res *service.Result, err error, what string) bool {
				if err != nil {
					t.Errorf("table %d: %s: %v", ti, what, err)
					return false
				}
				last := res.Appended[len(res.Appended)-1].Version
				if res.Table.State.Version != last || len(res.Table.Events) != last {
					t.Errorf("table %d: %s appended up to version %d, result at version %d with %d events", ti, what, last, res.Table.State.Version, len(res.Table.Events))
				}
				committed[ti].Store(int64(last))
				return check(ti, what)
			}
			for seat := range 3 {
				p := service.Player{ID: fmt.Sprintf("p%d", seat), Name: "p"}
				res, err := svc.Join(ctx, p, ids[ti], seat, service.NoCond)
				if !record(res, err, fmt.Sprintf("seat %d joins", seat)) {
					return
				}
			}
			for step := range steps {
				l, err := svc.Load(ctx, ids[ti])
				if err != nil {
					t.Errorf("table %d: %v", ti, err)
					return
				}
				seat, a, ok := firstMove(svc, l.State)
				if !ok {
					t.Errorf("table %d at version %d: nobody may act", ti, l.State.Version)
					return
				}
				res, err := svc.Act(ctx, service.Player{ID: l.State.Players[seat]}, ids[ti], a, service.NoCond)
				if !record(res, err, fmt.Sprintf("step %d, seat %d %s", step, seat, a.Type)) {
					return
				}
			}
		})
	}
	for ti := range tables {
		for range readers {
			wg.Go(func() {
				for {
					select {
					case <-done:
						return
					default:
						if !check(ti, "reader") {
							return
						}
					}
				}
			})
		}
	}
	writers.Wait()
	close(done)
	wg.Wait()

	fresh := service.New(service.Config{Store: store, Games: games.All()})
	for ti, id := range ids {
		got, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got.State.Version != want.State.Version || len(got.Events) != len(want.Events) {
			t.Fatalf("table %d: cached at version %d (%d events), the store at %d (%d events)", ti, got.State.Version, len(got.Events), want.State.Version, len(want.Events))
		}
		gv, _ := json.Marshal(got.State.Rules.View(got.State.G, table.Auditor))
		wv, _ := json.Marshal(want.State.Rules.View(want.State.G, table.Auditor))
		if string(gv) != string(wv) {
			t.Fatalf("table %d: cached view %s, the store folds %s", ti, gv, wv)
		}
	}
}

// firstMove is the first legal action of the seat the game waits for.
func firstMove(svc *service.Service, st *table.State) (int, table.Action, bool) {
	for seat := range st.Players {
		for _, a := range svc.Legal(st, seat) {
			if a.Type != table.ActionEscape && a.Type != table.ActionLeave {
				return seat, a, true
			}
		}
	}
	return 0, table.Action{}, false
}
