package app

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
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
