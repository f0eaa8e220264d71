package audit_test

import (
	"bytes"
	"testing"

	"paiju/audit"
)

// BenchmarkVerifyExport measures paiju verify FILE's work on a 30-hand table
// of 斗地主: parsing, hashing and re-deciding every event. It reports
// events/s.
func BenchmarkVerifyExport(b *testing.B) {
	evs, head := chain(recordGame(b, 5, 30))
	file := exportOf(b, evs, head)
	b.SetBytes(int64(len(file)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := audit.VerifyExport(rulesOf, bytes.NewReader(file)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(evs))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
