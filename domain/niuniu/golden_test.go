package niuniu

import (
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

var update = flag.Bool("update", false, "rewrite the golden hands under testdata/TestGolden")

// goldenFile is one golden hand: the table's options, the commands from its
// opening, each with the events it produced, and the totals at the end.
type goldenFile struct {
	Options json.RawMessage `json:"options"`
	Stake   int             `json:"stake"`
	Seeds   uint64          `json:"seeds"` // the seedSeq id the deals are drawn from
	Steps   []goldenStep    `json:"steps"`
	Totals  []int           `json:"totals"`
}

type goldenStep struct {
	Join   string        `json:"join,omitempty"` // a player joining (lowest free seat)
	Seat   *int          `json:"seat,omitempty"` // or a seat acting
	Action *table.Action `json:"action,omitempty"`
	Events []goldenEvent `json:"events"`
}

type goldenEvent = gametest.Event

// strategy picks the next command: the seat to act and its action.
type strategy func(g *State, step int, legal func(seat int) []table.Action) (seat int, a table.Action)

// inOrder has the seats arrange in seat order, each its first bull (or no
// bull when it has none).
func inOrder(g *State, step int, legal func(int) []table.Action) (int, table.Action) {
	for seat := range g.seats {
		if !g.arr[seat].done {
			return seat, legal(seat)[0]
		}
	}
	panic("every seat has arranged and the hand runs on")
}

type goldenCase struct {
	name    string
	options string
	stake   int
	seeds   uint64
	play    strategy
	// bouts is what the case is about: the settled bouts, "seat winner by ×multiplier".
	bouts string
}

// goldenCases are the recorded hands: one per multiplier, both banker's
// edges (niuniu.md, Comparing and Settlement), a re-arrangement, and both
// escapes (niuniu.md, Escape). Their seed ids were chosen for those deals.
func goldenCases() []goldenCase {
	return []goldenCase{
		{"player_bull_bull_x5", `{"seats":2}`, 1, 1, inOrder, "1 player class ×5"},
		{"player_bull_9_x4", `{"seats":2}`, 2, 32, inOrder, "1 player class ×4"},
		{"player_bull_8_x3", `{"seats":2}`, 1, 14, inOrder, "1 player class ×3"},
		{"player_bull_7_x2", `{"seats":2}`, 3, 80, inOrder, "1 player class ×2"},
		{"banker_bull_bull_x5", `{"seats":2}`, 1, 3, inOrder, "1 banker class ×5"},
		{"high_card_x2", `{"seats":2}`, 1, 5, inOrder, "1 player high_card ×2"},
		{"banker_edge_bulls", `{"seats":2}`, 1, 40, inOrder, "1 banker banker_edge ×3"},
		{"banker_edge_no_bull", `{"seats":2}`, 1, 75, inOrder, "1 banker banker_edge ×1"},
		{"four_seats", `{"seats":4}`, 2, 5, inOrder, "1 player class ×5, 2 banker banker_edge ×2, 3 player class ×3"},
		{"three_seats_banker_2", `{"seats":3,"banker":2}`, 1, 9, inOrder, ""},
		{"rearranged", `{"seats":4}`, 1, 2, func(g *State, step int, legal func(int) []table.Action) (int, table.Action) {
			// Every seat first declares no bull, then arranges as inOrder.
			if step < g.seats-1 {
				return step, noBullA()
			}
			if step < 2*(g.seats-1) {
				l := legal(step - (g.seats - 1))
				return step - (g.seats - 1), l[0]
			}
			return inOrder(g, step, legal)
		}, ""},
		{"player_escapes", `{"seats":4}`, 2, 7, func(g *State, step int, legal func(int) []table.Action) (int, table.Action) {
			if step == 1 {
				return 2, table.Action{Type: table.ActionEscape}
			}
			return inOrder(g, step, legal)
		}, "1 player class ×5, 2 banker escape ×1, 3 player class ×3"}, // the escape cancels no other bout
		{"banker_escapes", `{"seats":3,"banker":1}`, 3, 8, func(g *State, step int, legal func(int) []table.Action) (int, table.Action) {
			if step == 1 {
				return 1, table.Action{Type: table.ActionEscape}
			}
			return inOrder(g, step, legal)
		}, ""},
	}
}

// TestGolden replays whole hands recorded under testdata/TestGolden through
// table.Join, table.Act (the game's Decide) and table.Apply: every command
// must produce exactly the recorded events, every recorded event must decode,
// and every deal must be what its revealed seed deals. -update re-records
// them by playing each case's strategy.
func TestGolden(t *testing.T) {
	for _, tc := range goldenCases() {
		t.Run(tc.name, func(t *testing.T) {
			r := rulesWith(t, tc.options)
			path := filepath.Join("testdata", "TestGolden", tc.name, "hand.json")
			if *update {
				writeGolden(t, path, recordGolden(t, r, tc))
			}
			var f goldenFile
			gametest.ReadJSON(t, path, &f)
			r = rulesWith(t, string(f.Options))
			res := replayGolden(t, r, &f)
			if tc.bouts != "" {
				var got []string
				for _, b := range res.Bouts {
					got = append(got, fmt.Sprintf("%d %s %s ×%d", b.Seat, b.Winner, b.By, b.Multiplier))
				}
				if s := strings.Join(got, ", "); s != tc.bouts {
					t.Fatalf("the hand settles bouts %q, the case is about %q (niuniu.md, Comparing and Settlement)", s, tc.bouts)
				}
			}
		})
	}
}

func recordGolden(t *testing.T, r *Rules, tc goldenCase) *goldenFile {
	f := &goldenFile{Options: r.Options(), Stake: tc.stake, Seeds: tc.seeds}
	seeds := &gametest.SeedSeq{ID: tc.seeds}
	st := table.New(r.untyped())
	record := func(s goldenStep, evs []table.Payload) {
		s.Events = gametest.Record(t, evs)
		for _, e := range evs {
			table.Apply(st, e)
		}
		f.Steps = append(f.Steps, s)
	}
	evs, err := table.Open(r.untyped(), "golden", "niuniu", "classic", tc.stake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	record(goldenStep{}, evs)
	for i := range r.Seats() {
		p := fmt.Sprintf("p%d", i)
		evs, err := table.Join(st, p, p, -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		record(goldenStep{Join: p}, evs)
	}
	legal := func(seat int) []table.Action { return r.Legal(st.G.(*State), seat) }
	for step := 0; st.Last == nil; step++ {
		seat, a := tc.play(gametest.Game[State](st), step, legal)
		evs, err := table.Act(st, seat, a, seeds)
		if err != nil {
			t.Fatalf("step %d: seat %d %s: %v", step, seat, gametest.DescribeAction(a), err)
		}
		record(goldenStep{Seat: table.Seat(seat), Action: &a}, evs)
	}
	f.Totals = st.Totals
	return f
}

func writeGolden(t *testing.T, path string, f *goldenFile) { gametest.WriteJSON(t, path, f) }

// replayGolden replays a golden hand and returns the result of its first
// settlement.
func replayGolden(t *testing.T, r *Rules, f *goldenFile) Result {
	seeds := &gametest.SeedSeq{ID: f.Seeds}
	st := table.New(r.untyped())
	var deals []table.HandDealt
	var first *Result
	for i, s := range f.Steps {
		var evs []table.Payload
		var err error
		switch {
		case i == 0:
			evs, err = table.Open(r.untyped(), "golden", "niuniu", "classic", f.Stake, "p0")
		case s.Join != "":
			evs, err = table.Join(st, s.Join, s.Join, -1, seeds)
		default:
			evs, err = table.Act(st, *s.Seat, *s.Action, seeds)
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		for _, decoded := range gametest.Check(t, r.untyped(), i, evs, s.Events) {
			table.Apply(st, decoded)
			switch d := decoded.(type) {
			case table.HandDealt:
				deals = append(deals, d)
			case table.HandSettled:
				auditDeal(t, deals[len(deals)-1], d.Seed)
				if first == nil {
					var res Result
					if err := json.Unmarshal(d.Result, &res); err != nil {
						t.Fatal(err)
					}
					first = &res
				}
			}
		}
	}
	if !slices.Equal(st.Totals, f.Totals) {
		t.Fatalf("totals %v, the golden hand records %v", st.Totals, f.Totals)
	}
	if first == nil {
		t.Fatal("the golden hand never settles")
	}
	return *first
}

// auditDeal re-deals from the revealed seed as doc.go describes and compares.
func auditDeal(t *testing.T, d table.HandDealt, hexSeed string) {
	seed, err := cards.ParseSeed(hexSeed)
	if err != nil || seed.Commitment() != d.Commitment {
		t.Fatalf("hand %d: revealed seed %q does not open the commitment %s (rules/README.md, Shuffling)", d.Hand, hexSeed, d.Commitment)
	}
	deck, _ := cards.Shuffled(seed, 1)
	n := len(d.Hands)
	for seat := range n {
		var want []cards.Card
		for i := seat; i < n*HandSize; i += n {
			want = append(want, deck[i])
		}
		Sort(want)
		if !slices.Equal(d.Hands[seat], want) {
			t.Fatalf("hand %d seat %d: dealt %s, the seed deals %s (doc.go, Dealing)", d.Hand, seat, cards.Format(d.Hands[seat]), cards.Format(want))
		}
	}
}
