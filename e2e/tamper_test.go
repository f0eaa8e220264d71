package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/internal/app"
	"paiju/internal/cli"
	"paiju/service"
)

// tamperLog is a data directory holding two tables written by the service
// through a store with its chain head: table A dealt (its HandDealt in the
// middle of the log), then table B opened and joined (the tail).
type tamperLog struct {
	dir    string
	events []eventstore.Event // the log as written
	dealAt int64              // position of A's HandDealt
}

func writeTamperLog(t *testing.T) tamperLog {
	t.Helper()
	ctx := context.Background()
	c := app.Common{Data: t.TempDir()}
	st, err := sqlite.Open(ctx, c.DBPath(), sqlite.Options{HeadFile: c.HeadPath(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	svc := service.New(service.Config{Store: st, Games: games.All()})
	open := func() string {
		res, err := svc.Open(ctx, service.Player{ID: "host"}, service.OpenRequest{Game: "doudizhu", Variant: "classic", Stake: 1, Clock: &table.Clock{}}, service.NoCond)
		if err != nil {
			t.Fatal(err)
		}
		return res.Table.State.ID
	}
	join := func(id string, players ...string) {
		for _, p := range players {
			if _, err := svc.Join(ctx, service.Player{ID: p, Name: p}, id, -1, service.NoCond); err != nil {
				t.Fatal(err)
			}
		}
	}
	a := open()
	join(a, "p1", "p2", "p3")
	b := open()
	join(b, "p1", "p2")
	evs, err := st.ReadAll(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	l := tamperLog{dir: c.Data, events: evs}
	for _, e := range evs {
		if e.Type == "HandDealt" {
			l.dealAt = e.Position
		}
	}
	if l.dealAt == 0 || l.dealAt >= int64(len(evs))-2 {
		t.Fatalf("want a HandDealt in the middle of the log, got it at %d of %d", l.dealAt, len(evs))
	}
	return l
}

func (l tamperLog) last() int64 { return int64(len(l.events)) }

// exec runs SQL on the closed store's file, as someone with the file would.
func (l tamperLog) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", app.Common{Data: l.dir}.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// rehash recomputes and stores the hashes of the events from position from
// on (only that one if onlyOne), chaining each onto the stored one before it.
func (l tamperLog) rehash(t *testing.T, from int64, onlyOne bool) {
	t.Helper()
	db, err := sql.Open("sqlite", app.Common{Data: l.dir}.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for pos := from; pos <= l.last(); pos++ {
		var stream, typ, data, prev string
		var version int
		if err := db.QueryRow(`SELECT stream, version, type, data, prev_hash FROM events WHERE position = ?`, pos).Scan(&stream, &version, &typ, &data, &prev); err != nil {
			t.Fatal(err)
		}
		if pos > from {
			if err := db.QueryRow(`SELECT hash FROM events WHERE position = ?`, pos-1).Scan(&prev); err != nil {
				t.Fatal(err)
			}
		}
		h := eventstore.Hash(prev, stream, version, typ, []byte(data))
		if _, err := db.Exec(`UPDATE events SET prev_hash = ?, hash = ? WHERE position = ?`, prev, h, pos); err != nil {
			t.Fatal(err)
		}
		if onlyOne {
			return
		}
	}
}

// changeCard swaps the first card of seat 0's hand with the first of the
// kitty in the HandDealt: still a full deck, but not the deal that was made.
func (l tamperLog) changeCard(t *testing.T) {
	t.Helper()
	var data map[string]json.RawMessage
	if err := json.Unmarshal(l.events[l.dealAt-1].Data, &data); err != nil {
		t.Fatal(err)
	}
	var hands [][]json.RawMessage
	var kitty []json.RawMessage
	if err := json.Unmarshal(data["hands"], &hands); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data["kitty"], &kitty); err != nil {
		t.Fatal(err)
	}
	hands[0][0], kitty[0] = kitty[0], hands[0][0]
	data["hands"], _ = json.Marshal(hands)
	data["kitty"], _ = json.Marshal(kitty)
	b, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	l.exec(t, `UPDATE events SET data = ? WHERE position = ?`, string(b), l.dealAt)
}

// lagHead leaves the head file where a crash may leave it: behind the log.
func (l tamperLog) lagHead(t *testing.T, pos int64) {
	t.Helper()
	e := l.events[pos-1]
	if err := os.WriteFile(app.Common{Data: l.dir}.HeadPath(), fmt.Appendf(nil, "%d %s\n", e.Position, e.Hash), 0o640); err != nil {
		t.Fatal(err)
	}
}

// corruptPage overwrites the b-tree header of the root page of a table or
// index in the database file, as a failing disk or a stray write would.
func (l tamperLog) corruptPage(t *testing.T, name string) {
	t.Helper()
	path := app.Common{Data: l.dir}.DBPath()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	err = db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, name).Scan(&root)
	if err == nil {
		err = db.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Fatal("the write-ahead log is still there: a page written to the file would be shadowed")
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, 12), (root-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// serveVerdict starts `paiju serve` on the directory: "" once it has
// verified the log (and then stops it), or the error it refused with,
// before it listened (the head) or after (the file and the whole chain,
// verified while it serves).
func serveVerdict(t *testing.T, dir string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	args := []string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--rate-limit", "0", "--drain", "0"}
	go func() { done <- cli.Run(ctx, args, noEnv, &bytes.Buffer{}, logs) }()
	for {
		select {
		case err := <-done:
			if err == nil {
				t.Fatalf("serve returned nil before listening:\n%s", logs.String())
			}
			return err.Error()
		case <-time.After(20 * time.Millisecond):
		}
		if strings.Contains(logs.String(), `msg="log verified`) {
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("serve stopped with %v", err)
			}
			return ""
		}
	}
}

func verifyVerdict(dir string) (string, error) {
	var out bytes.Buffer
	err := cli.Run(context.Background(), []string{"verify", "--data", dir}, noEnv, &out, &out)
	return out.String(), err
}

// TestTamperMatrix: every way of changing the data directory behind the
// server's back, with what `paiju verify` and `paiju serve` make of it. A
// want of "" is a pass (verify exits 0, serve listens); otherwise the error
// must contain it. recover says what `paiju recover-head --accept-log` does
// afterwards: "" not tried, "ok" it records the log's end and then verify
// and serve pass, else the refusal it must contain.
func TestTamperMatrix(t *testing.T) {
	for _, tc := range []struct {
		name         string
		tamper       func(t *testing.T, l tamperLog)
		verify       func(l tamperLog) string
		serve        func(l tamperLog) string
		recoverWants string
	}{
		{
			name:   "nothing changed",
			tamper: func(*testing.T, tamperLog) {},
			verify: func(tamperLog) string { return "" },
			serve:  func(tamperLog) string { return "" },
		},
		{
			name:   "changed card in an event's data",
			tamper: func(t *testing.T, l tamperLog) { l.changeCard(t) },
			verify: func(l tamperLog) string { return fmt.Sprintf("chain broken at position %d: stored hash", l.dealAt) },
			serve: func(l tamperLog) string {
				return fmt.Sprintf("refusing to serve: the log is broken: eventstore: chain broken at position %d", l.dealAt)
			},
			recoverWants: "the log itself does not verify",
		},
		{
			name:   "changed card, that event's hash recomputed",
			tamper: func(t *testing.T, l tamperLog) { l.changeCard(t); l.rehash(t, l.dealAt, true) },
			verify: func(l tamperLog) string {
				return fmt.Sprintf("chain broken at position %d: previous hash", l.dealAt+1)
			},
			serve: func(l tamperLog) string {
				return fmt.Sprintf("refusing to serve: the log is broken: eventstore: chain broken at position %d", l.dealAt+1)
			},
			recoverWants: "the log itself does not verify",
		},
		{
			name:   "changed card, the whole chain recomputed: the head file disagrees",
			tamper: func(t *testing.T, l tamperLog) { l.changeCard(t); l.rehash(t, l.dealAt, false) },
			verify: func(l tamperLog) string {
				return fmt.Sprintf("chain broken at position %d: hash", l.last())
			},
			serve: func(l tamperLog) string {
				return fmt.Sprintf("chain broken at position %d: head file", l.last())
			},
		},
		{
			name:         "deleted middle row",
			tamper:       func(t *testing.T, l tamperLog) { l.exec(t, `DELETE FROM events WHERE position = ?`, l.dealAt) },
			verify:       func(l tamperLog) string { return fmt.Sprintf("chain broken at position %d: missing", l.dealAt) },
			serve:        func(l tamperLog) string { return fmt.Sprintf("chain broken at position %d: missing", l.dealAt) },
			recoverWants: "the log itself does not verify",
		},
		{
			name:   "deleted tail row, head file current",
			tamper: func(t *testing.T, l tamperLog) { l.exec(t, `DELETE FROM events WHERE position = ?`, l.last()) },
			verify: func(l tamperLog) string {
				return fmt.Sprintf("log ends at position %d but the recorded head is at %d", l.last()-1, l.last())
			},
			serve: func(l tamperLog) string {
				return fmt.Sprintf("log ends at position %d but the head file", l.last()-1)
			},
			recoverWants: "ok",
		},
		{
			// The limit of a head written off the commit path: a tail
			// removed before anything brought the head past it is beyond
			// what the head can reveal. Serve then records the shortened
			// log as the head.
			name: "deleted tail row after a crash, the head file behind it",
			tamper: func(t *testing.T, l tamperLog) {
				l.lagHead(t, l.last()-2)
				l.exec(t, `DELETE FROM events WHERE position = ?`, l.last())
			},
			verify: func(tamperLog) string { return "" },
			serve:  func(tamperLog) string { return "" },
		},
		{
			name: "deleted tail row after a crash and a restart that re-synced the head",
			tamper: func(t *testing.T, l tamperLog) {
				l.lagHead(t, l.last()-2)
				if msg := serveVerdict(t, l.dir); msg != "" {
					t.Fatalf("restart after the crash: %s", msg)
				}
				l.exec(t, `DELETE FROM events WHERE position = ?`, l.last())
			},
			verify: func(l tamperLog) string {
				return fmt.Sprintf("log ends at position %d but the recorded head is at %d", l.last()-1, l.last())
			},
			serve: func(l tamperLog) string {
				return fmt.Sprintf("log ends at position %d but the head file", l.last()-1)
			},
			recoverWants: "ok",
		},
		{
			name: "deleted head file",
			tamper: func(t *testing.T, l tamperLog) {
				if err := os.Remove(app.Common{Data: l.dir}.HeadPath()); err != nil {
					t.Fatal(err)
				}
			},
			verify:       func(tamperLog) string { return "no chain head file for a store that holds events" },
			serve:        func(tamperLog) string { return "no chain head file for a store that holds events" },
			recoverWants: "ok",
		},
		{
			name: "forged tail event with a valid-looking hash",
			tamper: func(t *testing.T, l tamperLog) {
				e := l.events[l.last()-1]
				fake := sha256.Sum256([]byte("forged"))
				l.exec(t, `INSERT INTO events (stream, version, type, data, recorded_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)`,
					e.Stream, e.Version+1, e.Type, string(e.Data), e.RecordedAt.UnixNano(), e.Hash, hex.EncodeToString(fake[:]))
			},
			verify:       func(l tamperLog) string { return fmt.Sprintf("chain broken at position %d: stored hash", l.last()+1) },
			serve:        func(l tamperLog) string { return fmt.Sprintf("chain broken at position %d: stored hash", l.last()+1) },
			recoverWants: "the log itself does not verify",
		},
		{
			name:         "corrupted page of the events table",
			tamper:       func(t *testing.T, l tamperLog) { l.corruptPage(t, "events") },
			verify:       func(tamperLog) string { return "database file is damaged" },
			serve:        func(tamperLog) string { return "refusing to serve a damaged store" },
			recoverWants: "database file is damaged",
		},
		{
			name:         "corrupted page of the events' (stream, version) index",
			tamper:       func(t *testing.T, l tamperLog) { l.corruptPage(t, "sqlite_autoindex_events_1") },
			verify:       func(tamperLog) string { return "database file is damaged" },
			serve:        func(tamperLog) string { return "refusing to serve a damaged store" },
			recoverWants: "database file is damaged",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := writeTamperLog(t)
			tc.tamper(t, l)
			out, err := verifyVerdict(l.dir)
			checkVerdict(t, "verify", err, out, tc.verify(l))
			msg := serveVerdict(t, l.dir)
			var serr error
			if msg != "" {
				serr = errors.New(msg)
			}
			checkVerdict(t, "serve", serr, "", tc.serve(l))
			t.Logf("verify: %v\nserve: %s", err, msg)
			if tc.recoverWants == "" {
				return
			}
			var rout bytes.Buffer
			err = cli.Run(context.Background(), []string{"recover-head", "--data", l.dir, "--accept-log"}, noEnv, &rout, &rout)
			if tc.recoverWants != "ok" {
				checkVerdict(t, "recover-head", err, rout.String(), tc.recoverWants)
				return
			}
			if err != nil {
				t.Fatalf("recover-head: %v\n%s", err, rout.String())
			}
			out, err = verifyVerdict(l.dir)
			checkVerdict(t, "verify after recover-head", err, out, "")
			if msg := serveVerdict(t, l.dir); msg != "" {
				t.Errorf("serve after recover-head: %s", msg)
			}
		})
	}
}

func checkVerdict(t *testing.T, what string, err error, out, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v, want a pass\n%s", what, err, out)
	case want != "" && err == nil:
		t.Errorf("%s passed, want a refusal containing %q\n%s", what, want, out)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Errorf("%s: %v\nwant it to contain %q", what, err, want)
	}
}

// TestRecoverHeadWantsAcceptLog: the recovery is an explicit decision.
func TestRecoverHeadWantsAcceptLog(t *testing.T) {
	l := writeTamperLog(t)
	var out bytes.Buffer
	err := cli.Run(context.Background(), []string{"recover-head", "--data", l.dir}, noEnv, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "--accept-log is required") {
		t.Fatalf("recover-head without --accept-log: %v", err)
	}
}
