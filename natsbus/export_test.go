package natsbus

import (
	"github.com/nats-io/nats.go"

	"paiju/eventstore"
)

// NewMsgExpecting is the relay's newMsg, for the tests.
func NewMsgExpecting(subject string, e eventstore.Event, expectLastSeq string) *nats.Msg {
	return newMsg(subject, &e, expectLastSeq)
}
