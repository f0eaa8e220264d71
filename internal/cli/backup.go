package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"paiju/internal/app"
)

func parseBackup(args []string, getenv func(string) string, stderr io.Writer) (app.BackupConfig, error) {
	var c app.BackupConfig
	fs := flagSet("backup", stderr)
	addCommon(fs, getenv, &c.Common)
	fs.StringVar(&c.Out, "out", "", "the backup file to write (a .tar.gz); it must not exist")
	fs.BoolVar(&c.Projections, "projections", true, "include projections.db (otherwise the projections are rebuilt from the log after a restore)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("backup: unexpected arguments %q", fs.Args())
	}
	if c.Out == "" {
		return c, errors.New("backup: --out FILE is required")
	}
	return c, nil
}

// runBackup writes an online snapshot of the data directory.
func runBackup(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseBackup(args, getenv, stderr)
	if err != nil {
		return err
	}
	return app.Backup(ctx, cfg, stdout)
}
