package natsbus

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
)

// Revocations tells every node of a deployment that a bearer token was
// revoked, so that each ends its live streams of that token at once
// (api.Revocations). Notices are core NATS, at most once: a node that
// misses one (disconnected at the time) still ends those streams when their
// next heartbeat checks the token in the shared store.
type Revocations struct {
	Conn *nats.Conn
	// Namespace names the deployment's subjects.
	Namespace Namespace
}

// TokenRevocations is the subject of the deployment's token revocation
// notices; outside the event subjects, so that no stream keeps them.
func (n Namespace) TokenRevocations() string {
	if n.cluster == "" {
		return "paiju.tokens.revoked"
	}
	return "paiju." + n.cluster + ".tokens.revoked"
}

// announceWait bounds how long Announce waits for the server to take the
// notice: FlushWithContext refuses a context without a deadline (a request's
// has none), and a notice that takes longer only leaves the other nodes'
// streams to their heartbeat.
const announceWait = 2 * time.Second

// Announce tells every node that tokenID was revoked, waiting at most
// announceWait (or ctx's own deadline, if sooner) for the server to take
// the notice.
func (r Revocations) Announce(ctx context.Context, tokenID string) error {
	if err := r.Conn.Publish(r.Namespace.TokenRevocations(), []byte(tokenID)); err != nil {
		return fmt.Errorf("natsbus: announce a token revocation: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, announceWait)
	defer cancel()
	if err := r.Conn.FlushWithContext(ctx); err != nil {
		return fmt.Errorf("natsbus: announce a token revocation: %w", err)
	}
	return nil
}

// Listen calls revoked with the id of each token revoked from now on, on
// any node, until stop is called. revoked must not block.
func (r Revocations) Listen(revoked func(tokenID string)) (stop func(), err error) {
	sub, err := r.Conn.Subscribe(r.Namespace.TokenRevocations(), func(m *nats.Msg) { revoked(string(m.Data)) })
	if err != nil {
		return nil, fmt.Errorf("natsbus: listen for token revocations: %w", err)
	}
	if err := r.Conn.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("natsbus: listen for token revocations: %w", err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}
