package sqlite

import (
	"sync"

	"paiju/eventstore"
)

// DefaultRecentEvents is how many of the last committed events a Store
// keeps in memory for ReadCommitted by default.
const DefaultRecentEvents = 4096

// ReadCommitted returns up to limit events with position > fromPosition in
// global order, as ReadAll does, from the events this Store committed last,
// which it keeps in memory: the relay follows the log's end, and reading
// back from SQLite what the writer has just written cost as much as
// publishing it. ok is false when fromPosition is outside what is kept
// (before its oldest event, or past the last commit this Store answered);
// the caller then reads with ReadAll. An append that has returned is
// always kept, so an empty page with ok true means the log ended at
// fromPosition when ReadCommitted was called. The events' Data is shared
// with later calls: callers must not modify it.
//
// It does not look at the database, so it does not see what another
// process wrote to the file (which the store does not expect, see the
// package doc); verification reads with ReadAll.
func (s *Store) ReadCommitted(fromPosition int64, limit int) ([]eventstore.Event, bool) {
	return s.recent.read(fromPosition, limit)
}

// recentLog is a ring of the last events committed, positions base+1 to
// base+n.
type recentLog struct {
	mu    sync.RWMutex
	ring  []eventstore.Event // nil: keeps nothing
	first int                // index in ring of position base+1
	n     int
	base  int64
}

func newRecentLog(size int, head int64) *recentLog {
	l := &recentLog{base: head}
	if size > 0 {
		l.ring = make([]eventstore.Event, size)
	}
	return l
}

// add appends evs, the events of one commit in position order, dropping
// the oldest events kept beyond the ring's size.
func (l *recentLog) add(evs []eventstore.Event) {
	if len(l.ring) == 0 || len(evs) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if evs[0].Position != l.base+int64(l.n)+1 {
		// Not the continuation of what is kept (never expected, since only
		// the writer adds): start again from these events.
		l.first, l.n, l.base = 0, 0, evs[0].Position-1
		clear(l.ring)
	}
	for _, e := range evs {
		i := (l.first + l.n) % len(l.ring)
		l.ring[i] = e
		if l.n < len(l.ring) {
			l.n++
			continue
		}
		l.first = (l.first + 1) % len(l.ring)
		l.base++
	}
}

func (l *recentLog) read(from int64, limit int) ([]eventstore.Event, bool) {
	if len(l.ring) == 0 || limit <= 0 {
		return nil, false
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	end := l.base + int64(l.n)
	if from < l.base || from > end {
		return nil, false
	}
	k := int(min(int64(limit), end-from))
	out := make([]eventstore.Event, k)
	start := l.first + int(from-l.base)
	for j := range out {
		out[j] = l.ring[(start+j)%len(l.ring)]
	}
	return out, true
}
