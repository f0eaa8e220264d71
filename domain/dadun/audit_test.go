package dadun

import (
	"encoding/json"
	"errors"
	"testing"

	"paiju/audit"
	"paiju/domain/table"
	"paiju/eventstore"
)

func rulesOfOpened(o table.TableOpened) (table.Rules, error) {
	return New().Rules(o.Variant, o.Options)
}

// recordTable plays hands of random legal actions and returns the table's
// stream as the store would hold it.
func recordTable(t *testing.T, seed uint64, hands int) []eventstore.Event {
	t.Helper()
	var out []eventstore.Event
	version := 0
	rec := func(evs []table.Payload) {
		for _, e := range evs {
			data, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			version++
			out = append(out, eventstore.Event{Stream: "table-dadun", Version: version, Type: e.EventType(), Data: data})
		}
	}
	rt := newRecordedTable(t, rulesFor(t), seed, rec)
	for rt.Settled < hands {
		rt.Step()
	}
	return out
}

// TestRecordedStreamsVerify: streams of random legal hands re-execute through
// audit.VerifyTable (every deal, turned card included, is recomputed from its
// revealed seed; every recorded reading is reached again by Decide), and a
// changed turned card or reading is found.
func TestRecordedStreamsVerify(t *testing.T) {
	for seed := range uint64(8) {
		evs := recordTable(t, seed+100, 4)
		rep, err := audit.VerifyTable(rulesOfOpened, evs)
		if err != nil {
			t.Fatalf("seed %d: a legal stream fails verification: %v", seed, err)
		}
		if rep.Deals < 4 {
			t.Fatalf("seed %d: %d deals recomputed, want ≥ 4", seed, rep.Deals)
		}
	}
	tamper := func(typ string, change func(data []byte) ([]byte, bool)) {
		t.Helper()
		evs := recordTable(t, 7, 2)
		for i, e := range evs {
			if e.Type != typ {
				continue
			}
			if data, ok := change(e.Data); ok {
				evs[i].Data = data
				if _, err := audit.VerifyTable(rulesOfOpened, evs); !errors.Is(err, audit.ErrFault) {
					t.Fatalf("a stream with a changed %s verifies: %v", typ, err)
				}
				return
			}
		}
		t.Fatalf("no %s to change", typ)
	}
	tamper("CardTurned", func(data []byte) ([]byte, bool) {
		var e CardTurned
		json.Unmarshal(data, &e)
		e.Banker = (e.Banker + 1) % seats
		b, _ := json.Marshal(e)
		return b, true
	})
	tamper("CardsPlayed", func(data []byte) ([]byte, bool) {
		var p CardsPlayed
		json.Unmarshal(data, &p)
		if p.Reading.Type != Single || p.Reading.Main >= 12 {
			return nil, false
		}
		p.Reading.Main++ // a single read one rank higher than its card
		b, _ := json.Marshal(p)
		return b, true
	})
}
