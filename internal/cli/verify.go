package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"paiju/internal/app"
)

// parseVerify parses verify's flags and its optional FILE argument.
func parseVerify(args []string, getenv func(string) string, stderr io.Writer) (app.VerifyConfig, string, error) {
	var c app.VerifyConfig
	fs := flagSet("verify", stderr)
	addCommon(fs, getenv, &c.Common)
	fs.StringVar(&c.Ratings, "ratings", "", "a player id: recompute the player's rating history from the log and compare it with the ratings projection's, bit for bit; with FILE, rating history files (HISTORY.json[,HISTORY2.json…], the body of GET /v1/players/{id}/ratings?history=true): recompute the export's hands they name and compare the ratings after them, bit for bit")
	resolveNATS := addNATS(fs, getenv, &c.NATS, "NATS server URL of the deployment: check the store against the chain anchor kept there")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: paiju verify [flags]        check the data directory\n       paiju verify FILE             check an exported table log offline (- reads stdin)\n       paiju verify FILE --ratings HISTORY.json[,HISTORY2.json…]\n                                     and recompute the export's hands in players' rating histories\n")
		fs.PrintDefaults()
	}
	// FILE may come before the flags (paiju verify FILE --ratings H.json).
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return c, "", err
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if err := resolveNATS(); err != nil {
		return c, "", fmt.Errorf("verify: %w", err)
	}
	switch len(files) {
	case 0:
		return c, "", nil
	case 1:
		return c, files[0], nil
	}
	return c, "", fmt.Errorf("verify: one FILE at most, got %q", files)
}

// runVerify checks the hash chain and replays every table, or checks an exported log offline.
func runVerify(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, file, err := parseVerify(args, getenv, stderr)
	if err != nil {
		return err
	}
	if file != "" {
		var histories []string
		if cfg.Ratings != "" {
			histories = strings.Split(cfg.Ratings, ",")
		}
		return app.VerifyFile(file, histories, stdout)
	}
	return app.Verify(ctx, cfg, stdout)
}
