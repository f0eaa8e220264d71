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
	// unreplayable is set once the table's stream failed to fold: every
	// later caller gets ErrUnreplayable without folding (and logging) again.
	unreplayable atomic.Bool
	// users counts the callers holding the entry (guarded by tableCache.mu).
	users int
}

// tableCache keeps at most its LRU's size of idle tables, plus every table
// in use. An entry in use is never replaced, even once the LRU has evicted
// it: a second entry for the same table would have its own lock and its own
// snapshot, so a command holding the first would commit behind the second's
// back, and (with a store we are the only writer of, where a snapshot is
// trusted without a query) the second would serve its older snapshot until a
// later command met a conflict.
type tableCache struct {
	mu    sync.Mutex // guards inUse, users, and makes get-or-add atomic
	lru   *lru.Cache[string, *cached]
	inUse map[string]*cached
}

func newTableCache(size int) *tableCache {
	if size <= 0 {
		size = DefaultCacheSize
	}
	c, err := lru.New[string, *cached](size)
	if err != nil {
		panic(fmt.Sprintf("service: cache of size %d: %v", size, err))
	}
	return &tableCache{lru: c, inUse: make(map[string]*cached)}
}

// acquire returns the table's entry, the one every other holder has, and
// keeps it the table's entry until release. Every acquire needs its release.
func (c *tableCache) acquire(id string) *cached {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.inUse[id]
	if !ok {
		e, ok = c.lru.Get(id)
	}
	if !ok {
		e = &cached{}
	}
	// Back to the front, or back in after an eviction while in use.
	c.lru.Add(id, e)
	e.users++
	c.inUse[id] = e
	return e
}

// release ends a use of an entry from acquire. An idle entry lives on only
// in the LRU, whose eviction then drops it: its snapshot is the stream up to
// every command that held it, so a new entry loading from the store misses
// nothing.
func (c *tableCache) release(id string, e *cached) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.users--
	if e.users == 0 {
		delete(c.inUse, id)
	}
}

// upToDate reports whether snap may be served without asking the store. With
// a store this process is the only writer of, every append went through this
// cache, so the snapshot is the stream, unless an append met a conflict
// (stale) or the caller knows of a later version (atLeast: a reader woken by
// NATS may run before the command that appended has swapped its snapshot in).
func (s *Service) upToDate(e *cached, snap *Loaded, atLeast int) bool {
	return snap != nil && !s.cfg.SharedStore && !e.stale.Load() && snap.State.Version >= atLeast
}

// since reads the events stored after snap (all of them when snap is nil).
func (s *Service) since(ctx context.Context, tableID string, snap *Loaded) ([]eventstoreEvent, error) {
	from := 0
	if snap != nil {
		from = snap.State.Version
	}
	evs, err := s.cfg.Store.Load(ctx, StreamID(tableID), from)
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", tableID, err)
	}
	return evs, nil
}

// current returns the table's newest snapshot, for a caller that does not
// hold e.mu. With a shared store it reads the events appended since the
// cached snapshot (by any process), so a read costs the same however long
// the table's history is. It reads the store without the lock, so that a
// reader does not wait for a command's append, and takes the lock only to
// publish what it read.
//
// A caller asking for a version the cache has not reached, on a store of
// this process's own, waits for e.mu instead: the version was committed
// (a stream heard of it from the relay, which can read a commit before the
// command that made it has stored its snapshot), so the command holding
// e.mu is about to publish it, and a read of the store would only race it.
func (s *Service) current(ctx context.Context, tableID string, e *cached, atLeast int) (*Loaded, error) {
	if snap := e.snap.Load(); atLeast > 0 && snap != nil && snap.State.Version < atLeast && !s.cfg.SharedStore && !e.stale.Load() {
		e.mu.Lock()
		defer e.mu.Unlock()
		return s.currentLocked(ctx, tableID, e, atLeast)
	}
	snap, evs, err := s.lookup(ctx, tableID, e, atLeast)
	if err != nil || evs == nil {
		return snap, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.snap.Load() != snap {
		// Someone moved the snapshot while we read: what we read may
		// overlap theirs, so catch up from theirs.
		return s.currentLocked(ctx, tableID, e, atLeast)
	}
	return s.publish(tableID, e, snap, evs)
}

// currentLocked is current for a caller holding e.mu: no snapshot can move
// while it reads.
func (s *Service) currentLocked(ctx context.Context, tableID string, e *cached, atLeast int) (*Loaded, error) {
	snap, evs, err := s.lookup(ctx, tableID, e, atLeast)
	if err != nil || evs == nil {
		return snap, err
	}
	return s.publish(tableID, e, snap, evs)
}

// lookup returns the cached snapshot and, when it is not current, the events
// stored after it (nil when the snapshot is the table as it stands).
func (s *Service) lookup(ctx context.Context, tableID string, e *cached, atLeast int) (*Loaded, []eventstoreEvent, error) {
	if e.unreplayable.Load() {
		return nil, nil, ErrUnreplayable
	}
	snap := e.snap.Load()
	hit := s.upToDate(e, snap, atLeast)
	s.cfg.Observer.CacheLookup(hit)
	if hit {
		return snap, nil, nil
	}
	evs, err := s.since(ctx, tableID, snap)
	if err != nil {
		return nil, nil, err
	}
	if len(evs) == 0 {
		if snap == nil {
			return nil, nil, ErrTableNotFound
		}
		return snap, nil, nil
	}
	return snap, evs, nil
}

// publish folds evs, the events stored after snap, into the entry's next
// snapshot. The caller holds e.mu and snap is the entry's snapshot.
func (s *Service) publish(tableID string, e *cached, snap *Loaded, evs []eventstoreEvent) (*Loaded, error) {
	var (
		next *Loaded
		err  error
	)
	if snap == nil {
		next, err = replaySafely(func() (*Loaded, error) { return s.fold(tableID, evs) })
	} else {
		next, err = replaySafely(func() (*Loaded, error) { return snap.extend(evs) })
	}
	if err != nil {
		// The stored stream is not one the rules wrote (a changed or
		// forged event, a rules change that lost an old table): report it
		// once, and refuse the table rather than append to it.
		e.unreplayable.Store(true)
		s.cfg.Logger.Error("table cannot be replayed from its stream; it is refused until an operator repairs it", "table", tableID, "err", err)
		return nil, ErrUnreplayable
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

// replaySafely runs a fold, turning a panic of the rules on events they
// never produced into an error.
func replaySafely(fold func() (*Loaded, error)) (l *Loaded, err error) {
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, fmt.Errorf("replay panicked: %v", r)
		}
	}()
	return fold()
}
