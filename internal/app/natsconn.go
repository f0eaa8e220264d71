package app

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/natsbus"
)

// startNATS connects serve to NATS and ensures the stream with its limits:
// to the external server of --nats-url with its credentials, or else to an
// embedded server that only this process can reach. It returns what to log
// as the server's address and a function that closes the connection and
// stops the embedded server.
//
// The embedded server runs without JetStream, and js is nil, unless the
// projections are external (usesJetStream): nothing else could read its
// stream.
func startNATS(ctx context.Context, cfg Config, log *slog.Logger) (string, *nats.Conn, jetstream.JetStream, func(), error) {
	var (
		nc   *nats.Conn
		js   jetstream.JetStream
		err  error
		stop = func() {}
	)
	name := natsbus.Redacted(cfg.NATS.URL)
	if name == "" {
		nlog := log.With("component", "nats")
		var emb *natsbus.Embedded
		if cfg.usesJetStream() {
			emb, err = natsbus.StartEmbedded(ctx, cfg.NATSDir(), nlog)
		} else {
			emb, err = natsbus.StartEmbeddedCore(ctx, nlog)
		}
		if err != nil {
			return "", nil, nil, nil, fmt.Errorf("embedded NATS: %w", err)
		}
		name, stop = natsbus.InProcessURL, emb.Shutdown
		if cfg.Projector == "external" {
			log.Warn("--projector external with the embedded NATS: no other process can reach it, so nothing projects; give --nats-url to run paiju project")
		}
		nc, js, err = emb.Connect(ctx)
		if err != nil {
			emb.Shutdown()
			return "", nil, nil, nil, err
		}
		if !cfg.usesJetStream() {
			return name, nc, nil, func() { nc.Close(); stop() }, nil
		}
	} else if nc, js, err = connectNATS(ctx, cfg.NATS); err != nil {
		return "", nil, nil, nil, err
	}
	closeAll := func() { nc.Close(); stop() }
	// Nodes starting together with a new NATS cluster race to create the
	// replicated stream while its servers elect their leaders: the
	// request may time out, and is tried again.
	err = whileStarting(ctx, log, "ensure the NATS stream", func() error {
		_, err := cfg.NATS.NS.EnsureStream(ctx, js, cfg.NATS.Limits)
		return err
	})
	if err != nil {
		closeAll()
		return "", nil, nil, nil, fmt.Errorf("NATS stream: %w", err)
	}
	return name, nc, js, closeAll, nil
}

// connectNATS connects to the external server of c with its credentials.
func connectNATS(ctx context.Context, c NATSConfig) (*nats.Conn, jetstream.JetStream, error) {
	opts, err := c.Auth.Options()
	if err != nil {
		return nil, nil, err
	}
	nc, js, err := natsbus.Connect(ctx, c.URL, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("connect to NATS: %w", err) // Connect names the server
	}
	return nc, js, nil
}

// usesJetStream tells whether serve publishes the log to a JetStream
// stream: always with --nats-url, where other nodes and paiju project read
// it; with the embedded server only for external projections (a projector
// run in the same process, App.JetStream). An embedded node projecting in
// process feeds its streams and projections from its relay's pages, so
// nothing would read the stream.
func (c Config) usesJetStream() bool {
	return c.NATS.URL != "" || c.Projector == "external"
}
