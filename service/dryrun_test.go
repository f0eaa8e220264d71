package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

// TestDryActEveryVariant plays a hand of random legal actions in every
// variant, each action dry-run before it is posted. The dry run stores
// nothing, its events are a prefix of what the post appends (same versions,
// same data), never a deal, its seed or its end, and never add a card to
// the acting seat's hand (a draw, a kitty taken up): a seat cannot peek.
func TestDryActEveryVariant(t *testing.T) {
	for _, gv := range allVariants() {
		t.Run(gv.game+"/"+gv.variant, func(t *testing.T) {
			svc, store := newService(t)
			ctx := context.Background()
			id := openSeated(t, svc, service.OpenRequest{Game: gv.game, Variant: gv.variant, Stake: 1}, gv.seats)
			rng := rand.New(rand.NewPCG(uint64(len(gv.variant)), 3))
			cut := 0
			for step := 0; step < 400; step++ {
				l, err := svc.Load(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if l.State.Last != nil {
					t.Logf("hand settled after %d actions; %d dry runs stopped early", step, cut)
					return
				}
				seat, a, ok := randomMove(l.State, svc, rng)
				if !ok {
					t.Fatalf("nobody may act at version %d", l.State.Version)
				}
				p := service.Player{ID: fmt.Sprintf("p%d", seat)}
				before := l.State.Rules.View(l.State.G, seat).Hand
				head, _, err := store.Head(ctx)
				if err != nil {
					t.Fatal(err)
				}
				dry, err := svc.DryAct(ctx, p, id, a, service.NoCond)
				if err != nil {
					t.Fatalf("dry run of seat %d's legal %v: %v", seat, a, err)
				}
				if h, _, _ := store.Head(ctx); h != head {
					t.Fatalf("a dry run moved the store's head from %d to %d", head, h)
				}
				hand := cards.Of(before)
				if after := dry.Table.State.Rules.View(dry.Table.State.G, seat).Hand; !hand.Contains(after) {
					t.Fatalf("dry run of %v: seat %d's hand goes from %s to %s", a, seat, cards.Format(before), cards.Format(after))
				}
				res, err := svc.Act(ctx, p, id, a, service.NoCond)
				if err != nil {
					t.Fatalf("seat %d's legal %v after its dry run: %v", seat, a, err)
				}
				if len(dry.Appended) > len(res.Appended) {
					t.Fatalf("the dry run shows %d events, the post appends %d", len(dry.Appended), len(res.Appended))
				}
				if len(dry.Appended) < len(res.Appended) {
					cut++
				}
				for i, d := range dry.Appended {
					r := res.Appended[i]
					switch d.Payload.(type) {
					case table.HandDealt, table.DealSecret, table.HandSettled, table.DealVoided:
						t.Fatalf("a dry run shows %s", d.Type)
					}
					dj, _ := json.Marshal(d.Payload)
					rj, _ := json.Marshal(r.Payload)
					if d.Version != r.Version || d.Type != r.Type || string(dj) != string(rj) {
						t.Fatalf("event %d: dry run %d %s %s, post %d %s %s", i, d.Version, d.Type, dj, r.Version, r.Type, rj)
					}
				}
			}
			t.Fatal("no hand settled in 400 actions")
		})
	}
}

// randomMove is a random game action of a random seat that may act.
func randomMove(st *table.State, svc *service.Service, rng *rand.Rand) (int, table.Action, bool) {
	var seats []int
	var choices [][]table.Action
	for seat := range st.Players {
		if game := gameActions(svc.Legal(st, seat)); len(game) > 0 {
			seats = append(seats, seat)
			choices = append(choices, game)
		}
	}
	if len(seats) == 0 {
		return 0, table.Action{}, false
	}
	k := rng.IntN(len(seats))
	return seats[k], choices[k][rng.IntN(len(choices[k]))], true
}

// TestDryActDuringCommands: dry runs read the cached table while commands
// append to it (run it under -race); the table they leave is the one the
// commands made.
func TestDryActDuringCommands(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	id := openSeated(t, svc, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, 3)
	stop := make(chan struct{})
	done := make(chan int)
	for g := range 3 {
		go func() {
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			n := 0
			for {
				select {
				case <-stop:
					done <- n
					return
				default:
				}
				l, err := svc.Load(ctx, id)
				if err != nil {
					continue
				}
				if seat, a, ok := randomMove(l.State, svc, rng); ok {
					// Another command may have moved the table on: any
					// answer will do, a panic or a race will not.
					_, _ = svc.DryAct(ctx, service.Player{ID: fmt.Sprintf("p%d", seat)}, id, a, service.NoCond)
					n++
				}
			}
		}()
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 40 {
		l, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		seat, a, ok := randomMove(l.State, svc, rng)
		if !ok {
			t.Fatal("nobody may act")
		}
		if _, err := svc.Act(ctx, service.Player{ID: fmt.Sprintf("p%d", seat)}, id, a, service.NoCond); err != nil {
			t.Fatalf("seat %d %v: %v", seat, a, err)
		}
	}
	close(stop)
	for range 3 {
		<-done
	}
	l, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range l.Events {
		if r.Version != i+1 || r.Position == 0 {
			t.Fatalf("event %d of the cached table: version %d position %d (a dry run's event?)", i, r.Version, r.Position)
		}
	}
}
