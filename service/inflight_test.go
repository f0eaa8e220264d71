package service_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"paiju/domain/table"
	"paiju/games"
	"paiju/service"
)

// seatedDoudizhu opens a classic 斗地主 table on svc, seats three players and
// returns it with the player whose turn it is to bid.
func seatedDoudizhu(t *testing.T, svc *service.Service) (string, service.Player, int) {
	t.Helper()
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
	l, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	turn := *l.State.Rules.View(l.State.G, table.Auditor).Turn
	return id, service.Player{ID: fmt.Sprintf("p%d", turn)}, l.State.Version
}

// answer is what a caller learns from a command, to compare answers.
type answer struct {
	Version int
	Events  []string
}

func answerOf(res *service.Result) answer {
	a := answer{Version: res.Table.State.Version}
	for _, e := range res.Appended {
		a.Events = append(a.Events, fmt.Sprintf("%d %s", e.Version, e.Type))
	}
	return a
}

// TestSameKeyRetriesInFlight: a client that retries a bid with the same
// Idempotency-Key while its first attempt is still running must get the first
// attempt's answer, never a rules error (not_your_turn) about the table its
// own bid changed. 50 copies at once: one append, 50 identical successes.
func TestSameKeyRetriesInFlight(t *testing.T) {
	svc, _ := newService(t)
	id, p, before := seatedDoudizhu(t, svc)
	bid := 1
	cond := service.Cond{IfMatch: -1, IdempotencyKey: "bid-once", RequestHash: "h"}
	const n = 50
	results := make([]*service.Result, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			results[i], errs[i] = svc.Act(context.Background(), p, id, table.Action{Type: "bid", Bid: &bid}, cond)
		})
	}
	close(start)
	wg.Wait()
	replayed := 0
	var first answer
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("retry %d: %v, want the first bid's answer", i, errs[i])
		}
		if results[i].Replayed {
			replayed++
		}
		a := answerOf(results[i])
		if i == 0 {
			first = a
		} else if !reflect.DeepEqual(a, first) {
			t.Fatalf("retry %d answered %+v, retry 0 %+v: same key, same answer", i, a, first)
		}
	}
	if replayed != n-1 {
		t.Fatalf("%d of %d answers are replays, want all but the one that ran", replayed, n)
	}
	after, err := svc.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.State.Version != before+1 || first.Version != before+1 {
		t.Fatalf("table at version %d (answers say %d) after one bid on version %d: want exactly one append", after.State.Version, first.Version, before)
	}
}

// TestSameKeyRetryOnAnotherNode: the retry reaches a second node after the
// first node committed, while the second node's cache still shows the old
// turn: it must be answered with the replay, not with not_your_turn.
func TestSameKeyRetryOnAnotherNode(t *testing.T) {
	a, store := newService(t)
	id, p, before := seatedDoudizhu(t, a)
	b := service.New(service.Config{Store: store, Games: games.All()})
	if _, err := b.Load(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	bid := 1
	cond := service.Cond{IfMatch: -1, IdempotencyKey: "bid-once", RequestHash: "h"}
	res, err := a.Act(context.Background(), p, id, table.Action{Type: "bid", Bid: &bid}, cond)
	if err != nil {
		t.Fatal(err)
	}
	again, err := b.Act(context.Background(), p, id, table.Action{Type: "bid", Bid: &bid}, cond)
	if err != nil || !again.Replayed || !reflect.DeepEqual(answerOf(again), answerOf(res)) {
		t.Fatalf("the retry on node B: %+v, %v; want the replay of %+v", again, err, answerOf(res))
	}
	if res.Table.State.Version != before+1 {
		t.Fatalf("version %d after one bid on %d", res.Table.State.Version, before)
	}
}

// TestSameKeyOtherRequestNotShared: a key reused with another request while
// the first is in flight is not handed the first's answer.
func TestSameKeyOtherRequestNotShared(t *testing.T) {
	svc, _ := newService(t)
	id, p, _ := seatedDoudizhu(t, svc)
	one, two := 1, 2
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, bid := range []*int{&one, &two} {
		wg.Go(func() {
			cond := service.Cond{IfMatch: -1, IdempotencyKey: "k", RequestHash: fmt.Sprint("bid", *bid)}
			_, errs[i] = svc.Act(context.Background(), p, id, table.Action{Type: "bid", Bid: bid}, cond)
		})
	}
	wg.Wait()
	reused := 0
	for _, err := range errs {
		if err != nil && !isKeyReused(err) {
			t.Fatalf("a key reused with another bid: %v, want idempotency_key_reused", err)
		}
		if err != nil {
			reused++
		}
	}
	if reused != 1 {
		t.Fatalf("%d of two bids under one key refused as a reuse, want 1 (errors %v)", reused, errs)
	}
}

func isKeyReused(err error) bool { return errors.Is(err, service.ErrKeyReused) }

// TestSameKeyRetryLegalAgain: a retry that reaches the table when its
// action is legal again (the turn came back to the seat) is still the
// replay of the first call: the store refuses the key in the append, and
// nothing is appended twice.
func TestSameKeyRetryLegalAgain(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	id, p, _ := seatedDoudizhu(t, svc)
	cond := service.Cond{IfMatch: -1, IdempotencyKey: "pass-once", RequestHash: "h"}
	first, err := svc.Act(ctx, p, id, table.Action{Type: "pass"}, cond)
	if err != nil {
		t.Fatal(err)
	}
	// The others pass until the turn is p's again (a deal nobody bids on
	// is dealt again).
	for range 30 {
		l, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		turn := l.State.Rules.View(l.State.G, table.Auditor).Turn
		if turn == nil {
			t.Fatal("no seat to act during the bidding")
		}
		if fmt.Sprintf("p%d", *turn) == p.ID {
			break
		}
		if _, err := svc.Act(ctx, service.Player{ID: fmt.Sprintf("p%d", *turn)}, id, table.Action{Type: "pass"}, service.NoCond); err != nil {
			t.Fatal(err)
		}
	}
	before, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if turn := before.State.Rules.View(before.State.G, table.Auditor).Turn; turn == nil || fmt.Sprintf("p%d", *turn) != p.ID {
		t.Fatalf("the turn never came back to %s", p.ID)
	}
	again, err := svc.Act(ctx, p, id, table.Action{Type: "pass"}, cond)
	if err != nil || !again.Replayed || !reflect.DeepEqual(answerOf(again), answerOf(first)) {
		t.Fatalf("the retry once its pass is legal again: %+v, %v; want the replay of %+v", again, err, answerOf(first))
	}
	after, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.State.Version != before.State.Version {
		t.Fatalf("the retry appended: version %d, was %d", after.State.Version, before.State.Version)
	}
}
