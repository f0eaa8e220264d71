package audit_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
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

func rulesOf(o table.TableOpened) (table.Rules, error) {
	return doudizhu.New().Rules(o.Variant, o.Options)
}

// recordGame plays hands of random legal actions (with an occasional escape)
// and returns the stream as the store would hold it.
func recordGame(t testing.TB, seed uint64, hands int) []eventstore.Event {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	seeds := pcgSeeds{rand.New(rand.NewPCG(seed, 100))}
	r, err := doudizhu.New().Rules("classic", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := table.New(r)
	var out []eventstore.Event
	record := func(evs []table.Payload) {
		for _, e := range evs {
			data, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			table.Apply(st, e)
			out = append(out, eventstore.Event{Stream: "table-T", Version: st.Version, Type: e.EventType(), Data: data})
		}
	}
	evs, err := table.Open(r, "T", "doudizhu", "classic", 2, "p0")
	if err != nil {
		t.Fatal(err)
	}
	record(evs)
	players := []string{"p0", "p1", "p2"}
	joined := 3
	for seat, p := range players {
		evs, err := table.Join(st, p, p, seat, seeds)
		if err != nil {
			t.Fatal(err)
		}
		record(evs)
	}
	for settled := 0; settled < hands; {
		if !st.InDeal {
			joined++
			p := "p" + string(rune('0'+joined%10))
			evs, err := table.Join(st, p+string(rune('a'+joined/10)), p, -1, seeds)
			if err != nil {
				t.Fatal(err)
			}
			record(evs)
			continue
		}
		turn := r.View(st.G, table.Auditor).Turn
		seat := *turn
		legal := table.Legal(st, seat)
		a := legal[rng.IntN(len(legal)-1)] // the last one is escape
		if rng.IntN(300) == 0 {
			a = legal[len(legal)-1]
		}
		evs, err := table.Act(st, seat, a, seeds)
		if err != nil {
			t.Fatalf("seat %d legal action %v rejected: %v", seat, a, err)
		}
		record(evs)
		for _, e := range evs {
			if _, ok := e.(table.HandSettled); ok {
				settled++
			}
		}
	}
	return out
}

// TestRandomGamesVerify: every stream of random legal play verifies.
func TestRandomGamesVerify(t *testing.T) {
	for seed := range uint64(20) {
		evs := recordGame(t, seed, 10)
		rep, err := audit.VerifyTable(rulesOf, evs)
		if err != nil {
			t.Fatalf("seed %d: a legal game fails verification: %v", seed, err)
		}
		if rep.Deals < 10 {
			t.Fatalf("seed %d: %d deals recomputed, want ≥ 10", seed, rep.Deals)
		}
	}
}

func firstIndex(evs []eventstore.Event, typ string, from int) int {
	for i := from; i < len(evs); i++ {
		if evs[i].Type == typ {
			return i
		}
	}
	return -1
}

// withStake rewrites the stream's TableOpened with stake.
func withStake(evs []eventstore.Event, stake int) []eventstore.Event {
	var o table.TableOpened
	json.Unmarshal(evs[0].Data, &o)
	o.Stake = stake
	evs[0].Data, _ = json.Marshal(o)
	return evs
}

// TestTamperingIsFound changes recorded streams the ways a cheat would and
// checks the verifier names the event.
func TestTamperingIsFound(t *testing.T) {
	clean := recordGame(t, 42, 3)
	cases := []struct {
		name   string
		tamper func(evs []eventstore.Event) ([]eventstore.Event, int) // returns the version that must be named
		reason string
	}{
		{"a play changed to other cards", func(evs []eventstore.Event) ([]eventstore.Event, int) {
			i := firstIndex(evs, "CardsPlayed", 0)
			var p doudizhu.CardsPlayed
			json.Unmarshal(evs[i].Data, &p)
			p.Cards[0] = cards.Card{Suit: (p.Cards[0].Suit + 1) % 4, Rank: p.Cards[0].Rank}
			if p.Cards[0].Rank > cards.Ace {
				p.Cards[0] = cards.MustParse("S3")[0]
			}
			evs[i].Data, _ = json.Marshal(p)
			return evs, evs[i].Version
		}, "reject"},
		{"a settlement changed", func(evs []eventstore.Event) ([]eventstore.Event, int) {
			i := firstIndex(evs, "HandSettled", 0)
			var s table.HandSettled
			json.Unmarshal(evs[i].Data, &s)
			s.Deltas[0] += 2
			s.Deltas[1] -= 2
			evs[i].Data, _ = json.Marshal(s)
			return evs, evs[i].Version
		}, "differs"},
		{"a seed swapped", func(evs []eventstore.Event) ([]eventstore.Event, int) {
			i := firstIndex(evs, "HandSettled", 0)
			var s table.HandSettled
			json.Unmarshal(evs[i].Data, &s)
			s.Seed = strings.Repeat("ab", 32)
			evs[i].Data, _ = json.Marshal(s)
			return evs, evs[i].Version
		}, "commitment"},
		{"a dealt card changed", func(evs []eventstore.Event) ([]eventstore.Event, int) {
			i := firstIndex(evs, "HandDealt", 0)
			var d table.HandDealt
			json.Unmarshal(evs[i].Data, &d)
			d.Hands[0][0], d.Hands[1][0] = d.Hands[1][0], d.Hands[0][0]
			evs[i].Data, _ = json.Marshal(d)
			return evs, evs[i].Version
		}, "differs"},
		// rules/README.md, Stakes and settlement: the streams, which
		// re-executed exactly because the rules wrapped the same way.
		{"a stake of 2^62 (an escape settles [0,0,0])", func(evs []eventstore.Event) ([]eventstore.Event, int) {
			return withStake(evs, 1<<62), 1
		}, "out of bounds"},
		{"a stake one above MaxStake", func(evs []eventstore.Event) ([]eventstore.Event, int) {
			return withStake(evs, table.MaxStake+1), 1
		}, "out of bounds"},
		{"a settlement where everyone loses (the sum wraps)", func(evs []eventstore.Event) ([]eventstore.Event, int) {
			i := firstIndex(evs, "HandSettled", 0)
			var s table.HandSettled
			json.Unmarshal(evs[i].Data, &s)
			s.Deltas = []int{-1 << 62, math.MinInt64, -1 << 62}
			evs[i].Data, _ = json.Marshal(s)
			return evs, evs[i].Version
		}, "beyond"},
		{"a settlement beyond stake × MaxMultiplier", func(evs []eventstore.Event) ([]eventstore.Event, int) {
			i := firstIndex(evs, "HandSettled", 0)
			var s table.HandSettled
			json.Unmarshal(evs[i].Data, &s)
			over := 2*table.MaxMultiplier + 1 // the stream's stake is 2
			s.Deltas = []int{-over, over - 1, 1}
			evs[i].Data, _ = json.Marshal(s)
			return evs, evs[i].Version
		}, "beyond"},
		{"an event removed", func(evs []eventstore.Event) ([]eventstore.Event, int) {
			i := firstIndex(evs, "PlayPassed", 0)
			v := evs[i].Version
			evs = append(evs[:i], evs[i+1:]...)
			return evs, v
		}, "version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			evs := make([]eventstore.Event, len(clean))
			copy(evs, clean)
			for i := range evs {
				evs[i].Data = append([]byte(nil), clean[i].Data...)
			}
			evs, version := tc.tamper(evs)
			_, err := audit.VerifyTable(rulesOf, evs)
			var f *audit.Fault
			if !errors.As(err, &f) {
				t.Fatalf("tampered stream: got %v, want a fault", err)
			}
			if f.Version != version || !strings.Contains(f.Reason, tc.reason) {
				t.Fatalf("fault %v, want version %d with %q in the reason", f, version, tc.reason)
			}
		})
	}
}
