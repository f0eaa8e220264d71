package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"paiju/internal/cli"
)

// readmeWalkthrough returns the shell blocks of README.md's "A whole hand
// with curl", without the ones that run paiju itself (go run …: the test
// runs the server, and verifies the export in process).
func readmeWalkthrough(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "## A whole hand with curl")
	if start < 0 {
		t.Fatal(`README.md has no section "A whole hand with curl"`)
	}
	doc = doc[start+1:]
	if end := strings.Index(doc, "\n## "); end >= 0 {
		doc = doc[:end]
	}
	var blocks []string
	for {
		i := strings.Index(doc, "```sh\n")
		if i < 0 {
			return blocks
		}
		doc = doc[i+len("```sh\n"):]
		j := strings.Index(doc, "```")
		if j < 0 {
			t.Fatal("README.md: a shell block is not closed")
		}
		if block := doc[:j]; !strings.HasPrefix(block, "go run ") {
			blocks = append(blocks, block)
		}
		doc = doc[j+3:]
	}
}

// TestReadmeWalkthrough runs the README's curl walk-through, block after
// block as a reader pastes them, against a server started as the README
// starts it: every step must work whoever the deal makes bid first, the
// out-of-turn bid is the only refusal, the hand is played to its
// settlement, and the exported log verifies.
func TestReadmeWalkthrough(t *testing.T) {
	sequentialSkipsUnderRace(t)
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the README walk-through needs %s, which is not installed (.ci/run installs it)", tool)
		}
	}
	blocks := readmeWalkthrough(t)
	if len(blocks) < 8 {
		t.Fatalf("found %d shell blocks in the walk-through; the section changed shape", len(blocks))
	}
	base, _, stop := startServer(t, t.TempDir(), "--auditor-token", "audit-secret")
	defer func() {
		if err := stop(); err != nil {
			t.Errorf("serve returned %v", err)
		}
	}()
	dir := t.TempDir()
	// A bound on a loop that would otherwise never end if the server kept
	// refusing; not an assertion on timing.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", "set -eo pipefail\n"+strings.Join(blocks, "\n"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "API="+base)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README walk-through failed: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{`"code":"not_your_turn"`, `"type":"LandlordChosen"`, `"deltas":`, `"seed":`, `"hand_id":`, `"rank":1`} {
		if !strings.Contains(out, want) {
			t.Errorf("the walk-through's output has no %s:\n%s", want, out)
		}
	}
	if n := strings.Count(out, `"code":`); n != 1 {
		t.Errorf("the walk-through met %d problems, want only the out-of-turn bid:\n%s", n, out)
	}
	var verify bytes.Buffer
	if err := cli.Run(context.Background(), []string{"verify", filepath.Join(dir, "table.jsonl")}, func(string) string { return "" }, &verify, &verify); err != nil {
		t.Fatalf("paiju verify table.jsonl, as the README says: %v\n%s", err, verify.String())
	}
}
