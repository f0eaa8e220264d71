package shuangkou

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/autoplaytest"
	"paiju/domain/table"
)

var autoSeeds = []uint64{1, 2, 3, 5}

func autoVariants(t testing.TB) []autoplaytest.Variant {
	var out []autoplaytest.Variant
	for _, name := range []string{"baibian", "classic"} {
		r, err := New().Rules(name, json.RawMessage(nil))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, autoplaytest.Variant{Game: "shuangkou", Name: name, Rules: r, Phases: []string{"playing"}, Policy: checkTimeoutPolicy})
	}
	return out
}

// autoVariantsOptions are autoVariants and tables with house rules
// (shuangkou.md, Table options): RJ alone wild with 相 and a cap, and
// classic with both jokers wild and 相. Timeouts and bots play under them
// too; the match of "hands" closes its table, which these drivers do not
// expect, and TestMatchPlaysOut plays it.
func autoVariantsOptions(t testing.TB) []autoplaytest.Variant {
	out := autoVariants(t)
	for _, c := range []struct{ variant, raw string }{
		{"baibian", `{"wild":"big","bomb_bonus":true,"cap":6}`},
		{"classic", `{"wild":"all","bomb_bonus":true}`},
	} {
		r, err := New().Rules(c.variant, json.RawMessage(c.raw))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, autoplaytest.Variant{Game: "shuangkou", Name: c.variant, Rules: r, Phases: []string{"playing"}, Policy: checkTimeoutPolicy})
	}
	return out
}

// checkTimeoutPolicy holds a timeout to doc.go's Turn clock: pass when
// following; a leader plays its lowest card as a single.
func checkTimeoutPolicy(t testing.TB, st *table.State, seat int, legal []table.Action, a table.Action) {
	t.Helper()
	hand := st.G.(*State).handCards(seat)
	if autoplaytest.Contains(legal, table.Action{Type: ActionPass}) {
		if a.Type != ActionPass {
			t.Fatalf("seat %d may pass but times out with %s (doc.go, Turn clock)", seat, a.Type)
		}
		return
	}
	if a.Type != ActionPlay || len(a.Cards) != 1 || a.Cards[0] != hand[0] {
		t.Fatalf("leader %d times out with %v, want its lowest card %s (doc.go, Turn clock)", seat, a, hand[0])
	}
}

// The play times out legally (shuangkou.md, Play; doc.go, Turn clock), and
// no seat off turn has a legal action (Driver.Hand checks that only
// awaited seats may act).
func TestTimeoutEveryPhase(t *testing.T) {
	for _, v := range autoVariantsOptions(t) {
		t.Run(v.Name, func(t *testing.T) { autoplaytest.TimeoutsEveryPhase(t, v, autoSeeds, 10) })
	}
}

func TestTimeoutHandsSettle(t *testing.T) {
	for _, v := range autoVariants(t) {
		t.Run(v.Name, func(t *testing.T) { autoplaytest.TimeoutHandsSettle(t, v, 7, 50) })
	}
}

func TestBotLegal(t *testing.T) {
	for _, v := range autoVariantsOptions(t) {
		t.Run(v.Name, func(t *testing.T) {
			if n := autoplaytest.BotLegal(t, v, autoSeeds, 10); n < 1000 {
				t.Fatalf("only %d positions checked", n)
			}
		})
	}
}

// reshuffle deals the other three hands again among their holders.
func reshuffle(gs table.GameState, seat int, rng *rand.Rand) (table.GameState, bool) {
	s := gs.Clone().(*State)
	var pool []cards.Card
	for i := range seats {
		if i != seat {
			pool = append(pool, s.hands[i].Cards()...)
		}
	}
	before := s.hands
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for i := range seats {
		if i == seat {
			continue
		}
		n := s.hands[i].Len()
		s.hands[i] = cards.Of(pool[:n])
		pool = pool[n:]
	}
	return s, s.hands != before
}

func TestBotHiddenInformation(t *testing.T) {
	for _, v := range autoVariantsOptions(t) {
		t.Run(v.Name, func(t *testing.T) { autoplaytest.HiddenInformation(t, v, reshuffle, autoSeeds[:2], 5) })
	}
}

// team is the bot's side: seats 0 and 2 in even hands, 1 and 3 in odd ones.
func team(h int) []int { return []int{h % 2, h%2 + 2} }

// A bot team against a random team wins a clearly larger share of hands
// (delta > 0) than a random team in the same seats, and a higher mean
// delta (shuangkou.md, Result).
func TestBotStrongerThanRandom(t *testing.T) {
	for _, v := range autoVariants(t) {
		t.Run(v.Name, func(t *testing.T) { autoplaytest.StrongerThanRandom(t, v, 11, 300, team, 20) })
	}
}

func BenchmarkBotVsRandom(b *testing.B) {
	for _, v := range autoVariants(b) {
		b.Run(v.Name, func(b *testing.B) { autoplaytest.BenchmarkVsRandom(b, v, 1000, team) })
	}
}

func BenchmarkBotChoice(b *testing.B) {
	for _, v := range autoVariants(b) {
		views, legals := autoplaytest.Positions(b, v, "playing", 3, 10)
		b.Run(v.Name, func(b *testing.B) { autoplaytest.BenchmarkChoice(b, v, views, legals) })
	}
}
