package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"paiju/internal/app"
	"paiju/projections"
)

func parseReplay(args []string, getenv func(string) string, stderr io.Writer) (app.ReplayConfig, error) {
	var c app.ReplayConfig
	fs := flagSet("replay", stderr)
	addCommon(fs, getenv, &c.Common)
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

// runReplay rebuilds projections from the event log.
func runReplay(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseReplay(args, getenv, stderr)
	if err != nil {
		return err
	}
	return app.Replay(ctx, cfg, stdout, stderr)
}
