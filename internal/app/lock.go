package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// lockFileName is the data directory's lock file; it holds the pid of the
// process that has the directory.
const lockFileName = "lock"

// dataLock is an exclusive hold on a data directory. Two servers on one
// directory would each append to the store from their own cache and serve
// diverging tables, so every command that writes there takes it first.
//
// It is an flock(2) on the lock file: the kernel drops it when the process
// dies however it dies, so a crash never leaves a stale lock behind, and it
// is per open file, so two holders in one process exclude each other too.
type dataLock struct {
	f *os.File
}

// lockDataDir takes dir's lock, creating dir if needed, or fails at once
// naming the process that holds it.
func lockDataDir(dir string) (*dataLock, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	path := filepath.Join(dir, lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("data directory lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("data directory %s is in use by %s (lock file %s); stop it first", dir, holder(f), path)
		}
		return nil, fmt.Errorf("data directory lock %s: %w", path, err)
	}
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt(pid, 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("data directory lock %s: write pid: %w", path, err)
	}
	return &dataLock{f: f}, nil
}

// holder names the process in a lock file someone else holds.
func holder(f *os.File) string {
	b, err := os.ReadFile(f.Name())
	pid := strings.TrimSpace(string(b))
	if err != nil || pid == "" {
		return "another process" // it has the lock but has not written its pid yet
	}
	return "process " + pid
}

// Release gives the directory up. The pid is cleared first so that nobody
// reads a stale one; the close drops the lock.
func (l *dataLock) Release() {
	_ = l.f.Truncate(0)
	_ = l.f.Close()
}
