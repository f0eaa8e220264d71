package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"paiju/domain/table"
	"paiju/eventstore"
)

// Raw is a table with its stored events as the store holds them (hash chain
// fields included), for exports.
type Raw struct {
	*Loaded
	Stored []eventstore.Event
	// Head is the store's chain head read after the events, so it is at or
	// past the table's last event.
	HeadPosition int64
	HeadHash     string
}

// ErrNoHead: the store does not expose its chain head.
var ErrNoHead = errors.New("service: the event store has no chain head")

// LoadRaw loads a table's stored events and folds them.
func (s *Service) LoadRaw(ctx context.Context, tableID string) (*Raw, error) {
	if !validID(tableID) {
		return nil, ErrTableNotFound
	}
	evs, err := s.cfg.Store.Load(ctx, StreamID(tableID), 0)
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", tableID, err)
	}
	if len(evs) == 0 {
		return nil, ErrTableNotFound
	}
	l, err := s.fold(tableID, evs)
	if err != nil {
		return nil, err
	}
	h, ok := s.cfg.Store.(interface {
		Head(ctx context.Context) (int64, string, error)
	})
	if !ok {
		return nil, ErrNoHead
	}
	pos, hash, err := h.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("chain head: %w", err)
	}
	return &Raw{Loaded: l, Stored: evs, HeadPosition: pos, HeadHash: hash}, nil
}

// EverSeated reports whether player ever took a seat at the table.
func (l *Loaded) EverSeated(player string) bool {
	if player == "" {
		return false
	}
	for _, e := range l.Events {
		if ps, ok := e.Payload.(table.PlayerSeated); ok && ps.PlayerID == player {
			return true
		}
	}
	return false
}

// At returns the table as it was after its first n events (1 ≤ n ≤ its
// version), folded again from the stream.
func (l *Loaded) At(n int) *Loaded {
	st := table.New(l.State.Rules)
	for _, e := range l.Events[:n] {
		table.ApplyAt(st, e.Payload, e.RecordedAt)
	}
	return &Loaded{State: st, Events: l.Events[:n:n]}
}

// EndedPrefix is how many of the table's first events hold only ended deals:
// all of them between deals, else those before the running deal's HandDealt.
func (l *Loaded) EndedPrefix() int {
	if !l.State.InDeal {
		return len(l.Events)
	}
	for i := len(l.Events) - 1; i >= 0; i-- {
		if _, ok := l.Events[i].Payload.(table.HandDealt); ok {
			return i
		}
	}
	return len(l.Events)
}

// PublicPrefix reports whether the first n events, all of ended deals, show a
// spectator everything: the rules reveal a deal when it ends, but a game may
// keep something hidden for good, and then only the auditor may export.
func (l *Loaded) PublicPrefix(n int) bool {
	for _, e := range l.Events[:n] {
		shown := table.Redact(l.State.Rules, e.Payload, table.Spectator, true)
		if shown == nil {
			return false
		}
		a, errA := json.Marshal(shown)
		b, errB := json.Marshal(e.Payload)
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			return false
		}
	}
	return true
}
