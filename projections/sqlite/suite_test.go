package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"paiju/projections"
	"paiju/projections/projectionstest"
)

// openSuite opens a projections file in t's temporary directory; again
// opens it once more, as a second process would.
func openSuite(t testing.TB, now func() time.Time) (projectionstest.DB, func() projectionstest.DB) {
	t.Helper()
	loc, err := time.LoadLocation(projections.DefaultLocation)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "projections.db")
	open := func() projectionstest.DB {
		t.Helper()
		db, err := Open(context.Background(), path, Options{Location: loc, Now: now, Rater: projectionstest.Rater()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	return open(), open
}

func TestConformance(t *testing.T) { projectionstest.Run(t, openSuite) }

// BenchmarkSuiteApplyBatch measures batched apply on the conformance
// suite's random log of 50 tables, the figure projections/postgres reports
// too.
func BenchmarkSuiteApplyBatch(b *testing.B) { projectionstest.BenchApplyBatch(b, openSuite) }

// BenchmarkSuiteApplyBatches measures batched apply with the four
// projections in one transaction a batch, as the feed applies them.
func BenchmarkSuiteApplyBatches(b *testing.B) { projectionstest.BenchApplyBatches(b, openSuite) }

// BenchmarkSuiteApplyBatchesPageFeed is BenchmarkSuiteApplyBatches with a
// single node's batches (projections.PageFeedBatch).
func BenchmarkSuiteApplyBatchesPageFeed(b *testing.B) {
	projectionstest.BenchApplyBatchesPageFeed(b, openSuite)
}

// BenchmarkSuiteApplyBatchesLongHands is BenchmarkSuiteApplyBatches on
// hands as long as the games'.
func BenchmarkSuiteApplyBatchesLongHands(b *testing.B) {
	projectionstest.BenchApplyBatchesLongHands(b, openSuite)
}

// BenchmarkSuiteApplyBatchByProjection measures each projection alone.
func BenchmarkSuiteApplyBatchByProjection(b *testing.B) {
	projectionstest.BenchApplyBatchByProjection(b, openSuite)
}

// BenchmarkSuiteApplyBatchOneTable measures batched apply on one table of
// short hands.
func BenchmarkSuiteApplyBatchOneTable(b *testing.B) {
	projectionstest.BenchApplyBatchOneTable(b, openSuite)
}

// BenchmarkSuiteApplyBatchLongHands measures batched apply on hands as long
// as the games'.
func BenchmarkSuiteApplyBatchLongHands(b *testing.B) {
	projectionstest.BenchApplyBatchLongHands(b, openSuite)
}

// BenchmarkSuiteApplyBatchConcurrent measures batched apply with the three
// projections applied at once, as the feed applies them.
func BenchmarkSuiteApplyBatchConcurrent(b *testing.B) {
	projectionstest.BenchApplyBatchConcurrent(b, openSuite)
}

func BenchmarkSuiteApplyTournaments(b *testing.B) {
	projectionstest.BenchApplyTournaments(b, openSuite)
}
