package service_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/audit"
	"paiju/domain/table"
	"paiju/domain/tournament"
	"paiju/service"
)

// TestTournamentNobodyStallsIt: a 9-player elimination where, in round 1,
// one player escapes their match and the others hand their seats to the
// bot, and from round 2 on nobody acts at all: the turn clock and 托管 play
// every table out, and a restart in the middle carries the tournament on
// from the streams alone.
func TestTournamentNobodyStallsIt(t *testing.T) {
	ctx := context.Background()
	e := newLiveEnv(t)
	svc := e.service(false)
	tl, err := svc.OpenTournament(ctx, service.Player{ID: "org", Name: "Org"}, service.TournamentRequest{
		Game: "doudizhu", Variant: "classic", Format: "elimination", Players: 9, HandsPerTable: 2, Stake: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	id := tl.State.TournamentID
	for i := range 9 {
		p := service.Player{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("P%d", i)}
		if tl, err = svc.JoinTournament(ctx, p, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.JoinTournament(ctx, service.Player{ID: "late"}, id); !errors.Is(err, tournament.ErrFull) {
		t.Fatalf("a tenth registration: %v", err)
	}
	r1 := tl.State.Current()
	if r1 == nil || len(r1.Tables) != 3 {
		t.Fatalf("round 1: %+v", r1)
	}
	// Nobody but the drawn player sits at a tournament table.
	if _, err := svc.Join(ctx, service.Player{ID: "intruder"}, r1.Tables[0].TableID, -1, service.NoCond); !errors.Is(err, table.ErrTableFull) && !errors.Is(err, table.ErrSeatReserved) {
		t.Fatalf("an intruder joining a tournament table: %v", err)
	}
	escaper := r1.Tables[0].Players[0]
	for _, tb := range r1.Tables {
		for _, pid := range tb.Players {
			a := table.Action{Type: table.ActionDelegate}
			if pid == escaper {
				a = table.Action{Type: table.ActionEscape}
			}
			if _, err := svc.Act(ctx, service.Player{ID: pid}, tb.TableID, a, service.NoCond); err != nil {
				t.Fatalf("%s %s at %s: %v", pid, a.Type, tb.TableID, err)
			}
		}
	}
	restarted := false
	for range 2000 {
		tl, err = svc.LoadTournament(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if tl.State.Status == tournament.StatusEnded {
			break
		}
		if !restarted && len(tl.State.Rounds) == 2 {
			// A restart: a new service over the same file, its schedule
			// rebuilt from the streams.
			e.reopen()
			svc = e.service(false)
			if err := svc.Resume(ctx); err != nil {
				t.Fatal(err)
			}
			restarted = true
		}
		svc.RunDue(ctx)
		e.clock.Advance(time.Duration(table.DefaultTurnSeconds) * time.Second)
	}
	st := tl.State
	if st.Status != tournament.StatusEnded {
		t.Fatalf("the tournament stalled: %s after %d rounds", st.Status, len(st.Rounds))
	}
	if !restarted || len(st.Rounds) != 2 || len(st.Rounds[1].Tables) != 1 {
		t.Fatalf("9 players: want 3 tables then a final, got %d rounds (restarted %v)", len(st.Rounds), restarted)
	}
	if st.Winner == "" || st.Seed == "" {
		t.Fatalf("ended without a winner or the seed: %+v", st)
	}
	// The escaper's seat was played out by a bot: the table verifies.
	for _, rd := range st.Rounds {
		for _, tb := range rd.Tables {
			e.verify(tb.TableID)
		}
	}
	types := e.types(svc, r1.Tables[0].TableID)
	if !containsSeq(types, "PlayerEscaped", "HandSettled", "PlayerSeated") {
		t.Fatalf("the escaper's seat was not handed to a bot: %v", types)
	}
	// The tournament stream re-decides (paiju verify's check), and a forged
	// seating does not.
	evs, err := e.store.Load(ctx, service.TournamentStreamID(id), 0)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := audit.VerifyTournament(evs)
	if err != nil || !rep.Ended || rep.Rounds != 2 {
		t.Fatalf("verify the tournament: %+v %v", rep, err)
	}
	for i, ev := range evs {
		if ev.Type == "TournamentTableAssigned" {
			forged := slices.Clone(evs)
			forged[i].Data = []byte(strings.Replace(string(ev.Data), `"players":["`, `"players":["x`, 1))
			if _, err := audit.VerifyTournament(forged); !errors.Is(err, audit.ErrFault) {
				t.Fatalf("a forged seating verified: %v", err)
			}
			break
		}
	}
}

func containsSeq(s []string, seq ...string) bool {
	for i := 0; i+len(seq) <= len(s); i++ {
		ok := true
		for k := range seq {
			if s[i+k] != seq[k] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestTournamentTieForFirstPlaysExtraHands: a one-hand match where the
// player in seat 0 escapes leaves the other two tied for first (the escape
// penalty is shared equally, doudizhu.md): the table plays extra hands,
// with a bot in the escaper's seat, until one seat leads, and the
// tournament records that single first.
func TestTournamentTieForFirstPlaysExtraHands(t *testing.T) {
	ctx := context.Background()
	e := newLiveEnv(t)
	svc := e.service(false)
	tl, err := svc.OpenTournament(ctx, service.Player{ID: "org"}, service.TournamentRequest{
		Game: "doudizhu", Variant: "classic", Format: "elimination", Players: 3, HandsPerTable: 1, Stake: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	id := tl.State.TournamentID
	for i := range 3 {
		if tl, err = svc.JoinTournament(ctx, service.Player{ID: fmt.Sprintf("p%d", i)}, id); err != nil {
			t.Fatal(err)
		}
	}
	tb := tl.State.Current().Tables[0]
	if _, err := svc.Act(ctx, service.Player{ID: tb.Players[0]}, tb.TableID, table.Action{Type: table.ActionEscape}, service.NoCond); err != nil {
		t.Fatal(err)
	}
	l, err := svc.Load(ctx, tb.TableID)
	if err != nil {
		t.Fatal(err)
	}
	if l.State.Totals[1] != l.State.Totals[2] || l.State.Closed || l.State.Hand != 2 || !l.State.Bots[0] {
		t.Fatalf("after the escape: totals %v, closed %v, hand %d, bot in seat 0 %v: want a tie played on in hand 2 by a bot", l.State.Totals, l.State.Closed, l.State.Hand, l.State.Bots[0])
	}
	for _, pid := range tb.Players[1:] {
		if _, err := svc.Act(ctx, service.Player{ID: pid}, tb.TableID, table.Action{Type: table.ActionDelegate}, service.NoCond); err != nil {
			t.Fatal(err)
		}
	}
	for range 1000 {
		if tl, err = svc.LoadTournament(ctx, id); err != nil {
			t.Fatal(err)
		}
		if tl.State.Status == tournament.StatusEnded {
			break
		}
		svc.RunDue(ctx)
	}
	res := tl.State.Rounds[0].Tables[0].Result
	if tl.State.Status != tournament.StatusEnded || res == nil || res.Hands < 2 {
		t.Fatalf("status %s, result %+v: want the match decided by extra hands", tl.State.Status, res)
	}
	if res.Standings[0].Place != 1 || res.Standings[1].Place == 1 || tl.State.Winner != res.Standings[0].PlayerID {
		t.Fatalf("standings %+v, winner %s", res.Standings, tl.State.Winner)
	}
	if res.Standings[0].PlayerID == "" || res.Standings[0].PlayerID != tb.Players[res.Standings[0].Seat] {
		t.Fatalf("the result names %s for seat %d, drawn for %s", res.Standings[0].PlayerID, res.Standings[0].Seat, tb.Players[res.Standings[0].Seat])
	}
	e.verify(tb.TableID)
}
