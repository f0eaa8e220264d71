package shuangkou

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

var update = flag.Bool("update", false, "rewrite the golden hands under testdata/TestGolden")

// goldenFile is one golden hand: the commands of a table from its opening,
// each with the events it produced, and the totals at the end.
type goldenFile struct {
	Variant string       `json:"variant"`
	Stake   int          `json:"stake"`
	Seeds   uint64       `json:"seeds"` // the seedSeq id the deals are drawn from
	Steps   []goldenStep `json:"steps"`
	Totals  []int        `json:"totals"`
}

type goldenStep struct {
	Join   string        `json:"join,omitempty"` // a player joining (lowest free seat)
	Seat   *int          `json:"seat,omitempty"` // or a seat acting
	Action *table.Action `json:"action,omitempty"`
	Events []goldenEvent `json:"events"`
}

type goldenEvent = gametest.Event

// goldenCase is a recorded hand: the result it must show (an outcome of
// shuangkou.md, Result, or "escape"), the variant, and the deal seeds. To
// record, -update plays random legal actions from strategy seeds 1, 2, …
// until a hand ends with that result.
type goldenCase struct {
	name, variant, want string
	stake               int
	seeds               uint64
}

func goldenCases() []goldenCase {
	return []goldenCase{
		{"shuangkou_baibian", "baibian", OutcomeShuangkou, 1, 1},
		{"dankou_classic", "classic", OutcomeDankou, 2, 2},
		{"first_and_fourth_baibian", "baibian", OutcomePingkou, 3, 3},
		{"escape_classic", "classic", "escape", 1, 4},
	}
}

// TestGolden replays whole hands recorded under testdata/TestGolden through
// table.Join, table.Act (the game's Decide) and table.Apply: every command
// must produce exactly the recorded events, every recorded event must decode,
// and the hand must settle with the case's result and deltas
// (shuangkou.md, Result and Escape).
func TestGolden(t *testing.T) {
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			r := rulesFor(t, c.variant)
			path := filepath.Join("testdata", "TestGolden", c.name, "hand.json")
			if *update {
				writeGolden(t, path, findGolden(t, r, c))
			}
			var f goldenFile
			gametest.ReadJSON(t, path, &f)
			res := replayGolden(t, r, &f)
			got := res.Outcome
			if res.End == "escape" {
				got = "escape"
			}
			if got != c.want {
				t.Fatalf("the golden hand ends %s, want %s (shuangkou.md, Result)", got, c.want)
			}
			want := map[string]int{OutcomeShuangkou: 3, OutcomeDankou: 2, OutcomePingkou: 1, "escape": 3}[c.want]
			if res.Multiplier != want {
				t.Fatalf("multiplier %d, want %d (shuangkou.md, Result)", res.Multiplier, want)
			}
		})
	}
}

func findGolden(t *testing.T, r *Rules, c goldenCase) *goldenFile {
	for k := uint64(1); k < 200; k++ {
		f, res := recordGolden(t, r, c, k)
		got := res.Outcome
		if res.End == "escape" {
			got = "escape"
		}
		if got == c.want {
			return f
		}
	}
	t.Fatalf("no strategy seed below 200 ends with %s", c.want)
	return nil
}

// recordGolden plays one hand with random legal actions drawn from strategy
// seed k (escaping at step 30 for the escape case).
func recordGolden(t *testing.T, r *Rules, c goldenCase, k uint64) (*goldenFile, Result) {
	rng := rand.New(rand.NewPCG(k, 0x676f))
	f := &goldenFile{Variant: c.variant, Stake: c.stake, Seeds: c.seeds}
	seeds := &gametest.SeedSeq{ID: c.seeds}
	st := table.New(r.untyped())
	var res Result
	record := func(s goldenStep, evs []table.Payload) {
		s.Events = gametest.Record(t, evs)
		for _, e := range evs {
			if hs, ok := e.(table.HandSettled); ok {
				json.Unmarshal(hs.Result, &res)
			}
			table.Apply(st, e)
		}
		f.Steps = append(f.Steps, s)
	}
	evs, err := table.Open(r.untyped(), "golden", "shuangkou", r.v.name, c.stake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	record(goldenStep{}, evs)
	for _, p := range []string{"p0", "p1", "p2", "p3"} {
		evs, err := table.Join(st, p, p, -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		record(goldenStep{Join: p}, evs)
	}
	for step := 0; st.Last == nil; step++ {
		g := gametest.Game[State](st)
		seat := g.turn
		legal := r.Legal(g, seat)
		a := legal[rng.IntN(len(legal))]
		if last := legal[len(legal)-1]; last.Type == ActionPass && rng.IntN(2) == 0 {
			a = last
		}
		if c.want == "escape" && step == 30 {
			seat, a = (seat+1)%seats, table.Action{Type: table.ActionEscape}
		}
		evs, err := table.Act(st, seat, a, seeds)
		if err != nil {
			t.Fatalf("step %d: seat %d %s: %v", step, seat, gametest.DescribeAction(a), err)
		}
		record(goldenStep{Seat: table.Seat(seat), Action: &a}, evs)
	}
	f.Totals = st.Totals
	return f, res
}

func writeGolden(t *testing.T, path string, f *goldenFile) { gametest.WriteJSON(t, path, f) }

// replayGolden replays f and returns the result of its settlement.
func replayGolden(t *testing.T, r *Rules, f *goldenFile) Result {
	seeds := &gametest.SeedSeq{ID: f.Seeds}
	st := table.New(r.untyped())
	var res Result
	for i, s := range f.Steps {
		var evs []table.Payload
		var err error
		switch {
		case i == 0:
			evs, err = table.Open(r.untyped(), "golden", "shuangkou", r.v.name, f.Stake, "p0")
		case s.Join != "":
			evs, err = table.Join(st, s.Join, s.Join, -1, seeds)
		default:
			evs, err = table.Act(st, *s.Seat, *s.Action, seeds)
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		for _, decoded := range gametest.Check(t, r.untyped(), i, evs, s.Events) {
			if hs, ok := decoded.(table.HandSettled); ok {
				if err := json.Unmarshal(hs.Result, &res); err != nil {
					t.Fatal(err)
				}
			}
			table.Apply(st, decoded)
		}
	}
	for i, tot := range st.Totals {
		if tot != f.Totals[i] {
			t.Fatalf("totals %v, the golden hand records %v", st.Totals, f.Totals)
		}
	}
	return res
}
