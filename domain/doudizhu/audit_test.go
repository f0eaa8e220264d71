package doudizhu_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"paiju/audit"
	"paiju/domain/cards"
	"paiju/domain/doudizhu"
	"paiju/domain/table"
	"paiju/eventstore"
)

type pcgSeeds struct{ r *rand.Rand }

func (p pcgSeeds) NewSeed() (cards.Seed, error) {
	var s cards.Seed
	for i := range s {
		s[i] = byte(p.r.Uint32())
	}
	return s, nil
}

// TestAuditVerifiesEveryVariant records tables of random legal play (an
// escape now and then; a match of 2 hands, an endless table, and one under
// table options) in every
// variant as the store would hold them, and has the auditor re-execute each
// stream command by command (DESIGN.md, Events record facts; audit).
func TestAuditVerifiesEveryVariant(t *testing.T) {
	t.Parallel()
	rulesOf := func(o table.TableOpened) (table.Rules, error) { return doudizhu.New().Rules(o.Variant, o.Options) }
	for _, variant := range []string{"classic", "hubei", "fourplayer"} {
		// The house rules (doudizhu.md, Table options) replay under the
		// recorded options: the doubling phase is re-decided word by word.
		house := `{"double":true,"cap":8,"spring":3,"show_counts":false}`
		if variant == "classic" {
			house = `{"double":true,"cap":8,"spring":3,"show_counts":false,"bomb_double":true}`
		}
		for i, opts := range []string{`{"hands":2}`, "", house} {
			name := fmt.Sprintf("%s/%d", variant, i)
			evs := record(t, variant, opts, uint64(i+1), 3)
			rep, err := audit.VerifyTable(rulesOf, evs)
			if err != nil {
				t.Fatalf("%s: a legal game fails verification: %v", name, err)
			}
			if rep.Deals < 2 {
				t.Fatalf("%s: %d deals verified", name, rep.Deals)
			}
		}
	}
}

// record plays until the table closes or hands hands are settled.
func record(t *testing.T, variant, opts string, seed uint64, hands int) []eventstore.Event {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	seeds := pcgSeeds{rand.New(rand.NewPCG(seed, 4))}
	r, err := doudizhu.New().Rules(variant, json.RawMessage(opts))
	if err != nil {
		t.Fatal(err)
	}
	st := table.New(r)
	var out []eventstore.Event
	rec := func(evs []table.Payload, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			data, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			table.Apply(st, e)
			out = append(out, eventstore.Event{Stream: "table-A", Version: st.Version, Type: e.EventType(), Data: data})
		}
	}
	rec(table.Open(r, "A", "doudizhu", variant, 2, "p0"))
	joined := 0
	opened := false
	for settled := 0; settled < hands && !st.Closed; {
		if !st.InDeal {
			joined++
			rec(table.Join(st, fmt.Sprint("p", joined), "", -1, seeds))
			continue
		}
		seat := *r.View(st.G, table.Auditor).Turn
		legal := table.Legal(st, seat)
		a := legal[rng.IntN(len(legal)-1)] // the last one is escape
		if l := legal[len(legal)-2]; l.Type == doudizhu.ActionOpen {
			a = l // 明牌, one action among many leads: always take it
		}
		if rng.IntN(150) == 0 {
			a = legal[len(legal)-1]
		}
		evs, err := table.Act(st, seat, a, seeds)
		rec(evs, err)
		for _, e := range evs {
			switch e.(type) {
			case table.HandSettled:
				settled++
			case doudizhu.HandOpened:
				opened = true
			}
		}
	}
	if variant != "classic" && !opened {
		t.Fatalf("%s: no hand was played open; the audit must see HandOpened", variant)
	}
	return out
}
