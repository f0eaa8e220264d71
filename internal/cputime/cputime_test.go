package cputime_test

import (
	"testing"

	"paiju/internal/cputime"
)

// TestNowCountsWork: the reading grows with the CPU the process burns, and
// never runs backwards.
func TestNowCountsWork(t *testing.T) {
	start := cputime.Now()
	if start <= 0 {
		t.Fatalf("Now = %d at the start of a test, want the CPU time already used (> 0)", start)
	}
	x := uint64(1)
	for cputime.Now()-start < 5e6 { // 5 ms of CPU
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if end := cputime.Now(); end < start {
		t.Errorf("Now went back from %d to %d", start, end)
	}
	_ = x
}
