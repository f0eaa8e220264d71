package cli

import (
	"context"
	"fmt"
	"io"

	"paiju/internal/app"
)

// parseVerify parses verify's flags and its optional FILE argument.
func parseVerify(args []string, getenv func(string) string, stderr io.Writer) (app.VerifyConfig, string, error) {
	var c app.VerifyConfig
	fs := flagSet("verify", stderr)
	addCommon(fs, getenv, &c.Common)
	fs.StringVar(&c.Ratings, "ratings", "", "a player id: recompute the player's rating history from the log and compare it with the ratings projection's, bit for bit")
	resolveNATS := addNATS(fs, getenv, &c.NATS, "NATS server URL of the deployment: check the store against the chain anchor kept there")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: paiju verify [flags]        check the data directory\n       paiju verify FILE             check an exported table log offline (- reads stdin)\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, "", err
	}
	if err := resolveNATS(); err != nil {
		return c, "", fmt.Errorf("verify: %w", err)
	}
	switch fs.NArg() {
	case 0:
		return c, "", nil
	case 1:
		return c, fs.Arg(0), nil
	}
	return c, "", fmt.Errorf("verify: one FILE at most, got %q", fs.Args())
}

// runVerify checks the hash chain and replays every table, or checks an exported log offline.
func runVerify(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, file, err := parseVerify(args, getenv, stderr)
	if err != nil {
		return err
	}
	if file != "" {
		return app.VerifyFile(file, stdout)
	}
	return app.Verify(ctx, cfg, stdout)
}
