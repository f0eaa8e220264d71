package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"paiju/eventstore"
	"paiju/eventstore/eventstoretest"
	"paiju/eventstore/sqlite"
)

type paths struct{ db, head string }

func newPaths(t *testing.T) paths {
	dir := t.TempDir()
	return paths{db: filepath.Join(dir, "paiju.db"), head: filepath.Join(dir, "head")}
}

func open(t *testing.T, p paths, opts sqlite.Options) *sqlite.Store {
	t.Helper()
	opts.HeadFile = p.head
	s, err := sqlite.Open(t.Context(), p.db, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", p.db, err)
	}
	return s
}

func openClosed(t *testing.T, p paths) *sqlite.Store {
	t.Helper()
	s := open(t, p, sqlite.Options{})
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	t.Parallel()
	t.Run("default", func(t *testing.T) {
		eventstoretest.Run(t, func(t *testing.T) *sqlite.Store {
			return open(t, newPaths(t), sqlite.Options{})
		})
	})
	// Small batches that wait for company: exercises the batch bound and the
	// timer path of group commit. NORMAL keeps it quick.
	t.Run("small batches", func(t *testing.T) {
		eventstoretest.Run(t, func(t *testing.T) *sqlite.Store {
			return open(t, newPaths(t), sqlite.Options{Synchronous: "NORMAL", MaxBatch: 3, MaxBatchWait: time.Millisecond})
		})
	})
}

func ev(typ, data string) eventstore.NewEvent {
	return eventstore.NewEvent{Type: typ, Data: []byte(data)}
}

func mustAppend(t *testing.T, s *sqlite.Store, stream string, expected int, events ...eventstore.NewEvent) eventstore.AppendResult {
	t.Helper()
	res, err := s.Append(t.Context(), stream, expected, events)
	if err != nil {
		t.Fatalf("Append(%s, %d): %v", stream, expected, err)
	}
	return res
}

// seed appends six events over two streams: positions 1..6.
func seed(t *testing.T, s *sqlite.Store) {
	t.Helper()
	mustAppend(t, s, "table-a", 0, ev("TableOpened", `{"game":"doudizhu"}`), ev("PlayerSeated", `{"seat":0}`))
	mustAppend(t, s, "table-b", 0, ev("TableOpened", `{"game":"shengji"}`))
	mustAppend(t, s, "table-a", 2, ev("PlayerSeated", `{"seat":1}`))
	mustAppend(t, s, "table-b", 1, ev("PlayerSeated", `{"seat":0}`), ev("PlayerSeated", `{"seat":1}`))
}

func TestHeadFileFollowsCommits(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := open(t, p, sqlite.Options{})
	if _, _, err := sqlite.ReadHeadFile(p.head); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadHeadFile before any append: %v, want fs.ErrNotExist", err)
	}
	seed(t, s)
	pos, hash, err := s.Head(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// While open the file may trail the log; it never runs ahead of it.
	if fpos, _, err := sqlite.ReadHeadFile(p.head); err == nil && fpos > pos {
		t.Errorf("head file at %d ahead of the log at %d (store.go, Chain head)", fpos, pos)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fpos, fhash, err := sqlite.ReadHeadFile(p.head)
	if err != nil || fpos != pos || fhash != hash {
		t.Fatalf("head file after Close = %d %s %v, want the store's head %d %s (store.go, Chain head)", fpos, fhash, err, pos, hash)
	}
	raw, _ := os.ReadFile(p.head)
	if want := fmt.Sprintf("%d %s\n", pos, hash); string(raw) != want {
		t.Errorf("head file holds %q, want %q", raw, want)
	}
	leftovers, _ := filepath.Glob(p.head + ".tmp*")
	if len(leftovers) != 0 {
		t.Errorf("temporary head files left behind: %v", leftovers)
	}
}

func TestReadHeadFileRejectsGarbage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := strings.Repeat("ab", 32)
	for _, content := range []string{
		"", "\n", "3\n", "3 " + good, "x " + good + "\n", "0 " + good + "\n",
		"3 " + good[:62] + "\n", "3 " + strings.ToUpper(good) + "\n", "3  " + good + "\n",
	} {
		path := filepath.Join(dir, "head")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if pos, hash, err := sqlite.ReadHeadFile(path); err == nil {
			t.Errorf("ReadHeadFile(%q) = %d %s, want an error", content, pos, hash)
		}
	}
}

func TestReopenLosesNothing(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := open(t, p, sqlite.Options{})
	seed(t, s)
	before, err := s.ReadAll(t.Context(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := s.Append(t.Context(), "table-c", 0, []eventstore.NewEvent{ev("E", `{}`)}); !errors.Is(err, eventstore.ErrClosed) {
		t.Errorf("Append after Close: %v, want ErrClosed", err)
	}

	s = openClosed(t, p)
	after, err := s.ReadAll(t.Context(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("after reopening the log is\n%v\nwant\n%v", after, before)
	}
	hpos, hhash, err := sqlite.ReadHeadFile(p.head)
	if err != nil {
		t.Fatal(err)
	}
	pos, hash, err := s.Head(t.Context())
	if err != nil || pos != hpos || hash != hhash {
		t.Fatalf("after reopening Head = %d %s %v, want the head file's %d %s", pos, hash, err, hpos, hhash)
	}
	if err := eventstore.VerifyChain(t.Context(), s, hpos, hhash); err != nil {
		t.Fatalf("VerifyChain after reopening: %v", err)
	}
	// The chain continues from the stored head.
	res := mustAppend(t, s, "table-a", 3, ev("E", `{}`))
	if res.Positions[0] != 7 {
		t.Errorf("first append after reopening at position %d, want 7", res.Positions[0])
	}
	if err := eventstore.VerifyChain(t.Context(), s, 0, ""); err != nil {
		t.Fatalf("VerifyChain after appending to a reopened store: %v", err)
	}
}

// tamper edits the database behind the store's back, as someone with the
// file and the sqlite3 shell could.
func tamper(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("tamper %q: %v", q, err)
		}
	}
}

// rehash recomputes every hash from position from on, as a forger who knows
// the hash function would after editing an event.
func rehash(t *testing.T, path string, from int64) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := t.Context()
	var prev string
	if err := db.QueryRowContext(ctx, `SELECT hash FROM events WHERE position = ?`, from-1).Scan(&prev); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, `SELECT position, stream, version, type, data FROM events WHERE position >= ? ORDER BY position`, from)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		pos        int64
		prev, hash string
	}
	var updates []row
	for rows.Next() {
		var (
			pos         int64
			stream, typ string
			version     int
			data        []byte
		)
		if err := rows.Scan(&pos, &stream, &version, &typ, &data); err != nil {
			t.Fatal(err)
		}
		h := eventstore.Hash(prev, stream, version, typ, data)
		updates = append(updates, row{pos, prev, h})
		prev = h
	}
	rows.Close()
	for _, u := range updates {
		if _, err := db.ExecContext(ctx, `UPDATE events SET prev_hash = ?, hash = ? WHERE position = ?`, u.prev, u.hash, u.pos); err != nil {
			t.Fatal(err)
		}
	}
}

func TestVerifyChainDetectsTampering(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(t *testing.T, db string)
		// first bad position VerifyChain must name, with and without the
		// head file; 0 means the edit is not detectable that way.
		withHead, withoutHead int64
	}{
		{"flipped byte in data", func(t *testing.T, db string) {
			tamper(t, db, `UPDATE events SET data = replace(data, 'shengji', 'shengjI') WHERE position = 3`)
		}, 3, 3},
		{"changed type", func(t *testing.T, db string) {
			tamper(t, db, `UPDATE events SET type = 'PlayerLeft' WHERE position = 2`)
		}, 2, 2},
		{"changed version", func(t *testing.T, db string) {
			tamper(t, db, `UPDATE events SET version = 9 WHERE position = 6`)
		}, 6, 6},
		{"deleted row in the middle", func(t *testing.T, db string) {
			tamper(t, db, `DELETE FROM events WHERE position = 4`)
		}, 4, 4},
		{"deleted row at the tail", func(t *testing.T, db string) {
			tamper(t, db, `DELETE FROM events WHERE position = 6`)
		}, 6, 0}, // only the head kept outside the database sees it
		{"swapped rows", func(t *testing.T, db string) {
			tamper(t, db,
				`UPDATE events SET position = 100 WHERE position = 2`,
				`UPDATE events SET position = 2 WHERE position = 3`,
				`UPDATE events SET position = 3 WHERE position = 100`)
		}, 2, 2},
		{"edited and rehashed", func(t *testing.T, db string) {
			tamper(t, db, `UPDATE events SET data = '{"seat":3}' WHERE position = 2`)
			rehash(t, db, 2)
		}, 6, 0}, // a consistent forgery: only the head's hash differs
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPaths(t)
			s := open(t, p, sqlite.Options{})
			seed(t, s)
			if err := eventstore.VerifyChain(t.Context(), s, 0, ""); err != nil {
				t.Fatalf("VerifyChain before tampering: %v", err)
			}
			if err := s.Close(); err != nil { // brings the head file up to date
				t.Fatal(err)
			}
			tt.edit(t, p.db)
			hpos, hhash, err := sqlite.ReadHeadFile(p.head)
			if err != nil {
				t.Fatal(err)
			}
			// Opened as `paiju verify` would: reading, without a head file
			// of its own (Open would refuse some of these databases).
			s, err = sqlite.Open(t.Context(), p.db, sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			for _, c := range []struct {
				desc    string
				pos     int64
				hash    string
				wantPos int64
			}{
				{"with the head file", hpos, hhash, tt.withHead},
				{"without a head", 0, "", tt.withoutHead},
			} {
				err := eventstore.VerifyChain(t.Context(), s, c.pos, c.hash)
				var ce *eventstore.ChainError
				if c.wantPos == 0 {
					if err != nil {
						t.Errorf("%s: VerifyChain: %v, want nil (this edit leaves a consistent chain)", c.desc, err)
					}
					continue
				}
				if !errors.As(err, &ce) || ce.Position != c.wantPos || !errors.Is(err, eventstore.ErrChainBroken) {
					t.Errorf("%s: VerifyChain: %v, want a *ChainError at position %d (verify.go, VerifyChain; DESIGN.md, Event store)", c.desc, err, c.wantPos)
				}
			}
		})
	}
}

func TestOpenRefusesDatabaseThatLostItsHead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit string
	}{
		{"tail removed", `DELETE FROM events WHERE position = 6`},
		{"head event rewritten", `UPDATE events SET hash = replace(hash, substr(hash, 1, 1), 'x') WHERE position = 6`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPaths(t)
			s := open(t, p, sqlite.Options{})
			seed(t, s)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			tamper(t, p.db, tt.edit)
			s, err := sqlite.Open(t.Context(), p.db, sqlite.Options{HeadFile: p.head})
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded on a database that does not hold the head file's event, want a *ChainError (store.go, Chain head)")
			}
			if !errors.Is(err, eventstore.ErrChainBroken) {
				t.Errorf("Open: %v, want an error matching ErrChainBroken", err)
			}
		})
	}
}

func TestAppendRefusesToExtendTruncatedLog(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := openClosed(t, p)
	seed(t, s)
	tamper(t, p.db, `DELETE FROM events WHERE position = 6`)
	_, err := s.Append(t.Context(), "table-c", 0, []eventstore.NewEvent{ev("E", `{}`)})
	if !errors.Is(err, eventstore.ErrChainBroken) {
		t.Fatalf("Append after the tail was removed: %v, want ErrChainBroken: positions are gap-free (eventstore.go, Event.Position)", err)
	}
	if pos, _, _ := s.Head(t.Context()); pos != 5 {
		t.Errorf("Head = %d after a refused append, want 5", pos)
	}
}

// TestDataKeptByteForByte: data comes back exactly as appended, whatever its
// bytes (eventstore.go, Event.Data), or the chain hash could not be
// recomputed from it.
func TestDataKeptByteForByte(t *testing.T) {
	t.Parallel()
	s := openClosed(t, newPaths(t))
	datas := []string{
		"{\"s\":\"\xff\xfe\"}", // not UTF-8
		"{\"s\":\"\\u0000 牌局\"}",
		" [1, 2.50, 1e3] ",
		"\"\"",
		"null",
	}
	for i, d := range datas {
		mustAppend(t, s, "table-a", i, ev("E", d))
	}
	events, err := s.Load(t.Context(), "table-a", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range events {
		if string(e.Data) != datas[i] {
			t.Errorf("version %d data = %q, want %q", e.Version, e.Data, datas[i])
		}
	}
	if err := eventstore.VerifyChain(t.Context(), s, 0, ""); err != nil {
		t.Error(err)
	}
}

func TestMigrate(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	for range 2 {
		if err := sqlite.Migrate(t.Context(), p.db); err != nil {
			t.Fatalf("Migrate: %v, want nil also when up to date", err)
		}
	}
	s := openClosed(t, p)
	mustAppend(t, s, "table-a", 0, ev("E", `{}`))
	for _, bad := range []string{"", ":memory:", "file:x.db", filepath.Join(t.TempDir(), "a?b.db")} {
		if err := sqlite.Migrate(t.Context(), bad); err == nil {
			t.Errorf("Migrate(%q): nil error, want one", bad)
		}
	}
	if _, err := sqlite.Open(t.Context(), p.db, sqlite.Options{Synchronous: "OFF"}); err == nil {
		t.Error("Open with synchronous OFF: nil error, want one (only FULL and NORMAL are offered)")
	}
}

// TestCloseDuringAppends: an append racing Close either returns nil and its
// event survives, or returns an error and nothing of it is stored.
func TestCloseDuringAppends(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := open(t, p, sqlite.Options{})
	const writers = 8
	errs := make([][]error, writers)
	var (
		wg     sync.WaitGroup
		landed atomic.Int64
		enough = make(chan struct{})
	)
	for i := range writers {
		wg.Go(func() {
			for n := 0; ; n++ {
				_, err := s.Append(context.Background(), fmt.Sprintf("table-%d", i), n, []eventstore.NewEvent{ev("E", `{}`)})
				errs[i] = append(errs[i], err)
				if err != nil {
					return
				}
				// Close once some appends have landed: a count, not a time.
				if landed.Add(1) == 20 {
					close(enough)
				}
			}
		})
	}
	stopped := make(chan struct{})
	go func() { wg.Wait(); close(stopped) }()
	select {
	case <-enough:
	case <-stopped:
		t.Fatalf("every writer stopped before 20 appends landed: %v", errs)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	wg.Wait()

	s = openClosed(t, p)
	for i, es := range errs {
		events, err := s.Load(t.Context(), fmt.Sprintf("table-%d", i), 0)
		if err != nil {
			t.Fatal(err)
		}
		ok := len(es) - 1
		if last := es[len(es)-1]; !errors.Is(last, eventstore.ErrClosed) {
			t.Errorf("writer %d: append after Close: %v, want ErrClosed", i, last)
		}
		if len(events) != ok {
			t.Errorf("writer %d: %d appends returned nil, %d events stored: acknowledged means stored, failed means not", i, ok, len(events))
		}
	}
	if err := eventstore.VerifyChain(t.Context(), s, 0, ""); err != nil {
		t.Errorf("VerifyChain after Close during appends: %v", err)
	}
}
