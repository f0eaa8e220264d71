// Package linearcheck checks a load run's history (loadtest.Op) for
// linearizability with porcupine, one table at a time.
//
// The model is a table whose version advances with each accepted command,
// every command naming the version it expects (If-Match):
//
//   - ok at version v: the table was at the expected version and is at v
//     after it (v beyond the expected version);
//   - stale (412): the table was not at the expected version;
//   - refused otherwise: nothing changed (the check says nothing more: a
//     refusal may come before the version is compared);
//   - unknown: the command may have taken effect, at any moment after its
//     invocation, or never. If it did, the table is at some version past
//     the expected one that no answer gave, which the next accepted
//     command's expected version pins down.
//
// Only the load's clients write to the tables (no turn clock, no bot), so
// any version the history cannot explain is a fault of the server: a lost
// update, a command applied twice, an answer that was not the truth.
package linearcheck

import (
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/anishathalye/porcupine"

	"paiju/loadtest"
)

// state is the table's version as far as the history tells: exactly at,
// or (past) some version beyond at that no answer gave.
type state struct {
	at   int
	past bool
}

type input struct {
	expected int
	key      string
}

type output struct {
	outcome loadtest.Outcome
	version int
}

// model is the table of the package comment.
var model = porcupine.NondeterministicModel{
	Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
		by := map[string][]porcupine.Operation{}
		var order []string
		for _, op := range h {
			t := op.Metadata.(string)
			if _, ok := by[t]; !ok {
				order = append(order, t)
			}
			by[t] = append(by[t], op)
		}
		parts := make([][]porcupine.Operation, 0, len(order))
		for _, t := range order {
			parts = append(parts, by[t])
		}
		return parts
	},
	Init: func() []any { return []any{state{}} },
	Step: func(st, in, out any) []any {
		s, i, o := st.(state), in.(input), out.(output)
		// matches: the table may be at the expected version.
		matches := s.at == i.expected && !s.past || s.past && i.expected > s.at
		switch o.outcome {
		case loadtest.OutcomeOK:
			if matches && o.version > i.expected {
				return []any{state{at: o.version}}
			}
			return nil
		case loadtest.OutcomeStale:
			// A table past some version may be at any later one.
			if s.past || s.at != i.expected {
				return []any{s}
			}
			return nil
		case loadtest.OutcomeUnknown:
			if matches {
				return []any{s, state{at: i.expected, past: true}}
			}
			return []any{s}
		default:
			return []any{s}
		}
	},
	DescribeOperation: func(in, out any) string {
		i, o := in.(input), out.(output)
		if o.outcome == loadtest.OutcomeOK {
			return fmt.Sprintf("act @%d → v%d (%s)", i.expected, o.version, i.key)
		}
		return fmt.Sprintf("act @%d → %s (%s)", i.expected, o.outcome, i.key)
	},
	DescribeState: func(st any) string {
		s := st.(state)
		if s.past {
			return fmt.Sprintf("past v%d", s.at)
		}
		return fmt.Sprintf("v%d", s.at)
	},
	DescribeOperationMetadata: func(m any) string { return "table " + m.(string) },
}

// Result is a history's check.
type Result struct {
	// Tables and Ops are the histories checked and their commands;
	// Unknown the commands whose outcome the clients never learnt.
	Tables, Ops, Unknown int
	// Linearizable is porcupine's verdict: Ok, Illegal or Unknown (it
	// ran out of time).
	Linearizable porcupine.CheckResult
	info         porcupine.LinearizationInfo
}

// Check checks every table's history in ops, within timeout (0: none).
// The tables start at version opened, the version of a table the load's
// set-up left it at, which each table's first command names.
func Check(ops []loadtest.Op, timeout time.Duration) Result {
	var r Result
	if len(ops) == 0 {
		r.Linearizable = porcupine.Ok
		return r
	}
	start := slices.MinFunc(ops, func(a, b loadtest.Op) int { return a.Invoke.Compare(b.Invoke) }).Invoke
	first := map[string]int{}
	h := make([]porcupine.Operation, 0, len(ops))
	for _, op := range ops {
		if v, ok := first[op.Table]; !ok || op.Invoke.Before(ops[v].Invoke) {
			first[op.Table] = len(h)
		}
		ret := int64(math.MaxInt64)
		if op.Outcome == loadtest.OutcomeUnknown {
			r.Unknown++
		} else {
			ret = op.Complete.Sub(start).Nanoseconds()
		}
		h = append(h, porcupine.Operation{
			ClientId: op.Client, Metadata: op.Table,
			Input: input{expected: op.Expected, key: op.Key}, Output: output{outcome: op.Outcome, version: op.Version},
			Call: op.Invoke.Sub(start).Nanoseconds(), Return: ret,
		})
	}
	r.Tables, r.Ops = len(first), len(ops)
	// Each table's history starts where its set-up left it: at the
	// version its first command expects. The model's Init is one state
	// for every table, so each table's first command is preceded by an
	// invented one that took the table there from 0, before anything
	// else.
	for t, i := range first {
		h = append(h, porcupine.Operation{
			ClientId: h[i].ClientId, Metadata: t,
			Input: input{expected: 0, key: "set-up"}, Output: output{outcome: loadtest.OutcomeOK, version: h[i].Input.(input).expected},
			Call: -2, Return: -1,
		})
	}
	r.Linearizable, r.info = porcupine.CheckOperationsVerbose(model.ToModel(), h, timeout)
	return r
}

// Visualize writes porcupine's HTML view of the histories, the longest
// linearizable prefix of each marked.
func (r Result) Visualize(w io.Writer) error {
	return porcupine.Visualize(model.ToModel(), r.info, w)
}
