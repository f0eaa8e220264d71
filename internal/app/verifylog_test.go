package app

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"paiju/eventstore"
	"paiju/eventstore/sqlite"
)

// TestVerifyLog: the verification a server runs once it listens passes a
// sound log (readiness check log "verified") and reports an older event
// changed behind the store's back, which Open, checking only the head,
// let through: the check fails and the refusal a start gave goes to Run.
func TestVerifyLog(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	for _, tamper := range []bool{false, true} {
		t.Run(fmt.Sprintf("tampered=%v", tamper), func(t *testing.T) {
			dir := t.TempDir()
			path, head := filepath.Join(dir, "paiju.db"), filepath.Join(dir, "chain-head")
			store, err := sqlite.Open(ctx, path, sqlite.Options{HeadFile: head, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			for v := range 5 {
				if _, err := store.Append(ctx, "s", v, []eventstore.NewEvent{{Type: "T", Data: []byte(fmt.Sprintf(`{"n":%d}`, v))}}); err != nil {
					t.Fatal(err)
				}
			}
			store.Close()
			if tamper {
				db, err := sql.Open("sqlite", path)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := db.Exec(`UPDATE events SET data = '{"n":9}' WHERE position = 2`); err != nil {
					t.Fatal(err)
				}
				db.Close()
			}
			store, err = sqlite.Open(ctx, path, sqlite.Options{HeadFile: head, Logger: log})
			if err != nil {
				t.Fatalf("Open checks the head only, and refused: %v", err)
			}
			defer store.Close()
			hl := newHealth(healthSource{}, 0, 0)
			if c := hl.logCheck(); !c.OK || !strings.Contains(c.Detail, "verifying") {
				t.Fatalf("before the verification: %+v, want ready and verifying", c)
			}
			broken := make(chan error, 1)
			verifyLog(ctx, store, hl, broken, log)
			c := hl.logCheck()
			select {
			case err := <-broken:
				if !tamper || c.OK || !strings.Contains(err.Error(), "refusing to serve: the log is broken") ||
					!strings.Contains(err.Error(), "chain broken at position 2") || c.Detail != err.Error() {
					t.Fatalf("tampered %v: fault %v, check %+v", tamper, err, c)
				}
			default:
				if tamper || !c.OK || c.Detail != "verified" {
					t.Fatalf("tampered %v: no fault, check %+v", tamper, c)
				}
			}
		})
	}
}

// failingFirst fails its first reads of the log, as a store does while
// its database is out of reach for a moment.
type failingFirst struct {
	eventstore.Log
	left *atomic.Int32
}

func (f failingFirst) ReadAll(ctx context.Context, after int64, limit int) ([]eventstore.Event, error) {
	if f.left.Add(-1) >= 0 {
		return nil, fmt.Errorf("read all from position %d: connection reset by peer", after)
	}
	return f.Log.ReadAll(ctx, after, limit)
}

// TestVerifyLogRetriesAFailedRead: a read that fails during the
// verification says nothing of the log, so a serving node is not stopped
// for it: the verification starts again and passes.
func TestVerifyLogRetriesAFailedRead(t *testing.T) {
	ctx := t.Context()
	log := slog.New(slog.DiscardHandler)
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "paiju.db"), sqlite.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for v := range 3 {
		if _, err := store.Append(ctx, "s", v, []eventstore.NewEvent{{Type: "T", Data: []byte(`{}`)}}); err != nil {
			t.Fatal(err)
		}
	}
	left := new(atomic.Int32)
	left.Store(1)
	hl := newHealth(healthSource{}, 0, 0)
	broken := make(chan error, 1)
	verifyLog(ctx, failingFirst{Log: store, left: left}, hl, broken, log)
	select {
	case err := <-broken:
		t.Fatalf("a failed read stopped the server: %v", err)
	default:
	}
	if c := hl.logCheck(); !c.OK || c.Detail != "verified" || left.Load() >= 0 {
		t.Fatalf("check %+v after %d failed reads left, want verified after retrying", c, left.Load())
	}
}
