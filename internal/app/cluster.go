package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"paiju/api"
	"paiju/eventstore"
	"paiju/natsbus"
)

// cluster is what serve adds with an external NATS (--nats-url), where
// other nodes of the deployment may share the stream: the leases that keep
// one relay per deployment, the chain anchor, and stream tickets any node
// redeems. With the embedded NATS this process is the deployment and serve
// runs without any of it.
type cluster struct {
	ns      natsbus.Namespace
	leases  *natsbus.Leases
	anchor  *natsbus.Anchor
	tickets *natsbus.Tickets
	// node names this node's own projection consumers (projections kept in
	// its data directory).
	node string
}

// relayLease is the lease the relay runs under.
const relayLease = "relay"

func openCluster(ctx context.Context, cfg Config, js jetstream.JetStream, log *slog.Logger) (*cluster, error) {
	ns, replicas := cfg.NATS.NS, cfg.NATS.Limits.Replicas
	leases, err := natsbus.OpenLeases(ctx, js, ns, natsbus.LeaseOptions{TTL: cfg.LeaseTTL, Replicas: replicas}, log)
	if err != nil {
		return nil, fmt.Errorf("NATS leases: %w", err)
	}
	anchor, err := natsbus.OpenAnchor(ctx, js, ns, replicas)
	if err != nil {
		return nil, fmt.Errorf("NATS chain anchor: %w", err)
	}
	// The bucket keeps a ticket a little past its validity; the API checks
	// the validity itself.
	tickets, err := natsbus.OpenTickets(ctx, js, ns, 2*api.StreamTicketTTL, replicas)
	if err != nil {
		return nil, fmt.Errorf("NATS stream tickets: %w", err)
	}
	node, err := nodeID(cfg.Data)
	if err != nil {
		return nil, err
	}
	if cfg.LeaseTTL > 0 && leases.TTL() != cfg.LeaseTTL {
		log.Warn("the leases bucket was created with another TTL, which the lease follows; delete the bucket while the deployment is stopped to change it",
			"bucket", ns.Bucket("leases"), "ttl", leases.TTL(), "lease_ttl", cfg.LeaseTTL)
	}
	return &cluster{ns: ns, leases: leases, anchor: anchor, tickets: tickets, node: node}, nil
}

// nodeID is this node's name, kept in the data directory so that its own
// consumers survive a restart.
func nodeID(dir string) (string, error) {
	path := filepath.Join(dir, "node-id")
	b, err := os.ReadFile(path)
	if err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("node id: %w", err)
	}
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("node id: %w", err)
	}
	id := hex.EncodeToString(r[:])
	if err := os.WriteFile(path, []byte(id+"\n"), 0o640); err != nil {
		return "", fmt.Errorf("node id: %w", err)
	}
	return id, nil
}

// chainStore is what the anchor is checked against and taken from: the
// head of the store's global log and the event at a position. Every store
// has it (eventstore.Store), whatever its engine.
type chainStore interface {
	Head(ctx context.Context) (position int64, hash string, err error)
	ReadAll(ctx context.Context, fromPosition int64, limit int) ([]eventstore.Event, error)
}

// anchorKeeper keeps the chain anchor outside the store (natsbus.Anchor).
type anchorKeeper interface {
	Load(ctx context.Context) (natsbus.AnchorPoint, bool, error)
	Advance(ctx context.Context, p natsbus.AnchorPoint) error
}

var (
	_ chainStore   = eventstore.Store(nil)
	_ anchorKeeper = (*natsbus.Anchor)(nil)
)

// errAnchorMissing reports a store that does not contain the anchored
// event: it lost events it had (truncated, restored from an older copy, a
// replica promoted without the last commits) or its history was rewritten.
var errAnchorMissing = errors.New("the event store does not contain the chain anchor")

// anchorHint tells an operator what to do about errAnchorMissing.
const anchorHint = "restore the store from a copy that contains the anchored event, or, to accept the loss, delete the anchor (nats kv del <bucket> head) and restart (docs/OPERATIONS.md, Cluster)"

// checkAnchor tells whether st contains the anchored event with the
// anchored hash; no anchor yet is fine. It returns the anchor it checked.
func checkAnchor(ctx context.Context, st chainStore, a anchorKeeper) (natsbus.AnchorPoint, error) {
	p, ok, err := a.Load(ctx)
	if err != nil || !ok || p.Position == 0 {
		return p, err
	}
	evs, err := st.ReadAll(ctx, p.Position-1, 1)
	if err != nil {
		return p, fmt.Errorf("read the store at the anchored position %d: %w", p.Position, err)
	}
	if len(evs) == 0 || evs[0].Position != p.Position {
		head, _, herr := st.Head(ctx)
		if herr != nil {
			return p, herr
		}
		return p, fmt.Errorf("%w: the anchor (recorded %s) holds position %d, the store ends at %d: it lost events",
			errAnchorMissing, p.RecordedAt.Format(time.RFC3339), p.Position, head)
	}
	if evs[0].Hash != p.Hash {
		return p, fmt.Errorf("%w: the event at position %d has hash %s, the anchor (recorded %s) %s: the store's history differs",
			errAnchorMissing, p.Position, evs[0].Hash, p.RecordedAt.Format(time.RFC3339), p.Hash)
	}
	return p, nil
}

// recordAnchor records the store's head as the anchor every interval until
// ctx ends; it runs on the node that holds the relay's lease.
func recordAnchor(ctx context.Context, st chainStore, a anchorKeeper, every time.Duration, now func() time.Time, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		pos, hash, err := st.Head(ctx)
		switch {
		case err != nil:
			if ctx.Err() == nil {
				log.Warn("read the store's head for the chain anchor", "err", err)
			}
		case pos > 0:
			err := a.Advance(ctx, natsbus.AnchorPoint{Position: pos, Hash: hash, RecordedAt: now().UTC()})
			if errors.Is(err, natsbus.ErrAnchorAhead) {
				log.Error("the event store is behind or differs from the chain anchor", "err", err, "head", pos)
			} else if err != nil && ctx.Err() == nil {
				log.Warn("record the chain anchor", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// runRelay runs the relay: at once with the embedded NATS, and under the
// deployment's relay lease otherwise, where the holder also records the
// chain anchor.
func runRelay(ctx context.Context, cl *cluster, relay *natsbus.Relay, st chainStore, anchorEvery time.Duration, log *slog.Logger) {
	run := func(ctx context.Context) {
		if err := relay.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("relay stopped", "err", err)
		}
	}
	if cl == nil {
		run(ctx)
		return
	}
	if anchorEvery <= 0 {
		anchorEvery = 5 * time.Second
	}
	_ = cl.leases.Run(ctx, relayLease, func(ctx context.Context) {
		var wg sync.WaitGroup
		wg.Go(func() { recordAnchor(ctx, st, cl.anchor, anchorEvery, time.Now, log.With("component", "anchor")) })
		run(ctx)
		wg.Wait()
	})
}
