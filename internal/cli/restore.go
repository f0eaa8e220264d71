package cli

import (
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
