// Package cli is paiju's command line: the flags of each command, read
// from arguments and the environment, and the dispatch to internal/app.
// Each command has a file named after it.
package cli

import (
	"context"
	"fmt"
	"io"

	"paiju/internal/app"
)

const usage = `usage: paiju [command] [flags]

commands:
  serve     run the HTTP API (default)
  migrate   the database schemas: paiju migrate [up|down N|version|force V] [--db store|projections]
  backup    an online snapshot of the data directory: paiju backup --out FILE
  restore   a snapshot into an empty data directory: paiju restore --in FILE --data DIR
  verify    check the event hash chain and replay every table through its rules;
            "paiju verify FILE" checks an exported table log (- for stdin) offline
  recover-head  record the log's last event as the chain head (an operator's
            decision: paiju recover-head --data DIR --accept-log)
  export    write a table's full event log as JSON Lines: paiju export --table ID
  replay    rebuild a projection from the event log: paiju replay --projection NAME|all
  project   build the projections from NATS outside the server: paiju project --nats-url URL
  loadtest  play random legal moves against a running server and report moves/s

Run "paiju COMMAND -h" for the flags of a command. Every flag can also be set
from the environment: --data is PAIJU_DATA, --nats-url is PAIJU_NATS_URL, …
`

// Run is the whole program, testable: it reads flags from args and the
// environment from getenv, writes data to stdout and logs to stderr.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		cfg, err := parseServe(args, getenv, stderr)
		if err != nil {
			return err
		}
		if cfg.Logger, err = cfg.Common.Logger(stderr); err != nil {
			return err
		}
		return app.Serve(ctx, cfg)
	case "migrate":
		cfg, err := parseMigrate(args, getenv, stderr)
		if err != nil {
			return err
		}
		return app.Migrate(ctx, cfg, stdout)
	case "verify":
		cfg, file, err := parseVerify(args, getenv, stderr)
		if err != nil {
			return err
		}
		if file != "" {
			return app.VerifyFile(file, stdout)
		}
		return app.Verify(ctx, cfg, stdout)
	case "export":
		cfg, err := parseExport(args, getenv, stderr)
		if err != nil {
			return err
		}
		return app.Export(ctx, cfg, stdout)
	case "loadtest":
		cfg, err := parseLoadtest(args, getenv, stderr)
		if err != nil {
			return err
		}
		_, err = loadtest(ctx, cfg, stdout)
		return err
	case "replay":
		cfg, err := parseReplay(args, getenv, stderr)
		if err != nil {
			return err
		}
		return app.Replay(ctx, cfg, stdout, stderr)
	case "project":
		cfg, err := parseProject(args, getenv, stderr)
		if err != nil {
			return err
		}
		return app.Project(ctx, cfg, stderr)
	case "backup":
		cfg, err := parseBackup(args, getenv, stderr)
		if err != nil {
			return err
		}
		return app.Backup(ctx, cfg, stdout)
	case "restore":
		cfg, err := parseRestore(args, getenv, stderr)
		if err != nil {
			return err
		}
		return app.Restore(ctx, cfg, stdout)
	case "recover-head":
		cfg, err := parseRecoverHead(args, getenv, stderr)
		if err != nil {
			return err
		}
		return app.RecoverHead(ctx, cfg, stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}
