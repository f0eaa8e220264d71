package e2e

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"paiju/eventstore"
	"paiju/eventstore/postgres"
	"paiju/eventstore/sqlite"
	"paiju/internal/pgtest"
)

// clusterStore is the cluster test's event store: a PostgreSQL database of
// its own (pgtest) that every node names with --store or, with
// PAIJU_CLUSTER_STORE=sqlite (one node only: a baseline for the figures),
// the SQLite store in that node's data directory.
type clusterStore struct {
	url       string
	sqliteDir string
}

func newClusterStore(t *testing.T) *clusterStore {
	t.Helper()
	switch k := os.Getenv("PAIJU_CLUSTER_STORE"); k {
	case "", "postgres":
		return &clusterStore{url: pgtest.NewDatabase(t)}
	case "sqlite":
		return &clusterStore{sqliteDir: t.TempDir()}
	default:
		t.Fatalf("PAIJU_CLUSTER_STORE=%q: want postgres (the default) or sqlite", k)
		return nil
	}
}

// serveArgs are the flags a node needs to use the store (given after the
// node's own --data, so that SQLite's wins).
func (s *clusterStore) serveArgs() []string {
	if s.sqliteDir != "" {
		return []string{"--data", s.sqliteDir}
	}
	return []string{"--store", s.url}
}

// readAll opens the store as another node would and reads its whole log.
func (s *clusterStore) readAll(ctx context.Context) ([]eventstore.Event, error) {
	var (
		st  eventstore.Store
		err error
	)
	if s.sqliteDir != "" {
		st, err = sqlite.Open(ctx, filepath.Join(s.sqliteDir, "paiju.db"), sqlite.Options{Logger: slog.New(slog.DiscardHandler)})
	} else {
		st, err = postgres.Open(ctx, s.url, postgres.Options{Logger: slog.New(slog.DiscardHandler)})
	}
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return readAllEvents(ctx, st)
}

// verify runs `paiju verify` on the store, with the deployment's chain
// anchor in NATS, and returns its last line.
func (s *clusterStore) verify(t *testing.T, bin, natsURLs string) string {
	t.Helper()
	args := []string{"verify", "--store", s.url, "--nats-url", natsURLs, "--cluster", clusterName}
	if s.sqliteDir != "" {
		args = []string{"verify", "--data", s.sqliteDir, "--nats-url", natsURLs, "--cluster", clusterName}
	}
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("paiju verify: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return "paiju verify: " + lines[len(lines)-1]
}
