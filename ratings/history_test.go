package ratings

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"paiju/domain/table"
)

var update = flag.Bool("update", false, "rewrite testdata/history.json")

// historyHand is one hand of testdata/history.json: the days each seated
// human was idle before it, its contests and seats, and every rating after
// it.
type historyHand struct {
	Idle     map[string]int    `json:"idle"`
	Contests []table.Contest   `json:"contests"`
	Seats    []Seat            `json:"seats"`
	After    map[string]Rating `json:"after"`
}

// history plays 120 hands of every shape among six players (and a bot),
// from new ratings: Idle with each player's days, then Hand.
func history() []historyHand {
	m := Default()
	rng := rand.New(rand.NewPCG(38, 9))
	names := []string{"ann", "bob", "cy", "dee", "eve", "fay"}
	now := map[string]Rating{}
	var out []historyHand
	for h := range 120 {
		var hand historyHand
		n := 3 + h%2
		perm := rng.Perm(len(names))
		hand.Idle = map[string]int{}
		for s := range n {
			if rng.IntN(8) == 0 {
				hand.Seats = append(hand.Seats, Seat{Player: "bots", Bot: true})
				continue
			}
			p := names[perm[s]]
			hand.Seats = append(hand.Seats, Seat{Player: p})
			if _, ok := now[p]; ok && rng.IntN(3) == 0 {
				hand.Idle[p] = rng.IntN(400)
			}
		}
		w := rng.IntN(2)
		switch h % 4 {
		case 0: // 斗地主, or 打独 at four seats
			hand.Contests = table.Beat([]int{0}, table.SeatsBut(n, 0))
			if w == 1 {
				hand.Contests = table.Beat(table.SeatsBut(n, 0), []int{0})
			}
		case 1, 3:
			if n == 4 { // partnerships
				hand.Contests = table.Beat([]int{w, w + 2}, []int{1 - w, 3 - w})
				break
			}
			fallthrough
		case 2: // 牛牛's bouts, banker 0
			for s := 1; s < n; s++ {
				if rng.IntN(2) == 0 {
					hand.Contests = append(hand.Contests, table.Beat([]int{0}, []int{s})...)
				} else {
					hand.Contests = append(hand.Contests, table.Beat([]int{s}, []int{0})...)
				}
			}
		}
		before := map[string]Rating{}
		for _, s := range hand.Seats {
			if r, ok := now[s.Player]; ok && !s.Bot {
				before[s.Player] = m.Idle(r, hand.Idle[s.Player])
			}
		}
		for p, r := range m.Hand(hand.Contests, hand.Seats, before) {
			now[p] = r
		}
		hand.After = map[string]Rating{}
		for p, r := range now {
			hand.After[p] = r
		}
		out = append(out, hand)
	}
	return out
}

// TestHistory pins a rating history to the last bit (testdata/history.json,
// JSON numbers that round-trip to the exact float64): a change of the
// model, its parameters or its order of operations fails it. A verifier in
// another language can replay the same file. Run with -update to rewrite
// it, only for a new model.
func TestHistory(t *testing.T) {
	got := history()
	if *update {
		raw, err := json.MarshalIndent(map[string]any{
			"comment": "A rating history of ratings.Default(): for each hand, Idle(rating, idle days) for each seated human with a rating, then Model.Hand; after is every rating once the hand is rated. Regenerate with go test ./ratings -run TestHistory -update, only for a new model.",
			"hands":   got,
		}, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("testdata/history.json", append(raw, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile("testdata/history.json")
	if err != nil {
		t.Fatal(err)
	}
	var want struct{ Hands []historyHand }
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Hands) != len(got) {
		t.Fatalf("%d hands, want %d", len(got), len(want.Hands))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i].After, want.Hands[i].After) {
			t.Fatalf("hand %d: ratings %s, want %s", i, fmt.Sprint(got[i].After), fmt.Sprint(want.Hands[i].After))
		}
	}
}
