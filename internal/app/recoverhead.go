package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"paiju/eventstore"
	"paiju/eventstore/sqlite"
)

// recoverHint is what a refusal over the chain head tells the operator.
const recoverHint = `if the log as it stands is the log (a lost head file, or events lost for good), record its end as the head with "paiju recover-head --data DIR --accept-log"; otherwise restore a backup (docs/OPERATIONS.md, "Recovery")`

// restoreHint is what a refusal over a damaged file or a broken log tells
// the operator: no head recorded now can make such a log sound.
const restoreHint = `restore a backup (docs/OPERATIONS.md, "Recovery")`

// logFault is what checkStartup found wrong with the log itself (a damaged
// file, a broken chain), as against a read that failed on the way, which
// says nothing of the log.
type logFault struct{ error }

func (f logFault) Unwrap() error { return f.error }

// isLogFault tells a fault of the log from a failed read.
func isLogFault(err error) bool {
	var f logFault
	return errors.As(err, &f)
}

// checkStartup is what serve checks of the store before it serves: SQLite's
// quick check of the file (a PostgreSQL server keeps its own) and the whole
// hash chain. Open has already compared the log with the chain head (the
// head file, or PostgreSQL's chain_head row).
func checkStartup(ctx context.Context, store eventstore.Log) error {
	if fc, ok := store.(interface {
		CheckIntegrity(ctx context.Context, quick bool) error
	}); ok {
		if err := fc.CheckIntegrity(ctx, true); err != nil {
			return logFault{fmt.Errorf("refusing to serve a damaged store: %w; %s", err, restoreHint)}
		}
	}
	if err := eventstore.VerifyChain(ctx, store, 0, ""); err != nil {
		if errors.Is(err, eventstore.ErrChainBroken) {
			return logFault{fmt.Errorf("refusing to serve: the log is broken: %w; %s", err, restoreHint)}
		}
		// A read that failed (the database went away in the middle of
		// the check) says nothing of the log: telling the operator to
		// restore a backup for it, as serve did, is wrong. The
		// supervisor's next start checks again.
		return fmt.Errorf("check the log's hash chain: %w", err)
	}
	return nil
}

// refusedOpen explains a store Open refused: a damaged file, or a log and
// chain head that disagree.
func refusedOpen(err error) error {
	switch {
	case errors.Is(err, sqlite.ErrCorrupt):
		return logFault{fmt.Errorf("refusing to serve a damaged store: %w; %s", err, restoreHint)}
	case errors.Is(err, eventstore.ErrChainBroken):
		return fmt.Errorf("refusing to serve: %w; %s", err, recoverHint)
	}
	return err
}

type RecoverHeadConfig struct {
	Common
	AcceptLog bool
}

// recoverHead records the last event of the log as the chain head, once the
// log has passed SQLite's integrity check and verifies on its own.
func RecoverHead(ctx context.Context, c RecoverHeadConfig, stdout io.Writer) error {
	if err := sqliteOnly("recover-head", c.Common); err != nil {
		return err
	}
	lock, err := lockDataDir(c.Data)
	if err != nil {
		return err
	}
	defer lock.Release()
	if _, err := os.Stat(c.DBPath()); err != nil {
		return fmt.Errorf("recover-head: %w", err)
	}
	// Opened without its head file: Open would refuse exactly what this
	// command is for.
	store, err := sqlite.Open(ctx, c.DBPath(), sqlite.Options{Synchronous: c.Sync, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return fmt.Errorf("recover-head: open store: %w", err)
	}
	defer store.Close()
	if err := store.CheckIntegrity(ctx, false); err != nil {
		return fmt.Errorf("recover-head: %w; %s", err, restoreHint)
	}
	oldPos, oldHash, oldErr := sqlite.ReadHeadFile(c.HeadPath())
	pos, hash, err := sqlite.AcceptLog(ctx, store, c.HeadPath())
	if err != nil {
		return fmt.Errorf("recover-head: the log itself does not verify, so there is no head to accept: %w; %s", err, restoreHint)
	}
	switch {
	case oldErr != nil:
		fmt.Fprintf(stdout, "previous chain head: none (%v)\n", oldErr)
	default:
		fmt.Fprintf(stdout, "previous chain head: position %d hash %s\n", oldPos, oldHash)
	}
	fmt.Fprintf(stdout, "chain head recorded: position %d hash %s\n", pos, hash)
	return nil
}
