package natsbus

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/nats-io/nats.go/jetstream"
)

// Namespace is every name one deployment uses on NATS: its stream and
// subjects, its durable consumers and its key-value buckets. Two deployments
// with different cluster names share a NATS server (or cluster) without
// touching each other's messages, consumers or leases.
//
// The zero Namespace is the single-node deployment's and keeps the names
// paiju used before --cluster existed, so that an existing deployment
// upgrades without renaming anything on NATS:
//
//	                     zero Namespace            cluster "prod"
//	stream               PAIJU_EVENTS              PAIJU_EVENTS_prod
//	event subjects       paiju.events.<g>.<t>      paiju.prod.events.<g>.<t>
//	projection consumer  paiju-projections         paiju-prod-projections
//	  one per projection paiju-projection-<name>   paiju-prod-projection-<name>
//	key-value buckets    paiju-leases, …           paiju-prod-leases, …
//
// The cluster name sits in the second subject token, so a deployment's
// events stay under paiju.> (one permission for every paiju deployment) and
// "paiju.<cluster>.>" grants exactly one deployment's subjects.
type Namespace struct{ cluster string }

// clusterName is what a cluster name may be: one NATS subject token that is
// also valid in stream, consumer and bucket names.
var clusterName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// reservedClusters cannot be cluster names: "events" would put a
// deployment's subjects (paiju.events.events.>) inside the zero
// Namespace's paiju.events.>, and JetStream refuses streams that overlap.
var reservedClusters = []string{"events"}

// NewNamespace returns the namespace of the deployment named cluster; ""
// is the zero Namespace.
func NewNamespace(cluster string) (Namespace, error) {
	if cluster == "" {
		return Namespace{}, nil
	}
	if !clusterName.MatchString(cluster) {
		return Namespace{}, fmt.Errorf("natsbus: cluster name %q: want 1 to 32 letters, digits, '-' or '_'", cluster)
	}
	if slices.Contains(reservedClusters, cluster) {
		return Namespace{}, fmt.Errorf("natsbus: cluster name %q is reserved: its subjects would overlap the unnamed deployment's", cluster)
	}
	return Namespace{cluster: cluster}, nil
}

// Cluster is the deployment's name, "" for the zero Namespace.
func (n Namespace) Cluster() string { return n.cluster }

// Stream is the JetStream stream every committed event is relayed to.
func (n Namespace) Stream() string {
	if n.cluster == "" {
		return StreamName
	}
	return StreamName + "_" + n.cluster
}

// SubjectPrefix starts every event subject of the deployment.
func (n Namespace) SubjectPrefix() string {
	if n.cluster == "" {
		return SubjectPrefix
	}
	return "paiju." + n.cluster + ".events."
}

// SubjectAll matches every event subject of the deployment.
func (n Namespace) SubjectAll() string { return n.SubjectPrefix() + ">" }

// Subject is the subject of a table's events: <prefix><game>.<tableID>.
func (n Namespace) Subject(game, tableID string) string {
	return n.SubjectPrefix() + token(game) + "." + token(tableID)
}

// otherSubject is where events of streams that are not tables go.
func (n Namespace) otherSubject(stream string) string {
	return n.SubjectPrefix() + "other." + token(stream)
}

// ProjectionConsumer is the durable consumer of projection name alone,
// for a feed that runs one per projection (ProjectionFeed with Leases).
func (n Namespace) ProjectionConsumer(name string) string {
	return n.prefix() + "projection-" + name
}

// ProjectionsConsumer is the durable consumer that feeds every projection
// at once (ProjectionFeed without Leases).
func (n Namespace) ProjectionsConsumer() string { return n.prefix() + "projections" }

// Bucket names the deployment's key-value bucket kind ("leases", "anchor",
// "tickets").
func (n Namespace) Bucket(kind string) string { return n.prefix() + kind }

func (n Namespace) prefix() string {
	if n.cluster == "" {
		return "paiju-"
	}
	return "paiju-" + n.cluster + "-"
}

// StreamConfig is the configuration EnsureStream applies.
func (n Namespace) StreamConfig(l StreamLimits) jetstream.StreamConfig {
	c := StreamConfig(l)
	c.Name = n.Stream()
	c.Subjects = []string{n.SubjectAll()}
	if n.cluster != "" {
		c.Description = "paiju committed events of deployment " + n.cluster + ", relayed from the event store"
	}
	return c
}

// EnsureStream creates the deployment's stream or brings its configuration
// to StreamConfig(limits); see the package's EnsureStream.
func (n Namespace) EnsureStream(ctx context.Context, js jetstream.JetStream, limits StreamLimits) (jetstream.Stream, error) {
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	want := n.StreamConfig(limits)
	if s, err := js.Stream(ctx, want.Name); err == nil {
		if c := s.CachedInfo().Config; c.Description == want.Description && slices.Equal(c.Subjects, want.Subjects) &&
			c.Storage == want.Storage && c.Retention == want.Retention && c.Duplicates == want.Duplicates &&
			c.Discard == want.Discard && c.MaxAge == want.MaxAge && c.MaxBytes == want.MaxBytes && c.Replicas == want.Replicas {
			return s, nil
		}
	}
	s, err := js.CreateOrUpdateStream(ctx, want)
	if err != nil {
		return nil, fmt.Errorf("natsbus: ensure stream %s: %w", want.Name, err)
	}
	return s, nil
}
