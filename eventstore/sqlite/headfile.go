package sqlite

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"paiju/eventstore"
)

// publishHead hands h to headWriter, replacing a head it has not taken yet:
// only the newest one matters. Called by the writer goroutine alone.
func (s *Store) publishHead(h chainHead) {
	if s.opts.HeadFile == "" {
		return
	}
	for {
		select {
		case s.heads <- h:
			return
		default:
		}
		select {
		case <-s.heads: // stale: drop it
		default:
		}
	}
}

// headWriter writes each head it is handed to the head file, until Close.
func (s *Store) headWriter() {
	defer close(s.headDone)
	for h := range s.heads {
		if err := writeHeadFile(s.opts.HeadFile, h.pos, h.hash); err != nil {
			// The events are committed, and the next head rewrites the
			// file; a lasting failure shows in the log and in verification.
			s.opts.Logger.Error("event store: head file not updated", "position", h.pos, "err", err)
		}
		// Under load a file rename per commit cost as much as the commit's
		// queries; heads that arrive meanwhile collapse into the newest.
		time.Sleep(s.opts.HeadInterval)
	}
}

// writeHeadFile replaces the head file with "<position> <hash>\n". The rename
// makes the replacement atomic: a reader sees the old head or the new one,
// never a torn line. There is no fsync: after a power loss the file may lag
// the database, which verification accepts (the head only bounds the log
// from below).
func writeHeadFile(path string, pos int64, hash string) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write head file: %w", err)
	}
	tmp := f.Name()
	_, err = f.WriteString(strconv.FormatInt(pos, 10) + " " + hash + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write head file %s: %w", path, err)
	}
	return nil
}

// ReadHeadFile reads a head file written by a Store: the position and hash of
// the last event committed when it was written. A missing file is an error
// matching fs.ErrNotExist.
func ReadHeadFile(path string) (pos int64, hash string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, "", fmt.Errorf("read head file: %w", err)
	}
	line, ok := strings.CutSuffix(string(b), "\n")
	if !ok {
		return 0, "", fmt.Errorf("head file %s: no line end", path)
	}
	p, h, ok := strings.Cut(line, " ")
	if !ok {
		return 0, "", fmt.Errorf("head file %s: want \"<position> <hash>\", got %q", path, line)
	}
	pos, err = strconv.ParseInt(p, 10, 64)
	if err != nil || pos < 1 {
		return 0, "", fmt.Errorf("head file %s: bad position %q", path, p)
	}
	if raw, err := hex.DecodeString(h); err != nil || len(raw) != 32 || strings.ToLower(h) != h {
		return 0, "", fmt.Errorf("head file %s: bad hash %q", path, h)
	}
	return pos, h, nil
}

// ErrNoHeadFile is the refusal of Open when the database holds events and
// the head file is gone: without it a removed tail cannot be told from the
// real end of the log, so the loss is not taken silently. It matches
// eventstore.ErrChainBroken too.
var ErrNoHeadFile = errors.New("no chain head file for a store that holds events")

// syncHead compares the log with the head file and, when the log is sound
// past the recorded head, records the log's last event as the head. Open
// calls it: after a crash the file may trail the log (the commits made while
// the head writer slept), and nothing else would bring it up to date before
// the next append.
func (s *Store) syncHead(ctx context.Context) error {
	if s.opts.HeadFile == "" {
		return nil
	}
	last, lastHash, err := s.Head(ctx)
	if err != nil {
		return err
	}
	pos, hash, err := ReadHeadFile(s.opts.HeadFile)
	switch {
	case errors.Is(err, fs.ErrNotExist) && last == 0:
		return nil // a new store
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %w", ErrNoHeadFile, &eventstore.ChainError{Position: last, Reason: fmt.Sprintf("head file %s is missing and the log holds %d events", s.opts.HeadFile, last)})
	case err != nil:
		return err
	}
	if pos > last {
		return &eventstore.ChainError{Position: last + 1, Reason: fmt.Sprintf("log ends at position %d but the head file %s records %d: events were removed", last, s.opts.HeadFile, pos)}
	}
	var stored string
	err = s.rdb.QueryRowContext(ctx, `SELECT hash FROM events WHERE position = ?`, pos).Scan(&stored)
	if errors.Is(err, sql.ErrNoRows) {
		return &eventstore.ChainError{Position: pos, Reason: fmt.Sprintf("head file %s records position %d, which the database does not hold", s.opts.HeadFile, pos)}
	}
	if err != nil {
		return fmt.Errorf("read event at head position %d: %w", pos, err)
	}
	if stored != hash {
		return &eventstore.ChainError{Position: pos, Reason: fmt.Sprintf("head file %s records hash %s, the database holds %s", s.opts.HeadFile, hash, stored)}
	}
	if pos == last {
		return nil
	}
	// The events past the recorded head are vouched for by nothing yet:
	// they must chain onto it before the file may name them.
	if err := checkTail(ctx, s, pos, hash); err != nil {
		return err
	}
	if err := writeHeadFile(s.opts.HeadFile, last, lastHash); err != nil {
		return err
	}
	s.opts.Logger.Info("event store: chain head brought up to the log", "from", pos, "to", last)
	return nil
}

// checkTail checks that the events after position from run without a gap,
// each naming its predecessor's hash and hashing to what it stores.
func checkTail(ctx context.Context, s *Store, from int64, fromHash string) error {
	prev, prevHash := from, fromHash
	for {
		page, err := s.ReadAll(ctx, prev, 1000)
		if err != nil {
			return fmt.Errorf("check the log after position %d: %w", prev, err)
		}
		for _, e := range page {
			switch {
			case e.Position != prev+1:
				return &eventstore.ChainError{Position: prev + 1, Reason: fmt.Sprintf("missing: the next stored event is at position %d", e.Position)}
			case e.PrevHash != prevHash:
				return &eventstore.ChainError{Position: e.Position, Reason: fmt.Sprintf("previous hash %s, want %s (the hash of position %d)", e.PrevHash, prevHash, prev)}
			case eventstore.Hash(e.PrevHash, e.Stream, e.Version, e.Type, e.Data) != e.Hash:
				return &eventstore.ChainError{Position: e.Position, Reason: "stored hash differs from the recomputed one"}
			}
			prev, prevHash = e.Position, e.Hash
		}
		if len(page) < 1000 {
			return nil
		}
	}
}

// AcceptLog records the last event of the store's log as its chain head,
// for an operator who has decided that the log as it stands is the log: the
// head file was lost, or events past the old head are gone for good. It
// refuses a log that does not verify on its own (a gap, a broken link, a
// wrong hash): that is not a head to accept but a store to restore.
// It returns the head it recorded (0 and "" for an empty log, whose head
// file it removes).
func AcceptLog(ctx context.Context, s *Store, headFile string) (int64, string, error) {
	if err := eventstore.VerifyChain(ctx, s, 0, ""); err != nil {
		return 0, "", fmt.Errorf("accept log: %w", err)
	}
	pos, hash, err := s.Head(ctx)
	if err != nil {
		return 0, "", fmt.Errorf("accept log: %w", err)
	}
	if pos == 0 {
		if err := os.Remove(headFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, "", fmt.Errorf("accept log: %w", err)
		}
		return 0, "", nil
	}
	if err := writeHeadFile(headFile, pos, hash); err != nil {
		return 0, "", fmt.Errorf("accept log: %w", err)
	}
	return pos, hash, nil
}
