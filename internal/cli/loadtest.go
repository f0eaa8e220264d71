package cli

import (
	"context"
	"io"

	"paiju/loadtest"
)

// runLoadtest plays random legal moves against a running server and
// reports moves/s (the client is package loadtest: it imports nothing of
// the server).
func runLoadtest(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := loadtest.ParseFlags(args, getenv, stderr)
	if err != nil {
		return err
	}
	_, err = loadtest.Run(ctx, cfg, stdout)
	return err
}
