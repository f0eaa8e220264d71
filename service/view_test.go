package service_test

import (
	"fmt"
	"reflect"
	"testing"

	"paiju/domain/table"
	"paiju/service"
)

// TestVisibleEventsAfterAnyVersion holds VisibleEventsTo,
// which look only at the events past the version asked, to what a scan of
// the whole table gives: for every version asked, every seat, the
// spectator and the auditor, reading ended deals or not, on random tables
// of every game (deals that end, void, and run).
func TestVisibleEventsAfterAnyVersion(t *testing.T) {
	for _, gv := range allVariants() {
		t.Run(gv.game+"/"+gv.variant, func(t *testing.T) {
			rt := newRandomTable(t, gv, 77)
			for range 120 {
				rt.step(nil)
			}
			l := &service.Loaded{State: rt.st}
			for i, p := range rt.events {
				l.Events = append(l.Events, service.Recorded{Version: i + 1, Position: int64(i + 1), Type: fmt.Sprintf("%T", p), Payload: p})
			}
			seats := []int{table.Auditor, table.Spectator}
			for seat := range gv.seats {
				seats = append(seats, seat)
			}
			for after := 0; after <= len(l.Events)+1; after++ {
				for _, seat := range seats {
					for _, reveal := range []bool{true, false} {
						got, want := service.VisibleEventsTo(l, seat, after, reveal), visibleByScan(l, seat, after, reveal)
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("seat %d after %d reveal %v: %d events, the whole scan gives %d", seat, after, reveal, len(got), len(want))
						}
					}
				}
			}
		})
	}
}

// visibleByScan is VisibleEventsTo as a scan of every event of the table.
func visibleByScan(l *service.Loaded, seat, after int, reveal bool) []service.Recorded {
	ended := make([]bool, len(l.Events))
	if reveal {
		over := false
		for i := len(l.Events) - 1; i >= 0; i-- {
			if table.DealEnded(l.Events[i].Payload) {
				over = true
			}
			ended[i] = over
			if _, ok := l.Events[i].Payload.(table.HandDealt); ok {
				over = true
			}
		}
	}
	var out []service.Recorded
	for i, r := range l.Events {
		if r.Version <= after {
			continue
		}
		p := table.Redact(l.State.Rules, r.Payload, seat, ended[i])
		if p == nil {
			continue
		}
		if !reveal {
			p = service.WithoutSeed(p)
		}
		r.Payload = p
		out = append(out, r)
	}
	return out
}
