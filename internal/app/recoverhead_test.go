package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"paiju/eventstore"
	"paiju/eventstore/sqlite"
)

// cutOff is a store whose connection fails in the middle of a read, as a
// PostgreSQL connection reset mid-query does.
type cutOff struct {
	eventstore.Log
	after int64
}

func (c cutOff) ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error) {
	if after >= c.after {
		return nil, fmt.Errorf("read all from position %d: unexpected EOF", after)
	}
	return c.Log.ReadAll(ctx, after, limit)
}

// A read that fails while serve checks the hash chain at start is not a
// broken log: serve fails without telling the operator to restore a
// backup, which it says only of a chain that does not verify. (The fault
// test's resets mid-transaction made a starting node say the log was
// broken.)
func TestCheckStartupTellsAFailedReadFromABrokenLog(t *testing.T) {
	ctx := t.Context()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "paiju.db"), sqlite.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for i := range 3 {
		if _, err := store.Append(ctx, fmt.Sprintf("table-%d", i), 0, []eventstore.NewEvent{{Type: "Opened", Data: []byte(`{}`)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkStartup(ctx, store); err != nil {
		t.Fatalf("a sound log: %v", err)
	}
	err = checkStartup(ctx, cutOff{Log: store, after: 0})
	if err == nil || strings.Contains(err.Error(), "broken") || strings.Contains(err.Error(), "restore a backup") || errors.Is(err, eventstore.ErrChainBroken) {
		t.Fatalf("a read cut off: %v, want an error that does not call the log broken", err)
	}
}
