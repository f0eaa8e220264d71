package tournament_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/domain/tournament"
)

type seqIDs struct{ n int }

func (s *seqIDs) NewID() string { s.n++; return fmt.Sprintf("T%02d", s.n) }

func run(t *testing.T, st *tournament.State, stream *[]table.Payload, evs []table.Payload, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		tournament.Apply(st, e)
	}
	*stream = append(*stream, evs...)
}

func open(t *testing.T, players int) (*tournament.State, *[]table.Payload, cards.Seed) {
	t.Helper()
	var seed cards.Seed
	seed[0], seed[31] = 7, 9
	st := tournament.New()
	stream := &[]table.Payload{}
	evs, err := tournament.Open(tournament.Opening{ID: "X", Game: "doudizhu", Variant: "classic", Format: "elimination", Players: players, HandsPerTable: 5, Stake: 1, OpenedBy: "p00"}, seed)
	run(t, st, stream, evs, err)
	ids := &seqIDs{}
	for i := range players {
		evs, err := tournament.Register(st, fmt.Sprintf("p%02d", i), "", ids)
		run(t, st, stream, evs, err)
	}
	return st, stream, seed
}

// result gives seat first the win with totals by seat, hands lost all 1.
func result(players []string, totals []int, lost []int) []tournament.Standing {
	var out []tournament.Standing
	for seat, p := range players {
		place := 1
		for _, o := range totals {
			if o > totals[seat] {
				place++
			}
		}
		out = append(out, tournament.Standing{Seat: seat, PlayerID: p, Place: place, Total: totals[seat], HandsLost: lost[seat]})
	}
	return out
}

func TestTournamentTwelvePlayersTopUpToAFinal(t *testing.T) {
	st, stream, seed := open(t, 12)
	if st.Status != tournament.StatusRunning || len(st.Rounds) != 1 || len(st.Current().Tables) != 4 {
		t.Fatalf("after 12 registrations: status %s, rounds %d", st.Status, len(st.Rounds))
	}
	ids := &seqIDs{n: 100}
	// Round 1: seat 0 wins each table; seat 1 scores 2 at tables 0 and 1
	// (hands lost 3 and 1) and 1 at tables 2 and 3: the two brought back are
	// table 1's seat 1 (fewer hands lost) and then table 0's seat 1.
	r1 := st.Current().Tables
	lost := [][]int{{0, 3, 4}, {0, 1, 4}, {0, 1, 4}, {0, 1, 4}}
	sec := []int{2, 2, 1, 1}
	for i, tb := range r1 {
		evs, err := tournament.Record(st, tb.TableID, 5, result(tb.Players, []int{6, sec[i], -6 - sec[i]}, lost[i]), ids)
		run(t, st, stream, evs, err)
	}
	adv := st.Rounds[0].Advanced
	if adv == nil || len(adv.Winners) != 4 || len(adv.BroughtBack) != 2 || len(st.Rounds) != 2 {
		t.Fatalf("round 1 advanced %+v, rounds %d", adv, len(st.Rounds))
	}
	if want := []string{r1[1].Players[1], r1[0].Players[1]}; !slices.Equal(adv.BroughtBack, want) {
		t.Fatalf("brought back %v, want %v (points, then fewer hands lost)", adv.BroughtBack, want)
	}
	// Round 2: two tables, two winners and one brought back by registration
	// order among equal points and hands lost.
	r2 := st.Current().Tables
	if len(r2) != 2 {
		t.Fatalf("round 2 has %d tables", len(r2))
	}
	for _, tb := range r2 {
		_, err := tournament.Record(st, tb.TableID, 5, result(tb.Players, []int{-4, 2, 2}, []int{2, 1, 1}), ids)
		if err == nil {
			t.Fatal("a tie for first was accepted as a result")
		}
		if !errors.Is(err, tournament.ErrBadResult) {
			t.Fatalf("tie: %v", err)
		}
		evs, err := tournament.Record(st, tb.TableID, 6, result(tb.Players, []int{-4, 1, 3}, []int{2, 1, 1}), ids)
		run(t, st, stream, evs, err)
	}
	adv = st.Rounds[1].Advanced
	second := []string{r2[0].Players[1], r2[1].Players[1]}
	slices.SortFunc(second, func(a, b string) int { return st.Registration(a) - st.Registration(b) })
	if len(adv.BroughtBack) != 1 || adv.BroughtBack[0] != second[0] {
		t.Fatalf("round 2 brought back %v, want %s (earlier registration)", adv.BroughtBack, second[0])
	}
	final := st.Current().Tables
	if len(final) != 1 {
		t.Fatalf("final round has %d tables", len(final))
	}
	evs, err := tournament.Record(st, final[0].TableID, 5, result(final[0].Players, []int{1, 5, -6}, []int{1, 1, 3}), ids)
	run(t, st, stream, evs, err)
	if st.Status != tournament.StatusEnded || st.Winner != final[0].Players[1] || st.Seed != seed.String() {
		t.Fatalf("ended %s winner %s seed %s", st.Status, st.Winner, st.Seed)
	}
	// The draw of every round re-derived from the revealed seed.
	revealed, err := cards.ParseSeed(st.Seed)
	if err != nil || revealed.Commitment() != st.Commitment {
		t.Fatalf("revealed seed %s does not match the commitment", st.Seed)
	}
	for _, p := range *stream {
		if rs, ok := p.(tournament.RoundStarted); ok {
			if got := tournament.Draw(revealed, rs.Round, rs.Field); !slices.Equal(got, rs.Seating) {
				t.Fatalf("round %d seating %v, redrawn %v", rs.Round, rs.Seating, got)
			}
		}
	}
	if _, err := tournament.Redecide(*stream); err != nil {
		t.Fatal(err)
	}
	// A tampered stream is caught: swap two players of a table.
	bad := slices.Clone(*stream)
	for i, p := range bad {
		if ta, ok := p.(tournament.TableAssigned); ok {
			ta.Players = []string{ta.Players[1], ta.Players[0], ta.Players[2]}
			bad[i] = ta
			break
		}
	}
	var f *tournament.Fault
	if _, err := tournament.Redecide(bad); !errors.As(err, &f) {
		t.Fatalf("a tampered seating verified: %v", err)
	}
}

func TestTournamentRefusesBadCommands(t *testing.T) {
	var seed cards.Seed
	for _, o := range []tournament.Opening{
		{Format: "elimination", Players: 4, HandsPerTable: 5, Stake: 1},
		{Format: "elimination", Players: 0, HandsPerTable: 5, Stake: 1},
		{Format: "elimination", Players: 3, HandsPerTable: 0, Stake: 1},
		{Format: "swiss", Players: 3, HandsPerTable: 5, Stake: 1},
		{Format: "elimination", Players: 3, HandsPerTable: 5, Stake: 0},
	} {
		if _, err := tournament.Open(o, seed); !errors.Is(err, table.ErrBadOption) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	st, _, _ := open(t, 3)
	if _, err := tournament.Register(st, "late", "", &seqIDs{}); !errors.Is(err, tournament.ErrFull) {
		t.Errorf("a fourth player in a full tournament: %v", err)
	}
	tb := st.Current().Tables[0]
	if _, err := tournament.Record(st, "nope", 5, result(tb.Players, []int{1, 0, -1}, []int{0, 1, 1}), &seqIDs{}); !errors.Is(err, tournament.ErrUnknownTable) {
		t.Errorf("a result for an unknown table: %v", err)
	}
	wrong := result([]string{tb.Players[1], tb.Players[0], tb.Players[2]}, []int{1, 0, -1}, []int{0, 1, 1})
	if _, err := tournament.Record(st, tb.TableID, 5, wrong, &seqIDs{}); !errors.Is(err, tournament.ErrBadResult) {
		t.Errorf("a result naming players at the wrong seats: %v", err)
	}
	if _, err := tournament.Record(st, tb.TableID, 4, result(tb.Players, []int{1, 0, -1}, []int{0, 1, 1}), &seqIDs{}); !errors.Is(err, tournament.ErrBadResult) {
		t.Errorf("a match shorter than hands_per_table: %v", err)
	}
}

func TestTournamentDuplicateMatchpoints(t *testing.T) {
	var seed cards.Seed
	seed[3] = 1
	st := tournament.New()
	stream := &[]table.Payload{}
	evs, err := tournament.Open(tournament.Opening{ID: "D", Game: "doudizhu", Variant: "classic", Format: "duplicate", Players: 9, HandsPerTable: 2, Stake: 1}, seed)
	run(t, st, stream, evs, err)
	ids := &seqIDs{}
	for i := range 9 {
		evs, err := tournament.Register(st, fmt.Sprintf("p%d", i), "", ids)
		run(t, st, stream, evs, err)
	}
	if secret, ok := st.DealsSecret(); !ok || secret != tournament.DealsSecretOf(seed) {
		t.Fatal("a duplicate tournament has no deals secret")
	}
	tabs := st.Current().Tables
	// Hand 1 on deal 1 everywhere; hand 2: table 2 re-dealt (deal 2), so it
	// is compared with nobody on that hand.
	scores := [][]tournament.HandScore{
		{{Hand: 1, Deal: 1, Deltas: []int{2, -1, -1}}, {Hand: 2, Deal: 1, Deltas: []int{-2, 1, 1}}},
		{{Hand: 1, Deal: 1, Deltas: []int{2, -2, 0}}, {Hand: 2, Deal: 1, Deltas: []int{-4, 2, 2}}},
		{{Hand: 1, Deal: 1, Deltas: []int{-4, 2, 2}}, {Hand: 2, Deal: 2, Deltas: []int{6, -3, -3}}},
	}
	if _, err := tournament.RecordDuplicate(st, tabs[0].TableID, scores[0][:1]); !errors.Is(err, tournament.ErrBadResult) {
		t.Fatalf("a result short of a hand: %v", err)
	}
	if _, err := tournament.Record(st, tabs[0].TableID, 2, result(tabs[0].Players, []int{1, 0, -1}, []int{0, 1, 1}), ids); !errors.Is(err, tournament.ErrBadResult) {
		t.Fatalf("an elimination result in a duplicate: %v", err)
	}
	for i, tb := range tabs {
		evs, err := tournament.RecordDuplicate(st, tb.TableID, scores[i])
		run(t, st, stream, evs, err)
	}
	if st.Status != tournament.StatusEnded || len(st.Scores) != 9 {
		t.Fatalf("status %s, %d scores", st.Status, len(st.Scores))
	}
	mp := map[string]float64{}
	for _, sc := range st.Scores {
		mp[sc.PlayerID] = sc.Matchpoints
	}
	// Seat 0: hand 1 — tables 0 and 1 tie at 2 and beat table 2's −4; hand
	// 2 — table 0 (−2) beats table 1 (−4).
	want := map[string]float64{
		tabs[0].Players[0]: 1.5 + 1, tabs[1].Players[0]: 1.5 + 0, tabs[2].Players[0]: 0,
		// Seat 1: hand 1 — −1, −2, 2; hand 2 — 1 vs 2.
		tabs[0].Players[1]: 1 + 0, tabs[1].Players[1]: 0 + 1, tabs[2].Players[1]: 2,
	}
	for p, w := range want {
		if mp[p] != w {
			t.Errorf("%s: %v matchpoints, want %v", p, mp[p], w)
		}
	}
	if st.Winner != st.Scores[0].PlayerID || st.Seed != seed.String() {
		t.Fatalf("winner %s, scores %+v", st.Winner, st.Scores)
	}
	if _, err := tournament.Redecide(*stream); err != nil {
		t.Fatal(err)
	}
}

func TestTournamentRedact(t *testing.T) {
	if tournament.Redact(tournament.Secret{Seed: "00"}, true) != nil {
		t.Error("the secret is shown")
	}
	res := tournament.DuplicateResult{TableID: "A", Hands: []tournament.HandScore{{Hand: 1, Deal: 1, Deltas: []int{2, -1, -1}}}}
	if got := tournament.Redact(res, false).(tournament.DuplicateResult); got.Hands != nil || got.TableID != "A" {
		t.Errorf("a running duplicate's result shows %+v", got)
	}
	if got := tournament.Redact(res, true).(tournament.DuplicateResult); len(got.Hands) != 1 {
		t.Errorf("an ended duplicate's result hides its hands: %+v", got)
	}
}

// TestTournamentPartnershipMatchpoints: a duplicate of a partnership game
// (升级) seats four to a table and compares sides, seats 0/2 and 1/3: a
// side's score of a hand is its two seats' settlements together (they
// differ after an escape), and both partners get the side's matchpoints.
func TestTournamentPartnershipMatchpoints(t *testing.T) {
	var seed cards.Seed
	seed[5] = 4
	o := tournament.Opening{ID: "S", Game: "shengji", Variant: "ningyang", Format: "duplicate", Players: 12, HandsPerTable: 2, Stake: 1, Seats: 4, Partnerships: true}
	for _, bad := range []func(o *tournament.Opening){
		func(o *tournament.Opening) { o.Players = 4 },                        // a single table compares nothing
		func(o *tournament.Opening) { o.Players = 18 },                       // not a multiple of 4
		func(o *tournament.Opening) { o.Format = "elimination" },             // no partnership elimination
		func(o *tournament.Opening) { o.Partnerships = false },               // four seats, no sides
		func(o *tournament.Opening) { o.Seats, o.Partnerships = 3, true },    // sides of three seats
		func(o *tournament.Opening) { o.Seats, o.Partnerships = 5, false },   // no such table
		func(o *tournament.Opening) { o.Seats, o.Partnerships = 0, true },    // sides without seats
		func(o *tournament.Opening) { o.Seats, o.HandsPerTable = 4, 0 },      // no hands
		func(o *tournament.Opening) { o.Players, o.Partnerships = 6, false }, // 6 at tables of 4
	} {
		b := o
		bad(&b)
		if _, err := tournament.Open(b, seed); !errors.Is(err, table.ErrBadOption) {
			t.Errorf("open %+v: %v", b, err)
		}
	}
	st := tournament.New()
	stream := &[]table.Payload{}
	evs, err := tournament.Open(o, seed)
	run(t, st, stream, evs, err)
	if st.Seats != 4 || !st.Partnerships || st.TableSeats() != 4 {
		t.Fatalf("opened %+v", st.Opened)
	}
	ids := &seqIDs{}
	for i := range 12 {
		evs, err := tournament.Register(st, fmt.Sprintf("p%02d", i), "", ids)
		run(t, st, stream, evs, err)
	}
	rd := st.Current()
	if len(rd.Tables) != 3 {
		t.Fatalf("12 players at tables of four: %d tables", len(rd.Tables))
	}
	seating := tournament.Draw(seed, 1, rd.Field)
	for i, tb := range rd.Tables {
		if !slices.Equal(tb.Players, seating[4*i:4*i+4]) {
			t.Fatalf("table %d seats %v, the draw %v", i, tb.Players, seating[4*i:4*i+4])
		}
	}
	tabs := rd.Tables
	if _, err := tournament.RecordDuplicate(st, tabs[0].TableID, []tournament.HandScore{{Hand: 1, Deal: 1, Deltas: []int{2, -1, -1}}, {Hand: 2, Deal: 1, Deltas: []int{2, -1, -1}}}); !errors.Is(err, tournament.ErrBadResult) {
		t.Fatalf("three settlements at a table of four: %v", err)
	}
	// Table 2's second hand ended in seat 1's escape: it paid 16, every
	// other seat got 1, so its side scores −15 and the other side 2.
	scores := [][]tournament.HandScore{
		{{Hand: 1, Deal: 1, Deltas: []int{2, -2, 2, -2}}, {Hand: 2, Deal: 1, Deltas: []int{-1, 1, -1, 1}}},
		{{Hand: 1, Deal: 1, Deltas: []int{2, -2, 2, -2}}, {Hand: 2, Deal: 1, Deltas: []int{3, -3, 3, -3}}},
		{{Hand: 1, Deal: 1, Deltas: []int{-4, 4, -4, 4}}, {Hand: 2, Deal: 1, Deltas: []int{1, -16, 1, 1}}},
	}
	for i, tb := range tabs {
		evs, err := tournament.RecordDuplicate(st, tb.TableID, scores[i])
		run(t, st, stream, evs, err)
	}
	if st.Status != tournament.StatusEnded || len(st.Scores) != 12 {
		t.Fatalf("status %s, %d scores", st.Status, len(st.Scores))
	}
	// Side 0/2: hand 1 — 4, 4, −8; hand 2 — −2, 6, 2. Side 1/3: hand 1 —
	// −4, −4, 8; hand 2 — 2, −6, −15.
	side := [3][2]float64{{0.5 + 1 + 0, 0.5 + 0 + 2}, {1.5 + 2, 0.5 + 1}, {0 + 1, 2 + 0}}
	by := map[string]tournament.Score{}
	total := 0.0
	for _, sc := range st.Scores {
		by[sc.PlayerID] = sc
		total += sc.Matchpoints
	}
	for i, tb := range tabs {
		for seat, p := range tb.Players {
			if got, want := by[p].Matchpoints, side[i][seat%2]; got != want {
				t.Errorf("table %d seat %d: %v matchpoints, want %v", i, seat, got, want)
			}
			if got, want := by[p].Points, scores[i][0].Deltas[seat]+scores[i][1].Deltas[seat]; got != want {
				t.Errorf("table %d seat %d: %d points, want %d", i, seat, got, want)
			}
		}
	}
	// Each hand, each side, three tables: three comparisons worth 1 each,
	// counted once per partner.
	if total != 2*2*3*2 {
		t.Errorf("matchpoints sum to %v", total)
	}
	// The leading side's partners tie on matchpoints and points: the
	// earlier registration is first.
	lead := []string{tabs[1].Players[0], tabs[1].Players[2]}
	slices.Sort(lead)
	if st.Winner != lead[0] || st.Scores[1].PlayerID != lead[1] {
		t.Fatalf("winner %s, scores %+v", st.Winner, st.Scores)
	}
	if _, err := tournament.Redecide(*stream); err != nil {
		t.Fatal(err)
	}
}

// TestTournamentThreeSeatOpenedUnchanged: a three-seat tournament's
// TournamentOpened records no seats or partnerships, as before tables of
// four existed, so its stream reads and re-decides as it did.
func TestTournamentThreeSeatOpenedUnchanged(t *testing.T) {
	var seed cards.Seed
	for _, seats := range []int{0, 3} {
		evs, err := tournament.Open(tournament.Opening{ID: "D", Game: "doudizhu", Variant: "classic", Format: "duplicate", Players: 6, HandsPerTable: 1, Stake: 1, Seats: seats}, seed)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(evs[0])
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "seats") || strings.Contains(string(b), "partnerships") {
			t.Errorf("seats %d: %s", seats, b)
		}
	}
}

// TestTournamentWithdraw: a player may give up their place while the
// tournament registers, and take one again; the field is filled and drawn
// from those registered when it fills, in their registration order, and the
// stream with the withdrawal re-decides. Nobody may withdraw who is not
// registered, nor once the tournament has started.
func TestTournamentWithdraw(t *testing.T) {
	var seed cards.Seed
	seed[0] = 3
	st := tournament.New()
	stream := &[]table.Payload{}
	evs, err := tournament.Open(tournament.Opening{ID: "W", Game: "doudizhu", Variant: "classic", Format: "elimination", Players: 3, HandsPerTable: 1, Stake: 1}, seed)
	run(t, st, stream, evs, err)
	ids := &seqIDs{}
	for _, p := range []string{"a", "b"} {
		evs, err := tournament.Register(st, p, p, ids)
		run(t, st, stream, evs, err)
	}
	if _, err := tournament.Withdraw(st, "c"); !errors.Is(err, tournament.ErrNotEntrant) {
		t.Fatalf("withdraw c, never registered: got %v, want not_registered", err)
	}
	evs, err = tournament.Withdraw(st, "a")
	if len(evs) != 1 || evs[0] != (tournament.Withdrew{PlayerID: "a"}) {
		t.Fatalf("withdraw a: got %v %v, want one TournamentPlayerWithdrew", evs, err)
	}
	run(t, st, stream, evs, err)
	if got := st.Entrants; len(got) != 1 || got[0].PlayerID != "b" {
		t.Fatalf("after a withdrew: entrants %+v, want b alone", got)
	}
	if _, err := tournament.Withdraw(st, "a"); !errors.Is(err, tournament.ErrNotEntrant) {
		t.Fatalf("withdraw a twice: got %v, want not_registered", err)
	}
	// Three registrations fill the field: c, then a again, after b.
	for _, p := range []string{"c", "a"} {
		evs, err := tournament.Register(st, p, p, ids)
		run(t, st, stream, evs, err)
	}
	if st.Status != tournament.StatusRunning {
		t.Fatalf("b, c and a registered in a field of 3: status %s, want running", st.Status)
	}
	if f := st.Rounds[0].Field; !slices.Equal(f, []string{"b", "c", "a"}) {
		t.Fatalf("round 1's field %v, want the registration order b c a", f)
	}
	if _, err := tournament.Withdraw(st, "b"); !errors.Is(err, tournament.ErrFull) {
		t.Fatalf("withdraw once started: got %v, want tournament_full (registration closed)", err)
	}
	re, err := tournament.Redecide(*stream)
	if err != nil {
		t.Fatalf("re-decide a stream with a withdrawal: %v", err)
	}
	if !slices.Equal(re.Rounds[0].Field, st.Rounds[0].Field) {
		t.Fatalf("re-decided field %v, want %v", re.Rounds[0].Field, st.Rounds[0].Field)
	}
	// A withdrawal the decider would refuse does not re-decide.
	forged := slices.Clone((*stream)[:4])
	forged = append(forged, tournament.Withdrew{PlayerID: "z"})
	if _, err := tournament.Redecide(forged); err == nil {
		t.Fatal("a stream withdrawing a player never registered re-decides")
	}
}
