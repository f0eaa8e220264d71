// Command paiju is an event-sourced REST backend for Chinese card games.
//
//	paiju serve    run the HTTP API (the default command)
//	paiju migrate  create, upgrade, roll back or inspect the database schemas
//	paiju backup   an online snapshot of the data directory
//	paiju restore  a snapshot into an empty data directory
//	paiju verify   check the hash chain and replay every table through its rules
//	paiju verify FILE  check an exported table log offline
//	paiju recover-head --accept-log  record the log's end as the chain head
//	paiju export   write a table's event log as JSON Lines
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "paiju:", err)
		}
		os.Exit(1)
	}
}

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

// run is the whole program, testable: it reads flags from args and the
// environment from getenv, writes data to stdout and logs to stderr.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
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
		return serve(ctx, cfg, stderr, nil)
	case "migrate":
		cfg, err := parseMigrate(args, getenv, stderr)
		if err != nil {
			return err
		}
		return migrate(ctx, cfg, stdout)
	case "verify":
		cfg, file, err := parseVerify(args, getenv, stderr)
		if err != nil {
			return err
		}
		if file != "" {
			return verifyFile(file, stdout)
		}
		return verify(ctx, cfg, stdout)
	case "export":
		cfg, err := parseExport(args, getenv, stderr)
		if err != nil {
			return err
		}
		return export(ctx, cfg, stdout)
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
		return replay(ctx, cfg, stdout, stderr)
	case "project":
		cfg, err := parseProject(args, getenv, stderr)
		if err != nil {
			return err
		}
		return project(ctx, cfg, stderr)
	case "backup":
		cfg, err := parseBackup(args, getenv, stderr)
		if err != nil {
			return err
		}
		return backup(ctx, cfg, stdout)
	case "restore":
		cfg, err := parseRestore(args, getenv, stderr)
		if err != nil {
			return err
		}
		return restore(ctx, cfg, stdout)
	case "recover-head":
		cfg, err := parseRecoverHead(args, getenv, stderr)
		if err != nil {
			return err
		}
		return recoverHead(ctx, cfg, stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// newLogger returns a text logger at the named level.
func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
