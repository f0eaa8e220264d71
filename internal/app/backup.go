package app

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"paiju/eventstore/sqlite"
)

// A backup is one gzip-compressed tar file holding, in this order:
//
//	MANIFEST.json   what the backup holds: its chain head, the schema versions
//	projections.db  the projections (unless --projections=false)
//	paiju.db        the event store: events, players, checkpoints, idempotency keys
//	chain-head      "<position> <hash>" of the last event in paiju.db
//
// Each database is copied with SQLite's VACUUM INTO, which reads one
// consistent snapshot (a read transaction under WAL) while the server keeps
// writing. The projections are copied first, so they can only be behind the
// store's copy, never ahead; they catch up after a restore.
const (
	backupManifest    = "MANIFEST.json"
	backupFormat      = 1
	backupStoreFile   = "paiju.db"
	backupProjFile    = "projections.db"
	backupHeadFile    = "chain-head"
	backupFileMode    = 0o640
	backupDirMode     = 0o750
	backupMaxManifest = 1 << 20
)

// manifest describes a backup.
type manifest struct {
	Format    int       `json:"format"`
	CreatedAt time.Time `json:"created_at"`
	// ChainHead is the position and hash of the last event in the copied
	// store (position 0 for an empty log); the backup's chain-head file
	// holds the same.
	ChainHead headLine `json:"chain_head"`
	// ServerHeadFile is the server's chain-head file as it was read just
	// before the copy (empty if it had none); the copy contains that event.
	ServerHeadFile string `json:"server_head_file"`
	// Files are the files of the backup after the manifest.
	Files []string `json:"files"`
}

type headLine struct {
	Position int64  `json:"position"`
	Hash     string `json:"hash"`
}

// backupConfig configures paiju backup.
type BackupConfig struct {
	Common
	Out         string
	Projections bool
}

// backup writes a consistent snapshot of the data directory to c.Out. It
// reads only, so it runs beside a serving server.
func Backup(ctx context.Context, c BackupConfig, stdout io.Writer) (err error) {
	if err := sqliteOnly("backup", c.Common); err != nil {
		return err
	}
	if _, err := os.Stat(c.DBPath()); err != nil {
		return fmt.Errorf("backup: no store in %s: %w", c.Data, err)
	}
	if _, err := os.Lstat(c.Out); err == nil {
		return fmt.Errorf("backup: %s exists; choose a new file", c.Out)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(c.Out), ".paiju-backup-*")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(tmp)

	m := manifest{Format: backupFormat, CreatedAt: time.Now().UTC()}
	if c.Projections {
		if _, err := os.Stat(c.ProjectionsPath()); err == nil {
			if err := vacuumInto(ctx, c.ProjectionsPath(), filepath.Join(tmp, backupProjFile)); err != nil {
				return fmt.Errorf("backup projections: %w", err)
			}
			m.Files = append(m.Files, backupProjFile)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("backup: %w", err)
		}
	}
	// The head file is read before the copy: the copy then holds its event,
	// which checks that the store being copied is the one the file tracks.
	serverHead, err := os.ReadFile(c.HeadPath())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup: chain head: %w", err)
	}
	m.ServerHeadFile = string(serverHead)
	snap := filepath.Join(tmp, backupStoreFile)
	if err := vacuumInto(ctx, c.DBPath(), snap); err != nil {
		return fmt.Errorf("backup store: %w", err)
	}
	m.Files = append(m.Files, backupStoreFile)
	m.ChainHead, err = snapshotHead(ctx, snap)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if len(serverHead) > 0 {
		// Parse the content read before the copy, not the file again: the
		// server has moved it on since.
		readHead := filepath.Join(tmp, "server-head")
		if err := os.WriteFile(readHead, serverHead, backupFileMode); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		pos, hash, err := sqlite.ReadHeadFile(readHead)
		if err == nil {
			err = holds(ctx, snap, pos, hash)
		}
		if err != nil {
			return fmt.Errorf("backup: the store does not match its chain head file (run paiju verify): %w", err)
		}
	}
	if m.ChainHead.Position > 0 {
		line := fmt.Sprintf("%d %s\n", m.ChainHead.Position, m.ChainHead.Hash)
		if err := os.WriteFile(filepath.Join(tmp, backupHeadFile), []byte(line), backupFileMode); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		m.Files = append(m.Files, backupHeadFile)
	}
	if err := writeArchive(c.Out, tmp, m); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(stdout, "backup %s: %d events, chain head %d %s, files %v\n", c.Out, m.ChainHead.Position, m.ChainHead.Position, m.ChainHead.Hash, m.Files)
	return nil
}

// vacuumInto copies the database at src to the new file dst from one read
// transaction, beside writers in other connections and processes.
func vacuumInto(ctx context.Context, src, dst string) error {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	db, err := sql.Open("sqlite", src+"?"+q.Encode())
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return nil
}

// snapshotHead returns the last event of the store file at path.
func snapshotHead(ctx context.Context, path string) (headLine, error) {
	db, err := openReadOnly(path)
	if err != nil {
		return headLine{}, err
	}
	defer db.Close()
	var h headLine
	err = db.QueryRowContext(ctx, `SELECT position, hash FROM events ORDER BY position DESC LIMIT 1`).Scan(&h.Position, &h.Hash)
	if errors.Is(err, sql.ErrNoRows) {
		return headLine{}, nil
	}
	if err != nil {
		return headLine{}, fmt.Errorf("last event of %s: %w", path, err)
	}
	return h, nil
}

// holds checks that the store file at path holds the event pos with hash.
func holds(ctx context.Context, path string, pos int64, hash string) error {
	db, err := openReadOnly(path)
	if err != nil {
		return err
	}
	defer db.Close()
	var stored string
	err = db.QueryRowContext(ctx, `SELECT hash FROM events WHERE position = ?`, pos).Scan(&stored)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("no event at position %d", pos)
	}
	if err != nil {
		return fmt.Errorf("event %d: %w", pos, err)
	}
	if stored != hash {
		return fmt.Errorf("event %d has hash %s, the head names %s", pos, stored, hash)
	}
	return nil
}

func openReadOnly(path string) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Set("_query_only", "1")
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// writeArchive writes the manifest and m.Files of dir to out as a tar.gz:
// to a temporary file first, renamed into place once complete and synced,
// so that out never names a partial backup.
func writeArchive(out, dir string, m manifest) (err error) {
	f, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	mb = append(mb, '\n')
	if err := tw.WriteHeader(&tar.Header{Name: backupManifest, Mode: backupFileMode, Size: int64(len(mb)), ModTime: m.CreatedAt, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := tw.Write(mb); err != nil {
		return err
	}
	for _, name := range m.Files {
		if err := addFile(tw, filepath.Join(dir, name), name, m.CreatedAt); err != nil {
			return err
		}
	}
	if err := errors.Join(tw.Close(), zw.Close()); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), out)
}

func addFile(tw *tar.Writer, path, name string, at time.Time) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: backupFileMode, Size: st.Size(), ModTime: at, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := io.Copy(tw, f); err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	return nil
}
