package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"paiju/projections"
)

// replayConfig configures paiju replay.
type ReplayConfig struct {
	Common
	Projection string
}

// replay rebuilds projections from the store, read directly. The time zone
// does not matter here: periods are bounded when read, not when projected.
func Replay(ctx context.Context, c ReplayConfig, stdout, stderr io.Writer) error {
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
