package shengji

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

var update = flag.Bool("update", false, "rewrite the golden hands under testdata/TestGolden")

// goldenStream is the second word of the PCG generator that played the
// golden hands (seeded with the case's id): changing it replays other
// hands.
const goldenStream = 0x676f

// goldenFile is a recorded table: its commands from the opening, each with
// the events it produced (as the auditor sees them).
type goldenFile struct {
	Variant string          `json:"variant,omitempty"` // "" is ningyang
	Stake   int             `json:"stake"`
	Seeds   uint64          `json:"seeds"` // the seedSeq id the deals are drawn from
	Options json.RawMessage `json:"options"`
	Steps   []goldenStep    `json:"steps"`
	Totals  []int           `json:"totals"`
}

type goldenStep struct {
	Join   string        `json:"join,omitempty"`
	Seat   int           `json:"seat"`
	Action *table.Action `json:"action,omitempty"`
	Events []goldenEvent `json:"events"`
}

type goldenEvent struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// goldenCases: how each recorded table was played (with -update): random
// legal actions from a fixed seed, until hands are settled.
var goldenCases = []struct {
	name      string
	variant   string // "" is ningyang
	id        uint64
	options   string
	hands     int
	noDeclare bool // guafeng: from the second hand on (悶牌)
	// shows: the counts of event types the recording must hold; has:
	// strings its events' data must hold.
	shows map[string]int
	has   []string
}{
	{name: "override_then_flip_two_hands", id: 30, hands: 2, shows: map[string]int{"TrumpDeclared": 2, "TrumpRevealed": 1, "KittyFlipped": 1, "HandSettled": 2}},
	{name: "override", id: 4, hands: 1, shows: map[string]int{"TrumpDeclared": 2, "TrumpRevealed": 1, "HandSettled": 1}},
	{name: "kitty_flip", id: 5, hands: 1, noDeclare: true, shows: map[string]int{"KittyFlipped": 1, "TrumpDeclared": 0, "HandSettled": 1}},
	{name: "single_hand_double_kitty", id: 9, options: `{"match":false,"kitty_multiplier":"double"}`, hands: 1, shows: map[string]int{"TableClosed": 1, "HandSettled": 1}},
	// guafeng (shengji.md, guafeng): one hand for each rule the issue names.
	{name: "guafeng_override", variant: "guafeng", id: guafengGoldenIDs[0], hands: 1, has: []string{`"kind":"override"`}},
	{name: "guafeng_reinforce", variant: "guafeng", id: guafengGoldenIDs[1], hands: 1, shows: map[string]int{"TrumpReinforced": 1}},
	{name: "guafeng_stick", variant: "guafeng", id: guafengGoldenIDs[2], hands: 1, shows: map[string]int{"DeclarationTaken": 1, "CardGiven": 3}, has: []string{`"kind":"stick"`}},
	{name: "guafeng_menpai", variant: "guafeng", id: guafengGoldenIDs[3], hands: 2, noDeclare: true, shows: map[string]int{"LevelDropped": 1, "KittyFlipped": 1, "HandSettled": 2}},
	{name: "guafeng_thunder", variant: "guafeng", id: guafengGoldenIDs[4], hands: 1, has: []string{`"shape":"thunder"`}},
	{name: "guafeng_rain", variant: "guafeng", id: guafengGoldenIDs[5], hands: 1, has: []string{`"shape":"rain`}},
	{name: "guafeng_negative_points", variant: "guafeng", id: guafengGoldenIDs[6], hands: 1, has: []string{`"defender_points":-`, `"kitty_deducted":true`}},
	// qiangbao (shengji.md, qiangbao): 抢报, an override by a pair, the
	// third card (a suit, and a joker: 无主), a tie-break hand.
	{name: "qiangbao_first_show", variant: "qiangbao", id: qiangbaoGoldenIDs[0], hands: 1, shows: map[string]int{"TrumpDeclared": 1, "KittyBuried": 8, "HandSettled": 1}},
	{name: "qiangbao_pair_override", variant: "qiangbao", id: qiangbaoGoldenIDs[1], hands: 2, shows: map[string]int{"TrumpDeclared": 3, "HandSettled": 2}, has: []string{`"pairs":0`, `"pairs":1`}},
	{name: "qiangbao_third_card", variant: "qiangbao", id: qiangbaoGoldenIDs[2], hands: 2, noDeclare: true, shows: map[string]int{"TrumpDeclared": 1, "KittyFlipped": 1, "HandSettled": 2}},
	{name: "qiangbao_no_trump", variant: "qiangbao", id: qiangbaoGoldenIDs[3], hands: 5, noDeclare: true, has: []string{`"suit":""`}},
	{name: "qiangbao_tiebreak", variant: "qiangbao", id: qiangbaoGoldenIDs[4], hands: 6, shows: map[string]int{"HandSettled": 6, "TableClosed": 1}},
	// Seed 003's two 粘牌 examples (shengji.md, 粘牌): declaration cards
	// taken of which some are trumps and some not, given back as a trump
	// for each trump and any cards for the rest (here two jokers and a side
	// pair: two trumps, two any cards); a kitty swap of a plain trump-suit
	// card for a side card of its rank.
	{name: "guafeng_stick_trumps_and_any", variant: "guafeng", id: guafengGoldenIDs[7], hands: 1, shows: map[string]int{"DeclarationTaken": 1, "CardGiven": 4, "KittySwapClosed": 1}, has: []string{`"trumps":2`}},
	{name: "guafeng_kitty_swap", variant: "guafeng", id: guafengGoldenIDs[8], hands: 1, shows: map[string]int{"KittySwapped": 1, "KittySwapClosed": 1}, has: []string{`"trumps":3`}},
}

// TestGolden replays each recorded table command by command through
// table.Join and table.Act and requires the very events recorded: deal,
// draws, declarations, kitty, tricks and settlement (DESIGN.md, Testing:
// golden hands replayed end to end). -update records them anew.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join("testdata", "TestGolden", c.name, "hand.json")
			variant := cmp.Or(c.variant, "ningyang")
			if *update {
				writeGolden(t, path, variant, c.id, c.options, c.hands, c.noDeclare)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to record)", err)
			}
			var gf goldenFile
			if err := json.Unmarshal(raw, &gf); err != nil {
				t.Fatal(err)
			}
			n := map[string]int{}
			for _, step := range gf.Steps {
				for _, e := range step.Events {
					n[e.Type]++
				}
			}
			for typ, want := range c.shows {
				if n[typ] != want {
					t.Fatalf("the recording holds %d %s, the case is about %d", n[typ], typ, want)
				}
			}
			var flat bytes.Buffer
			if err := json.Compact(&flat, raw); err != nil {
				t.Fatal(err)
			}
			for _, h := range c.has {
				if !bytes.Contains(flat.Bytes(), []byte(h)) {
					t.Fatalf("the recording holds no %s: the case is about it", h)
				}
			}
			if cmp.Or(gf.Variant, "ningyang") != variant {
				t.Fatalf("the recording is of variant %q, the case of %q", gf.Variant, variant)
			}
			st := replayGolden(t, variantRules(t, variant, string(gf.Options)), gf)
			if gs := gametest.Game[State](st); gs.totals[0] != gf.Totals[0] || gs.totals[1] != gf.Totals[1] || gs.totals[2] != gf.Totals[2] || gs.totals[3] != gf.Totals[3] {
				t.Fatalf("totals %v, recorded %v", gs.totals, gf.Totals)
			}
		})
	}
}

func goldenEvents(t testing.TB, evs []table.Payload) []goldenEvent {
	t.Helper()
	var out []goldenEvent
	for _, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, goldenEvent{Type: e.EventType(), Data: b})
	}
	return out
}

func writeGolden(t *testing.T, path, variant string, id uint64, options string, hands int, noDeclare bool) {
	t.Helper()
	b := goldenBytes(t, recordGolden(t, variant, id, options, hands, noDeclare))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goldenBytes is gf as its golden file holds it.
func goldenBytes(t testing.TB, gf goldenFile) []byte {
	t.Helper()
	b, err := json.MarshalIndent(gf, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestGoldenRecordsAgain records each golden case anew, as -update does,
// and requires the very bytes of its file: the random-hand driver that
// recorded them still plays the same hands (same draws, players, commands),
// so that -update rewrites a golden hand only when the rules change.
func TestGoldenRecordsAgain(t *testing.T) {
	if *update {
		t.Skip("-update rewrites the files TestGolden reads")
	}
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join("testdata", "TestGolden", c.name, "hand.json")
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to record)", err)
			}
			got := goldenBytes(t, recordGolden(t, cmp.Or(c.variant, "ningyang"), c.id, c.options, c.hands, c.noDeclare))
			if !bytes.Equal(got, want) {
				t.Fatalf("recording %s anew gives %d bytes that differ from its %d-byte golden file", c.name, len(got), len(want))
			}
		})
	}
}

// recordGolden plays a table of random legal actions from seed id until
// hands are settled, recording every command and its events.
func recordGolden(t testing.TB, variant string, id uint64, options string, hands int, noDeclare bool) goldenFile {
	t.Helper()
	r := variantRules(t, variant, options)
	gf := goldenFile{Seeds: id, Options: r.Options()}
	if variant != "ningyang" {
		gf.Variant = variant
	}
	c := randomConfig(r, goldenStream, func(uint64) randomOptions { return randomOptions{noDeclare: noDeclare} })
	c.Record = func(cmd gametest.Command) {
		gf.Steps = append(gf.Steps, goldenStep{Join: cmd.Join, Seat: cmd.Seat, Action: cmd.Action, Events: goldenEvents(t, cmd.Events)})
	}
	d := gametest.NewDriver(t, c, id, nil)
	gf.Stake = d.St.Stake
	for d.Settled < hands && !d.St.Closed {
		d.Act()
	}
	gf.Totals = d.St.Totals
	return gf
}

// replayGolden replays a recorded table under r command by command through
// table.Join and table.Act, requiring the very events recorded, and returns
// the table it ends at.
func replayGolden(t *testing.T, r *Rules, gf goldenFile) *table.State {
	t.Helper()
	st := table.New(r.untyped())
	seeds := &gametest.SeedSeq{ID: gf.Seeds}
	evs, err := table.Open(r.untyped(), "t", "shengji", r.v.name, gf.Stake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	gametest.ApplyAll(st, evs)
	for i, step := range gf.Steps {
		var evs []table.Payload
		var err error
		if step.Join != "" {
			evs, err = table.Join(st, step.Join, "", -1, seeds)
		} else {
			evs, err = table.Act(st, step.Seat, *step.Action, seeds)
		}
		if err != nil {
			t.Fatalf("step %d (seat %d %v): %v", i, step.Seat, step.Action, err)
		}
		got := goldenEvents(t, evs)
		if len(got) != len(step.Events) {
			t.Fatalf("step %d: %d events, recorded %d", i, len(got), len(step.Events))
		}
		for k := range got {
			var rec bytes.Buffer
			if err := json.Compact(&rec, step.Events[k].Data); err != nil {
				t.Fatal(err)
			}
			if got[k].Type != step.Events[k].Type || !bytes.Equal(got[k].Data, rec.Bytes()) {
				t.Fatalf("step %d event %d: %s %s, recorded %s %s", i, k, got[k].Type, got[k].Data, step.Events[k].Type, rec.Bytes())
			}
		}
		gametest.ApplyAll(st, evs)
	}
	return st
}
