package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"paiju/natsbus"
	"paiju/projections"
)

// replayConfig configures paiju replay.
type replayConfig struct {
	commonConfig
	Projection string
}

func parseReplay(args []string, getenv func(string) string, stderr io.Writer) (replayConfig, error) {
	var c replayConfig
	fs := flagSet("replay", stderr)
	addCommon(fs, getenv, &c.commonConfig)
	fs.StringVar(&c.Projection, "projection", "", "projection to rebuild from position 0: "+strings.Join(projections.Names, ", ")+", or all")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("replay: unexpected arguments %q", fs.Args())
	}
	if c.Projection != "all" && !slices.Contains(projections.Names, c.Projection) {
		return c, fmt.Errorf("replay: --projection %q: want one of %s or all", c.Projection, strings.Join(projections.Names, ", "))
	}
	return c, nil
}

// replay rebuilds projections from the store, read directly. The time zone
// does not matter here: periods are bounded when read, not when projected.
func replay(ctx context.Context, c replayConfig, stdout, stderr io.Writer) error {
	log, err := c.logger(stderr)
	if err != nil {
		return err
	}
	store, err := openLogReader(ctx, c.commonConfig, log)
	if err != nil {
		return err
	}
	defer store.Close()
	db, err := openProjections(ctx, c.commonConfig, projections.DefaultLocation)
	if err != nil {
		return err
	}
	defer db.Close()
	names := projections.Names
	if c.Projection != "all" {
		names = []string{c.Projection}
	}
	for _, n := range names {
		start := time.Now()
		if err := db.Replay(ctx, n, store); err != nil {
			return err
		}
		cp, err := db.Checkpoint(ctx, n)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "projection %s rebuilt to position %d in %s\n", n, cp, time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// projectConfig configures paiju project.
type projectConfig struct {
	commonConfig
	NATS     natsConfig
	TimeZone string
}

func parseProject(args []string, getenv func(string) string, stderr io.Writer) (projectConfig, error) {
	var c projectConfig
	fs := flagSet("project", stderr)
	addCommon(fs, getenv, &c.commonConfig)
	resolveNATS := addNATS(fs, getenv, &c.NATS, "NATS server URL the events are relayed to (required: the embedded server is in-process only)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("project: unexpected arguments %q", fs.Args())
	}
	if c.NATS.URL == "" {
		return c, errors.New("project: --nats-url is required: a server's embedded NATS accepts in-process connections only; run it with --projector in-process, or give both an external NATS")
	}
	if err := resolveNATS(); err != nil {
		return c, fmt.Errorf("project: %w", err)
	}
	return c, nil
}

// project runs the projections outside the server, consuming from NATS,
// until ctx ends. The store is opened read-side to fill gaps.
func project(ctx context.Context, c projectConfig, stderr io.Writer) error {
	log, err := c.logger(stderr)
	if err != nil {
		return err
	}
	store, err := openLogReader(ctx, c.commonConfig, log)
	if err != nil {
		return err
	}
	defer store.Close()
	db, err := openProjections(ctx, c.commonConfig, projections.DefaultLocation)
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

// dropProjectionConsumers deletes the durable consumers an earlier version
// fed the projections by from the embedded server's stream: nothing reads
// them any more, and JetStream would keep counting what they have not
// been delivered.
func dropProjectionConsumers(ctx context.Context, js jetstream.JetStream, ns natsbus.Namespace, log *slog.Logger) {
	names := []string{ns.ProjectionsConsumer()}
	for _, n := range projections.Names {
		names = append(names, ns.ProjectionConsumer(n))
	}
	for _, c := range names {
		err := js.DeleteConsumer(ctx, ns.Stream(), c)
		switch {
		case err == nil:
			log.Info("deleted a projection consumer the embedded server no longer needs", "consumer", c)
		case !errors.Is(err, jetstream.ErrConsumerNotFound) && ctx.Err() == nil:
			log.Warn("could not delete a projection consumer of the embedded server", "consumer", c, "err", err)
		}
	}
}

// runProjections starts the in-process feed; it returns when ctx ends.
func runProjections(ctx context.Context, r *natsbus.ProjectionFeed, log *slog.Logger) {
	if err := r.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		log.Error("projections stopped", "err", err)
	}
}
