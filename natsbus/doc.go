// Package natsbus is everything NATS: the embedded nats-server that `paiju
// serve` starts by default, the Relay that feeds committed events from the
// event store to JetStream, and the consumers of that feed: the
// ProjectionFeed that keeps the projections current and Live, the notices
// behind the API's live streams.
//
// The event store (SQLite embedded, or PostgreSQL in a cluster) stays the
// only record: JetStream acknowledges before its own disk flush, so the
// stream PAIJU_EVENTS is a delivery channel that can always be rebuilt from
// the store. The Relay is an outbox reader: it reads the store in
// global order from where JetStream's copy ends, publishes each event with
// Nats-Msg-Id "<stream>:<version>" and an expectation on the message before
// it, and advances its checkpoint once JetStream acknowledged every event up
// to it. So the stream holds each event once, in the store's order (hence
// each table's events in version order), with JetStream's duplicate window
// as a second guard for re-publishes.
//
// Consumers read events with DecodeEvent and still apply them idempotently
// by (stream, version): a purge of the stream or a store restored from a
// backup are operator actions the relay reports but cannot undo.
//
// Several processes may form one deployment on an external NATS. A
// Namespace gives each deployment its own stream, subjects, consumers and
// key-value buckets; Leases keep one relay (and one worker per shared
// projection) per deployment; Anchor keeps a recent head of the store
// outside it, so a store that lost events is noticed; Tickets let any node
// redeem a stream ticket another issued; Live hears every event on every
// node, since it listens to the stream's subjects, not to the relay.
package natsbus
