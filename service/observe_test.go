package service_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/games"
	"paiju/service"
)

// tally is an Observer that counts what it is told.
type tally struct {
	mu       sync.Mutex
	commands map[[3]string]int // game, kind, outcome
	hits     int
	misses   int
}

func (o *tally) Command(game, kind, outcome string, took time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.commands == nil {
		o.commands = map[[3]string]int{}
	}
	o.commands[[3]string{game, kind, outcome}]++
}

func (o *tally) CacheLookup(hit bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if hit {
		o.hits++
	} else {
		o.misses++
	}
}

func (o *tally) get(game, kind, outcome string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.commands[[3]string{game, kind, outcome}]
}

// TestObserverCountsCommands: the Observer hears every command with its game,
// kind and outcome — players' opens, joins and refused moves, the turn
// clock's timeouts, the bots' moves — and the cache's hits and misses.
func TestObserverCountsCommands(t *testing.T) {
	e := newLiveEnv(t)
	obs := &tally{}
	svc := service.New(service.Config{Store: e.store, Games: games.All(), Clock: e.clock, Observer: obs})
	ctx := context.Background()
	id := openSeated(t, svc, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, 3)
	l, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	turn := *l.State.Rules.View(l.State.G, table.Auditor).Turn
	other := service.Player{ID: []string{"p0", "p1", "p2"}[(turn+1)%3]}
	_, refused := svc.Act(ctx, other, id, table.Action{Type: "pass"}, service.NoCond)
	var de *table.Error
	if refused == nil || !errors.As(refused, &de) {
		t.Fatalf("a move out of turn: %v, want a rule error", refused)
	}
	if _, err := svc.Open(ctx, service.Player{ID: "p0"}, service.OpenRequest{Game: "no-such-game"}, service.NoCond); err == nil {
		t.Fatal("opened a table of an unknown game")
	}
	e.clock.Advance(30 * time.Second) // doudizhu's default clock (doudizhu.md, Timeouts)
	timeouts := svc.RunDue(ctx)

	bots := openSeated(t, svc, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1, Bots: 3, MaxHands: 1}, 0)
	botMoves := svc.RunDue(ctx)
	if bl, _ := svc.Load(ctx, bots); !bl.State.Closed {
		t.Fatal("the bots' table did not finish")
	}

	for _, c := range []struct {
		game, kind, outcome string
		want                int
	}{
		{"doudizhu", service.KindOpen, "ok", 2},
		{"doudizhu", service.KindJoin, "ok", 3},
		{"doudizhu", service.KindAct, de.Code, 1},
		{"unknown", service.KindOpen, table.ErrUnknownGame.Code, 1},
		{"doudizhu", service.KindTimeout, "ok", timeouts},
		{"doudizhu", service.KindBot, "ok", botMoves},
	} {
		if got := obs.get(c.game, c.kind, c.outcome); got != c.want || c.want == 0 {
			t.Errorf("commands{game=%s, kind=%s, outcome=%s} = %d, want %d (> 0)", c.game, c.kind, c.outcome, got, c.want)
		}
	}

	// A second service over the same store starts with an empty cache.
	obs2 := &tally{}
	fresh := service.New(service.Config{Store: e.store, Games: games.All(), Clock: e.clock, Observer: obs2})
	for range 2 {
		if _, err := fresh.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if obs2.misses != 1 || obs2.hits != 1 {
		t.Errorf("two loads of a table through a cold cache: %d misses, %d hits; want 1 and 1", obs2.misses, obs2.hits)
	}
}
