package service_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"

	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/service"
)

// TestUnreplayableTableIsRefused: a table whose stored stream its rules
// cannot fold answers table_unreplayable (a 409, not a 500) to reads and
// commands alike, and nothing is ever appended to it.
func TestUnreplayableTableIsRefused(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		shared bool // the fold extends a cached snapshot instead of folding from scratch
		bad    eventstore.NewEvent
	}{
		{"undecodable data, folded from scratch", false, eventstore.NewEvent{Type: "PlayerJoined", Data: []byte(`{"seat":"north"}`)}},
		{"undecodable data, extending a snapshot", true, eventstore.NewEvent{Type: "PlayerJoined", Data: []byte(`{"seat":"north"}`)}},
		{"unknown event type", false, eventstore.NewEvent{Type: "NoSuchEvent", Data: []byte(`{}`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { store.Close() })
			cfg := service.Config{Store: store, Games: games.All(), SharedStore: tc.shared}
			svc := service.New(cfg)
			res, err := svc.Open(ctx, service.Player{ID: "host"}, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1}, service.NoCond)
			if err != nil {
				t.Fatal(err)
			}
			id := res.Table.State.ID
			stream := service.StreamID(id)
			ver := res.Table.State.Version
			if _, err := store.Append(ctx, stream, ver, []eventstore.NewEvent{tc.bad}); err != nil {
				t.Fatal(err)
			}
			if !tc.shared {
				svc = service.New(cfg) // a new process: nothing cached
			}
			for range 2 { // the second time from the mark left on the cache entry
				if _, err := svc.Load(ctx, id); !errors.Is(err, service.ErrUnreplayable) {
					t.Fatalf("load: got %v, want %v", err, service.ErrUnreplayable)
				}
			}
			if _, err := svc.Join(ctx, service.Player{ID: "p1", Name: "p1"}, id, -1, service.NoCond); !errors.Is(err, service.ErrUnreplayable) {
				t.Fatalf("join: got %v, want %v", err, service.ErrUnreplayable)
			}
			evs, err := store.Load(ctx, stream, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != ver+1 {
				t.Errorf("the stream holds %d events, want %d: something was appended to an unreplayable table", len(evs), ver+1)
			}
		})
	}
}
