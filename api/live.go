package api

import (
	"strconv"

	"github.com/nats-io/nats.go"

	"paiju/natsbus"
)

// Live tells a table's live streams that events were committed, whichever
// node committed them.
type Live interface {
	// Watch calls notify with the version of each event of the table
	// published from now on (possibly more than once, possibly late) until
	// stop is called. notify must not block.
	Watch(tableID string, notify func(version int)) (stop func(), err error)
}

// NATSLive is Live over core NATS: it subscribes to the subject every event
// of the table is relayed to, paiju.events.<game>.<tableID>, with a wildcard
// for the game, so that any API node connected to the cluster serves any
// table.
type NATSLive struct{ Conn *nats.Conn }

// Watch subscribes to the table's subject.
func (n NATSLive) Watch(tableID string, notify func(version int)) (func(), error) {
	sub, err := n.Conn.Subscribe(natsbus.SubjectPrefix+"*."+tableID, func(m *nats.Msg) {
		v, err := strconv.Atoi(m.Header.Get(natsbus.HeaderVersion))
		if err != nil {
			return
		}
		notify(v)
	})
	if err != nil {
		return nil, err
	}
	// Flush makes the subscription known to the server before the caller
	// catches up from the store, so no event falls between the two.
	if err := n.Conn.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, err
	}
	return func() { _ = sub.Unsubscribe() }, nil
}
