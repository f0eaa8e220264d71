package niuniu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// optionTableSeeds are the tables TestRandomGamesWithOptions plays, each
// opened with random house rules drawn from its seed.
var optionTableSeeds = []uint64{7, 11, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53}

const optionHandsPerTable = 40 // × 12 tables = 480 settled hands

// TestRandomGamesWithOptions is TestRandomGames at tables opened with random
// combinations of the house rules (niuniu.md, Table options): banker_mode,
// multipliers, special_hands and jokers, checked against the test's own
// restatement of each (house); every other table's stream is re-executed
// by audit.VerifyTable under its recorded options.
func TestRandomGamesWithOptions(t *testing.T) {
	t.Parallel()
	c := randomConfig(*tableSeedFlag, func(seed uint64) bool {
		return *tableSeedFlag != 0 || slices.Index(optionTableSeeds, seed)%2 == 0
	}, true)
	c.Done = randomDone
	gametest.PlayRandom(t, c)
}

// house is a table's house rules as the tests restate them from niuniu.md,
// Table options.
type house struct {
	mode     string   // banker_mode
	b0       int      // the option banker: every hand's (fixed), hand 1's (rotate)
	pay      PayTable // each class's multiplier; 0: a special class not played
	noJokers bool
}

// randomHouse draws house rules for a table of seats, and their options
// as JSON members to follow others (",\"banker_mode\":…").
func randomHouse(rng *rand.Rand, seats int) (house, string) {
	h := house{mode: []string{BankerFixed, BankerRotate, BankerRandom}[rng.IntN(3)], pay: seedPay}
	var o strings.Builder
	if h.mode != BankerRandom {
		h.b0 = rng.IntN(seats)
		fmt.Fprintf(&o, `,"banker":%d`, h.b0)
	}
	if h.mode != BankerFixed || rng.IntN(2) == 0 {
		fmt.Fprintf(&o, `,"banker_mode":%q`, h.mode)
	}
	if rng.IntN(2) == 0 {
		// Values for a random subset of the four classes, the others
		// keeping the seed's: each given one from the class below's value
		// up to the seed's value of the next class not given, so that the
		// four do not decrease (niuniu.md, Table options, Decision).
		given := make([]bool, len(multiplierKeys))
		for i := range given {
			given[i] = rng.IntN(2) == 0
		}
		var kv []string
		for i, b := range multiplierKeys {
			if !given[i] {
				continue
			}
			lo, hi := minMultiplier, maxMultiplier
			if i > 0 {
				lo = h.pay[multiplierKeys[i-1]]
			}
			for j := i + 1; j < len(multiplierKeys); j++ {
				if !given[j] {
					hi = seedPay[multiplierKeys[j]]
					break
				}
			}
			h.pay[b] = lo + rng.IntN(hi-lo+1)
			kv = append(kv, fmt.Sprintf("%q:%d", b, h.pay[b]))
		}
		fmt.Fprintf(&o, `,"multipliers":{%s}`, strings.Join(kv, ","))
	}
	if rng.IntN(2) == 0 {
		var kv []string
		for _, b := range specialKeys {
			if rng.IntN(2) == 0 {
				h.pay[b] = h.pay[BullBull] + rng.IntN(maxSpecial-h.pay[BullBull]+1)
				kv = append(kv, fmt.Sprintf("%q:%d", b, h.pay[b]))
			}
		}
		fmt.Fprintf(&o, `,"special_hands":{%s}`, strings.Join(kv, ","))
	}
	if rng.IntN(2) == 0 {
		h.noJokers = true
		o.WriteString(`,"jokers":false`)
	}
	return h, o.String()
}

// special is the highest special class of hand the house plays, by the
// words of niuniu.md (Table options, special_hands), and for a bomb its
// four's rank order (A 1 … K 13).
func (h house) special(hand []cards.Card) (Bull, int) {
	ranks := map[cards.Rank]int{}
	small, face, sum := true, true, 0
	for _, c := range hand {
		if c.IsJoker() {
			small, face = false, false
			continue
		}
		ranks[c.Rank]++
		v := int(c.Rank)
		if c.Rank == cards.Ace {
			v = 1
		}
		small = small && v <= 4
		face = face && (c.Rank == cards.Jack || c.Rank == cards.Queen || c.Rank == cards.King)
		sum += v
	}
	four := 0
	for r, n := range ranks {
		if n == 4 {
			four = int(r)
			if r == cards.Ace {
				four = 1
			}
		}
	}
	switch {
	case h.pay[FiveSmall] != 0 && small && sum <= 10:
		return FiveSmall, 0
	case h.pay[Bomb] != 0 && four != 0:
		return Bomb, four
	case h.pay[FiveFace] != 0 && face:
		return FiveFace, 0
	}
	return NoBull, 0
}

// TestRandomSpecialPositions: special hands are rare in random deals, so
// this deals them on purpose: 400 positions of 2–4 seats where each hand is
// a five_small, a bomb, a five_face or random cards, at tables with random
// house rules, every seat arranging at random (a bull, or no bull). Each
// reveal and settlement is checked against the test's restatement
// (house.special, randomTable.bout): the highest special class the table
// plays whatever the seat arranged, its pay, the ties without the banker's
// edge, zero-sum deltas.
func TestRandomSpecialPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 12))
	specials := 0
	for range 400 {
		seats := 2 + rng.IntN(3)
		h, more := randomHouse(rng, seats)
		r := rulesWith(t, fmt.Sprintf(`{"seats":%d%s}`, seats, more))
		hands := specialHands(rng, seats, !h.noJokers)
		st := positionAt(t, r, 2, h.b0, hands...)
		rt := &randomTable{house: h}
		want := make([]Reading, seats)
		var evs []table.Payload
		for _, seat := range rng.Perm(seats) {
			hand := gametest.Game[State](st).hands[seat]
			legal := r.Legal(st.G.(*State), seat)
			a := legal[rng.IntN(len(legal))]
			want[seat] = Reading{High: rt.highest(hand)}
			if a.Type == ActionArrange {
				want[seat].Bull, _, _ = bruteBull(hand)
			}
			if b, four := h.special(hand); b != NoBull {
				want[seat].Bull, want[seat].Four = b, four
				specials++
			}
			evs = gametest.MustAct(t, st, seat, a)
		}
		hs, res := gametest.SettledOf[Result](t, evs)
		deltas := make([]int, seats)
		for seat := range seats {
			if res.Readings[seat] != want[seat].Bull {
				t.Fatalf("%v: seat %d reads %v, want %v (niuniu.md, Table options, special_hands)", hands, seat, res.Readings[seat], want[seat].Bull)
			}
			if seat != h.b0 {
				deltas[seat] = rt.bout(2, want[h.b0], want[seat])
				deltas[h.b0] -= deltas[seat]
			}
		}
		if !slices.Equal(hs.Deltas, deltas) {
			t.Fatalf("%v under %s: deltas %v, want %v (niuniu.md, Settlement; Table options)", hands, more, hs.Deltas, deltas)
		}
	}
	if specials < 150 {
		t.Fatalf("only %d special hands dealt: the test proves little", specials)
	}
}

// specialHands deals seats hands from one deck (with or without jokers):
// each a five_small, a bomb, a five_face or five random cards.
func specialHands(rng *rand.Rand, seats int, jokers bool) []string {
	deck := cards.Deck(1)
	if !jokers {
		deck = deck[:52]
	}
	left := cards.Of(deck)
	take := func(want func(cards.Card) bool, n int) []cards.Card {
		var pool []cards.Card
		for _, c := range left.Cards() {
			if want(c) {
				pool = append(pool, c)
			}
		}
		if len(pool) < n {
			return nil
		}
		rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		return pool[:n]
	}
	anyCard := func(cards.Card) bool { return true }
	var out []string
	for range seats {
		var hand []cards.Card
		switch rng.IntN(4) {
		case 0: // five_small: values A–4 summing to at most 10, when the deck has one
			for range 20 {
				h := take(func(c cards.Card) bool { return !c.IsJoker() && Value(c) <= 4 }, 5)
				sum := 0
				for _, c := range h {
					sum += Value(c)
				}
				if h != nil && sum <= 10 {
					hand = h
					break
				}
			}
		case 1: // bomb: a rank whose four cards are left
			r := cards.Rank(2 + rng.IntN(13))
			four := take(func(c cards.Card) bool { return !c.IsJoker() && c.Rank == r }, 4)
			if four != nil {
				left.Remove(four)
				hand = append(four, take(anyCard, 1)...)
				left.Add(four...)
			}
		case 2: // five_face
			hand = take(func(c cards.Card) bool { return !c.IsJoker() && c.Rank >= cards.Jack && c.Rank <= cards.King }, 5)
		}
		if hand == nil {
			hand = take(anyCard, 5)
		}
		left.Remove(hand)
		out = append(out, cards.Format(hand))
	}
	return out
}
