package app

import (
	"context"
	"errors"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"

	"paiju/natsbus"
	"paiju/projections"
)

// projectionFeed keeps every projection of db current from NATS, filling
// gaps from the store's log.
func projectionFeed(db projections.Store, js jetstream.JetStream, ns natsbus.Namespace, log projections.Source, logger *slog.Logger) *natsbus.ProjectionFeed {
	return &natsbus.ProjectionFeed{
		Projector: projector(db, log, logger),
		JS:        js,
		Namespace: ns,
		Names:     projections.Names,
		Logger:    logger.With("component", "projections"),
	}
}

// pageFeed feeds db's projections the pages of events this node's relay
// reads from log (an embedded NATS server's node).
func pageFeed(db projections.Store, log projections.Source, logger *slog.Logger) *projections.PageFeed {
	return projections.NewPageFeed(projector(db, log, logger), projections.Names, logger.With("component", "projections"))
}

// projector applies events to db's projections, filling gaps from log and
// warning of a projection it rebuilds.
func projector(db projections.Store, log projections.Source, logger *slog.Logger) projections.Feed {
	return projections.Feed{Store: db, Log: log, Rebuilt: func(name, reason string) {
		logger.Warn("projection rebuilt from position 0: the log does not hold its checkpoint", "projection", name, "reason", reason)
	}}
}

// runProjections starts the in-process feed; it returns when ctx ends.
func runProjections(ctx context.Context, r *natsbus.ProjectionFeed, log *slog.Logger) {
	if err := r.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		log.Error("projections stopped", "err", err)
	}
}
