package natsbus

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Tickets keeps the API's stream tickets in the deployment's "tickets"
// key-value bucket, so that a ticket issued by one node opens a stream on
// any node. Each ticket is a key (the API names it by the ticket's hash,
// never the ticket itself) written once and taken once: a redemption reads
// it and deletes exactly the revision it read, so of two nodes redeeming
// the same ticket at once only one succeeds. The bucket's TTL forgets
// tickets nobody redeemed; the API checks each ticket's own expiry.
type Tickets struct {
	kv     jetstream.KeyValue
	bucket string
}

// OpenTickets opens (creating if needed) the tickets bucket of ns, whose
// entries expire after ttl (a bucket that exists keeps its own TTL).
func OpenTickets(ctx context.Context, js jetstream.JetStream, ns Namespace, ttl time.Duration, replicas int) (*Tickets, error) {
	bucket := ns.Bucket("tickets")
	kv, _, err := openBucket(ctx, js, jetstream.KeyValueConfig{
		Bucket:      bucket,
		Description: "paiju stream tickets, by hash, until redeemed",
		TTL:         ttl,
		History:     1,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	})
	if err != nil {
		return nil, err
	}
	return &Tickets{kv: kv, bucket: bucket}, nil
}

// Put stores a new ticket's grant under key; a key already there is an
// error (tickets are random: it means a bug, not a retry).
func (t *Tickets) Put(ctx context.Context, key string, grant []byte) error {
	if _, err := t.kv.Create(ctx, key, grant); err != nil {
		return fmt.Errorf("natsbus: store ticket in %s: %w", t.bucket, err)
	}
	return nil
}

// Take returns the grant under key and removes it; false when there is
// none, or another redemption took it first.
func (t *Tickets) Take(ctx context.Context, key string) ([]byte, bool, error) {
	e, err := t.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("natsbus: read ticket in %s: %w", t.bucket, err)
	}
	if err := t.kv.Delete(ctx, key, jetstream.LastRevision(e.Revision())); err != nil {
		if isWrongLast(err) {
			return nil, false, nil // redeemed elsewhere since the read
		}
		return nil, false, fmt.Errorf("natsbus: spend ticket in %s: %w", t.bucket, err)
	}
	return e.Value(), true, nil
}
