package natsbus

import (
	"context"
	"fmt"
	neturl "net/url"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/eventstore"
)

const (
	// StreamName is the JetStream stream every committed event is relayed to.
	StreamName = "PAIJU_EVENTS"
	// SubjectPrefix starts every event subject:
	// paiju.events.<game>.<tableID>, or paiju.events.other.<stream> for
	// streams that are not tables.
	SubjectPrefix = "paiju.events."
	// SubjectAll matches every event subject.
	SubjectAll = SubjectPrefix + ">"
	// DuplicateWindow is how long JetStream remembers a Nats-Msg-Id.
	DuplicateWindow = 2 * time.Minute
)

// Headers of a relayed message besides Nats-Msg-Id. The body is the event's
// JSON data exactly as appended.
const (
	HeaderPosition   = "Paiju-Position"    // global position, decimal
	HeaderStream     = "Paiju-Stream"      // e.g. table-01J…
	HeaderVersion    = "Paiju-Version"     // version within the stream, decimal
	HeaderType       = "Paiju-Type"        // event type name
	HeaderRecordedAt = "Paiju-Recorded-At" // RFC 3339 with nanoseconds, UTC
	HeaderHash       = "Paiju-Hash"        // hex SHA-256 of the chain
	HeaderPrevHash   = "Paiju-Prev-Hash"   // absent for the first event
)

// publishTimeout bounds an asynchronous publish whose ack never comes, so
// the relay can retry instead of waiting forever.
const publishTimeout = 10 * time.Second

// Connect dials url and returns the connection with its JetStream context;
// opts add credentials (Auth.Options) or an in-process server
// (Embedded.Connect). The client reconnects forever but does not buffer
// publishes while disconnected: a publish then fails at once, and the relay
// starts over from what JetStream holds, instead of sending it late after a
// reconnect.
func Connect(ctx context.Context, url string, opts ...nats.Option) (*nats.Conn, jetstream.JetStream, error) {
	shown := Redacted(url)
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("natsbus: connect %s: %w", shown, err)
	}
	all := []nats.Option{
		nats.Name("paiju"),
		nats.MaxReconnects(-1),
		nats.ReconnectBufSize(-1),
	}
	if d, ok := ctx.Deadline(); ok {
		all = append(all, nats.Timeout(time.Until(d)))
	}
	all = append(all, opts...)
	dial := url
	if url == InProcessURL {
		dial = "" // the in-process option replaces the dial; the pool still wants a URL
	}
	nc, err := nats.Connect(dial, all...)
	if err != nil {
		return nil, nil, fmt.Errorf("natsbus: connect %s: %w", shown, err)
	}
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncTimeout(publishTimeout))
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("natsbus: jetstream on %s: %w", shown, err)
	}
	return nc, js, nil
}

// Redacted is a server URL (or a comma-separated list) fit for logs and
// errors: a password or token written in it is replaced by xxxxx.
func Redacted(urls string) string {
	parts := strings.Split(urls, ",")
	for i, p := range parts {
		if u, err := neturl.Parse(strings.TrimSpace(p)); err == nil && u.User != nil {
			if _, hasPassword := u.User.Password(); !hasPassword {
				u.User = neturl.User("xxxxx") // nats://token@host: the name is the secret
			}
			parts[i] = u.Redacted()
		}
	}
	return strings.Join(parts, ",")
}

// StreamLimits bound what PAIJU_EVENTS keeps. JetStream is a feed, not the
// record (the store is): when a limit is reached the oldest messages are
// discarded, and consumers that fell that far behind fill the gap from the
// store. Zero means no limit.
type StreamLimits struct {
	// MaxAge is how long a message is kept; at least DuplicateWindow when
	// set, since JetStream refuses a duplicate window longer than it.
	MaxAge time.Duration
	// MaxBytes bounds the stream's storage.
	MaxBytes int64
	// Replicas is how many servers of a NATS cluster hold the stream (and
	// the deployment's key-value buckets); 0 is 1.
	Replicas int
}

// Validate reports limits JetStream would refuse.
func (l StreamLimits) Validate() error {
	if l.MaxAge < 0 || (l.MaxAge > 0 && l.MaxAge < DuplicateWindow) {
		return fmt.Errorf("natsbus: stream max age %v: want 0 (no limit) or at least the duplicate window %v", l.MaxAge, DuplicateWindow)
	}
	if l.MaxBytes < 0 {
		return fmt.Errorf("natsbus: stream max bytes %d: want 0 (no limit) or more", l.MaxBytes)
	}
	if l.Replicas < 0 || l.Replicas > 5 {
		return fmt.Errorf("natsbus: stream replicas %d: want 1 to 5", l.Replicas)
	}
	return nil
}

// StreamConfig is the configuration EnsureStream applies.
func StreamConfig(l StreamLimits) jetstream.StreamConfig {
	maxBytes := l.MaxBytes
	if maxBytes == 0 {
		maxBytes = -1 // JetStream's "no limit", as it reports an unset one
	}
	return jetstream.StreamConfig{
		Name:        StreamName,
		Description: "paiju committed events, relayed from the event store",
		Subjects:    []string{SubjectAll},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		Discard:     jetstream.DiscardOld,
		Duplicates:  DuplicateWindow,
		MaxAge:      l.MaxAge,
		MaxBytes:    maxBytes,
		Replicas:    max(l.Replicas, 1),
	}
}

// EnsureStream creates the PAIJU_EVENTS stream, or updates an existing one
// to StreamConfig(limits). A stream that already has that configuration is
// left alone: a needless update racing a consumer's creation is a data race
// inside nats-server (fileStore.UpdateConfig against ConsumerStore,
// v2.15.3). Only the server ensures the stream; consumers look it up, so
// that they never undo the limits it was configured with. A deployment
// with a cluster name ensures its own with Namespace.EnsureStream.
func EnsureStream(ctx context.Context, js jetstream.JetStream, limits StreamLimits) (jetstream.Stream, error) {
	return Namespace{}.EnsureStream(ctx, js, limits)
}

// Subject is the subject of a table's events in the zero Namespace:
// paiju.events.<game>.<tableID>. Characters that cannot stand in a subject
// token are replaced by '_'.
func Subject(game, tableID string) string { return Namespace{}.Subject(game, tableID) }

// token makes s usable as one subject token: no separators, wildcards or
// whitespace, and never empty.
func token(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '.', '*', '>', ' ', '\t', '\r', '\n', '\f', '\v':
			return '_'
		}
		return r
	}, s)
}

// MsgID is the Nats-Msg-Id of an event, unique per (stream, version).
func MsgID(stream string, version int) string {
	return stream + ":" + strconv.Itoa(version)
}

// NewMsg builds the message the relay publishes for e on subject.
func NewMsg(subject string, e eventstore.Event) *nats.Msg {
	return newMsg(subject, &e, "")
}

// msgHeaders is how many headers newMsg may set.
const msgHeaders = 9

// newMsg is NewMsg with a Nats-Expected-Last-Sequence of expectLastSeq
// (none when ""). The values share one backing array, each capped at its
// own length so that an Add cannot write into the next, and the header map
// is sized once: the relay builds a message for every event.
func newMsg(subject string, e *eventstore.Event, expectLastSeq string) *nats.Msg {
	h := make(nats.Header, msgHeaders)
	vals := make([]string, 0, msgHeaders)
	set := func(k, v string) {
		vals = append(vals, v)
		h[k] = vals[len(vals)-1 : len(vals) : len(vals)]
	}
	set(jetstream.MsgIDHeader, MsgID(e.Stream, e.Version))
	set(HeaderPosition, strconv.FormatInt(e.Position, 10))
	set(HeaderStream, e.Stream)
	set(HeaderVersion, strconv.Itoa(e.Version))
	set(HeaderType, e.Type)
	set(HeaderRecordedAt, e.RecordedAt.UTC().Format(time.RFC3339Nano))
	set(HeaderHash, e.Hash)
	if e.PrevHash != "" {
		set(HeaderPrevHash, e.PrevHash)
	}
	if expectLastSeq != "" {
		set(jetstream.ExpectedLastSeqHeader, expectLastSeq)
	}
	return &nats.Msg{Subject: subject, Header: h, Data: e.Data}
}

// DecodeEvent rebuilds the stored event from a relayed message's headers
// and body, for consumers that read PAIJU_EVENTS.
func DecodeEvent(h nats.Header, data []byte) (eventstore.Event, error) {
	e := eventstore.Event{
		Stream:   h.Get(HeaderStream),
		Type:     h.Get(HeaderType),
		Data:     data,
		Hash:     h.Get(HeaderHash),
		PrevHash: h.Get(HeaderPrevHash),
	}
	if e.Stream == "" || e.Type == "" {
		return eventstore.Event{}, fmt.Errorf("natsbus: decode event: missing %s or %s header", HeaderStream, HeaderType)
	}
	var err error
	if e.Position, err = strconv.ParseInt(h.Get(HeaderPosition), 10, 64); err != nil {
		return eventstore.Event{}, fmt.Errorf("natsbus: decode event %s: position: %w", e.Stream, err)
	}
	if e.Version, err = strconv.Atoi(h.Get(HeaderVersion)); err != nil {
		return eventstore.Event{}, fmt.Errorf("natsbus: decode event %s: version: %w", e.Stream, err)
	}
	if e.RecordedAt, err = time.Parse(time.RFC3339Nano, h.Get(HeaderRecordedAt)); err != nil {
		return eventstore.Event{}, fmt.Errorf("natsbus: decode event %s:%d: recorded-at: %w", e.Stream, e.Version, err)
	}
	return e, nil
}
