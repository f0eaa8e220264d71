package audit_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"paiju/audit"
	"paiju/eventstore"
)

// chain gives a recorded stream the positions and hashes a store would,
// interleaved with events of another table every few events, and returns it
// with the global head.
func chain(evs []eventstore.Event) ([]eventstore.Event, audit.ChainHead) {
	var (
		prev string
		pos  int64
		out  []eventstore.Event
	)
	other := 0
	for i, e := range evs {
		if i%4 == 3 {
			other++
			pos++
			prev = eventstore.Hash(prev, "table-other", other, "Noise", []byte(`{}`))
		}
		pos++
		e.Position, e.PrevHash = pos, prev
		e.RecordedAt = time.Date(2026, 11, 29, 12, 0, 0, i, time.UTC)
		e.Hash = eventstore.Hash(e.PrevHash, e.Stream, e.Version, e.Type, e.Data)
		prev = e.Hash
		out = append(out, e)
	}
	return out, audit.ChainHead{Position: pos, Hash: prev}
}

func exportOf(t testing.TB, evs []eventstore.Event, head audit.ChainHead) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := audit.WriteExport(&b, evs, head, time.Date(2026, 11, 29, 13, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestExportRoundTrip: every export of random games reads back to the
// stored events byte for byte and verifies (docs/AUDIT.md, What paiju verify
// FILE checks).
func TestExportRoundTrip(t *testing.T) {
	for seed := range uint64(10) {
		evs, head := chain(recordGame(t, seed, 4))
		file := exportOf(t, evs, head)
		x, err := audit.ReadExport(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(x.Events) != len(evs) || x.Head == nil || x.Head.ChainHead != head {
			t.Fatalf("seed %d: read %d events and head %+v, wrote %d and %+v", seed, len(x.Events), x.Head, len(evs), head)
		}
		for i, e := range x.Events {
			w := evs[i]
			if e.Position != w.Position || e.Stream != w.Stream || e.Version != w.Version || e.Type != w.Type ||
				!bytes.Equal(e.Data, w.Data) || e.PrevHash != w.PrevHash || e.Hash != w.Hash || !e.RecordedAt.Equal(w.RecordedAt) {
				t.Fatalf("seed %d line %d: read %+v, wrote %+v", seed, i+1, e, w)
			}
		}
		rep, err := audit.VerifyExport(rulesOf, bytes.NewReader(file))
		if err != nil {
			t.Fatalf("seed %d: the export of a legal game fails: %v", seed, err)
		}
		if rep.Events != len(evs) || rep.Deals < 4 {
			t.Fatalf("seed %d: report %+v", seed, rep)
		}
	}
}

// TestExportCutBeforeRunningDeal: a player's export ends before the running
// deal's HandDealt, possibly inside the command that dealt it, and verifies.
func TestExportCutBeforeRunningDeal(t *testing.T) {
	evs, _ := chain(recordGame(t, 3, 2))
	cut := -1
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == "HandDealt" {
			cut = i
			break
		}
	}
	evs = evs[:cut]
	last := evs[len(evs)-1]
	rep, err := audit.VerifyExport(rulesOf, bytes.NewReader(exportOf(t, evs, audit.ChainHead{Position: last.Position, Hash: last.Hash})))
	if err != nil {
		t.Fatalf("an export cut before the running deal: %v", err)
	}
	if rep.Open {
		t.Fatalf("report %+v: no deal is running in the cut export", rep)
	}
}

// TestExportFaults changes export files the ways a cheat or an accident
// would, and checks the verifier names the line and event and why.
func TestExportFaults(t *testing.T) {
	evs, head := chain(recordGame(t, 7, 2))
	clean := exportOf(t, evs, head)
	lines := strings.Split(strings.TrimSuffix(string(clean), "\n"), "\n")
	find := func(typ string) int {
		for i, l := range lines {
			if strings.Contains(l, `"type":"`+typ+`"`) {
				return i
			}
		}
		t.Fatalf("no %s", typ)
		return -1
	}
	cases := []struct {
		name    string
		edit    func(ls []string) ([]string, int) // the line (from 1) that must be named
		version bool                              // the fault names an event
		reason  string
	}{
		{"a card changed", func(ls []string) ([]string, int) {
			i := find("CardsPlayed")
			ls[i] = strings.Replace(ls[i], `"cards":["`, `"cards":["X`, 1)
			return ls, i + 1
		}, true, "hash"},
		{"a line removed", func(ls []string) ([]string, int) {
			i := find("PlayPassed")
			return append(ls[:i], ls[i+1:]...), i + 1
		}, true, "missing"},
		{"two lines swapped", func(ls []string) ([]string, int) {
			i := find("BidMade")
			ls[i], ls[i+1] = ls[i+1], ls[i]
			return ls, i + 1
		}, true, "missing"},
		{"not JSON", func(ls []string) ([]string, int) {
			ls[2] = ls[2][:10]
			return ls, 3
		}, false, "JSON"},
		{"an unknown field", func(ls []string) ([]string, int) {
			ls[1] = strings.Replace(ls[1], `{"position"`, `{"extra":1,"position"`, 1)
			return ls, 2
		}, false, "unknown field"},
		{"the head miscounts", func(ls []string) ([]string, int) {
			n := len(ls) - 1
			ls[n] = strings.Replace(ls[n], `"events":`, `"events":1`, 1)
			return ls, n + 1
		}, false, "events"},
		{"a line after the head", func(ls []string) ([]string, int) {
			return append(ls, ls[1]), len(ls) + 1
		}, false, "last"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ls, line := tc.edit(append([]string(nil), lines...))
			_, err := audit.VerifyExport(rulesOf, strings.NewReader(strings.Join(ls, "\n")+"\n"))
			var f *audit.ExportFault
			if !errors.As(err, &f) || !errors.Is(err, audit.ErrFault) {
				t.Fatalf("got %v, want an export fault", err)
			}
			if f.Line != line || (f.Version > 0) != tc.version || !strings.Contains(f.Reason, tc.reason) {
				t.Fatalf("fault %v (line %d, event %d), want line %d with %q in the reason", f, f.Line, f.Version, line, tc.reason)
			}
		})
	}
}
