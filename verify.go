package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"strings"

	"paiju/audit"
	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/games"
)

// verify checks the data directory: the hash chain against the recorded head,
// then every table replayed and re-decided through its rules. Any fault is an
// error (a non-zero exit).
func verify(ctx context.Context, c commonConfig, stdout io.Writer) error {
	// The store is opened without its head file: Open would refuse a log that
	// disagrees with it, where verify should say exactly where.
	store, err := sqlite.Open(ctx, c.dbPath(), sqlite.Options{Synchronous: c.Sync, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer store.Close()

	headPos, headHash, err := sqlite.ReadHeadFile(c.headPath())
	if errors.Is(err, fs.ErrNotExist) {
		headPos, headHash = 0, ""
		fmt.Fprintln(stdout, "warning: no chain head file; a truncated tail cannot be detected")
	} else if err != nil {
		return fmt.Errorf("chain head: %w", err)
	}
	if err := eventstore.VerifyChain(ctx, store, headPos, headHash); err != nil {
		return fmt.Errorf("hash chain: %w", err)
	}
	pos, _, err := store.Head(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "hash chain ok: %d events\n", pos)

	streams, err := store.Streams(ctx)
	if err != nil {
		return err
	}
	reg := games.All()
	var faults int
	for _, s := range streams {
		if !strings.HasPrefix(s, "table-") {
			continue
		}
		evs, err := store.Load(ctx, s, 0)
		if err != nil {
			return err
		}
		rep, err := audit.VerifyTable(reg.Rules, evs)
		if err != nil {
			faults++
			fmt.Fprintf(stdout, "FAULT %v\n", err)
			continue
		}
		state := "finished"
		if rep.Open {
			state = "deal running"
		}
		fmt.Fprintf(stdout, "ok %s: %d events, %d commands re-decided, %d deals recomputed from their seeds (%s)\n",
			s, rep.Events, rep.Commands, rep.Deals, state)
	}
	if faults > 0 {
		return fmt.Errorf("verify: %d of %d tables have faults", faults, len(streams))
	}
	fmt.Fprintf(stdout, "verified %d tables\n", len(streams))
	return nil
}
