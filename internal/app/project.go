package app

import (
	"context"
	"errors"
	"io"

	"paiju/natsbus"
	"paiju/projections"
)

// projectConfig configures paiju project.
type ProjectConfig struct {
	Common
	NATS     NATSConfig
	TimeZone string
}

// project runs the projections outside the server, consuming from NATS,
// until ctx ends. The store is opened read-side to fill gaps.
func Project(ctx context.Context, c ProjectConfig, stderr io.Writer) error {
	log, err := c.Logger(stderr)
	if err != nil {
		return err
	}
	store, err := openLogReader(ctx, c.Common, log)
	if err != nil {
		return err
	}
	defer store.Close()
	db, err := openProjections(ctx, c.Common, projections.DefaultLocation)
	if err != nil {
		return err
	}
	defer db.Close()
	nc, js, err := connectNATS(ctx, c.NATS)
	if err != nil {
		return err
	}
	defer nc.Close()
	r := projectionFeed(db, js, c.NATS.NS, store, log)
	log.Info("paiju projecting", "nats", natsbus.Redacted(c.NATS.URL), "data", c.Data)
	if err := r.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
