// Package natsbus feeds committed events from the event store to NATS
// JetStream and runs the embedded nats-server that `paiju serve` starts by
// default.
//
// SQLite stays the only record: JetStream acknowledges before its own disk
// flush, so the stream PAIJU_EVENTS is a delivery channel that can always be
// rebuilt from the store. The Relay is an outbox reader: it reads the store in
// global order from a checkpoint, publishes each event with Nats-Msg-Id
// "<stream>:<version>", and advances the checkpoint only after JetStream
// acknowledged every event up to it. A crash between the publish and the
// checkpoint write re-publishes, and JetStream's duplicate window drops the
// copies; so within that window each event is stored exactly once, and per
// table stream in version order.
package natsbus
