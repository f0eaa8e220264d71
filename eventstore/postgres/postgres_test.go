package postgres_test

import (
	"testing"
	"time"

	"paiju/eventstore/eventstoretest"
	"paiju/eventstore/postgres"
	"paiju/internal/pgtest"
)

func open(t testing.TB, url string, opts postgres.Options) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), url, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	t.Parallel()
	t.Run("default", func(t *testing.T) {
		eventstoretest.RunFull(t, func(t *testing.T) eventstoretest.FullStore {
			return open(t, pgtest.NewDatabase(t), postgres.Options{})
		})
	})
	// Small batches that wait for company: exercises the batch bound and the
	// timer path of group commit.
	t.Run("small batches", func(t *testing.T) {
		eventstoretest.RunFull(t, func(t *testing.T) eventstoretest.FullStore {
			return open(t, pgtest.NewDatabase(t), postgres.Options{MaxBatch: 3, MaxBatchWait: time.Millisecond})
		})
	})
}
