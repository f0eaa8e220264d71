package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"paiju/audit"
	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/games"
)

// verify checks the data directory: the database file (SQLite's
// integrity_check), the hash chain against the recorded head (a store with
// events and no head file is a fault), then every table replayed and
// re-decided through its rules. Any fault is an
// error (a non-zero exit).
func verify(ctx context.Context, c commonConfig, stdout io.Writer) error {
	kind, err := c.storeKind()
	if err != nil {
		return err
	}
	if kind == storePostgres {
		return verifyPostgres(ctx, c, stdout)
	}
	// The store is opened without its head file: Open would refuse a log that
	// disagrees with it, where verify should say exactly where.
	store, err := sqlite.Open(ctx, c.dbPath(), sqlite.Options{Synchronous: c.Sync, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer store.Close()

	if err := store.CheckIntegrity(ctx, false); err != nil {
		return fmt.Errorf("database file: %w", err)
	}
	fmt.Fprintln(stdout, "database file ok: SQLite integrity_check")

	headPos, headHash, err := sqlite.ReadHeadFile(c.headPath())
	if errors.Is(err, fs.ErrNotExist) {
		last, _, herr := store.Head(ctx)
		if herr != nil {
			return herr
		}
		if last > 0 {
			// Without the head a removed tail is indistinguishable from
			// the log's real end: not a warning but a fault.
			return fmt.Errorf("chain head: %w: the log holds %d events; %s", sqlite.ErrNoHeadFile, last, recoverHint)
		}
		headPos, headHash = 0, ""
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
	return verifyTables(ctx, store, stdout)
}

// verifyTables replays every table of store and re-decides it through its
// rules.
func verifyTables(ctx context.Context, store logStore, stdout io.Writer) error {
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

// parseVerify parses verify's flags and its optional FILE argument.
func parseVerify(args []string, getenv func(string) string, stderr io.Writer) (commonConfig, string, error) {
	var c commonConfig
	fs := flagSet("verify", stderr)
	addCommon(fs, getenv, &c)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: paiju verify [flags]        check the data directory\n       paiju verify FILE             check an exported table log offline (- reads stdin)\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, "", err
	}
	switch fs.NArg() {
	case 0:
		return c, "", nil
	case 1:
		return c, fs.Arg(0), nil
	}
	return c, "", fmt.Errorf("verify: one FILE at most, got %q", fs.Args())
}

// verifyFile checks an exported table log with no store and no server: the
// hashes, the version sequence, the chain head line, every command re-decided
// by the rules, every deal recomputed from its revealed seed and commitment,
// and every settlement recomputed (docs/AUDIT.md). The first fault is the
// error, naming the event and the line.
func verifyFile(name string, stdout io.Writer) error {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	start := time.Now()
	rep, err := audit.VerifyExport(games.All().Rules, r)
	if err != nil {
		fmt.Fprintf(stdout, "FAULT %s: %v\n", name, err)
		return fmt.Errorf("%s does not verify (%w)", name, audit.ErrFault)
	}
	took := time.Since(start)
	state := "every deal ended"
	if rep.Open {
		state = "the last deal is still running: taken as recorded, its seed not yet revealed"
	}
	fmt.Fprintf(stdout, "ok %s: %d events, %d commands re-decided, %d deals recomputed from their seeds (%s)\n",
		rep.Stream, rep.Events, rep.Commands, rep.Deals, state)
	if rep.Head != nil {
		fmt.Fprintf(stdout, "chain head at export: position %d hash %s\n", rep.Head.ChainHead.Position, rep.Head.ChainHead.Hash)
	} else {
		fmt.Fprintln(stdout, "warning: no chain head line: nothing to compare with a chain head held elsewhere")
	}
	fmt.Fprintf(stdout, "verified in %s (%.0f events/s)\n", took.Round(time.Microsecond), float64(rep.Events)/took.Seconds())
	return nil
}
