package linearcheck

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"paiju/loadtest"
)

// op is a command of table t invoked at call and answered at ret (ms after
// a fixed start; ret < 0: never answered).
func op(t string, client, expected, call, ret int, outcome loadtest.Outcome, version int) loadtest.Op {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	o := loadtest.Op{Table: t, Client: client, Key: "k", Expected: expected, Invoke: base.Add(time.Duration(call) * time.Millisecond), Outcome: outcome, Version: version}
	if ret >= 0 {
		o.Complete = base.Add(time.Duration(ret) * time.Millisecond)
	}
	return o
}

func TestCheck(t *testing.T) {
	ok, stale, refused, unknown := loadtest.OutcomeOK, loadtest.OutcomeStale, loadtest.OutcomeRefused, loadtest.OutcomeUnknown
	for _, c := range []struct {
		name string
		ops  []loadtest.Op
		want porcupine.CheckResult
	}{
		{"one client after another", []loadtest.Op{
			op("a", 0, 4, 0, 10, ok, 5), op("a", 0, 5, 11, 20, ok, 7), op("a", 0, 7, 21, 30, refused, 0),
			op("b", 1, 4, 0, 50, ok, 6),
		}, porcupine.Ok},
		{"a retry's replay answered after a stale refusal of another client", []loadtest.Op{
			op("a", 0, 4, 0, 100, ok, 5), op("a", 1, 4, 10, 20, stale, 0),
		}, porcupine.Ok},
		{"an unknown outcome that took effect, pinned by the next command", []loadtest.Op{
			op("a", 0, 4, 0, -1, unknown, 0), op("a", 0, 6, 50, 60, ok, 7),
		}, porcupine.Ok},
		{"an unknown outcome that did not take effect", []loadtest.Op{
			op("a", 0, 4, 0, -1, unknown, 0), op("a", 0, 4, 50, 60, ok, 5),
		}, porcupine.Ok},
		{"a lost update: two commands accepted at one version", []loadtest.Op{
			op("a", 0, 4, 0, 10, ok, 5), op("a", 1, 4, 20, 30, ok, 5),
		}, porcupine.Illegal},
		{"a stale refusal while the table was at the version named", []loadtest.Op{
			op("a", 0, 4, 0, 10, stale, 0), op("a", 0, 4, 20, 30, ok, 5),
		}, porcupine.Illegal},
		{"a version nobody wrote", []loadtest.Op{
			op("a", 0, 4, 0, 10, ok, 5), op("a", 0, 8, 20, 30, ok, 9),
		}, porcupine.Illegal},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.ops, 10*time.Second)
			if r.Linearizable != c.want {
				t.Fatalf("%v, want %v", r.Linearizable, c.want)
			}
			var b bytes.Buffer
			if err := r.Visualize(&b); err != nil || !strings.Contains(b.String(), "<html") {
				t.Fatalf("visualization: %v, %d bytes", err, b.Len())
			}
		})
	}
}
