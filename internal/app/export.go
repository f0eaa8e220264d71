package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"paiju/audit"
	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/migrations/schema"
	"paiju/service"
)

// exportConfig configures paiju export.
type ExportConfig struct {
	Common
	Table string
}

// export writes a table's full event log as JSON Lines to stdout, the same
// bytes GET /v1/tables/{id}/export gives the auditor (but for exported_at).
func Export(ctx context.Context, c ExportConfig, stdout io.Writer) error {
	store, where, err := openExportStore(ctx, c.Common)
	if err != nil {
		return err
	}
	defer store.Close()
	evs, err := store.Load(ctx, service.StreamID(c.Table), 0)
	if err != nil {
		return err
	}
	if len(evs) == 0 {
		return fmt.Errorf("export: no table %q in %s", c.Table, where)
	}
	pos, hash, err := store.Head(ctx)
	if err != nil {
		return err
	}
	return audit.WriteExport(stdout, evs, audit.ChainHead{Position: pos, Hash: hash}, time.Now())
}

// openExportStore opens the store --store names for export, and says where
// it is for messages.
func openExportStore(ctx context.Context, c Common) (eventstore.Store, string, error) {
	kind, err := c.storeKind()
	if err != nil {
		return nil, "", err
	}
	if kind == storePostgres {
		store, err := openLogReader(ctx, c, slog.New(slog.DiscardHandler))
		return store, schema.RedactURL(c.Store), err
	}
	if _, err := os.Stat(c.DBPath()); err != nil {
		return nil, "", fmt.Errorf("no database in %s: %w", c.Data, err)
	}
	store, err := sqlite.Open(ctx, c.DBPath(), sqlite.Options{Synchronous: c.Sync, HeadFile: c.HeadPath(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, "", fmt.Errorf("open store: %w", err)
	}
	return store, c.Data, nil
}
