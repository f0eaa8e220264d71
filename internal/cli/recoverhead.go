package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"paiju/internal/app"
)

func parseRecoverHead(args []string, getenv func(string) string, stderr io.Writer) (app.RecoverHeadConfig, error) {
	var c app.RecoverHeadConfig
	fs := flagSet("recover-head", stderr)
	addCommon(fs, getenv, &c.Common)
	fs.BoolVar(&c.AcceptLog, "accept-log", false, "required: take the log as it stands as the log and record its last event as the chain head")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("recover-head: unexpected arguments %q", fs.Args())
	}
	if !c.AcceptLog {
		return c, errors.New("recover-head: --accept-log is required: it accepts every event lost past the log's end, and the chain head can no longer reveal that loss")
	}
	return c, nil
}

// runRecoverHead records the log's end as the chain head.
func runRecoverHead(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseRecoverHead(args, getenv, stderr)
	if err != nil {
		return err
	}
	return app.RecoverHead(ctx, cfg, stdout)
}
