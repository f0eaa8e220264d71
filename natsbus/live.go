package natsbus

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"

	"paiju/eventstore"
)

// Live tells a table's live streams (the API's /stream) that events were
// committed, whichever node committed them: it subscribes with core NATS to
// the subject every event of the table is relayed to,
// paiju.events.<game>.<tableID>, with a wildcard for the game, so that any
// API node connected to the cluster serves any table. The notices come
// from the messages the relay publishes, whichever node runs it: a node
// that does not hold the relay's lease hears every event all the same.
//
// A Live made by NewLive keeps one subscription a table for all the
// streams of the table on this node, and tells each of them: NATS would
// otherwise deliver, and the client decode, every event once a stream.
// A Live made as a literal subscribes once a stream.
type Live struct {
	Conn *nats.Conn
	// Namespace names the deployment's subjects.
	Namespace Namespace

	tables *liveTables
}

// NewLive returns a Live that shares one subscription a table between the
// streams of this node.
func NewLive(conn *nats.Conn, ns Namespace) Live {
	return Live{Conn: conn, Namespace: ns, tables: &liveTables{subs: make(map[string]*liveTable)}}
}

// liveTables are the tables this node's streams watch, each with its one
// subscription.
type liveTables struct {
	mu   sync.Mutex
	subs map[string]*liveTable
}

type liveTable struct {
	sub *nats.Subscription
	// watchers are the notify functions of the table's streams, by a key
	// of their own; the subscription's handler reads them under mu's read
	// side, so that a stream's stop never waits for more than one message's
	// notices.
	mu       sync.RWMutex
	watchers map[int]func(version int)
	next     int
}

// Watch calls notify with the version of each event of the table published
// from now on (possibly more than once, possibly late) until stop is called.
func (n Live) Watch(tableID string, notify func(version int)) (stop func(), err error) {
	if n.tables == nil {
		return n.watchAlone(tableID, notify)
	}
	stop, err = n.tables.add(n, tableID, notify)
	if err != nil {
		return nil, err
	}
	// Flush makes the subscription known to the server before the caller
	// catches up from the store, so no event falls between the two; a
	// subscription made for an earlier stream is known once its own Flush,
	// or this one, has returned.
	if err := n.Conn.Flush(); err != nil {
		stop()
		return nil, fmt.Errorf("natsbus: watch table %s: %w", tableID, err)
	}
	return stop, nil
}

// add registers notify with the table's subscription, subscribing for the
// table's first watcher.
func (ts *liveTables) add(n Live, tableID string, notify func(version int)) (stop func(), err error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.subs[tableID]
	if t == nil {
		t = &liveTable{watchers: make(map[int]func(int))}
		t.sub, err = n.Conn.Subscribe(n.subject(tableID), func(m *nats.Msg) {
			v, ok := msgVersion(m)
			if !ok {
				return
			}
			t.mu.RLock()
			defer t.mu.RUnlock()
			for _, notify := range t.watchers {
				notify(v)
			}
		})
		if err != nil {
			return nil, fmt.Errorf("natsbus: watch table %s: %w", tableID, err)
		}
		ts.subs[tableID] = t
	}
	key := t.next
	t.next++
	t.mu.Lock()
	t.watchers[key] = notify
	t.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { ts.remove(tableID, t, key) }) }, nil
}

// remove ends a watch, and the table's subscription with its last one.
func (ts *liveTables) remove(tableID string, t *liveTable, key int) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t.mu.Lock()
	delete(t.watchers, key)
	last := len(t.watchers) == 0
	t.mu.Unlock()
	if last {
		_ = t.sub.Unsubscribe()
		delete(ts.subs, tableID)
	}
}

// watchAlone is Watch with a subscription of the stream's own.
func (n Live) watchAlone(tableID string, notify func(version int)) (stop func(), err error) {
	sub, err := n.Conn.Subscribe(n.subject(tableID), func(m *nats.Msg) {
		if v, ok := msgVersion(m); ok {
			notify(v)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("natsbus: watch table %s: %w", tableID, err)
	}
	// Flush makes the subscription known to the server before the caller
	// catches up from the store, so no event falls between the two.
	if err := n.Conn.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("natsbus: watch table %s: %w", tableID, err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

// subject is the subject of every event of the table, whatever its game.
func (n Live) subject(tableID string) string {
	return n.Namespace.SubjectPrefix() + "*." + token(tableID)
}

// msgVersion is the event version a relayed message carries.
func msgVersion(m *nats.Msg) (int, bool) {
	v, err := strconv.Atoi(m.Header.Get(HeaderVersion))
	return v, err == nil
}

// LocalLive is the Live of a node whose own relay reads every event there
// is to hear: the embedded NATS server, which no other process reaches,
// has no other publisher. The relay hands it each page it reads from the
// store (RelayOptions.Announce) and it tells the streams of each table at
// once, without a round trip through NATS: no subscription a table, no
// message delivered back to this process and decoded for its version
// header, and the notice comes as soon as the relay has read the event
// rather than once JetStream has stored it. Notices are hints as with
// Live: a page read again after a failure is told again.
type LocalLive struct {
	mu     sync.RWMutex
	tables map[string]map[int]func(version int)
	next   int
}

// NewLocalLive returns a LocalLive with no watchers.
func NewLocalLive() *LocalLive {
	return &LocalLive{tables: make(map[string]map[int]func(int))}
}

// Watch calls notify with the version of each event of the table announced
// from now on until stop is called. It never fails.
func (l *LocalLive) Watch(tableID string, notify func(version int)) (stop func(), err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := l.next
	l.next++
	ws := l.tables[tableID]
	if ws == nil {
		ws = make(map[int]func(int))
		l.tables[tableID] = ws
	}
	ws[key] = notify
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			// ws is still the table's map: a map is dropped only once
			// empty, and it holds key until now.
			delete(ws, key)
			if len(ws) == 0 {
				delete(l.tables, tableID)
			}
		})
	}, nil
}

// Announce tells the watchers of each table event of page its version; the
// relay calls it (RelayOptions.Announce). Events of streams that are not
// tables are skipped, as Live hears only table subjects.
func (l *LocalLive) Announce(page []eventstore.Event) {
	for i := range page {
		tableID, ok := strings.CutPrefix(page[i].Stream, "table-")
		if !ok {
			continue
		}
		// A lock an event, not a page: a stream's stop waits for one
		// event's notices at most.
		l.mu.RLock()
		for _, notify := range l.tables[tableID] {
			notify(page[i].Version)
		}
		l.mu.RUnlock()
	}
}
