// Package cli is paiju's command line: the flags of each command, read
// from arguments and the environment, and the dispatch to internal/app.
// Each command has a file named after it.
package cli

import (
	"context"
	"fmt"
	"io"
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

// OpenAPI is the contract paiju serve answers at /openapi.yaml. Package
// main sets it from its embedded copy of openapi.yaml before Run: a
// package embeds only files at or beneath its own directory, and the file
// sits at the module's root, main's directory. Nil serves none.
var OpenAPI []byte

// Run is the whole program, testable: it reads flags from args and the
// environment from getenv, writes data to stdout and logs to stderr.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return runServe(ctx, args, getenv, stdout, stderr)
	case "migrate":
		return runMigrate(ctx, args, getenv, stdout, stderr)
	case "verify":
		return runVerify(ctx, args, getenv, stdout, stderr)
	case "export":
		return runExport(ctx, args, getenv, stdout, stderr)
	case "loadtest":
		return runLoadtest(ctx, args, getenv, stdout, stderr)
	case "replay":
		return runReplay(ctx, args, getenv, stdout, stderr)
	case "project":
		return runProject(ctx, args, getenv, stdout, stderr)
	case "backup":
		return runBackup(ctx, args, getenv, stdout, stderr)
	case "restore":
		return runRestore(ctx, args, getenv, stdout, stderr)
	case "recover-head":
		return runRecoverHead(ctx, args, getenv, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}
