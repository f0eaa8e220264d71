package shuangkou

import (
	"encoding/json"
	"errors"
	"testing"

	"paiju/audit"
	"paiju/domain/climb"
	"paiju/domain/table"
	"paiju/eventstore"
)

func rulesOfOpened(o table.TableOpened) (table.Rules, error) {
	return New().Rules(o.Variant, o.Options)
}

// recordTable plays hands of random legal actions on a table of variant and
// returns its stream as the store would hold it.
func recordTable(t *testing.T, variant string, seed uint64, hands int) []eventstore.Event {
	t.Helper()
	return recordTableOf(t, rulesFor(t, variant), seed, hands)
}

// recordTableOf is recordTable under r's options; the stream ends early
// when a match closes the table.
func recordTableOf(t *testing.T, r *Rules, seed uint64, hands int) []eventstore.Event {
	t.Helper()
	variant := r.v.name
	var out []eventstore.Event
	version := 0
	rec := func(evs []table.Payload) {
		for _, e := range evs {
			data, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			version++
			out = append(out, eventstore.Event{Stream: "table-" + variant, Version: version, Type: e.EventType(), Data: data})
		}
	}
	rt := newRecordedTable(t, r, seed, rec)
	for rt.Settled < hands {
		rt.Act()
		if rt.St.Closed {
			break // Step would open the next table into this stream
		}
		for !rt.St.Full() && !rt.St.InDeal {
			rt.Join()
		}
	}
	return out
}

// TestRecordedStreamsVerifyOptions: tables played under house rules
// (shuangkou.md, Table options) re-execute through audit.VerifyTable under
// the options their TableOpened records: RJ alone wild, 相 and the cap,
// and a match of "hands" that closes the table.
func TestRecordedStreamsVerifyOptions(t *testing.T) {
	for i, c := range []struct{ variant, raw string }{
		{"baibian", `{"wild":"big","bomb_bonus":true,"cap":6,"hands":2}`},
		{"classic", `{"wild":"all","bomb_bonus":true,"hands":3}`},
		{"baibian", `{"wild":"none","cap":3}`},
	} {
		evs := recordTableOf(t, rulesWith(t, c.variant, c.raw), uint64(200+i), 4)
		rep, err := audit.VerifyTable(rulesOfOpened, evs)
		if err != nil {
			t.Fatalf("%s %s: a legal stream fails verification: %v", c.variant, c.raw, err)
		}
		if rep.Deals < 2 {
			t.Fatalf("%s %s: %d deals recomputed, want ≥ 2", c.variant, c.raw, rep.Deals)
		}
	}
}

// TestRecordedStreamsVerify: streams of random legal hands of both variants
// re-execute through audit.VerifyTable (every play's recorded reading is
// reached again by Decide from the same position), and a changed reading is
// found.
func TestRecordedStreamsVerify(t *testing.T) {
	for _, variant := range []string{"baibian", "classic"} {
		for seed := range uint64(8) {
			evs := recordTable(t, variant, seed+100, 4)
			rep, err := audit.VerifyTable(rulesOfOpened, evs)
			if err != nil {
				t.Fatalf("%s seed %d: a legal stream fails verification: %v", variant, seed, err)
			}
			if rep.Deals < 4 {
				t.Fatalf("%s seed %d: %d deals recomputed, want ≥ 4", variant, seed, rep.Deals)
			}
		}
	}
	evs := recordTable(t, "baibian", 7, 2)
	for i, e := range evs {
		if e.Type != "CardsPlayed" {
			continue
		}
		var p CardsPlayed
		if err := json.Unmarshal(e.Data, &p); err != nil {
			t.Fatal(err)
		}
		if p.Reading.Type != Single || p.Reading.Main >= climb.Rank2 {
			continue
		}
		p.Reading.Main++ // a single read one rank higher than its card
		evs[i].Data, _ = json.Marshal(p)
		if _, err := audit.VerifyTable(rulesOfOpened, evs); !errors.Is(err, audit.ErrFault) {
			t.Fatalf("a play recorded with a changed reading verifies: %v", err)
		}
		return
	}
	t.Fatal("no single was played")
}
