package natsbus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// AnchorPoint is a position of the event store's global log and the chain
// hash of the event there, as seen at RecordedAt.
type AnchorPoint struct {
	Position   int64     `json:"position"`
	Hash       string    `json:"hash"`
	RecordedAt time.Time `json:"recorded_at"`
}

// Anchor keeps a deployment's chain anchor in its "anchor" key-value bucket
// (key "head"): the latest store head some node saw. It lives outside the
// store and outside any node's disk, so a store that was truncated or
// rewritten (restored from an old backup, a failed-over replica that lost
// commits) no longer contains it, and nodes refuse to serve it. It only
// ever moves forward.
type Anchor struct {
	kv     jetstream.KeyValue
	bucket string
}

// ErrAnchorAhead reports an anchor the store cannot reach: it anchors a
// position past the head being recorded, or the same position with another
// hash.
var ErrAnchorAhead = errors.New("natsbus: the chain anchor is ahead of or differs from the store")

const anchorKey = "head"

// OpenAnchor opens (creating if needed) the anchor bucket of ns; replicas
// is its replication in a NATS cluster (0 or 1 for none).
func OpenAnchor(ctx context.Context, js jetstream.JetStream, ns Namespace, replicas int) (*Anchor, error) {
	bucket := ns.Bucket("anchor")
	kv, _, err := openBucket(ctx, js, jetstream.KeyValueConfig{
		Bucket:      bucket,
		Description: "paiju chain anchor: a recent head of the event store",
		History:     8,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	})
	if err != nil {
		return nil, err
	}
	return &Anchor{kv: kv, bucket: bucket}, nil
}

// LookupAnchor opens the anchor bucket of ns without creating it; false
// when the deployment never had one.
func LookupAnchor(ctx context.Context, js jetstream.JetStream, ns Namespace) (*Anchor, bool, error) {
	bucket := ns.Bucket("anchor")
	kv, err := js.KeyValue(ctx, bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("natsbus: key-value bucket %s: %w", bucket, err)
	}
	return &Anchor{kv: kv, bucket: bucket}, true, nil
}

// Bucket names the anchor's key-value bucket (its key is "head").
func (a *Anchor) Bucket() string { return a.bucket }

// Load returns the anchor; false when none was ever recorded.
func (a *Anchor) Load(ctx context.Context) (AnchorPoint, bool, error) {
	p, _, ok, err := a.load(ctx)
	return p, ok, err
}

func (a *Anchor) load(ctx context.Context) (AnchorPoint, uint64, bool, error) {
	e, err := a.kv.Get(ctx, anchorKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return AnchorPoint{}, 0, false, nil
	}
	if err != nil {
		return AnchorPoint{}, 0, false, fmt.Errorf("natsbus: read anchor in %s: %w", a.bucket, err)
	}
	var p AnchorPoint
	if err := json.Unmarshal(e.Value(), &p); err != nil {
		return AnchorPoint{}, 0, false, fmt.Errorf("natsbus: anchor in %s at revision %d: %w", a.bucket, e.Revision(), err)
	}
	return p, e.Revision(), true, nil
}

// Advance records p if it is past the anchor. An anchor at p's position
// with p's hash is left as it is; one past p, or at p's position with
// another hash, is ErrAnchorAhead: the caller's store is not the history
// the anchor saw. Writes are revision-checked, so two nodes advancing at
// once never move the anchor back.
func (a *Anchor) Advance(ctx context.Context, p AnchorPoint) error {
	for {
		cur, rev, ok, err := a.load(ctx)
		if err != nil {
			return err
		}
		if ok {
			switch {
			case cur.Position > p.Position:
				return fmt.Errorf("%w: anchored position %d, store head %d", ErrAnchorAhead, cur.Position, p.Position)
			case cur.Position == p.Position && cur.Hash != p.Hash:
				return fmt.Errorf("%w: position %d anchored with hash %s, the store has %s", ErrAnchorAhead, p.Position, cur.Hash, p.Hash)
			case cur.Position == p.Position:
				return nil
			}
		}
		b, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("natsbus: anchor: %w", err)
		}
		if ok {
			_, err = a.kv.Update(ctx, anchorKey, b, rev)
		} else {
			_, err = a.kv.Create(ctx, anchorKey, b)
		}
		if err == nil {
			return nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) && !isWrongLast(err) {
			return fmt.Errorf("natsbus: write anchor in %s: %w", a.bucket, err)
		}
		// Someone else wrote it since the read: compare with theirs.
	}
}

// isWrongLast tells whether err is JetStream refusing a revision-checked
// write because the subject's last message is another one (10071, or
// 10164 from a replicated stream).
func isWrongLast(err error) bool {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.ErrorCode {
	case jetstream.JSErrCodeStreamWrongLastSequence, jetstream.JSErrCodeStreamWrongLastSequenceConstant:
		return true
	}
	return false
}

// Relayed returns the global position of the last event ns's stream holds
// (0 when it holds none, or its last message is not a relayed event): how
// far the deployment's relay got, whichever process runs it.
func (n Namespace) Relayed(ctx context.Context, js jetstream.JetStream) (int64, error) {
	s, err := js.Stream(ctx, n.Stream())
	if err != nil {
		return 0, fmt.Errorf("natsbus: stream %s: %w", n.Stream(), err)
	}
	m, err := s.GetLastMsgForSubject(ctx, n.SubjectAll())
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("natsbus: stream %s: last message: %w", n.Stream(), err)
	}
	e, err := DecodeEvent(m.Header, m.Data)
	if err != nil {
		return 0, nil
	}
	return e.Position, nil
}
