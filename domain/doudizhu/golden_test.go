package doudizhu

import (
	"cmp"
	"encoding/json"
	"flag"
	"path/filepath"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

var update = flag.Bool("update", false, "rewrite the golden hands under testdata/TestGolden")

// goldenFile is one golden hand: the commands of a table from its opening,
// each with the events it produced, and the totals at the end.
type goldenFile struct {
	Stake  int          `json:"stake"`
	Seeds  uint64       `json:"seeds"` // the seedSeq id the deals are drawn from
	Steps  []goldenStep `json:"steps"`
	Totals []int        `json:"totals"`
}

type goldenStep struct {
	Join   string        `json:"join,omitempty"` // a player joining (lowest free seat)
	Seat   *int          `json:"seat,omitempty"` // or a seat acting
	Action *table.Action `json:"action,omitempty"`
	Events []goldenEvent `json:"events"`
}

type goldenEvent = gametest.Event

// strategy picks the next command at a table: the seat to act and its action.
type strategy func(g *State, step int, legal []table.Action) (seat int, a table.Action)

// lowest plays the first legal action: the lowest bid, the lowest play.
func lowest(g *State, _ int, legal []table.Action) (int, table.Action) { return g.turn, legal[0] }

// topBid bids 3 at once, then plays as lowest.
func topBid(g *State, step int, legal []table.Action) (int, table.Action) {
	if g.phase == phaseBidding {
		return g.turn, legal[len(legal)-2]
	}
	return lowest(g, step, legal)
}

// passIf passes whenever seat may and should pass, else plays as topBid.
func passIf(should func(g *State) bool) strategy {
	return func(g *State, step int, legal []table.Action) (int, table.Action) {
		if g.phase == phasePlaying && g.last != nil && should(g) {
			return g.turn, passA()
		}
		return topBid(g, step, legal)
	}
}

type goldenCase struct {
	name  string
	stake int
	seeds uint64
	play  strategy
}

// variantCase is a golden hand of another variant than classic, with the
// multiplier its settlement must show (doudizhu.md, Scoring, hubei; seed 004
// 翻倍 and 抢地主).
type variantCase struct {
	goldenCase
	variant string
	shows   func(Result) bool
}

// goldenCases are the recorded hands and how they were played.
func goldenCases() []goldenCase {
	return []goldenCase{
		{"bids_1_2_3_farmers_win", 1, 1, lowest},
		{"spring", 2, 2, passIf(func(g *State) bool { return g.turn != g.landlord })},
		{"anti_spring", 3, 3, passIf(func(g *State) bool { return g.turn == g.landlord })},
		{"all_pass_redeal", 1, 4, func(g *State, step int, legal []table.Action) (int, table.Action) {
			if g.phase == phaseBidding && g.deal == 1 {
				return g.turn, passA()
			}
			return lowest(g, step, legal)
		}},
		{"landlord_escapes", 5, 5, func(g *State, step int, legal []table.Action) (int, table.Action) {
			if step == 12 {
				return g.landlord, table.Action{Type: table.ActionEscape}
			}
			return topBid(g, step, legal)
		}},
		{"escape_during_bidding", 2, 6, func(g *State, step int, legal []table.Action) (int, table.Action) {
			if step == 1 {
				return (g.turn + 1) % 3, table.Action{Type: table.ActionEscape}
			}
			return lowest(g, step, legal)
		}},
	}
}

// TestGolden replays whole hands recorded under testdata/TestGolden through
// table.Join, table.Act (the game's Decide) and table.Apply: every command
// must produce exactly the recorded events, every recorded event must decode,
// and every deal must be what its revealed seed deals. -update re-records
// them by playing each case's strategy.
func TestGolden(t *testing.T) {
	var cases []variantCase
	for _, c := range goldenCases() {
		cases = append(cases, variantCase{goldenCase: c})
	}
	for _, tc := range append(cases, hubeiGoldenCases()...) {
		t.Run(tc.name, func(t *testing.T) {
			r := rulesOf(t, cmp.Or(tc.variant, "classic"), "")
			path := filepath.Join("testdata", "TestGolden", tc.name, "hand.json")
			if *update {
				writeGolden(t, path, recordGolden(t, r, tc.stake, tc.seeds, tc.play))
			}
			var f goldenFile
			gametest.ReadJSON(t, path, &f)
			replayGolden(t, r, &f)
			if tc.shows != nil {
				var last Result
				for _, s := range f.Steps {
					for _, e := range s.Events {
						if e.Type == "HandSettled" {
							var hs table.HandSettled
							if err := json.Unmarshal(e.Data, &hs); err != nil {
								t.Fatal(err)
							}
							if err := json.Unmarshal(hs.Result, &last); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
				if !tc.shows(last) {
					t.Fatalf("the golden hand settles with %+v, which does not show the multiplier the case is named for (doudizhu.md, Scoring, hubei)", last)
				}
			}
		})
	}
}

func recordGolden(t *testing.T, r *Rules, stake int, seedID uint64, play strategy) *goldenFile {
	f := &goldenFile{Stake: stake, Seeds: seedID}
	seeds := &gametest.SeedSeq{ID: seedID}
	st := table.New(r.untyped())
	record := func(s goldenStep, evs []table.Payload) {
		s.Events = gametest.Record(t, evs)
		for _, e := range evs {
			table.Apply(st, e)
		}
		f.Steps = append(f.Steps, s)
	}
	evs, err := table.Open(r.untyped(), "golden", "doudizhu", r.v.name, stake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	record(goldenStep{}, evs)
	for _, p := range []string{"p0", "p1", "p2", "p3"}[:r.v.seats] {
		evs, err := table.Join(st, p, p, -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		record(goldenStep{Join: p}, evs)
	}
	for step := 0; st.Last == nil; step++ {
		g := gametest.Game[State](st)
		seat, a := play(g, step, r.Legal(g, g.turn))
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

func replayGolden(t *testing.T, r *Rules, f *goldenFile) {
	seeds := &gametest.SeedSeq{ID: f.Seeds}
	st := table.New(r.untyped())
	var deals []table.HandDealt
	for i, s := range f.Steps {
		var evs []table.Payload
		var err error
		switch {
		case i == 0:
			evs, err = table.Open(r.untyped(), "golden", "doudizhu", r.v.name, f.Stake, "p0")
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
			case table.DealVoided:
				auditDeal(t, r, deals[len(deals)-1], d.Seed)
			case table.HandSettled:
				auditDeal(t, r, deals[len(deals)-1], d.Seed)
			}
		}
	}
	if !slices.Equal(st.Totals, f.Totals) {
		t.Fatalf("totals %v, the golden hand records %v", st.Totals, f.Totals)
	}
}

// auditDeal re-deals from the revealed seed as doc.go describes and compares.
func auditDeal(t *testing.T, r *Rules, d table.HandDealt, hexSeed string) {
	seed, err := cards.ParseSeed(hexSeed)
	if err != nil || seed.Commitment() != d.Commitment {
		t.Fatalf("hand %d deal %d: revealed seed %q does not open the commitment %s (rules/README.md, Shuffling)", d.Hand, d.Deal, hexSeed, d.Commitment)
	}
	n := r.v.seats
	deck, _ := cards.Shuffled(seed, r.v.decks)
	for seat := range n {
		var want []cards.Card
		for i := seat; i < n*r.v.handSize(); i += n {
			want = append(want, deck[i])
		}
		climb.Sort(want)
		if !slices.Equal(d.Hands[seat], want) {
			t.Fatalf("hand %d deal %d seat %d: dealt %s, the seed deals %s (doc.go, Dealing)", d.Hand, d.Deal, seat, cards.Format(d.Hands[seat]), cards.Format(want))
		}
	}
}
