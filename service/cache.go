package service

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"

	"paiju/domain/table"
)

// DefaultCacheSize is how many tables the service keeps folded in memory.
const DefaultCacheSize = 4096

// cached is one table kept in memory. Its snapshot is immutable once
// published: a command or a catch-up builds the next snapshot and swaps it in.
// mu serializes this process's commands and catch-ups on the table, which is
// what makes sharing the events' backing array between snapshots safe: only
// the holder of mu appends, and only past the end of the newest snapshot.
type cached struct {
	mu   sync.Mutex
	snap atomic.Pointer[Loaded]
	// stale is set when an append found the stream moved on without us (a
	// conflict): the next read catches up from the store even when the
	// store is not shared.
	stale atomic.Bool
}

type tableCache struct {
	mu  sync.Mutex // makes get-or-add atomic
	lru *lru.Cache[string, *cached]
}

func newTableCache(size int) *tableCache {
	if size <= 0 {
		size = DefaultCacheSize
	}
	c, err := lru.New[string, *cached](size)
	if err != nil {
		panic(fmt.Sprintf("service: cache of size %d: %v", size, err))
	}
	return &tableCache{lru: c}
}

func (c *tableCache) entry(id string) *cached {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.lru.Get(id); ok {
		return e
	}
	e := &cached{}
	c.lru.Add(id, e)
	return e
}

// current returns the table's newest snapshot. With a shared store it reads
// the events appended since the cached snapshot (by any process), so a read
// costs the same however long the table's history is; with a store only this
// process writes, the snapshot is current by construction and no query is
// made, unless the caller knows of a version past the snapshot (atLeast): a
// reader woken by NATS may run before the command that appended has swapped
// its snapshot in. With locked set the caller holds e.mu.
func (s *Service) current(ctx context.Context, tableID string, e *cached, locked bool, atLeast int) (*Loaded, error) {
	snap := e.snap.Load()
	if snap != nil && !s.cfg.SharedStore && !e.stale.Load() && snap.State.Version >= atLeast {
		// This process is the store's only writer: every append went
		// through this cache, so the snapshot is the stream.
		return snap, nil
	}
	from := 0
	if snap != nil {
		from = snap.State.Version
	}
	evs, err := s.cfg.Store.Load(ctx, StreamID(tableID), from)
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", tableID, err)
	}
	if len(evs) == 0 {
		if snap == nil {
			return nil, ErrTableNotFound
		}
		return snap, nil
	}
	if !locked {
		e.mu.Lock()
		defer e.mu.Unlock()
		if now := e.snap.Load(); now != snap {
			// Someone moved the snapshot while we read: start again under the lock.
			return s.current(ctx, tableID, e, true, atLeast)
		}
	}
	var next *Loaded
	if snap == nil {
		next, err = s.fold(tableID, evs)
	} else {
		next, err = snap.extend(evs)
	}
	if err != nil {
		return nil, err
	}
	e.snap.Store(next)
	e.stale.Store(false)
	return next, nil
}

// next returns a copy of l to apply new events to, sharing l's events'
// backing array (see cached).
func (l *Loaded) next() *Loaded {
	return &Loaded{State: l.State.Clone(), Events: l.Events}
}

// extend returns l with stored events appended.
func (l *Loaded) extend(evs []eventstoreEvent) (*Loaded, error) {
	n := l.next()
	for _, e := range evs {
		if e.Version != n.State.Version+1 {
			return nil, fmt.Errorf("table %s: version %d follows %d", n.State.ID, e.Version, n.State.Version)
		}
		p, err := table.Decode(n.State.Rules, e.Type, e.Data)
		if err != nil {
			return nil, fmt.Errorf("table %s version %d: %w", n.State.ID, e.Version, err)
		}
		table.ApplyAt(n.State, p, e.RecordedAt)
		n.Events = append(n.Events, Recorded{Version: e.Version, Position: e.Position, Type: e.Type, RecordedAt: e.RecordedAt, Payload: p})
	}
	return n, nil
}
