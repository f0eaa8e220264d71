package sqlite_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"

	"paiju/eventstore"
	"paiju/eventstore/sqlite"
)

// seededLog writes the seed log through a store with its head file, closes
// it, and returns the events as written.
func seededLog(t *testing.T, p paths) []eventstore.Event {
	t.Helper()
	s := open(t, p, sqlite.Options{})
	seed(t, s)
	evs, err := s.ReadAll(t.Context(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return evs
}

func writeHead(t *testing.T, p paths, e eventstore.Event) {
	t.Helper()
	if err := os.WriteFile(p.head, fmt.Appendf(nil, "%d %s\n", e.Position, e.Hash), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestOpenBringsHeadUpToLog: a head file a crash left behind the log is
// brought to the log's end by Open itself, so a restart followed by a clean
// stop with no new write leaves it current (store.go, Chain head).
func TestOpenBringsHeadUpToLog(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	evs := seededLog(t, p)
	writeHead(t, p, evs[1]) // the crash: the head file at 2 of 6
	s := open(t, p, sqlite.Options{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	pos, hash, err := sqlite.ReadHeadFile(p.head)
	last := evs[len(evs)-1]
	if err != nil || pos != last.Position || hash != last.Hash {
		t.Fatalf("head file after Open and Close = %d %s (%v), want %d %s", pos, hash, err, last.Position, last.Hash)
	}
	// Now the tail the crash had left unrecorded is guarded too.
	tamper(t, p.db, fmt.Sprintf(`DELETE FROM events WHERE position = %d`, last.Position))
	if s, err := sqlite.Open(t.Context(), p.db, sqlite.Options{HeadFile: p.head}); !errors.Is(err, eventstore.ErrChainBroken) {
		if err == nil {
			s.Close()
		}
		t.Fatalf("Open after the tail was removed: %v, want ErrChainBroken", err)
	}
}

// TestOpenRefusesWhatTheHeadCannotVouchFor: the cases Open refuses rather
// than bring the head file up to date, and the head file it leaves alone.
func TestOpenRefusesWhatTheHeadCannotVouchFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		edit    func(t *testing.T, p paths, evs []eventstore.Event)
		want    error
		headPos int64 // what the head file must still record (0: no file)
	}{
		{"head file missing, log not empty", func(t *testing.T, p paths, _ []eventstore.Event) {
			if err := os.Remove(p.head); err != nil {
				t.Fatal(err)
			}
		}, sqlite.ErrNoHeadFile, 0},
		{"head file ahead of the log", func(t *testing.T, p paths, evs []eventstore.Event) {
			tamper(t, p.db, `DELETE FROM events WHERE position >= 5`)
		}, eventstore.ErrChainBroken, 6},
		{"event past a lagging head with a wrong hash", func(t *testing.T, p paths, evs []eventstore.Event) {
			writeHead(t, p, evs[2])
			tamper(t, p.db, `UPDATE events SET data = '{"seat":9}' WHERE position = 5`)
		}, eventstore.ErrChainBroken, 3},
		{"gap past a lagging head", func(t *testing.T, p paths, evs []eventstore.Event) {
			writeHead(t, p, evs[2])
			tamper(t, p.db, `DELETE FROM events WHERE position = 4`)
		}, eventstore.ErrChainBroken, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPaths(t)
			evs := seededLog(t, p)
			tt.edit(t, p, evs)
			s, err := sqlite.Open(t.Context(), p.db, sqlite.Options{HeadFile: p.head})
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("Open: %v, want %v", err, tt.want)
			}
			pos, _, herr := sqlite.ReadHeadFile(p.head)
			if tt.headPos == 0 && !errors.Is(herr, fs.ErrNotExist) || tt.headPos != 0 && pos != tt.headPos {
				t.Errorf("head file after the refusal: %d (%v), want %d", pos, herr, tt.headPos)
			}
		})
	}
}

// TestOpenEmptyStoreWithoutHeadFile: a new store has no head file and needs
// none.
func TestOpenEmptyStoreWithoutHeadFile(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := open(t, p, sqlite.Options{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, p, sqlite.Options{})
	s.Close()
}

// TestAcceptLog: the operator's recovery records a sound log's end as the
// head, after which Open accepts the store; a broken log it refuses.
func TestAcceptLog(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		edit    string
		wantPos int64 // 0: refused
	}{
		{"tail removed", `DELETE FROM events WHERE position = 6`, 5},
		{"middle removed", `DELETE FROM events WHERE position = 3`, 0},
		{"data changed", `UPDATE events SET data = '{"seat":7}' WHERE position = 2`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPaths(t)
			seededLog(t, p)
			tamper(t, p.db, tt.edit)
			s, err := sqlite.Open(t.Context(), p.db, sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			pos, _, err := sqlite.AcceptLog(t.Context(), s, p.head)
			s.Close()
			if tt.wantPos == 0 {
				if !errors.Is(err, eventstore.ErrChainBroken) {
					t.Fatalf("AcceptLog: %v, want ErrChainBroken", err)
				}
				if fpos, _, _ := sqlite.ReadHeadFile(p.head); fpos != 6 {
					t.Errorf("head file after a refused AcceptLog at %d, want 6 (untouched)", fpos)
				}
				return
			}
			if err != nil || pos != tt.wantPos {
				t.Fatalf("AcceptLog = %d, %v, want %d", pos, err, tt.wantPos)
			}
			open(t, p, sqlite.Options{}).Close()
		})
	}
}

func TestCheckIntegrityOfSoundFile(t *testing.T) {
	t.Parallel()
	p := newPaths(t)
	s := openClosed(t, p)
	seed(t, s)
	for _, quick := range []bool{true, false} {
		if err := s.CheckIntegrity(t.Context(), quick); err != nil {
			t.Errorf("CheckIntegrity(quick=%v): %v", quick, err)
		}
	}
}
