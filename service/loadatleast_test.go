package service_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/service"
)

// gatedStore is a store whose appends wait at the gate while it is closed,
// and which counts the streams it loads.
type gatedStore struct {
	*sqlite.Store
	closed  atomic.Bool
	entered chan struct{} // an append reached the closed gate
	open    chan struct{} // closing it lets the append through
	loads   atomic.Int64
}

func (g *gatedStore) wait() {
	if g.closed.Load() {
		g.entered <- struct{}{}
		<-g.open
	}
}

func (g *gatedStore) Append(ctx context.Context, stream string, expected int, evs []eventstore.NewEvent) (eventstore.AppendResult, error) {
	res, err := g.Store.Append(ctx, stream, expected, evs)
	g.wait()
	return res, err
}

func (g *gatedStore) AppendIdempotent(ctx context.Context, stream string, expected int, evs []eventstore.NewEvent, key eventstore.IdempotencyKey) (eventstore.AppendResult, error) {
	res, err := g.Store.AppendIdempotent(ctx, stream, expected, evs, key)
	g.wait()
	return res, err
}

func (g *gatedStore) Load(ctx context.Context, stream string, from int) ([]eventstore.Event, error) {
	g.loads.Add(1)
	return g.Store.Load(ctx, stream, from)
}

// TestLoadAtLeastWaitsForTheCommand: a reader asking for a version that is
// committed but not yet in the cache (a stream told of it by the relay
// while the command that made it has not stored its snapshot) is answered
// with the command's snapshot once the command is done, not with the older
// snapshot, and without reading the store.
func TestLoadAtLeastWaitsForTheCommand(t *testing.T) {
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g := &gatedStore{Store: st, entered: make(chan struct{}), open: make(chan struct{})}
	svc := service.New(service.Config{Store: g, Games: games.All()})
	ctx := context.Background()
	res, err := svc.Open(ctx, service.Player{ID: "p0"}, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, service.NoCond)
	if err != nil {
		t.Fatal(err)
	}
	id := res.Table.State.ID
	for _, p := range []string{"p0", "p1", "p2"} {
		if _, err := svc.Join(ctx, service.Player{ID: p, Name: p}, id, -1, service.NoCond); err != nil {
			t.Fatal(err)
		}
	}
	l, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	v := l.State.Version
	seat := -1
	for i, w := range l.State.Waiting {
		if w {
			seat = i
		}
	}
	if seat < 0 {
		t.Fatal("nobody is awaited after the deal")
	}
	var move table.Action
	for _, a := range table.Legal(l.State, seat) {
		if a.Type != "escape" && a.Type != "delegate" && a.Type != "leave" {
			move = a
			break
		}
	}

	g.closed.Store(true)
	acted := make(chan error, 1)
	go func() {
		_, err := svc.Act(ctx, service.Player{ID: l.State.Players[seat]}, id, move, service.NoCond)
		acted <- err
	}()
	<-g.entered // committed; the command holds the table and has not stored its snapshot
	loadsBefore := g.loads.Load()
	read := make(chan *service.Loaded, 1)
	go func() {
		l, err := svc.LoadAtLeast(ctx, id, v+1)
		if err != nil {
			t.Error(err)
		}
		read <- l
	}()
	// Give the reader time to reach the table: the old code answered
	// here, with the snapshot at v, having read the store.
	time.Sleep(50 * time.Millisecond)
	g.closed.Store(false)
	close(g.open)
	if err := <-acted; err != nil {
		t.Fatal(err)
	}
	got := <-read
	if got == nil {
		t.Fatalf("LoadAtLeast(%d) answered nothing", v+1)
	}
	if got.State.Version < v+1 {
		t.Fatalf("LoadAtLeast(%d) answered version %d", v+1, got.State.Version)
	}
	if n := g.loads.Load() - loadsBefore; n != 0 {
		t.Fatalf("LoadAtLeast read the store %d times, want none: the command was about to store the snapshot", n)
	}
}
