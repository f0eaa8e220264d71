package cli

import (
	"context"
	"fmt"
	"io"

	"paiju/internal/app"
)

func parseExport(args []string, getenv func(string) string, stderr io.Writer) (app.ExportConfig, error) {
	var c app.ExportConfig
	fs := flagSet("export", stderr)
	addCommon(fs, getenv, &c.Common)
	fs.StringVar(&c.Table, "table", "", "id of the table to export (required)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("export: unexpected arguments %q", fs.Args())
	}
	if c.Table == "" {
		return c, fmt.Errorf("export: --table is required")
	}
	return c, nil
}

// runExport writes a table's event log as JSON Lines.
func runExport(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseExport(args, getenv, stderr)
	if err != nil {
		return err
	}
	return app.Export(ctx, cfg, stdout)
}
