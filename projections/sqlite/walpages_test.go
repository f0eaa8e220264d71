package sqlite

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"testing"

	"paiju/projections"
	"paiju/projections/projectionstest"
)

var walPages = flag.Bool("walpages", false, "TestWALPages: report the pages each projection's batch changes, by table and index")

// TestWALPages reports, with -walpages, how many pages of each b-tree (a
// table or an index) a batch of 256 events changes, by projection, on the
// random log of BenchmarkSuiteApplyBatch: each is a WAL frame its commit
// writes (docs/PERF.md). It compares every page before and after ten
// batches of the middle of a 25,600-event log.
func TestWALPages(t *testing.T) {
	if !*walPages {
		t.Skip("-walpages not set")
	}
	ctx := context.Background()
	l := projectionstest.RandomLog(5, 50, 25600)
	dbi, _ := openSuite(t, l.Now)
	d := dbi.(*DB)
	snap := func() map[string]map[int64]string {
		rows, err := d.wdb.QueryContext(ctx, `SELECT s.name, s.pageno, p.data FROM dbstat s JOIN sqlite_dbpage p ON p.pgno = s.pageno`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		m := map[string]map[int64]string{}
		for rows.Next() {
			var name string
			var page int64
			var data []byte
			if err := rows.Scan(&name, &page, &data); err != nil {
				t.Fatal(err)
			}
			if m[name] == nil {
				m[name] = map[int64]string{}
			}
			m[name][page] = string(data)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return m
	}
	const from, batches = 50, 10
	changed := map[string]map[string]int{}
	for i := 0; i < len(l.Events); i += 256 {
		page := l.Events[i:min(i+256, len(l.Events))]
		measure := i/256 >= from && i/256 < from+batches
		for _, n := range projections.Names {
			var before map[string]map[int64]string
			if measure {
				before = snap()
			}
			if _, err := d.ApplyBatch(ctx, n, page); err != nil {
				t.Fatal(err)
			}
			if measure {
				if changed[n] == nil {
					changed[n] = map[string]int{}
				}
				for name, pages := range snap() {
					for p, data := range pages {
						if before[name][p] != data {
							changed[n][name]++
						}
					}
				}
			}
		}
	}
	for _, n := range projections.Names {
		total := 0
		for _, c := range changed[n] {
			total += c
		}
		fmt.Printf("%s: %.1f pages a batch\n", n, float64(total)/batches)
		for _, name := range slices.Sorted(maps.Keys(changed[n])) {
			fmt.Printf("  %-40s %5.1f\n", name, float64(changed[n][name])/batches)
		}
	}
}
