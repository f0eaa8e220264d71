package projectionstest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/domain/tournament"
	"paiju/projections"
)

// TournamentLog is a log holding tournaments decided by the tournament
// aggregate itself, with the state the aggregate folded after each event.
type TournamentLog struct {
	*Log
	// States[i] is each tournament's state (by id) after the log's event
	// i+1; only the tournaments opened by then are there.
	States []map[string]*tournament.State
	IDs    []string
}

type seqIDs struct {
	prefix string
	n      int
}

func (s *seqIDs) NewID() string { s.n++; return fmt.Sprintf("%s%02d", s.prefix, s.n) }

// NewTournamentLog plays, with the random results of seed, a 12-player
// elimination (whose rounds bring players back), a 6-player duplicate
// tournament and a table's hands between their events.
func NewTournamentLog(seed uint64) *TournamentLog { return tournamentLog(seed, 12, true) }

// BigTournamentLog is NewTournamentLog's log with an elimination of
// players (a multiple of 3), without the states.
func BigTournamentLog(seed uint64, players int) *TournamentLog {
	return tournamentLog(seed, players, false)
}

func tournamentLog(seed uint64, players int, keepStates bool) *TournamentLog {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b9))
	tl := &TournamentLog{Log: NewLog(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))}
	states := map[string]*tournament.State{}
	snapshot := func() {
		if !keepStates {
			return
		}
		m := make(map[string]*tournament.State, len(states))
		for id, st := range states {
			cp := *st
			cp.Entrants = slices.Clone(st.Entrants)
			cp.Rounds = slices.Clone(st.Rounds)
			for i := range cp.Rounds {
				cp.Rounds[i].Tables = slices.Clone(cp.Rounds[i].Tables)
			}
			cp.Eliminated = make(map[string]int, len(st.Eliminated))
			for k, v := range st.Eliminated {
				cp.Eliminated[k] = v
			}
			m[id] = &cp
		}
		tl.States = append(tl.States, m)
	}
	add := func(id string, evs []table.Payload, err error) {
		if err != nil {
			panic(err)
		}
		for _, e := range evs {
			tournament.Apply(states[id], e)
			tl.Add("tournament-"+id, time.Second, e)
			snapshot()
		}
	}
	tableEvent := func(p table.Payload) {
		tl.Add("table-X1", time.Second, p)
		snapshot()
	}
	tableEvent(table.TableOpened{TableID: "X1", Game: "g", Variant: "v", Seats: 3, Stake: 1})
	hand := 0
	open := func(id, format string, players int) *seqIDs {
		var seed cards.Seed
		for i := range seed {
			seed[i] = byte(r.IntN(256))
		}
		states[id] = tournament.New()
		tl.IDs = append(tl.IDs, id)
		evs, err := tournament.Open(tournament.Opening{ID: id, Game: "doudizhu", Variant: "classic", Format: format,
			Players: players, HandsPerTable: 3, Stake: 1, OpenedBy: "p00"}, seed)
		add(id, evs, err)
		ids := &seqIDs{prefix: id + "-t"}
		for i := range players {
			st := states[id]
			evs, err := tournament.Register(st, fmt.Sprintf("%s-p%02d", id, i), fmt.Sprintf("name %d", i), ids)
			add(id, evs, err)
			if i == 2 {
				// The first to register withdraws (the others move up
				// one place) and registers again last, filling the field.
				evs, err := tournament.Withdraw(st, id+"-p00")
				add(id, evs, err)
			}
		}
		evs, err = tournament.Register(states[id], id+"-p00", "name 0", ids)
		add(id, evs, err)
		return ids
	}
	// Elimination: each table's seats score a random split with one first
	// and sometimes a tie for second.
	ids := open("E", tournament.FormatElimination, players)
	for states["E"].Status == tournament.StatusRunning {
		st := states["E"]
		rd := st.Current()
		for _, tb := range rd.Tables {
			if tb.Done() {
				continue
			}
			totals := []int{6, -2, -4}
			if r.IntN(3) == 0 {
				totals = []int{4, -2, -2}
			}
			r.Shuffle(3, func(i, j int) { totals[i], totals[j] = totals[j], totals[i] })
			var sts []tournament.Standing
			for seat, p := range tb.Players {
				place := 1
				for _, o := range totals {
					if o > totals[seat] {
						place++
					}
				}
				sts = append(sts, tournament.Standing{Seat: seat, PlayerID: p, Place: place, Total: totals[seat], HandsLost: r.IntN(3)})
			}
			evs, err := tournament.Record(st, tb.TableID, 3, sts, ids)
			add("E", evs, err)
			hand++
			tableEvent(table.HandSettled{Hand: hand, Deltas: []int{1, -2, 1}})
			break
		}
	}
	// Duplicate: two tables play the same three deals.
	open("D", tournament.FormatDuplicate, 6)
	for states["D"].Status == tournament.StatusRunning {
		st := states["D"]
		for _, tb := range st.Current().Tables {
			if tb.Done() {
				continue
			}
			var hs []tournament.HandScore
			for h := 1; h <= 3; h++ {
				a, b := r.IntN(3)-1, r.IntN(3)-1
				hs = append(hs, tournament.HandScore{Hand: h, Deal: h, Deltas: []int{2 * a, -a + b, -a - b}})
			}
			evs, err := tournament.RecordDuplicate(st, tb.TableID, hs)
			add("D", evs, err)
			break
		}
	}
	return tl
}

// StateStandings is a tournament's standings as its aggregate's state
// gives them (GET /v1/tournaments/{id}'s rule): one line per player, in
// order, of the facts both keep.
func StateStandings(st *tournament.State) []string {
	type row struct {
		id, status, table string
		round, points     int
	}
	var rows []row
	for _, e := range st.Entrants {
		x := row{id: e.PlayerID}
		done := false
		for _, rd := range st.Rounds {
			for _, tb := range rd.Tables {
				if !slices.Contains(tb.Players, e.PlayerID) {
					continue
				}
				x.round, x.table, x.points, done = rd.Number, tb.TableID, 0, tb.Done()
				if tb.Result != nil {
					for _, s := range tb.Result.Standings {
						if s.PlayerID == e.PlayerID {
							x.points = s.Total
						}
					}
				}
			}
		}
		switch {
		case st.Winner == e.PlayerID:
			x.status = projections.StandingWinner
		case st.Eliminated[e.PlayerID] > 0:
			x.status = projections.StandingEliminated
		case st.Status == tournament.StatusEnded:
			x.status = projections.StandingFinished
		case st.Status == tournament.StatusRegistering:
			x.status = projections.StandingRegistered
		case done:
			x.status = projections.StandingWaiting
		default:
			x.status = projections.StandingPlaying
		}
		if x.status != projections.StandingPlaying {
			x.table = ""
		}
		rows = append(rows, x)
	}
	rank := func(x row) int {
		switch x.status {
		case projections.StandingWinner:
			return 0
		case projections.StandingEliminated:
			return 2
		}
		return 1
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		if a.round != b.round {
			return b.round - a.round
		}
		return b.points - a.points
	})
	if st.Scores != nil {
		pos := map[string]int{}
		for i, sc := range st.Scores {
			pos[sc.PlayerID] = i
		}
		for i := range rows {
			rows[i].points = st.Scores[pos[rows[i].id]].Points
		}
		slices.SortStableFunc(rows, func(a, b row) int { return pos[a.id] - pos[b.id] })
	}
	out := make([]string, len(rows))
	for i, x := range rows {
		out[i] = fmt.Sprintf("%s %s round %d points %d table %q", x.id, x.status, x.round, x.points, x.table)
	}
	return out
}

// StandingLines is the projection's standings in StateStandings's form.
func StandingLines(ss []projections.Standing) []string {
	out := make([]string, len(ss))
	for i, x := range ss {
		tid := ""
		if x.TableID != nil {
			tid = *x.TableID
		}
		out[i] = fmt.Sprintf("%s %s round %d points %d table %q", x.PlayerID, x.Status, x.Round, x.Points, tid)
	}
	return out
}

// TournamentSnapshot is every read of the tournaments projection for the
// tournaments of tl, as text.
func TournamentSnapshot(t testing.TB, db DB, tl *TournamentLog) string {
	t.Helper()
	ctx := context.Background()
	var b []byte
	for _, id := range append(slices.Clone(tl.IDs), "nope") {
		s, err := db.TournamentStandings(ctx, id)
		if err != nil {
			b = fmt.Appendf(b, "%s: %s\n", id, errName(t, "standings", err))
			continue
		}
		s.Position = 0 // where the projection stood, not what it holds
		b = fmt.Appendf(b, "%s: %s\n", id, mustJSON(t, s))
	}
	for _, status := range []string{"", tournament.StatusRegistering, tournament.StatusRunning, tournament.StatusEnded} {
		pages(t, "tournaments "+status, func(what string, v any, err error) {
			if err != nil {
				b = fmt.Appendf(b, "%s: %s\n", what, errName(t, what, err))
				return
			}
			b = fmt.Appendf(b, "%s: %s\n", what, mustJSON(t, v))
		}, func(cursor string) (string, any, error) {
			p, err := db.TournamentList(ctx, projections.TournamentQuery{Status: status, Cursor: cursor, Limit: 1})
			return p.Next, p, err
		})
	}
	return string(b)
}

// testTournaments: after every event the projection's standings are the
// aggregate's; the rows are the same rebuilt from 0, and duplicate
// delivery changes nothing.
func testTournaments(t *testing.T, open Opener) {
	ctx := context.Background()
	tl := NewTournamentLog(22)
	db, _ := open(t, tl.Now)
	const name = projections.Tournaments
	checked := 0
	for i, ev := range tl.Events {
		apply1(t, db, name, ev)
		id, ok := projections.TournamentID(ev.Stream)
		if !ok {
			continue
		}
		st := tl.States[i][id]
		got, err := db.TournamentStandings(ctx, id)
		if err != nil {
			t.Fatalf("after event %d (%s): %v", ev.Position, ev.Type, err)
		}
		if got.Position != ev.Position {
			t.Fatalf("after event %d: standings read at position %d", ev.Position, got.Position)
		}
		if g, w := StandingLines(got.Standings), StateStandings(st); !slices.Equal(g, w) {
			t.Fatalf("after event %d (%s): projection's standings\n%s", ev.Position, ev.Type, Diff(join(g), join(w)))
		}
		tn := got.Tournament
		winner := ""
		if tn.Winner != nil {
			winner = *tn.Winner
		}
		if tn.Status != st.Status || winner != st.Winner || tn.Registered != len(st.Entrants) || tn.Round != len(st.Rounds) || tn.Format != st.Format {
			t.Fatalf("after event %d: tournament %+v, the state says status %s winner %q registered %d round %d", ev.Position, tn, st.Status, st.Winner, len(st.Entrants), len(st.Rounds))
		}
		checked++
	}
	// Both tournaments ended, and the elimination brought players back.
	last := tl.States[len(tl.States)-1]
	for _, id := range tl.IDs {
		if last[id].Status != tournament.StatusEnded {
			t.Fatalf("tournament %s did not end", id)
		}
	}
	brought := 0
	for _, rd := range last["E"].Rounds {
		if rd.Advanced != nil {
			brought += len(rd.Advanced.BroughtBack)
		}
	}
	if brought == 0 || last["D"].Scores == nil {
		t.Fatalf("the log brings back %d players, scores %v", brought, last["D"].Scores)
	}
	want := TournamentSnapshot(t, db, tl)
	e, err := db.TournamentStandings(ctx, "E")
	if err != nil {
		t.Fatal(err)
	}
	elim := 0
	for _, s := range e.Standings {
		if s.EliminatedInRound != nil {
			elim++
			if *s.EliminatedInRound != last["E"].Eliminated[s.PlayerID] {
				t.Fatalf("%s eliminated in round %d, the state says %d", s.PlayerID, *s.EliminatedInRound, last["E"].Eliminated[s.PlayerID])
			}
		}
	}
	if elim != len(last["E"].Eliminated) || elim != 11 {
		t.Fatalf("%d players eliminated in the projection, %d in the state", elim, len(last["E"].Eliminated))
	}
	d, err := db.TournamentStandings(ctx, "D")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range d.Standings {
		sc := last["D"].Scores[i]
		if s.PlayerID != sc.PlayerID || s.Matchpoints == nil || *s.Matchpoints != sc.Matchpoints || s.Points != sc.Points {
			t.Fatalf("duplicate standing %d: %+v, the scores say %+v", i, s, sc)
		}
	}

	// Delivered again, whole and in overlapping batches: nothing changes.
	if n, err := db.ApplyBatch(ctx, name, tl.Events); err != nil || n != 0 {
		t.Fatalf("the log again: applied %d, %v", n, err)
	}
	for i := 0; i+5 <= len(tl.Events); i += 3 {
		if n, err := db.ApplyBatch(ctx, name, tl.Events[i:i+5]); err != nil || n != 0 {
			t.Fatalf("events %d.. again: applied %d, %v", i+1, n, err)
		}
	}
	if got := TournamentSnapshot(t, db, tl); got != want {
		t.Fatalf("after duplicate delivery:\n%s", Diff(got, want))
	}
	// Rebuilt from position 0, and applied in random batches in another
	// store: the same rows.
	if err := projections.Replay(ctx, db, name, tl); err != nil {
		t.Fatal(err)
	}
	if got := TournamentSnapshot(t, db, tl); got != want {
		t.Fatalf("after replay:\n%s", Diff(got, want))
	}
	other, _ := open(t, tl.Now)
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < len(tl.Events); {
		j := min(len(tl.Events), i+1+r.IntN(20))
		if _, err := other.ApplyBatch(ctx, name, tl.Events[i:j]); err != nil {
			t.Fatal(err)
		}
		i = j
	}
	if got := TournamentSnapshot(t, other, tl); got != want {
		t.Fatalf("in batches:\n%s", Diff(got, want))
	}
	if checked == 0 {
		t.Fatal("no tournament event checked")
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// BenchApplyTournaments measures tournament events projected per second: a
// 243-player elimination (five rounds, 121 tables) and a duplicate
// tournament, applied as the feed applies batches of up to 256 events.
func BenchApplyTournaments(b *testing.B, open Opener) {
	tl := BigTournamentLog(9, 243)
	n := 0
	for _, ev := range tl.Events {
		if _, ok := projections.TournamentID(ev.Stream); ok {
			n++
		}
	}
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		db, _ := open(b, tl.Now)
		b.StartTimer()
		for i := 0; i < len(tl.Events); i += 256 {
			if _, err := db.ApplyBatch(ctx, projections.Tournaments, tl.Events[i:min(i+256, len(tl.Events))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "tournament-events/s")
}
