package doudizhu

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/autoplaytest"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

var autoSeeds = []uint64{1, 2, 3, 5, 8, 13}

func autoVariants(t testing.TB) []autoplaytest.Variant {
	var out []autoplaytest.Variant
	for _, name := range []string{"classic", "hubei", "fourplayer"} {
		r, err := New().Rules(name, json.RawMessage(nil))
		if err != nil {
			t.Fatal(err)
		}
		phases := []string{"bidding", "grabbing", "playing"}
		if name == "classic" {
			phases = []string{"bidding", "playing"}
		}
		out = append(out, autoplaytest.Variant{Game: "doudizhu", Name: name, Rules: r, Phases: phases, Policy: checkTimeoutPolicy, TimeoutsThrowIn: true})
	}
	return out
}

// autoHands is n hands, or a quarter of them in fourplayer, whose random
// players make slow tests: a lead from 33 cards of two decks lists
// thousands of plays.
func autoHands(v autoplaytest.Variant, n int) int {
	if v.Name == "fourplayer" {
		return max(n/4, 1)
	}
	return n
}

// checkTimeoutPolicy holds a timeout to doc.go's Turn clock: pass where
// pass is legal, the last bidder after passes too (rules README, Clocks,
// timeouts and absent players); a leader plays its lowest card as a single.
func checkTimeoutPolicy(t testing.TB, st *table.State, seat int, legal []table.Action, a table.Action) {
	t.Helper()
	s := st.G.(*State)
	canPass := autoplaytest.Contains(legal, table.Action{Type: ActionPass})
	switch {
	case canPass:
		if a.Type != ActionPass {
			t.Fatalf("seat %d may pass but times out with %s (doc.go, Turn clock)", seat, a.Type)
		}
	default:
		hand := s.handCards(seat)
		if a.Type != ActionPlay || len(a.Cards) != 1 || a.Cards[0] != hand[0] {
			t.Fatalf("leader %d times out with %v, want its lowest card %s (doc.go, Turn clock)", seat, a, hand[0])
		}
	}
}

// Every phase times out legally (doudizhu.md, Bidding and Beating; doc.go,
// Turn clock), and no seat off turn has a legal action (Driver.Hand checks
// that only awaited seats may act).
func TestTimeoutEveryPhase(t *testing.T) {
	for _, v := range autoVariants(t) {
		t.Run(v.Name, func(t *testing.T) { autoplaytest.TimeoutsEveryPhase(t, v, autoSeeds, autoHands(v, 20)) })
	}
}

func TestTimeoutHandsSettle(t *testing.T) {
	for _, v := range autoVariants(t) {
		t.Run(v.Name, func(t *testing.T) { autoplaytest.TimeoutHandsSettle(t, v, 7, 50) })
	}
}

func TestBotLegal(t *testing.T) {
	for _, v := range autoVariants(t) {
		t.Run(v.Name, func(t *testing.T) {
			if n := autoplaytest.BotLegal(t, v, autoSeeds, autoHands(v, 20)); n < 500 {
				t.Fatalf("only %d positions checked", n)
			}
		})
	}
}

// reshuffle deals the cards seat cannot see again among their holders:
// the other hands (the landlord's once it plays open is public) and the
// kitty until it is shown.
func reshuffle(gs table.GameState, seat int, rng *rand.Rand) (table.GameState, bool) {
	s := gs.Clone().(*State)
	var pool []cards.Card
	var holders []int
	for i := range s.v.seats {
		if i == seat || (s.open && i == s.landlord) {
			continue
		}
		holders = append(holders, i)
		pool = append(pool, s.hands[i].Cards()...)
	}
	hideKitty := !s.kittyShown
	if hideKitty {
		pool = append(pool, s.kitty...)
	}
	before := s.hands
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for _, i := range holders {
		n := s.hands[i].Len()
		s.hands[i] = cards.Of(pool[:n])
		pool = pool[n:]
	}
	if hideKitty {
		s.kitty = append([]cards.Card(nil), pool...)
		climb.Sort(s.kitty)
	}
	return s, s.hands != before
}

func TestBotHiddenInformation(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, v := range autoVariants(t) {
		t.Run(v.Name, func(t *testing.T) { autoplaytest.HiddenInformation(t, v, reshuffle, autoSeeds[:3], autoHands(v, 10)) })
	}
}

// The bot, in each seat in turn against two (three) random players, wins a
// clearly larger share of hands (delta > 0) than a random player in the
// same seat, and a higher mean delta (doudizhu.md, Scoring).
func TestBotStrongerThanRandom(t *testing.T) {
	for _, v := range autoVariants(t) {
		t.Run(v.Name, func(t *testing.T) {
			autoplaytest.StrongerThanRandom(t, v, 11, 300, autoplaytest.Rotate(v.Rules.Seats()), 15)
		})
	}
}

func BenchmarkBotVsRandom(b *testing.B) {
	for _, v := range autoVariants(b) {
		b.Run(v.Name, func(b *testing.B) { autoplaytest.BenchmarkVsRandom(b, v, 1000, autoplaytest.Rotate(v.Rules.Seats())) })
	}
}

func BenchmarkBotChoice(b *testing.B) {
	for _, v := range autoVariants(b) {
		views, legals := autoplaytest.Positions(b, v, "playing", 3, 30)
		b.Run(v.Name, func(b *testing.B) { autoplaytest.BenchmarkChoice(b, v, views, legals) })
	}
}

// optionVariants are variants under the table options that add a phase or
// hide something (doudizhu.md, Table options): the doubling phase, hidden
// counts, a cap, classic's bomb_double and a spring factor.
func optionVariants(t testing.TB) []autoplaytest.Variant {
	var out []autoplaytest.Variant
	for _, tc := range []struct{ name, opts string }{
		{"classic", `{"double":true,"show_counts":false,"cap":6,"bomb_double":true,"spring":3}`},
		{"hubei", `{"double":true,"show_counts":false,"spring":2}`},
	} {
		r, err := New().Rules(tc.name, json.RawMessage(tc.opts))
		if err != nil {
			t.Fatal(err)
		}
		phases := []string{"bidding", "grabbing", "doubling", "playing"}
		if tc.name == "classic" {
			phases = []string{"bidding", "doubling", "playing"}
		}
		out = append(out, autoplaytest.Variant{Game: "doudizhu", Name: tc.name, Rules: r, Phases: phases, Policy: checkTimeoutPolicy, TimeoutsThrowIn: true})
	}
	return out
}

// Under the options, every phase (the doubling phase included) times out
// legally, hands of timeouts and random players settle, the bot's choices
// are legal and depend on nothing its view hides: neither the others' cards
// nor, with show_counts false, the counts above 2 (reshuffleCounts).
func TestOptionsTimeoutsAndBot(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, v := range optionVariants(t) {
		t.Run(v.Name, func(t *testing.T) {
			autoplaytest.TimeoutsEveryPhase(t, v, autoSeeds[:3], 10)
			autoplaytest.TimeoutHandsSettle(t, v, 7, 10)
			if n := autoplaytest.BotLegal(t, v, autoSeeds[:3], 10); n < 300 {
				t.Fatalf("only %d positions checked", n)
			}
			autoplaytest.HiddenInformation(t, v, reshuffleCounts, autoSeeds[:3], 5)
		})
	}
}

// reshuffleCounts is reshuffle, and then, when the view hides counts, moves
// one card between two other seats whose counts stay hidden (above 2): the
// seat's view must not change, nor the bot's choice.
func reshuffleCounts(gs table.GameState, seat int, rng *rand.Rand) (table.GameState, bool) {
	out, moved := reshuffle(gs, seat, rng)
	s := out.(*State)
	if !s.v.opt.hideCounts || s.phase == phaseWaiting {
		return out, moved
	}
	var hidden []int
	for i := range s.v.seats {
		if i != seat && !(s.open && i == s.landlord) && s.hands[i].Len() > 3 {
			hidden = append(hidden, i)
		}
	}
	if len(hidden) < 2 {
		return out, moved
	}
	from, to := hidden[0], hidden[1]
	c := s.hands[from].Cards()[rng.IntN(s.hands[from].Len())]
	s.hands[from][c.Index()]--
	s.hands[to].Add(c)
	return s, true
}
