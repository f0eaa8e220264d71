package dadun

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/autoplaytest"
	"paiju/domain/table"
)

var autoSeeds = []uint64{1, 2, 3, 5}

func autoVariant(t testing.TB) autoplaytest.Variant { return autoVariantWith(t, "") }

// autoVariantWith is lean under the table options opts (JSON).
func autoVariantWith(t testing.TB, opts string) autoplaytest.Variant {
	r, err := New().Rules("lean", json.RawMessage(opts))
	if err != nil {
		t.Fatal(err)
	}
	return autoplaytest.Variant{Game: "dadun", Name: "lean", Rules: r, Phases: []string{"declaring", "playing"}, Policy: checkTimeoutPolicy}
}

// optionCombos are the option combinations the bots and timeouts are
// checked under (dadun.md, Table options): every non-default value.
var optionCombos = []string{
	`{"bomb_order":"high","pure_suits":"suit","joker_bombs":2}`,
	`{"dun_awards":false,"lead_after_out":"partner","joker_bombs":2}`,
}

// The bots play legally and the timeouts too under every option, and the
// bots see no more than their seats may (dadun.md, Table options).
func TestAutoplayOptions(t *testing.T) {
	for _, opts := range optionCombos {
		t.Run(opts, func(t *testing.T) {
			v := autoVariantWith(t, opts)
			if n := autoplaytest.BotLegal(t, v, autoSeeds[:2], 4); n < 200 {
				t.Fatalf("only %d positions checked", n)
			}
			autoplaytest.TimeoutHandsSettle(t, v, 7, 10)
			autoplaytest.HiddenInformation(t, v, reshuffle, autoSeeds[:1], 3)
		})
	}
}

// checkTimeoutPolicy holds a timeout to doc.go's Turn clock: pass where
// pass is legal; a banker holding both turned copies calls its lowest card
// held once; a leader plays its lowest card as a single.
func checkTimeoutPolicy(t testing.TB, st *table.State, seat int, legal []table.Action, a table.Action) {
	t.Helper()
	s := st.G.(*State)
	hand := s.handCards(seat)
	switch {
	case autoplaytest.Contains(legal, table.Action{Type: ActionPass}):
		if a.Type != ActionPass {
			t.Fatalf("seat %d may pass but times out with %s (doc.go, Turn clock)", seat, a.Type)
		}
	case s.phase == phaseDeclaring:
		var once cards.Card
		for _, c := range hand {
			if s.hands[seat].Count(c) == 1 {
				once = c
				break
			}
		}
		if a.Type != ActionCall || a.Cards[0] != once {
			t.Fatalf("banker %d holding both %s times out with %v, want a call of %s (doc.go, Turn clock)", seat, s.turned, a, once)
		}
	default:
		if a.Type != ActionPlay || len(a.Cards) != 1 || a.Cards[0] != hand[0] {
			t.Fatalf("leader %d times out with %v, want its lowest card %s (doc.go, Turn clock)", seat, a, hand[0])
		}
	}
}

// Every phase times out legally (dadun.md, Deal and Play; doc.go, Turn
// clock), the banker's call included, and no seat off turn has a legal
// action (Driver.Hand checks that only awaited seats may act).
func TestTimeoutEveryPhase(t *testing.T) {
	v := autoVariant(t)
	calls := 0
	policy := v.Policy
	v.Policy = func(t testing.TB, st *table.State, seat int, legal []table.Action, a table.Action) {
		if a.Type == ActionCall {
			calls++
		}
		policy(t, st, seat, legal, a)
	}
	autoplaytest.TimeoutsEveryPhase(t, v, autoSeeds, 15)
	if calls == 0 {
		t.Error("no banker holding both turned copies timed out (dadun.md, Deal): the call was never checked")
	}
}

func TestTimeoutHandsSettle(t *testing.T) {
	autoplaytest.TimeoutHandsSettle(t, autoVariant(t), 7, 50)
}

func TestBotLegal(t *testing.T) {
	if n := autoplaytest.BotLegal(t, autoVariant(t), autoSeeds, 10); n < 1000 {
		t.Fatalf("only %d positions checked", n)
	}
}

// reshuffle deals the cards seat cannot see again among the other seats:
// their hands, but for the banker's copies of the turned and friend cards
// (public: the banker was dealt the turned card and calls only a card it
// holds). The friend is then whoever holds the other copy, until the sides
// are public.
func reshuffle(gs table.GameState, seat int, rng *rand.Rand) (table.GameState, bool) {
	s := gs.Clone().(*State)
	var pool []cards.Card
	var holders []int
	var pinned [seats][]cards.Card
	for i := range seats {
		if i == seat {
			continue
		}
		holders = append(holders, i)
		for _, c := range s.hands[i].Cards() {
			if i == s.banker && (c == s.turned || c == s.friendCard) {
				pinned[i] = append(pinned[i], c)
				continue
			}
			pool = append(pool, c)
		}
	}
	before := s.hands
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for _, i := range holders {
		n := s.hands[i].Len() - len(pinned[i])
		s.hands[i] = cards.Of(append(pinned[i], pool[:n]...))
		pool = pool[n:]
	}
	if !s.sidesPublic() && (!s.bothCopies || s.called) {
		s.friend = s.otherHolder(s.friendCard)
	}
	return s, s.hands != before
}

func TestBotHiddenInformation(t *testing.T) {
	autoplaytest.HiddenInformation(t, autoVariant(t), reshuffle, autoSeeds[:2], 5)
}

// The bot, in each seat in turn against three random players, wins a
// clearly larger share of hands (delta > 0) than a random player in the
// same seat, and a higher mean delta (dadun.md, Points and result, 盾
// awards).
func TestBotStrongerThanRandom(t *testing.T) {
	autoplaytest.StrongerThanRandom(t, autoVariant(t), 11, 300, autoplaytest.Rotate(seats), 10)
}

func BenchmarkBotVsRandom(b *testing.B) {
	v := autoVariant(b)
	b.Run(v.Name, func(b *testing.B) { autoplaytest.BenchmarkVsRandom(b, v, 1000, autoplaytest.Rotate(seats)) })
}

func BenchmarkBotChoice(b *testing.B) {
	v := autoVariant(b)
	views, legals := autoplaytest.Positions(b, v, "playing", 3, 10)
	b.Run(v.Name, func(b *testing.B) { autoplaytest.BenchmarkChoice(b, v, views, legals) })
}
