package natsbus

import (
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"
)

// Live tells a table's live streams (the API's /stream) that events were
// committed, whichever node committed them: it subscribes with core NATS to
// the subject every event of the table is relayed to,
// paiju.events.<game>.<tableID>, with a wildcard for the game, so that any
// API node connected to the cluster serves any table. The notices come
// from the messages the relay publishes, whichever node runs it: a node
// that does not hold the relay's lease hears every event all the same.
type Live struct {
	Conn *nats.Conn
	// Namespace names the deployment's subjects.
	Namespace Namespace
}

// Watch calls notify with the version of each event of the table published
// from now on (possibly more than once, possibly late) until stop is called.
func (n Live) Watch(tableID string, notify func(version int)) (stop func(), err error) {
	sub, err := n.Conn.Subscribe(n.Namespace.SubjectPrefix()+"*."+token(tableID), func(m *nats.Msg) {
		v, err := strconv.Atoi(m.Header.Get(HeaderVersion))
		if err != nil {
			return
		}
		notify(v)
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
