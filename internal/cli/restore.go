package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"paiju/internal/app"
)

func parseRestore(args []string, getenv func(string) string, stderr io.Writer) (app.RestoreConfig, error) {
	var c app.RestoreConfig
	fs := flagSet("restore", stderr)
	addCommon(fs, getenv, &c.Common)
	fs.StringVar(&c.In, "in", "", "the backup file written by paiju backup")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("restore: unexpected arguments %q", fs.Args())
	}
	if c.In == "" {
		return c, errors.New("restore: --in FILE is required")
	}
	return c, nil
}

// runRestore unpacks a snapshot into an empty data directory.
func runRestore(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseRestore(args, getenv, stderr)
	if err != nil {
		return err
	}
	return app.Restore(ctx, cfg, stdout)
}
