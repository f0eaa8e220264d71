package sqlite

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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
