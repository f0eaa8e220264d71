package shengji

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// opened is when the clock tables of these tests open; deadlines count from
// recorded times.
var opened = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

// clockTable opens r's table with a turn clock that never delegates, four
// players seated.
func clockTable(t *testing.T, r *Rules) (*table.State, table.SeedSource) {
	t.Helper()
	st, seeds := table.New(r.untyped()), &gametest.SeedSeq{ID: 35}
	evs, err := table.OpenWith(r.untyped(), table.Opening{ID: "t", Game: "shengji", Variant: r.v.name, Stake: 1, OpenedBy: "p0", Clock: &table.Clock{TurnSeconds: 10}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		table.ApplyAt(st, e, opened)
	}
	for i := range seats {
		evs, err := table.Join(st, fmt.Sprint("p", i), "", -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			table.ApplyAt(st, e, opened)
		}
	}
	return st, seeds
}

// timeOutAll runs the clock out for the first awaited seat, again and again,
// until the table closes or has recorded limit events; it returns the types
// of the events the timeouts made.
func timeOutAll(t *testing.T, st *table.State, seeds table.SeedSource, limit int) []string {
	t.Helper()
	var types []string
	for !st.Closed && len(types) < limit {
		seat := slices.IndexFunc(st.Waiting, func(w bool) bool { return w })
		if seat < 0 {
			t.Fatalf("nobody awaited after %v", types)
		}
		deadline, _ := st.Deadline(seat)
		evs, err := table.Timeout(st, seat, deadline, seeds)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			table.ApplyAt(st, e, deadline)
			types = append(types, e.EventType())
		}
	}
	return types
}

// In guafeng's and qiangbao's first hand a timed-out seat never declares
// (rules README, Clocks, timeouts and absent players: a timeout passes
// wherever passing is legal), so a deal of timeouts alone closes its window
// with nobody declared and is dealt again (seed 003: 第一局無人亮主，則須重新
// 發牌; shengji.md, qiangbao: first hand with nobody showing, re-deal); after
// 3 such deals in a row the table closes with reason abandoned, nothing
// settled. ningyang, whose timeouts play every hand out, is never abandoned.
func TestAbsentFirstHandsAbandoned(t *testing.T) {
	for _, variant := range []string{"guafeng", "qiangbao"} {
		t.Run(variant, func(t *testing.T) {
			st, seeds := clockTable(t, variantRules(t, variant, ""))
			types := timeOutAll(t, st, seeds, 2000)
			if !st.Closed {
				t.Fatalf("%d events of timeouts and the table is open", len(types))
			}
			if slices.Contains(types, "TrumpDeclared") || slices.Contains(types, "HandSettled") {
				t.Fatalf("a timeout declared, or a hand settled: %v", types)
			}
			n := 0
			for _, ty := range types {
				if ty == "DealVoided" {
					n++
				}
			}
			if n != 3 || types[len(types)-1] != "TableClosed" || st.Hand != 1 || st.Last != nil {
				t.Fatalf("%d deals thrown in, last event %s, hand %d; want 3 deals of hand 1 then TableClosed", n, types[len(types)-1], st.Hand)
			}
		})
	}
	if a := variantRules(t, "ningyang", "").AbandonAfter(); a != 0 {
		t.Fatalf("ningyang abandons after %d deals", a)
	}
}

// Tables opened under guafeng/1, guafeng/2 and qiangbao/1 replay as
// recorded: a seat timing out in a first hand's window with nothing
// declared declares when it can, and no table is abandoned (doc.go, Rules
// versions).
func TestTimeoutDeclaresOldVersions(t *testing.T) {
	for _, tc := range []struct{ version, variant string }{
		{"shengji/guafeng/1", "guafeng"}, {"shengji/guafeng/2", "guafeng"}, {"shengji/qiangbao/1", "qiangbao"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			r := rulesAt(t, tc.version, tc.variant)
			if r.AbandonAfter() != 0 {
				t.Fatalf("%s abandons tables", tc.version)
			}
			st, seeds := clockTable(t, r)
			types := timeOutAll(t, st, seeds, 600)
			if !slices.Contains(types, "TrumpDeclared") || st.Closed {
				t.Fatalf("%s: timeouts alone declared nothing (or closed the table): %v", tc.version, types)
			}
		})
	}
}
