// Command paiju is an event-sourced REST backend for Chinese card games.
//
//	paiju serve         run the HTTP API (the default command)
//	paiju migrate       create, upgrade, roll back or inspect the database schemas
//	paiju backup        an online snapshot of the data directory
//	paiju restore       a snapshot into an empty data directory
//	paiju verify        check the hash chain and replay every table through its rules
//	paiju verify FILE   check an exported table log offline
//	paiju recover-head  record the log's end as the chain head (--accept-log)
//	paiju export        write a table's event log as JSON Lines
//	paiju replay        rebuild a projection from the event log
//	paiju project       build the projections from NATS outside the server
//	paiju loadtest      play random legal moves against a running server
//
// The commands and their flags live in internal/cli, the wiring in
// internal/app.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"paiju/internal/cli"
)

// openAPI is the contract, built into the binary and served at
// /openapi.yaml.
//
//go:embed openapi.yaml
var openAPI []byte

func main() {
	cli.OpenAPI = openAPI
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "paiju:", err)
		}
		os.Exit(1)
	}
}
