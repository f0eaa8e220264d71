package gametest

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"paiju/internal/cputime"
)

// ReportCPU reports cpu-ns/op: the CPU time an op since start (cputime.Now).
// On a machine others share, a benchmark's ns/op counts the time it waits
// for a core as well; the CPU time an op does not.
func ReportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(cputime.Now()-start)/float64(b.N), "cpu-ns/op")
}

var updatePositions = flag.Bool("positions", false, "rewrite the committed position sets (testdata/positions) from the programs that make them")

// CheckPositions compares the lines a fixed-seed program made with the
// committed file testdata/positions/<name>.txt, so that a benchmark set
// cannot drift from its program; -positions rewrites the file.
func CheckPositions(t *testing.T, name string, lines []string) {
	t.Helper()
	var buf bytes.Buffer
	for _, l := range lines {
		buf.WriteString(l)
		buf.WriteByte('\n')
	}
	path := PositionsFile(name)
	if *updatePositions {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, buf.Bytes()) {
		t.Fatalf("%s differs from the positions its fixed-seed program makes (-positions rewrites it)", path)
	}
}

// PositionsFile is the committed position set name.
func PositionsFile(name string) string {
	return filepath.Join("testdata", "positions", name+".txt")
}

// ReadPositions returns the lines of the committed position set name.
func ReadPositions(t testing.TB, name string) []string {
	t.Helper()
	f, err := os.Open(PositionsFile(name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
