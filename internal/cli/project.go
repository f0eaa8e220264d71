package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"paiju/internal/app"
)

func parseProject(args []string, getenv func(string) string, stderr io.Writer) (app.ProjectConfig, error) {
	var c app.ProjectConfig
	fs := flagSet("project", stderr)
	addCommon(fs, getenv, &c.Common)
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

// runProject builds the projections from NATS outside the server.
func runProject(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseProject(args, getenv, stderr)
	if err != nil {
		return err
	}
	return app.Project(ctx, cfg, stderr)
}
