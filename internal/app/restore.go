package app

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"paiju/eventstore/sqlite"
)

// restoreConfig configures paiju restore.
type RestoreConfig struct {
	Common
	In string
}

// restore unpacks a backup into an empty (or missing) data directory and
// checks that the store opens with its chain head. It never writes into a
// directory holding anything: a restore next to newer files (a newer
// projections.db, NATS's stream) would mix two histories.
func Restore(ctx context.Context, c RestoreConfig, stdout io.Writer) (err error) {
	if err := sqliteOnly("restore", c.Common); err != nil {
		return err
	}
	if err := emptyDir(c.Data); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	in, err := os.Open(c.In)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer in.Close()
	// Unpack beside the data directory, then rename: a failed restore
	// leaves no partial directory behind.
	parent := filepath.Dir(filepath.Clean(c.Data))
	if err := os.MkdirAll(parent, backupDirMode); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".paiju-restore-*")
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer os.RemoveAll(tmp)
	m, err := unpack(in, tmp)
	if err != nil {
		return fmt.Errorf("restore %s: %w", c.In, err)
	}
	if err := checkRestored(ctx, tmp, m); err != nil {
		return fmt.Errorf("restore %s: %w", c.In, err)
	}
	if err := os.Remove(c.Data); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("restore: %w", err)
	}
	if err := os.Rename(tmp, c.Data); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	fmt.Fprintf(stdout, "restored %s into %s: %d events, chain head %d %s, files %v (taken %s)\n",
		c.In, c.Data, m.ChainHead.Position, m.ChainHead.Position, m.ChainHead.Hash, m.Files, m.CreatedAt.Format("2006-01-02T15:04:05Z"))
	return nil
}

// emptyDir is nil for a missing or empty directory.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("data directory %s is not empty (it holds %s): restore only into an empty directory", dir, entries[0].Name())
	}
	return nil
}

// unpack reads a backup into dir: the manifest first, then exactly the
// files it lists, nothing else.
func unpack(r io.Reader, dir string) (manifest, error) {
	var m manifest
	zr, err := gzip.NewReader(r)
	if err != nil {
		return m, fmt.Errorf("not a paiju backup: %w", err)
	}
	tr := tar.NewReader(zr)
	h, err := tr.Next()
	if err != nil || h.Name != backupManifest {
		return m, fmt.Errorf("not a paiju backup: no %s first", backupManifest)
	}
	dec := json.NewDecoder(io.LimitReader(tr, backupMaxManifest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("manifest: %w", err)
	}
	if m.Format != backupFormat {
		return m, fmt.Errorf("backup format %d: this binary reads format %d", m.Format, backupFormat)
	}
	known := []string{backupStoreFile, backupProjFile, backupHeadFile}
	var got []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m, fmt.Errorf("read backup: %w", err)
		}
		if h.Typeflag != tar.TypeReg || !slices.Contains(known, h.Name) || !slices.Contains(m.Files, h.Name) || slices.Contains(got, h.Name) {
			return m, fmt.Errorf("unexpected entry %q in backup", h.Name)
		}
		if err := extract(tr, filepath.Join(dir, h.Name)); err != nil {
			return m, err
		}
		got = append(got, h.Name)
	}
	for _, f := range m.Files {
		if !slices.Contains(got, f) {
			return m, fmt.Errorf("backup is missing %s (truncated?)", f)
		}
	}
	if !slices.Contains(got, backupStoreFile) {
		return m, fmt.Errorf("backup has no %s", backupStoreFile)
	}
	return m, nil
}

func extract(r io.Reader, path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, backupFileMode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return fmt.Errorf("unpack %s: %w", filepath.Base(path), err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// checkRestored opens the unpacked store with its chain head, as serve
// will: Open refuses a log that does not hold the head. The last event must
// be the manifest's head.
func checkRestored(ctx context.Context, dir string, m manifest) error {
	c := Common{Data: dir}
	st, err := sqlite.Open(ctx, c.DBPath(), sqlite.Options{HeadFile: c.HeadPath(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return fmt.Errorf("restored store: %w", err)
	}
	pos, hash, err := st.Head(ctx)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("restored store: %w", err)
	}
	if pos != m.ChainHead.Position || hash != m.ChainHead.Hash {
		return fmt.Errorf("restored store ends at %d %s, the manifest says %d %s", pos, hash, m.ChainHead.Position, m.ChainHead.Hash)
	}
	return nil
}
