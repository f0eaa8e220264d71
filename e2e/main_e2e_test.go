package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"paiju/internal/race"
)

// The tests that run paiju as a process (a crash, a failover, the cluster)
// share one binary: PAIJU_BIN when set (make builds bin/paiju once for
// every stage), or one built here, once per test binary, on first use.
var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// sequentialSkipsUnderRace skips a test whose work is one sequence of
// steps (a script against the server, files checked by two verifiers):
// the race detector can find nothing there that the race pass's tests of
// things side by side do not, and slows it tenfold. make test runs it in
// full in its pass without -race.
func sequentialSkipsUnderRace(t *testing.T) {
	t.Helper()
	if race.Enabled {
		t.Skip("one sequence of steps: runs in full in make test's pass without -race")
	}
}

// paijuBin is the path of the paiju binary under test.
func paijuBin(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if p := os.Getenv("PAIJU_BIN"); p != "" {
			binPath, binErr = filepath.Abs(p)
			return
		}
		if binDir, binErr = os.MkdirTemp("", "paiju-e2e-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "paiju")
		if out, err := exec.Command("go", "build", "-o", binPath, "..").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}
