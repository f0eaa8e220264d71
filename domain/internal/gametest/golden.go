package gametest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"paiju/domain/table"
)

// Event is one recorded event of a golden hand.
type Event struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// Record encodes evs as a golden hand records them.
func Record(t testing.TB, evs []table.Payload) []Event {
	t.Helper()
	out := make([]Event, len(evs))
	for i, e := range evs {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("encode %s: %v", e.EventType(), err)
		}
		out[i] = Event{Type: e.EventType(), Data: data}
	}
	return out
}

// Check compares the events a command of step produced with the events the
// golden hand records for it, byte for byte, and returns the recorded ones
// decoded through r: what the replay applies, so that decoding is tested too.
func Check(t testing.TB, r table.Rules, step int, got []table.Payload, want []Event) []table.Payload {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("step %d makes %v, the golden hand records %d events", step, EventTypes(got), len(want))
	}
	out := make([]table.Payload, len(got))
	for j, e := range got {
		enc, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, want[j].Data); err != nil {
			t.Fatalf("step %d event %d: %v", step, j, err)
		}
		if e.EventType() != want[j].Type || !bytes.Equal(enc, compact.Bytes()) {
			t.Fatalf("step %d event %d: rules make %s %s, the golden hand records %s %s",
				step, j, e.EventType(), enc, want[j].Type, compact.Bytes())
		}
		decoded, err := table.Decode(r, want[j].Type, want[j].Data)
		if err != nil {
			t.Fatalf("step %d: decode %s: %v", step, want[j].Type, err)
		}
		out[j] = decoded
	}
	return out
}

// WriteJSON writes v indented to path, creating its directory: how golden
// files are recorded under -update.
func WriteJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadJSON reads the golden file at path into v.
func ReadJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to record it)", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
